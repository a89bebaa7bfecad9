# shellcheck shell=bash disable=SC2034  # the options are read by burnin.sh, which follows this part

usage() {
  cat << USAGE
usage: $0 [--detach] [--hours H] [--interval S] [--job 'COMMAND'] [--dcgm] [--restart]
       $0 --status
  --detach       run in the background (setsid + nohup): it survives an SSH drop; output in
                 \$VALIDATION_DIR/burnin.log, its PID in \$VALIDATION_DIR/burnin.pid
  --status       is a burn-in running, how far it got, and the last lines of its log
  --hours H      burn-in length in hours (default $BURNIN_HOURS, the plan's: a shorter run FAILs)
  --interval S   nvidia-smi sampling interval in seconds (default $SAMPLE_INTERVAL_S)
  --job CMD      run your planned training job instead of the GEMM + all-reduce loop
                 (its output goes to \$VALIDATION_DIR/job.log)
  --dcgm         run 'dcgmi diag -r $DCGM_LEVEL' first (DCGM installed and its host engine
                 running, or it FAILs; long-running tests)
  --restart      start over (the old log is kept as gpu.csv.<time>)
Safe to stop (Ctrl-C, or the SSH session closing) at any time: run it again to resume where it
stopped. Over SSH, prefer --detach.
USAGE
}
HOURS="$BURNIN_HOURS"
INTERVAL="$SAMPLE_INTERVAL_S"
JOB=""
DCGM=0
RESTART=0
DETACH=0
STATUS=0
RUN_ARGS=()  # the options a detached run is started with (bash 4.2: empty needs ${a[@]+...})
while [ $# -gt 0 ]; do
  case "$1" in
    --hours) HOURS="${2:?--hours needs a value}"; RUN_ARGS+=("$1" "$2"); shift 2 ;;
    --interval) INTERVAL="${2:?--interval needs a value}"; RUN_ARGS+=("$1" "$2"); shift 2 ;;
    --job) JOB="${2:?--job needs a command}"; RUN_ARGS+=("$1" "$2"); shift 2 ;;
    --dcgm) DCGM=1; RUN_ARGS+=("$1"); shift ;;
    --restart) RESTART=1; RUN_ARGS+=("$1"); shift ;;
    --detach) DETACH=1; shift ;;
    --status) STATUS=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done

# Before anything is written to $VALIDATION_DIR: a running burn-in owns its files.
RUN_DIR="${VALIDATION_DIR:-./validation-out}"
PID_FILE="$RUN_DIR/burnin.pid"
RUN_LOG="$RUN_DIR/burnin.log"
# The PID of a burn-in running now (from burnin.pid), if any.
running_pid() {
  local pid
  pid="$(cat "$PID_FILE" 2> /dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [ "$pid" != "$$" ] || return 1
  kill -0 "$pid" 2> /dev/null || return 1
  case "$(ps -o args= -p "$pid" 2> /dev/null || true)" in *burnin*) ;; *) return 1 ;; esac
  printf '%s' "$pid"
}
if [ "$STATUS" = 1 ]; then
  done_s="$(cat "$RUN_DIR/burnin.state" 2> /dev/null || echo 0)"
  target_s="$(cat "$RUN_DIR/burnin.target" 2> /dev/null || echo '?')"
  if pid="$(running_pid)"; then
    echo "burn-in running as PID $pid: $done_s of $target_s s done; log: $RUN_LOG"
    rc=0
  elif [[ "$done_s" =~ ^[0-9]+$ ]] && [[ "$target_s" =~ ^[0-9]+$ ]] && [ "$done_s" -ge "$target_s" ]; then
    echo "burn-in complete: $done_s of $target_s s; run 90_summary.sh"
    rc=0
  elif [ -f "$RUN_DIR/burnin.state" ]; then
    echo "burn-in not running: stopped after $done_s of $target_s s; run $0 --detach to resume"
    rc=1
  else
    echo "no burn-in started in $RUN_DIR"
    rc=1
  fi
  if [ -s "$RUN_LOG" ]; then
    echo "last lines of $RUN_LOG:"
    tail -n 5 "$RUN_LOG"
  fi
  exit "$rc"
fi
if pid="$(running_pid)"; then
  echo "a burn-in is already running as PID $pid (log: $RUN_LOG): $0 --status follows it" >&2
  exit 2
fi
if [ "$DETACH" = 1 ]; then
  mkdir -p "$RUN_DIR"
  rm -f "$PID_FILE"
  printf '== %s: detached burn-in started %s\n' "$0" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$RUN_LOG"
  if command -v setsid > /dev/null 2>&1; then
    VALIDATION_DIR="$RUN_DIR" setsid nohup bash "$0" ${RUN_ARGS[@]+"${RUN_ARGS[@]}"} >> "$RUN_LOG" 2>&1 < /dev/null &
  else
    VALIDATION_DIR="$RUN_DIR" nohup bash "$0" ${RUN_ARGS[@]+"${RUN_ARGS[@]}"} >> "$RUN_LOG" 2>&1 < /dev/null &
  fi
  child=$!
  # Running, not exited (an exited child stays a zombie until it is waited for).
  alive() {
    kill -0 "$1" 2> /dev/null || return 1
    case "$(ps -o stat= -p "$1" 2> /dev/null)" in *Z*) return 1 ;; esac
  }
  # The run writes its PID once its options are checked; one that ends at once says why.
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    if [ -s "$PID_FILE" ] || ! alive "$child"; then break; fi
    sleep 0.5
  done
  if ! alive "$child"; then
    rc=0
    wait "$child" || rc=$?
    echo "the detached burn-in ended at once (exit $rc); the end of $RUN_LOG:"
    tail -n 8 "$RUN_LOG"
    exit "$rc"
  fi
  echo "burn-in running in the background as PID $(cat "$PID_FILE" 2> /dev/null || echo "$child"); it survives an SSH drop"
  echo "  follow it:  tail -f $RUN_LOG    or  $0 --status"
  echo "  stop it:    kill \$(cat $PID_FILE)   (run $0 --detach again to resume)"
  echo "  when done:  ./90_summary.sh"
  exit 0
fi
