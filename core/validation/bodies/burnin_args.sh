# shellcheck shell=bash disable=SC2034  # the options are read by burnin.sh, which follows this part

usage() {
  cat << USAGE
usage: $0 [--hours H] [--interval S] [--job 'COMMAND'] [--dcgm] [--restart]
  --hours H      burn-in length in hours (default $BURNIN_HOURS; the source asks for >= 10)
  --interval S   nvidia-smi sampling interval in seconds (default $SAMPLE_INTERVAL_S)
  --job CMD      run your planned training job instead of the GEMM + all-reduce loop
                 (its output goes to \$VALIDATION_DIR/job.log)
  --dcgm         run 'dcgmi diag -r 3' first (DCGM installed; long-running tests)
  --restart      start over (the old log is kept as gpu.csv.<time>)
Safe to stop (Ctrl-C) at any time: run it again to resume where it stopped.
USAGE
}
HOURS="$BURNIN_HOURS"
INTERVAL="$SAMPLE_INTERVAL_S"
JOB=""
DCGM=0
RESTART=0
while [ $# -gt 0 ]; do
  case "$1" in
    --hours) HOURS="${2:?--hours needs a value}"; shift 2 ;;
    --interval) INTERVAL="${2:?--interval needs a value}"; shift 2 ;;
    --job) JOB="${2:?--job needs a command}"; shift 2 ;;
    --dcgm) DCGM=1; shift ;;
    --restart) RESTART=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done
