# shellcheck shell=bash

IMAGE="$REGISTRY/nvidia/pytorch:${NGC_TAG}-py3"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CSV="$VALIDATION_DIR/gpu.csv"
STATE="$VALIDATION_DIR/burnin.state"
LINK_BEFORE="$VALIDATION_DIR/link_counters.burnin"
WALL_CSV="$VALIDATION_DIR/wall.csv"
LOAD_NAME="gpu-advisor-burnin-$PLAN_ID"
LOAD_LOG="$VALIDATION_DIR/burn.log"
# The cross-server burn-in window (a plan of several servers): every server runs
# MASTER_ADDR=<server 0> NODE_RANK=<i> ./40_burnin.sh at once, and the load's all-reduce then
# crosses the network for the whole burn-in, each all-reduce timed (burn.py's burn_allreduce).
DIST=(--nproc_per_node="$GPUS_PER_SERVER")
NET_ARGS=()
CROSS_SERVER=0
if [ "$SERVERS" -gt 1 ] && [ -n "${MASTER_ADDR:-}" ]; then
  CROSS_SERVER=1
  DIST+=(--nnodes="$SERVERS" --node_rank="${NODE_RANK:-0}" --master_addr="$MASTER_ADDR" --master_port="${MASTER_PORT:-29500}")
  NET_ARGS=(--network host)
  if [ -e /dev/infiniband ]; then NET_ARGS+=(--device /dev/infiniband --cap-add IPC_LOCK); fi
  if [ -z "${NCCL_IB_GID_INDEX:-}" ] && [ -s "$VALIDATION_DIR/nccl_roce.env" ]; then
    NCCL_IB_GID_INDEX="$(sed -n 's/^NCCL_IB_GID_INDEX=\([0-9][0-9]*\)$/\1/p' "$VALIDATION_DIR/nccl_roce.env")"
  fi
  if [ -n "${NCCL_IB_GID_INDEX:-}" ]; then NET_ARGS+=(-e "NCCL_IB_GID_INDEX=$NCCL_IB_GID_INDEX"); fi
fi
# The PCIe link under load: a GPU idles at a lower generation to save power (normal), so the
# generation and width are judged only in samples where the GPU is busy; .max is what this GPU
# and slot can do, .current what the link trained at.
FIELDS=timestamp,index,temperature.gpu,temperature.memory,power.draw,power.limit,clocks.sm,clocks.mem,clocks_throttle_reasons.active,utilization.gpu,memory.used,ecc.errors.uncorrected.volatile.total,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max
HEADER='timestamp, index, temperature.gpu, temperature.memory, power.draw [W], power.limit [W], clocks.sm [MHz], clocks.mem [MHz], clocks_throttle_reasons.active, utilization.gpu [%], memory.used [MiB], ecc.errors.uncorrected.volatile.total, pcie.link.gen.current, pcie.link.gen.max, pcie.link.width.current, pcie.link.width.max'

num_gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !((a + 0) > (b + 0)) }'; }
pct() { awk -v f="$1" 'BEGIN { printf "%.0f%%", f * 100 }'; }
# The kernel log is read from one source for the whole run (dmesg, or journalctl -k where
# dmesg is restricted), so the Xid counts before and after compare.
XID_SOURCE=""
xid_total() { kernel_log "$XID_SOURCE" | grep -ci 'NVRM: Xid' || true; }
# The codes of the Xid lines after the first $1, comma-separated.
xid_codes_after() {
  local lines
  lines="$(kernel_log "$XID_SOURCE" | grep -i 'NVRM: Xid' || true)"
  printf '%s\n' "$lines" | tail -n +"$(($1 + 1))" \
    | sed -n 's/.*Xid ([^)]*): *\([0-9][0-9]*\).*/\1/p' | sort -un | paste -sd, -
}

# run_dcgm: dcgmi diag -r $DCGM_LEVEL -j, judged by each test's status in its JSON (kept in
# dcgm_diag.json; 90_summary.sh puts it into the result file, where check reads every test). An
# acceptance run that asked for DCGM and could not get it FAILs: a host engine that is not running
# ("Unable to connect to host engine") or a dcgmi that is not installed is not a pass.
run_dcgm() {
  local want="dcgmi diag -r $DCGM_LEVEL passes" out rc=0 failed warned rows json
  local fix="start DCGM's host engine (root: systemctl start nvidia-dcgm, or nv-hostengine), or install datacenter-gpu-manager; then run 40_burnin.sh --dcgm again"
  measure dcgm_level "$DCGM_LEVEL"
  if ! have dcgmi; then
    measure_str dcgm_diag missing
    fail health dcgm_diag "$want" "dcgmi not installed" dcgm_missing "$fix"
    return 0
  fi
  out="$(dcgmi diag -r "$DCGM_LEVEL" -j 2>&1)" || rc=$?
  printf '%s\n' "$out" > "$VALIDATION_DIR/dcgm_diag.txt"
  if grep -qiE 'unable to establish a connection|unable to connect to host engine|host engine connection invalid' <<<"$out"; then
    measure_str dcgm_diag unreachable
    fail health dcgm_diag "$want" "host engine unreachable (exit $rc)" dcgm_unreachable \
      "dcgmi cannot reach DCGM's host engine, so no diagnostic ran: $fix"
    return 0
  fi
  # The JSON from its first line that opens an object (a notice may come before it), kept for
  # 90_summary.sh only when it is one whole object (python3's json where the host has it): a cut
  # document would make the whole result file unreadable.
  json="$(sed -n '/^[[:space:]]*{/,$p' <<<"$out")"
  rm -f "$VALIDATION_DIR/dcgm_diag.json"
  if [[ "$json" =~ ^[[:space:]]*\{ ]] && [[ "$json" =~ \}[[:space:]]*$ ]] &&
    { ! have python3 || python3 -c 'import json, sys; json.load(sys.stdin)' <<<"$json" 2> /dev/null; }; then
    printf '%s\n' "$json" > "$VALIDATION_DIR/dcgm_diag.json"
  elif [ -n "$json" ]; then
    # A cut document may have lost the failing tests: it is no pass.
    measure_str dcgm_diag error
    fail health dcgm_diag "$want" "its JSON is cut short or unreadable (exit $rc)" dcgm_diag_error \
      "dcgmi diag's output ($VALIDATION_DIR/dcgm_diag.txt) is not one whole JSON document: run 40_burnin.sh --dcgm again"
    return 0
  fi
  # One row per result, "STATUS|test|GPUs": dcgmi prints one member per line, a test's "name"
  # before its "results" ([{"gpu_ids": "1", "status": "Fail", "warnings": [...]}]).
  # shellcheck disable=SC2016  # awk code
  rows="$(awk '
      function value(s) { sub(/^[^:]*:[ \t]*"?/, "", s); sub(/"?[ \t]*,?[ \t\r]*$/, "", s); return s }
      /"name"[ \t]*:/ { name = value($0) }
      /"gpu_ids?"[ \t]*:/ { gpus = value($0) }
      /"status"[ \t]*:/ { st = toupper(value($0)); print substr(st, 1, 4) "|" name "|" gpus; gpus = "" }
    ' <<<"$json")"
  failed="$(printf '%s\n' "$rows" | awk -F'|' '$1 == "FAIL" { print $2 ($3 != "" ? " GPU: " $3 : "") }' | paste -sd';' -)"
  warned="$(printf '%s\n' "$rows" | awk -F'|' '$1 == "WARN" { print $2 ($3 != "" ? " GPU: " $3 : "") }' | paste -sd';' -)"
  if [ -n "$failed" ]; then
    measure_str dcgm_diag fail
    measure_str dcgm_failed_tests "$failed"
    fail health dcgm_diag "$want" "failed: $failed" dcgm_diag_failed \
      "DCGM found a fault ($VALIDATION_DIR/dcgm_diag.json has its messages): reset the GPU named, rerun; replace it if it fails again"
  elif ! grep -q '^PASS' <<<"$rows"; then
    measure_str dcgm_diag error
    fail health dcgm_diag "$want" "no results (exit $rc): $(printf '%s\n' "$out" | grep -m 1 . || true)" dcgm_diag_error \
      "dcgmi diag ran no test: read $VALIDATION_DIR/dcgm_diag.txt; $fix"
  elif [ -n "$warned" ]; then
    measure_str dcgm_diag warn
    measure_str dcgm_failed_tests "$warned"
    warn health dcgm_diag "$want" "warnings: $warned" dcgm_diag_warn "read $VALIDATION_DIR/dcgm_diag.json"
  else
    measure_str dcgm_diag pass
    pass health dcgm_diag "$want" pass ok
  fi
}

if ! is_number "$HOURS" || ! is_number "$INTERVAL" || [ "$INTERVAL" -lt 1 ]; then
  echo "--hours must be a number and --interval a whole number of seconds >= 1" >&2
  exit 2
fi
if ! have nvidia-smi; then
  fail software nvidia-smi "nvidia-smi on PATH" "not found" driver_missing "install the NVIDIA driver (root)"
  finish
fi
# Newer drivers name the throttle field clocks_event_reasons; use it when the old name is gone.
if ! nvidia-smi --query-gpu="$FIELDS" --format=csv,noheader,nounits > /dev/null 2>&1; then
  FIELDS="${FIELDS/clocks_throttle_reasons/clocks_event_reasons}"
  HEADER="${HEADER/clocks_throttle_reasons/clocks_event_reasons}"
fi
# This process owns the burn-in's files until it exits: burnin.pid says which process that is
# (--status and a second start read it), burnin.target how long the run is meant to be.
printf '%s\n' "$$" > "$PID_FILE"
# shellcheck disable=SC2317  # called by the EXIT trap
release_pid_file() {
  if [ "$(cat "$PID_FILE" 2> /dev/null || true)" = "$$" ]; then rm -f "$PID_FILE"; fi
}
trap release_pid_file EXIT
if [ "$RESTART" = 1 ]; then
  stamp="$(date +%Y%m%d%H%M%S)"
  for f in "$CSV" "$WALL_CSV"; do
    if [ -f "$f" ]; then mv "$f" "$f.$stamp"; fi
  done
  rm -f "$STATE" "$LINK_BEFORE"
fi
target="$(awk -v h="$HOURS" 'BEGIN { printf "%d", h * 3600 + 0.5 }')"
done_s=0
if [ -f "$STATE" ]; then done_s="$(cat "$STATE")"; fi
is_number "$done_s" || done_s=0
printf '%s\n' "$target" > "$VALIDATION_DIR/burnin.target"
XID_READABLE=0
if XID_SOURCE="$(kernel_log_source)"; then XID_READABLE=1; fi

LOGGER_PID=""
WALL_PID=""
LOAD_PID=""
load_rc=""
load_running() {
  if [ -n "$JOB" ]; then
    kill -0 "$LOAD_PID" 2> /dev/null
  else
    [ "$(docker inspect -f '{{.State.Running}}' "$LOAD_NAME" 2> /dev/null || true)" = true ]
  fi
}
load_exit_code() {
  local rc=0
  if [ -n "$JOB" ]; then
    wait "$LOAD_PID" || rc=$?
    printf '%s' "$rc"
  else
    docker inspect -f '{{.State.ExitCode}}' "$LOAD_NAME" 2> /dev/null || printf '%s' unknown
  fi
}
stop_all() {
  if [ -n "$LOGGER_PID" ]; then kill "$LOGGER_PID" 2> /dev/null || true; fi
  if [ -n "$WALL_PID" ]; then kill "$WALL_PID" 2> /dev/null || true; fi
  if [ -n "$LOAD_PID" ]; then kill "$LOAD_PID" 2> /dev/null || true; fi
  if [ -z "$JOB" ] && have docker; then
    docker logs "$LOAD_NAME" >> "$LOAD_LOG" 2>&1 || true
    docker rm -f "$LOAD_NAME" > /dev/null 2>&1 || true
  fi
  wait 2> /dev/null || true
}
# shellcheck disable=SC2317  # called by the INT/TERM trap below
on_stop() {
  stop_all
  printf '%s\n' "$done_s" > "$STATE"
  echo "stopped after $done_s s of $target s; run $0 again to resume"
  exit 130
}

if [ "$done_s" -lt "$target" ]; then
  remaining=$((target - done_s))
  printf '%s\n' "$done_s" > "$STATE"
  echo "burn-in: $done_s s done, $remaining s to go; nvidia-smi every $INTERVAL s into $CSV"
  if [ ! -s "$CSV" ]; then printf '%s\n' "$HEADER" > "$CSV"; fi
  xid_before="$(xid_total)"
  # The network ports' error counters when the burn-in first started (kept across resumes).
  if [ "$NETWORK" = infiniband ] || [ "$NETWORK" = roce ]; then
    if [ ! -s "$LINK_BEFORE" ]; then link_counters > "$LINK_BEFORE"; fi
  fi
  if [ "$DCGM" = 1 ]; then
    run_dcgm
  else
    skip health dcgm_diag "dcgmi diag -r $DCGM_LEVEL passes" "not run" dcgm_not_requested \
      "--dcgm runs NVIDIA DCGM's diagnostics before the burn-in (recommended for acceptance)"
  fi
  # HUP: the SSH session closed under a foreground run. Stop cleanly and keep the progress
  # (a --detach run ignores HUP and carries on).
  trap on_stop INT TERM HUP
  nvidia-smi --query-gpu="$FIELDS" --format=csv,noheader,nounits -l "$INTERVAL" >> "$CSV" &
  LOGGER_PID=$!
  if have ipmitool && [ "$(id -u)" -eq 0 ]; then
    (
      while :; do
        w="$(ipmitool dcmi power reading 2> /dev/null | awk '/Instantaneous power reading/ { print $(NF - 1) }')"
        printf '%s, %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "${w:-}" >> "$WALL_CSV"
        sleep 60
      done
    ) &
    WALL_PID=$!
  else
    skip power wall_power "server wall power every 60 s" "not logged" wall_power_needs_root \
      "ipmitool dcmi power reading needs root and a BMC; or read the PDU and pass --wall-power-w to 90_summary.sh"
  fi
  if [ -n "$JOB" ]; then
    LOAD_LOG="$VALIDATION_DIR/job.log"
    echo "your job's output: $LOAD_LOG"
    bash -c "$JOB" >> "$LOAD_LOG" 2>&1 &
    LOAD_PID=$!
  else
    docker rm -f "$LOAD_NAME" > /dev/null 2>&1 || true
    # PCI bus order: CUDA's device i (the load's rank i) is nvidia-smi's GPU i. Across servers
    # (CROSS_SERVER=1) one torchrun spans them all and the load's all-reduce crosses the network.
    if ! docker run -d --name "$LOAD_NAME" --gpus all --ipc=host ${NET_ARGS[@]+"${NET_ARGS[@]}"} --ulimit memlock=-1 --ulimit stack=67108864 \
      -e CUDA_DEVICE_ORDER=PCI_BUS_ID -v "$SCRIPT_DIR:/w:ro" "$IMAGE" torchrun "${DIST[@]}" /w/burn.py --seconds "$remaining" > /dev/null; then
      stop_all
      fail compute burnin_load "the GEMM + all-reduce load starts" "docker run failed" load_failed "run 20_container.sh first: it says what is missing"
      finish
    fi
  fi
  start="$(date +%s)"
  base="$done_s"
  while [ "$done_s" -lt "$target" ]; do
    step=$((target - done_s))
    if [ "$step" -gt "$INTERVAL" ]; then step="$INTERVAL"; fi
    sleep "$step"
    done_s=$((base + $(date +%s) - start))
    printf '%s\n' "$done_s" > "$STATE"
    if ! load_running; then
      load_rc="$(load_exit_code)"
      break
    fi
  done
  stop_all
  trap - INT TERM HUP
  if [ "$XID_READABLE" = 1 ]; then
    xid_new=$(($(xid_total) - xid_before))
    xid_new_codes="$(xid_codes_after "$xid_before")"
    measure xid_new "$xid_new"
    measure_str xid_new_codes "$xid_new_codes"
    measure_str xid_log_source "$XID_SOURCE"
    xid_report xid_during_burnin "$xid_new" "$xid_new_codes"
  else
    skip health xid_during_burnin 0 "kernel log unreadable" xid_needs_root "$(kernel_log_advice)"
  fi
else
  echo "burn-in already complete ($done_s s); analysing $CSV (--restart to run again)"
fi

if [ "$NETWORK" = infiniband ] || [ "$NETWORK" = roce ]; then
  link_flap_report "$LINK_BEFORE" "since the burn-in started" link_flaps_burnin
fi
measure burnin_seconds "$done_s"
measure burnin_target_seconds "$target"
hours_done="$(awk -v s="$done_s" 'BEGIN { printf "%.2f", s / 3600 }')"
# The plan's length, not --hours, is what the burn-in must reach (2% tolerance): a run started
# with a shorter --hours completes, and FAILs here.
plan_s="$(awk -v h="$BURNIN_HOURS" 'BEGIN { printf "%d", h * 3600 + 0.5 }')"
if [ $((done_s * 100)) -ge $((plan_s * 98)) ]; then
  pass power burnin_duration "$BURNIN_HOURS h (the plan)" "$hours_done h ($done_s s)" ok
elif [ "$done_s" -ge "$target" ]; then
  fail power burnin_duration "$BURNIN_HOURS h ($plan_s s, the plan)" "$hours_done h ($done_s s, --hours $HOURS)" burnin_short \
    "the burn-in ran $done_s s, shorter than the plan's $BURNIN_HOURS h: run $0 --hours $BURNIN_HOURS (it continues from $done_s s)"
else
  fail power burnin_duration "$BURNIN_HOURS h ($plan_s s, the plan)" "$hours_done h ($done_s s)" burnin_incomplete \
    "the burn-in stopped after $done_s s of the plan's $plan_s s: run $0 again to resume"
fi
if [ -s "$LOAD_LOG" ]; then
  timeouts="$(grep -ciE 'collective operation timeout|Watchdog caught|NCCL.*timed? ?out' "$LOAD_LOG" || true)"
  measure nccl_timeouts "$timeouts"
  if [ "$timeouts" -gt 0 ]; then
    fail interconnect nccl_timeouts 0 "$timeouts" nccl_timeout \
      "NCCL collectives timed out during the burn-in ($LOAD_LOG): a GPU, NVLink or NIC stalls; run 10_topology.sh and look for Xid"
  fi
fi
# burn.py's result checks (silent data corruption): "PROBE burn_check RANK CHECKS GEMM_BAD
# MEMORY_BAD ALLREDUCE_BAD HELD_BYTES" lines, counts since the rank's last line, summed per GPU.
if [ -z "$JOB" ]; then
  sdc_bad=""
  sdc_checks=0
  sdc_gpus=0
  held_min=""
  while read -r r checks bad held; do
    [ -n "$r" ] || continue
    sdc_gpus=$((sdc_gpus + 1))
    sdc_checks=$((sdc_checks + checks))
    measure "gpu.$r.burn_result_mismatches" "$bad"
    measure "gpu.$r.burn_memory_held_bytes" "$held"
    if [ "$bad" -gt 0 ]; then sdc_bad="${sdc_bad:+$sdc_bad, }GPU $r ($bad)"; fi
    if [ -z "$held_min" ] || [ "$held" -lt "$held_min" ]; then held_min="$held"; fi
  done <<< "$(awk '$1 == "PROBE" && $2 == "burn_check" && NF >= 8 {
      c[$3] += $4; bad[$3] += $5 + $6 + $7; held[$3] = $8 }
    END { for (r in c) print r, c[r], bad[r], held[r] }' "$LOAD_LOG" 2> /dev/null | sort -n)"
  if [ -n "$sdc_bad" ]; then
    fail health burn_results "every GEMM, memory block and all-reduce equal to its reference" "mismatches on $sdc_bad" sdc_detected \
      "silent data corruption: these GPUs computed or kept wrong values without an error; rerun to confirm, then replace them"
  elif [ "$sdc_gpus" -ge "$EXPECTED_GPUS" ]; then
    pass health burn_results "every result equal to its reference" "$sdc_checks checks on $sdc_gpus GPUs, $((held_min >> 30)) GiB held on each" ok
  else
    warn health burn_results "result checks from $EXPECTED_GPUS GPUs" "from $sdc_gpus" burn_unchecked \
      "burn.py reported no result checks for some GPUs ($LOAD_LOG): the load did not run on them"
  fi
fi
# burn.py's per-GPU GEMM rate ("PROBE burn_rate RANK GEMMS SECONDS TFLOPS", totals: the last line
# of each rank): a GPU below STRAGGLER_FRACTION of the server's median GPU is a straggler, and
# synchronous training runs at its pace.
if [ -z "$JOB" ]; then
  rates="$(awk '$1 == "PROBE" && $2 == "burn_rate" && NF >= 6 && $6 > 0 { t[$3] = $6 }
    END { for (r in t) print r, t[r] }' "$LOAD_LOG" 2> /dev/null | sort -n)"
  if [ -n "$rates" ]; then
    rate_median="$(printf '%s\n' "$rates" | awk '{ print $2 }' | sort -n | awk '{ v[++n] = $1 } END { print v[int((n + 1) / 2)] }')"
    slow=""
    while read -r r t; do
      measure "gpu.$r.burn_tflops" "$t"
      if awk -v t="$t" -v m="$rate_median" -v f="$STRAGGLER_FRACTION" 'BEGIN { exit !(t < f * m) }'; then
        slow="${slow:+$slow, }GPU $r $t TFLOPS ($(pct "$(awk -v t="$t" -v m="$rate_median" 'BEGIN { print t / m }')"))"
      fi
    done <<< "$rates"
    want=">= $(pct "$STRAGGLER_FRACTION") of the median GPU's $rate_median TFLOPS"
    if [ -n "$slow" ]; then
      fail compute burn_throughput "$want" "$slow" burn_straggler \
        "a GPU computes slower than its neighbours under the same load and every synchronous step waits for it: look at its clocks, temperature and power in $CSV, reseat or replace it"
    else
      pass compute burn_throughput "$want" "$(printf '%s\n' "$rates" | awk '{ print $2 }' | paste -sd' ' -) TFLOPS" ok
    fi
  fi
fi
# The cross-server window: burn.py's "PROBE burn_allreduce RANK NODES COUNT MIN MEDIAN" lines of a
# run over several servers, one per rank and report (10 minutes). Each window's median bus
# bandwidth against the plan's cross-server figure (30_nccl.sh's thresholds: 80% pass, 60% warn);
# the slowest window is the verdict, so a link that sagged for ten minutes shows.
if [ -z "$JOB" ] && [ "$SERVERS" -gt 1 ]; then
  want_bw=">= 80% of $INTER_NODE_BUSBW_GBPS GB/s in every window"
  # shellcheck disable=SC2016  # awk code
  windows="$(awk '$1 == "PROBE" && $2 == "burn_allreduce" && NF >= 7 && $4 > 1 {
      if (++c[$3] > n) n = c[$3]; if (min == "" || $7 + 0 < min) min = $7 + 0 }
    END { if (n) print n, min }' "$LOAD_LOG" 2> /dev/null || true)"
  if [ "$CROSS_SERVER" = 0 ]; then
    skip interconnect burnin_inter_node "$want_bw" "one server only" needs_all_servers \
      "for the cross-server window run on all $SERVERS servers at once: MASTER_ADDR=<server 0> NODE_RANK=<0..$((SERVERS - 1))> $0"
  elif [ -z "$windows" ]; then
    fail interconnect burnin_inter_node "$want_bw" "no cross-server all-reduce in $LOAD_LOG" burnin_inter_node_missing \
      "the load did not run across the servers: start 40_burnin.sh on every server at once with the same MASTER_ADDR, then read $LOAD_LOG"
  else
    read -r n_windows bw_min <<< "$windows"
    measure burnin_inter_node_windows "$n_windows"
    measure burnin_inter_node_busbw_gbps_min "$bw_min"
    got="$bw_min GB/s in the slowest of $n_windows windows"
    if num_gt "$(awk -v e="$INTER_NODE_BUSBW_GBPS" 'BEGIN { print e * 0.8 }')" "$bw_min"; then
      if num_gt "$(awk -v e="$INTER_NODE_BUSBW_GBPS" 'BEGIN { print e * 0.6 }')" "$bw_min"; then
        fail interconnect burnin_inter_node "$want_bw" "$got" burnin_busbw_low \
          "the cross-server all-reduce sagged under load: look for link flaps and errors (10_topology.sh), PFC pauses on RoCE, or a congested switch port"
      else
        warn interconnect burnin_inter_node "$want_bw" "$got" burnin_busbw_low \
          "the cross-server all-reduce slowed under load: compare with 30_nccl.sh's figure and look at the switch ports"
      fi
    else
      pass interconnect burnin_inter_node "$want_bw" "$got" ok
    fi
  fi
fi
if [ -n "$load_rc" ] && [ "$load_rc" != 0 ]; then
  fail compute burnin_load "runs to the end" "exited with $load_rc after $hours_done h" load_exited \
    "the load stopped early: an NCCL timeout, Xid or reset here is a hardware problem (docker logs $LOAD_NAME, or your job's log)"
fi

if [ ! -s "$CSV" ] || [ "$(wc -l < "$CSV")" -lt 2 ]; then
  fail power gpu_log "nvidia-smi samples in $CSV" none gpu_log_empty "nothing was logged"
  finish
fi

# Column lookup by header name, shared by the two passes below.
# shellcheck disable=SC2016  # awk code, expanded by awk
AWK_COLS='
  function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
  function f(name) { return (name in col) ? trim($col[name]) : "" }
  $1 == "timestamp" { for (k = 1; k <= NF; k++) { h = trim($k); sub(/ *\[.*\]$/, "", h); col[h] = k } next }
'
# Per GPU: samples, p50 and p99 of power.draw (nearest rank).
PCT="$(awk -F',' "$AWK_COLS"'
  { g = f("index"); p = f("power.draw"); if (g ~ /^[0-9]+$/ && p ~ /^[0-9.]+$/) print g, p }' "$CSV" |
  sort -k1,1n -k2,2n | awk '
  function rank(q, n,   k) { k = int((q * n + 99) / 100); return k < 1 ? 1 : k }
  function flush() { if (started) print cur, n, v[rank(50, n)], v[rank(99, n)] }
  !started || $1 != cur { flush(); cur = $1; n = 0; started = 1 }
  { v[++n] = $2 }
  END { flush() }')"
declare -A P50 P99
while read -r g n p50 p99; do
  [ -n "$g" ] || continue
  P50[$g]="$p50"
  P99[$g]="$p99"
done <<< "$PCT"

# Per GPU: samples, max power.limit, max temperature, shares of samples with thermal slowdown
# (0x8, 0x20, 0x40), hardware power brake (0x80) and software power cap (0x4), max uncorrected
# ECC, lowest PCIe generation and width while busy (utilization >= 50%), widest width.max logged.
STATS="$(awk -F',' "$AWK_COLS"'
  function hex(s,   v, i, c) { s = tolower(s); sub(/^0x/, "", s); v = 0
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)); if (c == 0) return 0; v = v * 16 + c - 1 }
    return v }
  function bit(v, b) { return int(v / b) % 2 }
  {
    g = f("index"); if (g !~ /^[0-9]+$/) next
    n[g]++
    t = f("temperature.gpu"); if (t ~ /^[0-9.]+$/ && (!(g in tmax) || t + 0 > tmax[g])) tmax[g] = t + 0
    l = f("power.limit"); if (l ~ /^[0-9.]+$/ && l + 0 > lim[g]) lim[g] = l + 0
    r = f("clocks_throttle_reasons.active"); if (r == "") r = f("clocks_event_reasons.active")
    m = hex(r)
    if (bit(m, 8) || bit(m, 32) || bit(m, 64)) th[g]++
    if (bit(m, 128)) br[g]++
    if (bit(m, 4)) cap[g]++
    e = f("ecc.errors.uncorrected.volatile.total"); if (e ~ /^[0-9]+$/ && e + 0 > ecc[g]) ecc[g] = e + 0
    u = f("utilization.gpu"); p = f("pcie.link.gen.current"); w = f("pcie.link.width.current")
    if (u + 0 >= 50 && p ~ /^[0-9]+$/ && (!(g in pmin) || p + 0 < pmin[g])) pmin[g] = p + 0
    if (u + 0 >= 50 && w ~ /^[0-9]+$/ && (!(g in wmin) || w + 0 < wmin[g])) wmin[g] = w + 0
    x = f("pcie.link.width.max"); if (x ~ /^[0-9]+$/ && x + 0 > wmax[g]) wmax[g] = x + 0
  }
  END { for (g in n) printf "%s %d %s %s %.4f %.4f %.4f %d %s %s %s\n", g, n[g], lim[g] + 0, tmax[g] + 0,
        th[g] / n[g], br[g] / n[g], cap[g] / n[g], ecc[g] + 0, (g in pmin ? pmin[g] : "-"),
        (g in wmin ? wmin[g] : "-"), (g in wmax ? wmax[g] : "-") }' "$CSV" | sort -n)"

# A GPU at its power cap far more often than the median GPU is the outlier worth a look (under a
# full load every GPU may sit at its cap).
cap_median="$(printf '%s\n' "$STATS" | awk 'NF { print $7 }' | sort -n | awk '{ v[++n] = $1 } END { print n ? v[int((n + 1) / 2)] : 0 }')"
cap_limit="$(awk -v m="$cap_median" 'BEGIN { print m + 0.10 }')"
gpus_logged=0
bad=0
p50_seen=""
while read -r g n lim tmax fth fbr fcap ecc pmin wmin wmax; do
  [ -n "$g" ] || continue
  gpus_logged=$((gpus_logged + 1))
  p50="${P50[$g]:-0}"
  p99="${P99[$g]:-0}"
  p50_seen="$(add_word "$p50_seen" "$p50")"
  measure "gpu.$g.samples" "$n"
  measure "gpu.$g.power_draw_w_p50" "$p50"
  measure "gpu.$g.power_draw_w_p99" "$p99"
  measure "gpu.$g.power_limit_w_logged" "$lim"
  measure "gpu.$g.temperature_c_max" "$tmax"
  measure "gpu.$g.thermal_throttle_fraction" "$fth"
  measure "gpu.$g.power_brake_fraction" "$fbr"
  measure "gpu.$g.power_cap_fraction" "$fcap"
  measure "gpu.$g.ecc_uncorrected_max" "$ecc"
  if [ "$pmin" != "-" ]; then measure "gpu.$g.pcie_gen_min_busy" "$pmin"; fi
  if [ "$wmin" != "-" ]; then measure "gpu.$g.pcie_width_min_busy" "$wmin"; fi
  if [ "$wmax" != "-" ]; then measure "gpu.$g.pcie_width_max_logged" "$wmax"; fi
  if num_gt "$fth" 0.01; then
    bad=$((bad + 1))
    fail power "GPU $g thermal slowdown" "<= 1% of samples" "$(pct "$fth") of $n" thermal_throttle \
      "GPU $g thermal-throttled $(pct "$fth") of samples (max $tmax C): check fans, airflow and inlet temperature"
  fi
  if num_gt "$fbr" 0.01; then
    bad=$((bad + 1))
    fail power "GPU $g power brake" "<= 1% of samples" "$(pct "$fbr") of $n" power_brake \
      "GPU $g hit the hardware power brake in $(pct "$fbr") of samples: check PSUs and power cabling"
  fi
  if num_gt "$fcap" "$cap_limit"; then
    bad=$((bad + 1))
    warn power "GPU $g power cap" "<= $(pct "$cap_limit") of samples (median GPU + 10 points)" "$(pct "$fcap") of $n" power_capped \
      "GPU $g power-capped $(pct "$fcap") of samples at $lim W, the median GPU $(pct "$cap_median"): check its power limit, cooling and slot"
  fi
  if [ "$ecc" -gt 0 ]; then
    bad=$((bad + 1))
    fail health "GPU $g uncorrectable ECC" 0 "$ecc" ecc_uncorrected "reset GPU $g; replace it if the errors recur"
  fi
  if [ "$wmin" != "-" ] && [ "$wmin" -lt "$EXPECTED_PCIE_WIDTH" ]; then
    bad=$((bad + 1))
    if [ "$wmax" != "-" ] && [ "$wmax" -gt "$wmin" ]; then
      why="GPU $g trained at x$wmin in an x$wmax link under load: reseat the card and its riser or cable, then check again"
    else
      why="GPU $g runs at x$wmin under load, the plan expects x$EXPECTED_PCIE_WIDTH: the slot or riser is narrower (check the slot and the BIOS bifurcation setting)"
    fi
    fail interconnect "GPU $g PCIe width under load" "x$EXPECTED_PCIE_WIDTH" "x$wmin" pcie_width_downtrained "$why"
  fi
  if [ "$pmin" != "-" ] && [ "$pmin" -lt "$EXPECTED_PCIE_GEN" ]; then
    bad=$((bad + 1))
    warn interconnect "GPU $g PCIe under load" "Gen$EXPECTED_PCIE_GEN" "Gen$pmin" pcie_downtrained "GPU $g dropped to Gen$pmin while busy: check the riser and slot"
  fi
  if num_gt "$p99" "$(awk -v l="$lim" 'BEGIN { print l * 1.02 }')" && num_gt "$lim" 0; then
    bad=$((bad + 1))
    warn power "GPU $g power p99" "<= $lim W" "$p99 W" power_over_limit "GPU $g draws above its limit"
  fi
  if [ -n "$JOB" ] && ! awk -v p="$p50" -v e="$EXPECTED_POWER_P50_W" 'BEGIN { exit !(p >= 0.75 * e && p <= 1.25 * e) }'; then
    bad=$((bad + 1))
    warn power "GPU $g power p50" "$EXPECTED_POWER_P50_W W (TDP x load factor) +-25%" "$p50 W" power_p50_off \
      "the planned job draws differently from the power plan: rerun the advisor's power section with $p50 W"
  fi
done <<< "$STATS"
measure gpus_logged "$gpus_logged"
if [ "$gpus_logged" -lt "$EXPECTED_GPUS" ]; then
  fail power gpus_logged "$EXPECTED_GPUS GPUs in the log" "$gpus_logged" gpu_missing "a GPU disappeared during the burn-in: look for Xid 79 (root: dmesg -T)"
elif [ "$bad" -eq 0 ]; then
  pass power burnin_gpus "no throttling, ECC or PCIe problems on $EXPECTED_GPUS GPUs; power p50 (W)" "$p50_seen" ok
fi

if [ -s "$WALL_CSV" ]; then
  read -r wmax wp50 <<< "$(awk -F',' '$2 + 0 > 0 { print $2 + 0 }' "$WALL_CSV" | sort -n |
    awk '{ v[++n] = $1 } END { if (n) print v[n], v[int((50 * n + 99) / 100)] }')" || true
  if [ -n "${wmax:-}" ]; then
    measure wall_power_w_max "$wmax"
    measure wall_power_w_p50 "$wp50"
    if [ -n "$SERVER_FULL_LOAD_W" ] && num_gt "$wmax" "$SERVER_FULL_LOAD_W"; then
      warn power wall_power "<= $SERVER_FULL_LOAD_W W" "$wmax W" wall_power_above_plan "the server draws more than the power plan: recheck the rack budget"
    else
      pass power wall_power "<= ${SERVER_FULL_LOAD_W:-?} W" "$wmax W" ok
    fi
  fi
fi

finish
