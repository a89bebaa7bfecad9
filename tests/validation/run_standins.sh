#!/usr/bin/env bash
# Runs the generated validation scripts against the stand-in commands in standins/ (nvidia-smi,
# docker, ibstat, systemctl, dmesg on PATH) for a healthy server and faulty ones, asserting the
# PASS/WARN/FAIL lines and exit codes, then reads the results back with validation_tool.
# usage: run_standins.sh <validation_tool> [scenario-name filter] [SHARD/SHARDS]
# SHARD/SHARDS (e.g. 2/3) runs every SHARDS-th group of scenarios from the SHARD-th on, so CTest
# can run the matrix in parts that each finish well inside its timeout.
set -euo pipefail
TOOL="$1"
FILTER="${2:-}"
SHARD="${3:-1/1}"
GROUP=0
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export PATH="$HERE/standins:$PATH"
# DCGM is installed only where a scenario says so: PATH="$DCGM_DIR:$PATH" puts the stand-in dcgmi on it.
DCGM_DIR="$WORK/dcgm"
mkdir -p "$DCGM_DIR"
ln -s "$HERE/standins/dcgmi_standin" "$DCGM_DIR/dcgmi"
PASSED=0
FAILED=0
OUT=""
RC=0
CURRENT=""
SCRIPTS=""

declare -A STAGE_RC=()  # each stage's exit status in this scenario: STAGE_RC[20]=1
SCENARIOS=0

ok() { PASSED=$((PASSED + 1)); }
bad() {
  FAILED=$((FAILED + 1))
  printf 'FAIL [%s] %s\n' "$CURRENT" "$1"
  sed -n 's/^/      | /; 1,60p' <<<"$OUT"
}

# scenario NAME CASE [HOURS]: fresh scripts and a fresh VALIDATION_DIR; env STANDIN_* as given
# after. HOURS is the plan's burn-in length (CASE_BURNIN_HOURS, default 0.0005 h = 2 s): the
# scripts and check both judge the burn-in by it.
scenario() {
  CURRENT="$1"
  SCRIPTS="$WORK/$1/scripts"
  export VALIDATION_DIR="$WORK/$1/out"
  export CASE_BURNIN_HOURS="${3:-0.0005}"
  "$TOOL" scripts "$2" "$SCRIPTS"
  SUMMARY_RC=""
  STAGE_RC=()
  SCENARIOS=$((SCENARIOS + 1))
  unset STANDIN_PROFILE STANDIN_SCENARIO STANDIN_GPUS STANDIN_STEP STANDIN_STEP_USED_BYTES STANDIN_DMESG \
    STANDIN_XID STANDIN_XID_LATE STANDIN_FABRIC STANDIN_JOURNAL STANDIN_ECC_GPU STANDIN_ECC_MODE \
    STANDIN_PCIE_NARROW_GPU STANDIN_PCIE_WIDTH STANDIN_DCGM STANDIN_NAME STANDIN_POWER_LIMIT \
    STANDIN_NVLINK_ERRORS STANDIN_REMAP STANDIN_NET STANDIN_SDC_GPU STANDIN_BURN_SLOW_GPU STANDIN_FM_VERSION STANDIN_BURN_NET_BUSBW MASTER_ADDR NODE_RANK \
    STANDIN_RDMA STANDIN_RDMA_SLOW STANDIN_NIC_GPU_SHIFT IB_PEER IB_DEVICE STANDIN_PFC_OFF \
    STANDIN_ECN_OFF STANDIN_ROCE_NO_IPV4 STANDIN_FLAP NCCL_IB_GID_INDEX STANDIN_HOST STANDIN_GID_MOVED
  # The sysfs files the network checks read (ports' counters, GID tables, ECN switches) are laid
  # out by standins/sysfs_tree from the scenario's STANDIN_* at its first run.
  export SYSFS_ROOT="$WORK/$1/sysfs"
}
wanted() {
  GROUP=$((GROUP + 1))
  [ $(((GROUP - 1) % ${SHARD#*/})) -eq $((${SHARD%/*} - 1)) ] || return 1
  [ -z "$FILTER" ] || [[ "$1" == *"$FILTER"* ]]
}

# run SCRIPT [ARGS...]: runs it, keeps its output in OUT and exit status in RC.
run() {
  if [ ! -d "$SYSFS_ROOT/sys" ]; then "$HERE/standins/sysfs_tree" "$SYSFS_ROOT"; fi
  set +e
  OUT="$("$SCRIPTS/$1" "${@:2}" 2>&1)"
  RC=$?
  set -e
  if [ "$1" = 90_summary.sh ]; then SUMMARY_RC="$RC"; fi
  case "$1" in [0-4]0_*.sh) STAGE_RC["${1%%_*}"]="$RC" ;; esac
}
# run_rest [STAGE...]: runs each stage (default 00 10 20 30 40) that has not run in this scenario,
# the burn-in for the plan's length: a scenario about one fault still gives every stage's verdict.
run_rest() {
  local st f
  local -a stages=("$@")
  if [ "${#stages[@]}" -eq 0 ]; then stages=(00 10 20 30 40); fi
  for st in "${stages[@]}"; do
    [ -n "${STAGE_RC[$st]+x}" ] && continue
    for f in "$SCRIPTS/${st}"_*.sh; do
      if [ "$st" = 40 ]; then run "${f##*/}" --hours "$CASE_BURNIN_HOURS" --interval 1; else run "${f##*/}"; fi
    done
  done
}
# expect_stages "RC00 RC10 RC20 RC30 RC40": each stage's exit status (0 pass/warn, 1 fail; - not run).
expect_stages() {
  local -a want
  local st i=0 got
  read -r -a want <<< "$1"
  for st in 00 10 20 30 40; do
    got="${STAGE_RC[$st]:--}"
    if [ "$got" = "${want[$i]}" ]; then ok; else bad "stage $st exited $got, expected ${want[$i]}"; fi
    i=$((i + 1))
  done
}
expect_rc() { if [ "$RC" = "$1" ]; then ok; else bad "exit status $RC, expected $1"; fi; }
# A here-string, not a pipe: under pipefail, grep -q leaving at its first match made printf die of
# SIGPIPE and the pipeline "fail" at random (more often on a loaded machine).
expect() { if grep -qE -- "$1" <<<"$OUT"; then ok; else bad "no line matching: $1"; fi; }
expect_not() { if grep -qE -- "$1" <<<"$OUT"; then bad "unexpected line matching: $1"; else ok; fi; }
# matrix_row CASE "RC00 RC10 RC20 RC30 RC40" RC: the scenario's row of the fault matrix. Runs the
# stages it has not run, asserts each one's exit status, then 90_summary.sh's and check's (the
# same: one verdict).
matrix_row() {
  run_rest
  expect_stages "$2"
  run 90_summary.sh
  expect_rc "$3"
  check_back "$1" "$VALIDATION_DIR/validation-result.json"
  expect_rc "$3"
}
check_back() {  # check_back CASE FILE: the read-back report of FILE into OUT
  set +e
  OUT="$("$TOOL" check "$1" "$2" "${@:3}" 2>&1)"
  RC=$?
  set -e
  # The read-back of what 90_summary.sh wrote has its verdict: check exits as the summary did.
  if [[ "$2" == */validation-result.json ]] && [ -n "$SUMMARY_RC" ]; then
    if [ "$RC" = "$SUMMARY_RC" ]; then ok; else bad "check exits $RC, 90_summary.sh exited $SUMMARY_RC"; fi
  fi
}

if wanted healthy_h100; then
  scenario healthy_h100 h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy
  run 00_inventory.sh
  expect_rc 0
  expect '^PASS gpu_count: expected 8, measured 8$'
  expect '^PASS memory.total: expected 81559 MiB on each GPU, measured 81559 MiB$'
  expect '^PASS power.limit: expected 700 W, measured 700.00 W$'
  expect '^PASS pcie_link: expected Gen5/x16, measured Gen5/x16$'
  expect '^PASS driver: expected >= 570.26 for NGC 25.02, measured 570.86.10$'
  expect '^PASS xid: expected no Xid errors, measured none$'
  expect '^PASS row_remapper'
  expect_not '^(FAIL|WARN)'
  run 10_topology.sh
  expect_rc 0
  expect '^PASS fabric_manager: expected active, measured active$'
  expect '^PASS fabric_state: expected Completed on 8 GPUs, measured Completed on 8$'
  expect '^PASS topology: expected NV18 between all GPU pairs, measured NV18$'
  expect '^PASS nvlink: expected 18 links x 26.562 GB/s on each GPU, measured all active$'
  expect '^PASS nvlink_errors: expected 0, measured 0$'
  expect '^PASS peer_to_peer: expected all 56 pairs, measured all$'
  expect_not '^(FAIL|WARN)'
  run 20_container.sh
  expect_rc 0
  expect '^PASS container_image: expected nvcr.io/nvidia/pytorch:25.02-py3, measured present$'
  expect '^PASS container_gpus: expected 8, measured 8$'
  expect '^PASS bf16_gemm: expected 794.5 TFLOPS \(989.4 peak x 0.803\) -10%, measured 792.4 TFLOPS$'
  # ZeRO-2: bf16 weights, gradients and state of all 32 layers would pass 90% of the plan's 40 GiB,
  # so the probe runs 27 of them and is checked against the band's top only.
  expect '^PASS one_step: expected <= 47.0 GiB, measured 42.0 GiB \(27 of 32 layers\)$'
  run 30_nccl.sh
  expect_rc 0
  expect '^PASS allreduce: expected >= 80% of 360 GB/s, measured 371.40 GB/s via nvls$'
  run 40_burnin.sh --hours 0.001 --interval 1
  expect_rc 0
  expect '^PASS burnin_duration: expected 0.0005 h \(the plan\), measured 0.00 h \([0-9]+ s\)$'
  expect '^PASS burnin_gpus: expected no throttling'
  expect '^PASS burn_results: expected every result equal to its reference, measured 24 checks on 8 GPUs, [0-9]+ GiB held on each$'
  expect '^SKIP wall_power: .*needs root'
  expect '^SKIP dcgm_diag: expected dcgmi diag -r 3 passes, measured not run \(--dcgm runs'
  expect_not '^(FAIL|WARN)'
  run 40_burnin.sh --hours 0.001 --interval 1
  expect_rc 0
  expect '^burn-in already complete'
  REGISTRY=harbor.example.com/nvcr run 20_container.sh
  expect '^PASS container_image: expected harbor.example.com/nvcr/nvidia/pytorch:25.02-py3, measured present$'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh --tokens-per-second 70500
  expect_rc 0
  expect 'validation-result.json: 0 FAIL, 0 WARN from 00_inventory 10_topology 20_container 30_nccl 40_burnin$'
  if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$VALIDATION_DIR/validation-result.json"; then ok; else bad "validation-result.json is not JSON"; fi
  check_back h100_8x "$VALIDATION_DIR/validation-result.json" 2.5 20000
  expect_rc 0
  expect '"overall": "pass"'
  expect '"item": "nvlink"'
  expect '"code": "ok"'
  expect 'cost per run 51064 CNY \(20426 GPU-hours\) vs 50000 planned \(\+2%\), from the measured tokens/s'
  expect 'recalibrated MFU 0.411 \(plan 0.42\)'
  check_back h100_8x "$VALIDATION_DIR/gpu.csv"
  expect_rc 0
  expect '"item": "thermal_throttle"'
  expect_not '"item": "nvlink"'
fi

if wanted nccl_timeout; then
  scenario nccl_timeout h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=nccl_timeout
  run 40_burnin.sh --hours 0.0005 --interval 1 --dcgm
  expect_rc 1
  expect '^FAIL dcgm_diag: expected dcgmi diag -r 3 passes, measured dcgmi not installed \(start DCGM.s host engine'
  expect '^FAIL nccl_timeouts: expected 0, measured 1 \(NCCL collectives timed out during the burn-in'
  run_rest
  expect_stages "0 0 0 0 1"
  run 90_summary.sh
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"code": "nccl_timeout"'
  expect '"code": "dcgm_missing"'
fi

if wanted dmesg_denied; then
  # Neither dmesg (kernel.dmesg_restrict=1) nor the journal (a user outside adm) is readable.
  scenario dmesg_denied h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_DMESG=denied STANDIN_JOURNAL=denied
  run 00_inventory.sh
  expect_rc 0
  expect '^SKIP xid: expected no Xid errors, measured kernel log unreadable \(neither dmesg nor journalctl -k is readable by this user: run as root \(sudo dmesg -T \| grep -i xid\), or add the user to the adm group\)$'
  run 40_burnin.sh --hours 0.0005 --interval 1
  expect '^SKIP xid_during_burnin: .*neither dmesg nor journalctl -k is readable'
  matrix_row h100_8x "0 0 0 0 0" 0
fi

if wanted dmesg_restricted; then
  # dmesg restricted (Ubuntu's default for users), the journal readable (the adm group): the Xid
  # lines come from journalctl -k, before the burn-in and new during it.
  scenario dmesg_restricted h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=missing_gpu STANDIN_DMESG=denied
  run 00_inventory.sh
  expect_rc 1
  expect '^FAIL xid: expected no hardware Xid, measured 1 \(Xid 79\) \(hardware: Xid 79: GPU fell off the bus'
  expect_not '^SKIP xid'
  if grep -q '^xid_log_source	journalctl	s$' "$VALIDATION_DIR/00_inventory.measured.tsv"; then ok; else bad "xid_log_source is not journalctl"; fi
  export STANDIN_SCENARIO=healthy STANDIN_XID_LATE="95"
  run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 1
  expect '^FAIL xid_during_burnin: expected no hardware Xid, measured 1 \(Xid 95\)'
fi

if wanted ecc_modes; then
  # GDDR data-centre part (L20) with ECC off on GPU 2: the ECC-off figure, a WARN.
  scenario ecc_off_gddr l20_8x
  export STANDIN_PROFILE=l20 STANDIN_SCENARIO=healthy STANDIN_ECC_GPU=2 STANDIN_ECC_MODE=Disabled
  run 00_inventory.sh
  expect_rc 0
  expect '^WARN GPU 2 memory.total: expected 46068 MiB \(ECC on\), measured 49140 MiB \(ECC Disabled\) \(ECC is off on GPU 2: more memory, no error correction'
  expect_not '^FAIL'
  expect_not '^PASS memory.total'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  expect_rc 0
  check_back l20_8x "$VALIDATION_DIR/validation-result.json"
  expect '"code": "ecc_off_memory"'
  expect_not '"line_code": "ecc_off_memory"'
  expect '"overall": "warn"'
  # GeForce RTX 4090 (ECC off as shipped) with ECC on on GPU 1: 1/16 less memory, a WARN.
  scenario ecc_on_geforce rtx4090_4x
  export STANDIN_PROFILE=rtx4090 STANDIN_SCENARIO=healthy STANDIN_ECC_GPU=1 STANDIN_ECC_MODE=Enabled
  run 00_inventory.sh
  expect_rc 0
  expect '^WARN GPU 1 memory.total: expected 24564 MiB \(ECC off, as the part ships\), measured 23028 MiB \(ECC on\) \(ECC is enabled on GPU 1: it reserves 1/16 of the memory, so the plan has 23028 MiB, not 24564'
  expect_not '^FAIL'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  expect_rc 0
  check_back rtx4090_4x "$VALIDATION_DIR/validation-result.json"
  expect '"code": "ecc_on_memory"'
  expect '"overall": "warn"'
  # HBM data-centre part (H100) with ECC off on GPU 4: the same memory.total, a WARN on ECC.
  scenario ecc_off_hbm h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_ECC_GPU=4 STANDIN_ECC_MODE=Disabled
  run 00_inventory.sh
  expect_rc 0
  expect '^WARN GPU 4 ECC: expected Enabled, measured Disabled \(ECC is off on GPU 4: no error correction'
  expect_not '^FAIL'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"code": "ecc_disabled"'
  expect '"overall": "warn"'
fi

if wanted xid_application; then
  scenario xid_application h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_XID="13 31 43"
  run 00_inventory.sh
  expect_rc 0
  expect '^WARN xid: expected no hardware Xid, measured 3 \(Xid 13,31,43\) \(application Xid 13,31,43: a program fault'
  expect_not '^FAIL'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  expect_rc 0
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"code": "xid_application"'
  expect '"overall": "warn"'
fi

if wanted xid_hardware; then
  scenario xid_hardware h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_XID="13 48 150"
  run 00_inventory.sh
  expect_rc 1
  expect '^FAIL xid: expected no hardware Xid, measured 3 \(Xid 13,48,150\) \(hardware: Xid 48: double-bit ECC error'
  run_rest
  expect_stages "1 0 0 0 0"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"code": "xid_errors"'
  expect '"codes": "48"'
fi

if wanted xid_unclassified; then
  scenario xid_unclassified h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_XID="150"
  run 00_inventory.sh
  expect_rc 0
  expect '^WARN xid: .*Xid 150 not classified: look it up at https://docs.nvidia.com/deploy/xid-errors/'
  matrix_row h100_8x "0 0 0 0 0" 0
fi

if wanted xid_burnin; then
  scenario xid_burnin h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_XID_LATE="13 95"
  run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 1
  expect '^FAIL xid_during_burnin: expected no hardware Xid, measured 2 \(Xid 13,95\) \(hardware: Xid 95: uncontained ECC error'
  run_rest
  expect_stages "1 0 0 0 1"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"codes": "95"'
fi

if wanted fabric_na; then
  # An HGX A100-style box: fabric manager active, fabric state N/A on every GPU.
  scenario fabric_na h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_FABRIC=na
  run 10_topology.sh
  expect_rc 0
  expect '^PASS fabric_manager: expected active, measured active$'
  expect '^SKIP fabric_state: expected Completed on 8 GPUs, measured N/A on 8 \(these GPUs do not report a fabric state'
  expect_not '^FAIL'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  expect_rc 0
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_not '"status": "fail"'
fi

if wanted fabric_state_lines; then
  # A FAIL line no read-back item computes (fabric_not_completed) still fails check.
  scenario fabric_state_lines h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=pcie_only
  run 10_topology.sh
  expect_rc 1
  run_rest
  expect_stages "0 1 0 1 0"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"line_code": "fabric_not_completed"'
  expect '"overall": "fail"'
fi

if wanted pcie_only; then
  scenario pcie_only h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=pcie_only
  run 10_topology.sh
  expect_rc 1
  expect '^FAIL fabric_manager: expected active, measured inactive'
  expect '^FAIL fabric_state: expected Completed on 8 GPUs, measured Completed on 0'
  expect '^FAIL topology: expected NV18 between all GPU pairs, measured SYS on all 56 pairs \(the GPUs talk over PCIe \(SYS\), not NVLink\)$'
  expect_not '^FAIL topo GPU'
  expect '^FAIL NVLink GPU 0: expected 18 links active, measured 18 inactive'
  run 30_nccl.sh
  expect_rc 1
  expect '^FAIL allreduce: expected >= 80% of 360 GB/s, measured 21.30 GB/s via shm \(busbw 21.30 GB/s: traffic is on PCIe, not NVLink'
  run_rest
  expect_stages "0 1 0 1 0"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"message": "busbw 21.3 GB/s: traffic is on PCIe, not NVLink'
  expect '"code": "traffic_on_pcie"'
  expect '"code": "fabric_manager_inactive"'
fi

if wanted throttling; then
  scenario throttling h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=throttling
  run 20_container.sh
  expect_rc 0
  expect '^WARN GPU 3 bf16 GEMM: expected 794.5 TFLOPS, measured 633.9 TFLOPS'
  run 40_burnin.sh --hours 0.001 --interval 1
  expect_rc 1
  expect '^FAIL GPU 3 thermal slowdown: expected <= 1% of samples, measured 10% of 50'
  expect '^WARN GPU 5 power cap: expected <= 10% of samples \(median GPU \+ 10 points\), measured 18% of 50 \(GPU 5 power-capped 18% of samples at 700 W, the median GPU 0%'
  run_rest
  expect_stages "0 0 0 0 1"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"message": "GPU 3 thermal-throttled 10% of samples'
  expect '"message": "GPU 5 power-capped 18% of samples'
  check_back h100_8x "$VALIDATION_DIR/gpu.csv"
  expect_rc 1
  expect '"message": "GPU 3 thermal-throttled 10% of samples'
  expect '"message": "GPU 5 power-capped 18% of samples'  # The awk in 40_burnin.sh and the C++ reader agree on every per-GPU statistic.
  set +e
  OUT="$(awk -F '\t' 'NR == FNR { m[$1] = $2; next }
    { if (!($1 in m)) { print "missing " $1; bad = 1 } else if ((m[$1] - $2) ^ 2 > 1e-6) { print $1 ": awk " m[$1] ", C++ " $2; bad = 1 } }
    END { exit bad }' "$VALIDATION_DIR/40_burnin.measured.tsv" <("$TOOL" csvstats h100_8x "$VALIDATION_DIR/gpu.csv"))"
  RC=$?
  set -e
  expect_rc 0
  if [ "$("$TOOL" csvstats h100_8x "$VALIDATION_DIR/gpu.csv" | wc -l)" -ge 64 ]; then ok; else bad "csvstats printed too little"; fi
fi

if wanted old_driver_geforce; then
  scenario old_driver_geforce rtx4090_4x
  export STANDIN_PROFILE=rtx4090 STANDIN_SCENARIO=old_driver
  run 00_inventory.sh
  expect_rc 1
  expect '^FAIL driver: expected >= 550.54.15 for NGC 24.05, measured 535.104.05 \(upgrade the driver to >= 550.54.15 \(root\): no NGC tag for this GPU runs on 535.104.05\)$'
  run 20_container.sh
  expect_rc 1
  expect '^FAIL container_run: expected the probe runs, measured exit 125: .*unsatisfied condition: cuda>=12.4.* \(the host driver is older than NGC 24.05 needs'
  run_rest
  expect_stages "1 0 1 1 1"
  run 90_summary.sh
  check_back rtx4090_4x "$VALIDATION_DIR/validation-result.json"
  expect '"code": "driver_too_old"'
  expect 'GeForce cannot use forward compatibility'
fi

if wanted old_driver_datacenter; then
  scenario old_driver_datacenter h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=old_driver
  run 00_inventory.sh
  expect_rc 0
  expect '^PASS driver: expected >= 570.26 for NGC 25.02, measured 535.104.05 \(data-centre forward compatibility on the R535 branch \(>= 535.86\)\)$'
  matrix_row h100_8x "0 0 0 0 0" 0
fi

if wanted inactive_link; then
  scenario inactive_link h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=inactive_link
  run 10_topology.sh
  expect_rc 1
  expect '^FAIL NVLink GPU 3 link 11: expected 26.562 GB/s, measured inactive \(link 11 inactive on GPU 3:'
  expect '^FAIL topo GPU3: expected NV18 to every other GPU, measured NV17 to all 7 \(GPU3: fewer NVLink links than planned'
  expect_not '^FAIL topo GPU[0-9]-GPU'
  expect '^WARN nvlink_errors: expected 0, measured 12'
  expect_not '^FAIL NVLink GPU [0-24-7]'
  run 30_nccl.sh
  expect_rc 0
  run_rest
  expect_stages "0 1 0 0 0"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"message": "link 11 inactive on GPU 3:'
  expect '"link": "11"'
fi

if wanted missing_gpu; then
  scenario missing_gpu h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=missing_gpu
  run 00_inventory.sh
  expect_rc 1
  expect '^FAIL gpu_count: expected 8, measured 7 \(1 GPU\(s\) missing; present at: 00000000:18:00.0'
  expect '^FAIL xid: expected no hardware Xid, measured 1 \(Xid 79\) \(hardware: Xid 79: GPU fell off the bus'
  run 40_burnin.sh --hours 0.001 --interval 1
  expect_rc 1
  expect '^FAIL gpus_logged: expected 8 GPUs in the log, measured 7'
  run_rest
  expect_stages "1 1 1 0 1"
  run 90_summary.sh
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"message": "1 of 8 GPUs missing'
fi

if wanted oom; then
  scenario oom h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_STEP=oom
  run 20_container.sh
  expect_rc 1
  expect '^FAIL one_step: expected 40.0 GiB \(band 34.0 GiB - 47.0 GiB\), measured out of memory'
  matrix_row h100_8x "0 0 1 0 0" 1
fi

if wanted resume; then
  scenario resume h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy
  "$SCRIPTS/40_burnin.sh" --hours 0.002 --interval 1 > "$WORK/resume.log" 2>&1 &
  pid=$!
  sleep 3
  kill -TERM "$pid"
  set +e
  wait "$pid"
  RC=$?
  set -e
  OUT="$(cat "$WORK/resume.log")"
  expect_rc 130
  expect '^stopped after [0-9]+ s of 7 s; run .* again to resume$'
  run 40_burnin.sh --hours 0.002 --interval 1
  expect_rc 0
  expect '^burn-in: [1-6] s done, [1-6] s to go'
  expect '^PASS burnin_duration: expected 0.0005 h \(the plan\)'
  if [ "$(grep -c '^timestamp' "$VALIDATION_DIR/gpu.csv")" = 1 ]; then ok; else bad "gpu.csv has more than one header after resuming"; fi
fi

if wanted hangup; then
  # A foreground burn-in whose SSH session closes (SIGHUP) stops cleanly and keeps its progress.
  scenario hangup h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy
  "$SCRIPTS/40_burnin.sh" --hours 0.002 --interval 1 > "$WORK/hangup.log" 2>&1 &
  pid=$!
  sleep 3
  kill -HUP "$pid"
  set +e
  wait "$pid"
  RC=$?
  set -e
  OUT="$(cat "$WORK/hangup.log")"
  expect_rc 130
  expect '^stopped after [0-9]+ s of 7 s; run .* again to resume$'
  if [ ! -e "$VALIDATION_DIR/burnin.pid" ]; then ok; else bad "burnin.pid left behind"; fi
fi

if wanted detached; then
  # --detach: setsid + nohup, output in burnin.log, PID in burnin.pid. A second start is refused,
  # --status and 90_summary.sh read the PID file and the log; a run killed outright (a reboot)
  # leaves a WARN, and --detach again resumes from burnin.state.
  scenario detached h100_8x 0.002
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy
  # The other stages first: run beside the 7 s burn-in they could outlast it on a loaded machine,
  # and the kill below would then find it finished.
  run_rest 00 10 20 30
  run 40_burnin.sh --detach --hours ten
  expect_rc 2
  expect '^the detached burn-in ended at once \(exit 2\); the end of .*burnin.log:$'
  expect '^--hours must be a number'
  run 40_burnin.sh --detach --hours 0.002 --interval 1
  expect_rc 0
  expect '^burn-in running in the background as PID [0-9]+; it survives an SSH drop$'
  pid="$(cat "$VALIDATION_DIR/burnin.pid" 2> /dev/null || true)"
  if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2> /dev/null; then ok; else bad "no live PID in burnin.pid"; fi
  if [ "$(ps -o sid= -p "$pid" | tr -d ' ')" = "$pid" ]; then ok; else bad "the detached run is not its own session (setsid)"; fi
  run 40_burnin.sh --hours 0.002 --interval 1
  expect_rc 2
  expect '^a burn-in is already running as PID [0-9]+'
  run 40_burnin.sh --status
  expect_rc 0
  expect '^burn-in running as PID [0-9]+: [0-9]+ of 7 s done'
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  expect_rc 0
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"line_code": "burnin_running"'
  sleep 1
  kill -KILL -- "-$pid"  # the whole session at once, as a reboot or the OOM killer would
  sleep 1
  run 40_burnin.sh --status
  expect_rc 1
  expect '^burn-in not running: stopped after [0-9]+ of 7 s'
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"code": "burnin_incomplete"'
  expect '"message": "the burn-in ran [0-9.]+ h of the plan.s 0.002 h: run 40_burnin.sh again to resume"'
  expect 'the burn-in stopped without writing its results \(last line of burnin.log: '
  run 40_burnin.sh --detach --hours 0.002 --interval 1
  expect_rc 0
  for _ in $(seq 1 40); do
    if ! "$SCRIPTS/40_burnin.sh" --status > /dev/null 2>&1 || ! [ -e "$VALIDATION_DIR/burnin.pid" ]; then break; fi
    sleep 0.5
  done
  OUT="$(cat "$VALIDATION_DIR/burnin.log")"
  expect '^burn-in: [1-6] s done, [1-6] s to go'
  expect '^PASS burnin_duration: expected 0.002 h \(the plan\)'
  if [ ! -e "$VALIDATION_DIR/burnin.pid" ]; then ok; else bad "burnin.pid left behind"; fi
  if [ "$(grep -c '^timestamp' "$VALIDATION_DIR/gpu.csv")" = 1 ]; then ok; else bad "gpu.csv has more than one header after resuming"; fi
  run 90_summary.sh
  expect_rc 0
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_not 'burnin_incomplete|burnin_running'
fi

if wanted pcie_narrow; then
  # GPU 2's link trained at x8 in an x16 slot (pcie.link.width.max 16): idle, the inventory only
  # records it (and an idle GPU's Gen1 is normal power saving); under load it FAILs.
  scenario pcie_narrow h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_PCIE_NARROW_GPU=2
  run 00_inventory.sh
  expect_rc 0
  expect '^PASS pcie_link: expected Gen5/x16, measured Gen5/x16$'
  if grep -q '^gpu.2.pcie_width_idle	8	n$' "$VALIDATION_DIR/00_inventory.measured.tsv"; then ok; else bad "the idle width is not recorded"; fi
  run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 1
  expect '^FAIL GPU 2 PCIe width under load: expected x16, measured x8 \(GPU 2 trained at x8 in an x16 link under load: reseat the card'
  expect_not '^FAIL GPU [013-7] PCIe'
  expect_not 'PCIe under load'
  run_rest
  expect_stages "0 0 0 0 1"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"code": "pcie_width_downtrained"'
  expect '"message": "GPU 2 trained at x8 in an x16 link under load: reseat the card'
  expect_not '"code": "script_line"'
  check_back h100_8x "$VALIDATION_DIR/gpu.csv"
  expect_rc 1
  expect '"code": "pcie_width_downtrained"'
fi

if wanted burnin_short; then
  # The plan asks 0.002 h (7 s); the run is started with --hours 0.0005 (2 s) and completes: FAIL
  # in the script and in check, each with both lengths. Run again with the plan's length, it
  # continues from where it stopped and passes.
  scenario burnin_short h100_8x 0.002
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy
  run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 1
  expect '^FAIL burnin_duration: expected 0.002 h \(7 s, the plan\), measured 0.00 h \([0-9] s, --hours 0.0005\) \(the burn-in ran [0-9] s, shorter than the plan.s 0.002 h: run .*40_burnin.sh --hours 0.002'
  run_rest
  expect_stages "0 0 0 0 1"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"code": "burnin_short"'
  expect '"message": "the burn-in ran 0.000[0-9]+ h \(the run was set to 0.0006 h\), shorter than the plan.s 0.002 h: run 40_burnin.sh --hours 0.002 to finish it'
  run 40_burnin.sh --hours 0.002 --interval 1
  expect_rc 0
  expect '^burn-in: [0-9] s done, [0-9] s to go'
  expect '^PASS burnin_duration: expected 0.002 h \(the plan\)'
  run 90_summary.sh
  expect_rc 0
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_not 'burnin_short|burnin_incomplete'
fi

if wanted dcgm; then
  # dcgmi installed, its host engine not running: FAIL with the fix, never PASS.
  scenario dcgm_unreachable h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_DCGM=unreachable
  PATH="$DCGM_DIR:$PATH" run 40_burnin.sh --hours 0.0005 --interval 1 --dcgm
  expect_rc 1
  expect '^FAIL dcgm_diag: expected dcgmi diag -r 3 passes, measured host engine unreachable \(exit 255\) \(dcgmi cannot reach DCGM.s host engine, so no diagnostic ran: start DCGM.s host engine \(root: systemctl start nvidia-dcgm, or nv-hostengine\), or install datacenter-gpu-manager'
  expect_not '^PASS dcgm_diag'
  run_rest
  expect_stages "0 0 0 0 1"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"code": "dcgm_unreachable"'
  expect '"overall": "fail"'
  # A test fails on one GPU (DCGM's table: Pass - GPUs: 0, 2, ... then Fail - GPU: 1).
  scenario dcgm_fail h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_DCGM=fail
  PATH="$DCGM_DIR:$PATH" run 40_burnin.sh --hours 0.0005 --interval 1 --dcgm
  expect_rc 1
  expect '^FAIL dcgm_diag: expected dcgmi diag -r 3 passes, measured failed: Targeted Power GPU: 1 '
  run_rest
  expect_stages "0 0 0 0 1"
  run 90_summary.sh
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"code": "dcgm_diag_failed"'
  # Every test passes.
  scenario dcgm_pass h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_DCGM=pass
  PATH="$DCGM_DIR:$PATH" run 40_burnin.sh --hours 0.0005 --interval 1 --dcgm
  expect_rc 0
  expect '^PASS dcgm_diag: expected dcgmi diag -r 3 passes, measured pass$'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  expect_rc 0
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"overall": "pass"'
fi

if wanted dcgm_json; then
  # Issue 28 item 4: dcgmi diag -j read back. check judges each test from DCGM's own JSON (the
  # result file's "dcgm"), not the script's summary of it: with the script's dcgm lines and
  # measures taken out of the file, the failing test still names itself.
  scenario dcgm_json_fail h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_DCGM=fail
  PATH="$DCGM_DIR:$PATH" run 40_burnin.sh --hours 0.0005 --interval 1 --dcgm
  expect_rc 1
  expect '^FAIL dcgm_diag: expected dcgmi diag -r 3 passes, measured failed: Targeted Power GPU: 1 \(DCGM found a fault'
  if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$VALIDATION_DIR/dcgm_diag.json"; then ok; else bad "dcgm_diag.json is not JSON"; fi
  matrix_row h100_8x "0 0 0 0 1" 1
  expect '"code": "dcgm_diag_failed"'
  python3 - "$VALIDATION_DIR/validation-result.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
tests = r["dcgm"]["DCGM GPU Diagnostic"]["test_categories"]
assert any(t["name"] == "Targeted Power" for c in tests for t in c["tests"])
r["checks"] = [c for c in r["checks"] if c["check"] != "dcgm_diag"]
for k in ("dcgm_diag", "dcgm_failed_tests"):
    del r["measured"][k]
json.dump(r, open(sys.argv[1].replace("validation-result", "json-only"), "w"))
PY
  check_back h100_8x "$VALIDATION_DIR/json-only.json"
  expect_rc 1
  expect '"code": "dcgm_diag_failed"'
  expect '"tests": "Targeted Power GPU: 1"'
  expect 'did not reach desired power minimum'
  # dcgmi's JSON cut short before the failing test: no pass, and no cut document in the result.
  scenario dcgm_json_cut h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_DCGM=cut
  PATH="$DCGM_DIR:$PATH" run 40_burnin.sh --hours 0.0005 --interval 1 --dcgm
  expect_rc 1
  expect '^FAIL dcgm_diag: expected dcgmi diag -r 3 passes, measured its JSON is cut short or unreadable'
  matrix_row h100_8x "0 0 0 0 1" 1
  expect '"code": "dcgm_diag_error"'
  if grep -q '"dcgm":' "$VALIDATION_DIR/validation-result.json"; then bad "a cut DCGM document went into the result file"; else ok; fi
  # Every test passes, from the JSON alone as well.
  scenario dcgm_json_pass h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_DCGM=pass
  PATH="$DCGM_DIR:$PATH" run 40_burnin.sh --hours 0.0005 --interval 1 --dcgm
  expect_rc 0
  expect '^PASS dcgm_diag: expected dcgmi diag -r 3 passes, measured pass$'
  matrix_row h100_8x "0 0 0 0 0" 0
  if grep -q '"dcgm": {' "$VALIDATION_DIR/validation-result.json" && grep -q '"dcgm_level": 3' "$VALIDATION_DIR/validation-result.json"; then ok; else bad "the result file lacks DCGM's JSON or its level"; fi
  expect '"overall": "pass"'
  # A plan burned in for 10 h or more runs DCGM's level 4 (the extended tests) before it.
  scenario dcgm_level4 h100_8x 10
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_DCGM=pass
  if grep -q '^DCGM_LEVEL=4 ' "$SCRIPTS/40_burnin.sh"; then ok; else bad "a 10 h plan's 40_burnin.sh does not set DCGM_LEVEL=4"; fi
  PATH="$DCGM_DIR:$PATH" run 40_burnin.sh --hours 0.0005 --interval 1 --dcgm
  expect_rc 1
  expect '^PASS dcgm_diag: expected dcgmi diag -r 4 passes, measured pass$'
  expect '^FAIL burnin_duration: expected 10 h'
  if grep -q '"name" : "Pulse Test"' "$VALIDATION_DIR/dcgm_diag.json"; then ok; else bad "level 4's tests not run"; fi
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"code": "burnin_short"'
  expect_not '"code": "dcgm_diag_failed"'
fi

if wanted burn_straggler; then
  # Issue 28 item 4: each GPU's own GEMM rate under the burn-in against its server's median.
  # GPU 5 at 78% of the others: FAIL, named, in the script and in check.
  scenario burn_straggler h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_BURN_SLOW_GPU=5
  run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 1
  expect '^FAIL burn_throughput: expected >= 90% of the median GPU.s 789.2 TFLOPS, measured GPU 5 613.1 TFLOPS \(78%\) \(a GPU computes slower'
  matrix_row h100_8x "0 0 0 0 1" 1
  expect '"code": "burn_straggler"'
  expect '"gpu": "5"'
  expect_not '"line_code": "burn_straggler"'
  if grep -q '"gpu.5.burn_tflops": 613.1' "$VALIDATION_DIR/validation-result.json"; then ok; else bad "gpu.5.burn_tflops not recorded"; fi
  # Identical GPUs within a percent of each other: PASS.
  scenario burn_even h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy
  run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 0
  expect '^PASS burn_throughput: expected >= 90% of the median GPU.s 789.2 TFLOPS, measured 792.4 789.2 786.1 792.4 789.2 786.1 792.4 789.2 TFLOPS$'
  matrix_row h100_8x "0 0 0 0 0" 0
  expect_not 'burn_straggler'
fi

if wanted burnin_window; then
  # Issue 28 item 5: the cross-server burn-in window. Every server runs 40_burnin.sh with
  # MASTER_ADDR and NODE_RANK; the load's all-reduce then crosses the network for the whole
  # burn-in and each window's bus bandwidth is judged against the plan's 180 GB/s.
  scenario burnin_window h100_2x8_ib
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_STEP_USED_BYTES=75161927680
  MASTER_ADDR=127.0.0.1 NODE_RANK=0 run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 0
  expect '^PASS burnin_inter_node: expected >= 80% of 180 GB/s in every window, measured 187.5 GB/s in the slowest of 2 windows$'
  matrix_row h100_2x8_ib "0 0 0 0 0" 0
  if grep -q '"burnin_inter_node_busbw_gbps_min": 187.5' "$VALIDATION_DIR/validation-result.json"; then ok; else bad "the window's bandwidth not recorded"; fi
  # The same plan's burn-in on one server alone: the window SKIPs with how to run it.
  scenario burnin_window_alone h100_2x8_ib
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy
  run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 0
  expect '^SKIP burnin_inter_node: expected >= 80% of 180 GB/s in every window, measured one server only \(.*MASTER_ADDR=<server 0> NODE_RANK=<0..1>'
  # The cross-server all-reduce sags to 95 GB/s in its second window: FAIL, in the script and in check.
  scenario burnin_window_slow h100_2x8_ib
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_STEP_USED_BYTES=75161927680 STANDIN_BURN_NET_BUSBW=95
  MASTER_ADDR=127.0.0.1 NODE_RANK=0 run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 1
  expect '^FAIL burnin_inter_node: expected >= 80% of 180 GB/s in every window, measured 95 GB/s in the slowest of 2 windows \(the cross-server all-reduce sagged'
  matrix_row h100_2x8_ib "0 0 0 0 1" 1
  expect '"code": "burnin_busbw_low"'
  expect_not '"line_code": "burnin_busbw_low"'
fi

if wanted fm_version; then
  # Issue 28 item 7: a fabric manager left at 550.54.15 by an upgrade to driver 570.86.10 (it then
  # refuses to start): FAIL naming both versions, in the script and in check.
  scenario fm_version_mismatch h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_FM_VERSION=550.54.15
  run 10_topology.sh
  expect_rc 1
  expect '^FAIL fabric_manager_version: expected 570.86.10 \(the driver.s\), measured 550.54.15 \(the fabric manager is 550.54.15 and the driver 570.86.10'
  expect '^FAIL fabric_manager: expected active, measured failed'
  matrix_row h100_8x "0 1 0 0 0" 1
  expect '"code": "fabric_manager_version_mismatch"'
  expect '"fabric_manager": "550.54.15"'
  expect_not '"line_code": "fabric_manager_version_mismatch"'
fi

if wanted multinode; then
  scenario multinode h100_2x8_ib
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_STEP_USED_BYTES=75161927680
  run 10_topology.sh
  expect_rc 0
  expect '^PASS network_ports: expected 8 InfiniBand ports Active at 400 Gb/s, measured 8$'
  expect '^SKIP ib_write_bw: expected >= 360 Gb/s \(0.9 of line rate\), GPU memory to GPU memory on 8 NICs, measured not run \(copy .*/ib_write_bw_peer.sh to a peer server .*IB_PEER=<peer host>\)$'
  if grep -q '^CUDA_DEVICE_ORDER=PCI_BUS_ID ib_write_bw -d mlx5_3 --use_cuda=3 --report_gbits -D 5 -p 18518 &$' "$VALIDATION_DIR/ib_write_bw_peer.sh"; then ok; else bad "ib_write_bw_peer.sh lacks mlx5_3's server"; fi
  # GPUDirect RDMA per compute NIC, each with the GPU nearest it (PIX in topo -m), not the 100G
  # management port mlx5_8.
  IB_PEER=10.0.0.2 run 10_topology.sh
  expect_rc 0
  expect '^PASS ib_write_bw mlx5_0: expected >= 360 Gb/s \(0.9 of line rate\), GPU memory to GPU memory, measured 392.31 Gb/s with GPU 0$'
  expect '^PASS ib_write_bw mlx5_7: .*measured 392.31 Gb/s with GPU 7$'
  expect_not 'ib_write_bw mlx5_8'
  run 20_container.sh
  expect_rc 0
  expect '^PASS one_step: expected <= 78.0 GiB, measured 70.0 GiB \(37 of 40 layers\)$'
  run 30_nccl.sh
  expect_rc 0
  expect '^SKIP allreduce_inter_node: .*MASTER_ADDR=<server 0> NODE_RANK=<0..1>'
  MASTER_ADDR=127.0.0.1 NODE_RANK=0 run 30_nccl.sh
  expect_rc 0
  expect '^PASS nccl_network: expected NET/IB, measured NET/IB$'
  expect '^PASS allreduce_inter_node: expected >= 80% of 180 GB/s, measured 187.50 GB/s via ib$'
  expect '^PASS link_flaps: expected link_downed, link_error_recovery, symbol_error unchanged during 30_nccl.sh, measured none grew on 27 counters$'
  run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 0
  expect '^PASS link_flaps: expected .* unchanged since the burn-in started, measured none grew on 27 counters$'
  matrix_row h100_2x8_ib "0 0 0 0 0" 0
fi

if wanted rdma_slow_nic; then
  # One compute NIC of eight reaches half its line rate GPU to GPU: FAIL naming it and its GPU,
  # the nearest by topo -m (NIC k behind GPU k+4 here), the other seven pass.
  scenario rdma_slow_nic h100_2x8_ib
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_STEP_USED_BYTES=75161927680 \
    STANDIN_RDMA_SLOW=mlx5_5 STANDIN_NIC_GPU_SHIFT=4
  IB_PEER=10.0.0.2 run 10_topology.sh
  expect_rc 1
  expect '^FAIL ib_write_bw mlx5_5: expected >= 360 Gb/s .*, measured 187.46 Gb/s with GPU 1 \(mlx5_5 \(GPU 1\) is slow: check its cable'
  expect '^PASS ib_write_bw mlx5_0: .*measured 392.31 Gb/s with GPU 4$'
  expect_not '^FAIL ib_write_bw mlx5_[0-46-9]'
  matrix_row h100_2x8_ib "0 1 0 0 0" 1
  expect '"line_code": "rdma_bw_low"'
fi

if wanted rdma_no_cuda; then
  # perftest built without CUDA rejects --use_cuda: no GPUDirect figure is no pass.
  scenario rdma_no_cuda h100_2x8_roce
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_NET=roce STANDIN_STEP_USED_BYTES=75161927680 \
    STANDIN_RDMA=nocuda
  IB_PEER=10.0.0.2 IB_DEVICE=mlx5_2 run 10_topology.sh
  expect_rc 1
  expect "^FAIL ib_write_bw mlx5_2: expected >= 360 Gb/s .*, measured no result \\(mlx5_2 with GPU 2: ib_write_bw: unrecognized option '--use_cuda=2'; .*perftest built with CUDA"
  expect_not 'ib_write_bw mlx5_[013-9]'
  matrix_row h100_2x8_roce "0 1 0 0 0" 1
  expect '"line_code": "rdma_bw_failed"'
fi

if wanted ib_down; then
  scenario ib_down h100_2x8_ib
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=ib_down
  run 10_topology.sh
  expect_rc 1
  expect '^FAIL network_ports: expected 8 InfiniBand ports Active at 400 Gb/s, measured 7 \(down: mlx5_3/1\(Down\); slow: none'
  run_rest
  expect_stages "0 1 0 0 0"
  run 90_summary.sh
  check_back h100_2x8_ib "$VALIDATION_DIR/validation-result.json"
  expect '"message": "7 of 8 ports Active at 400 Gb/s'
fi

if wanted nccl_socket; then
  scenario nccl_socket h100_2x8_ib
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=nccl_socket
  MASTER_ADDR=127.0.0.1 NODE_RANK=0 run 30_nccl.sh
  expect_rc 1
  expect '^FAIL nccl_network: expected NET/IB, measured NET/Socket \(NCCL fell back to TCP sockets'
  matrix_row h100_2x8_ib "0 0 0 1 0" 1
fi

if wanted healthy_l20; then
  scenario healthy_l20 l20_8x
  export STANDIN_PROFILE=l20 STANDIN_SCENARIO=healthy
  run 00_inventory.sh
  expect_rc 0
  expect '^PASS driver: expected >= 570.124.06 for NGC 25.03, measured 535.161.08 \(data-centre forward compatibility on the R535 branch'
  expect '^PASS memory.total: expected 46068 MiB on each GPU, measured 46068 MiB$'
  run 10_topology.sh
  expect_rc 0
  expect '^PASS topology: expected PIX PXB PHB NODE SYS between all GPU pairs, measured NODE SYS$'
  expect '^PASS peer_to_peer: expected all 56 pairs, measured all$'
  expect_not '^(PASS|WARN|FAIL|SKIP) (NVLink|nvlink)'
  run 20_container.sh
  expect_rc 0
  expect '^PASS one_step: expected 40.0 GiB'
  run 30_nccl.sh
  expect_rc 0
  expect '^PASS allreduce: expected >= 80% of 22 GB/s, measured 22.60 GB/s via p2p$'
  matrix_row l20_8x "0 0 0 0 0" 0
fi

if wanted healthy_4090; then
  scenario healthy_4090 rtx4090_4x
  export STANDIN_PROFILE=rtx4090 STANDIN_SCENARIO=healthy
  run 00_inventory.sh
  expect_rc 0
  expect '^PASS gpu_count: expected 4, measured 4$'
  expect_not 'ECC'
  expect '^SKIP row_remapper: expected no pending or failed remaps, measured N/A \(this part has no row remapping'
  run 10_topology.sh
  expect_rc 0
  expect '^PASS peer_to_peer: expected none \(the plan routes GPU traffic through host memory\), measured none of 12 pairs$'
  run 30_nccl.sh
  expect_rc 0
  expect '^PASS allreduce: expected >= 80% of 18 GB/s, measured 18.70 GB/s via shm$'
  matrix_row rtx4090_4x "0 0 0 0 0" 0
fi

if wanted stage_missing; then
  # 20_container.sh never ran: the summary and check FAIL it by name, not a silent pass.
  scenario stage_missing h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy
  run_rest 00 10 30 40
  expect_stages "0 0 - 0 0"
  run 90_summary.sh
  expect_rc 1
  expect '^FAIL 20_container: expected its results, measured not run \(run ./20_container.sh on this server, then 90_summary.sh again\)$'
  expect 'validation-result.json: 1 FAIL, 0 WARN from 00_inventory 10_topology 30_nccl 40_burnin$'
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"code": "stage_missing"'
  expect '"message": "20_container left no results in validation-result.json \(/validation-result.json/scripts\): run ./20_container.sh'
  expect_not '"code": "script_line"'
  expect '"overall": "fail"'
fi

if wanted stage_empty; then
  # A stage killed before its first check (an SSH drop, the OOM killer) leaves an empty
  # checks file: started, no result, FAIL.
  scenario stage_empty h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy
  run_rest
  expect_stages "0 0 0 0 0"
  : > "$VALIDATION_DIR/30_nccl.checks.tsv"
  run 90_summary.sh
  expect_rc 1
  expect '^FAIL 30_nccl: expected its results, measured started, no result \(30_nccl.sh stopped before its first check'
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"item": "30_nccl"'
  expect '"code": "stage_missing"'
fi

if wanted nvlink_crc_storm; then
  # 1,241 CRC and 37 replay errors on GPU 5 link 2, every link up: over DCGM's CRC limit, FAIL.
  scenario nvlink_crc_storm h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_NVLINK_ERRORS="5:2:1241:37:0"
  run 10_topology.sh
  expect_rc 1
  expect '^PASS nvlink: expected 18 links x 26.562 GB/s on each GPU, measured all active$'
  expect '^FAIL NVLink GPU 5 link 2 errors: expected CRC < 100, replay < 100, recovery < 1, measured CRC 1241, replay 37, recovery 0 \(GPU 5 link 2: NVLink errors at a failing rate'
  expect_not '^(PASS|WARN) nvlink_errors'
  run_rest
  expect_stages "0 1 0 0 0"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"code": "nvlink_error_storm"'
  expect '"at": "5:2"'
  expect_not '"line_code": "nvlink_error_storm"'
fi

if wanted nvlink_recovery; then
  # Two recovery errors (the link went down and retrained) on GPU 1 link 7: FAIL at DCGM's 1.
  scenario nvlink_recovery h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_NVLINK_ERRORS="1:7:0:0:2"
  run 10_topology.sh
  expect_rc 1
  expect '^FAIL NVLink GPU 1 link 7 errors: .*measured CRC 0, replay 0, recovery 2 '
  run_rest
  expect_stages "0 1 0 0 0"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"code": "nvlink_error_storm"'
fi

if wanted nvlink_errors_few; then
  # A few CRC/replay errors, below the limits: WARN to read again after the burn-in.
  scenario nvlink_errors_few h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_NVLINK_ERRORS="5:2:3:1:0"
  run 10_topology.sh
  expect_rc 0
  expect '^WARN nvlink_errors: expected 0, measured 4 \(CRC/replay errors on NVLink, below the failing limits'
  expect_not '^FAIL'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  expect_rc 0
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect '"code": "nvlink_errors"'
  expect '"overall": "warn"'
fi

if wanted row_remap_pending; then
  # GPU 3 has a remap pending after an uncorrectable error: FAIL with the GPU's bus ID.
  scenario row_remap_pending h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_REMAP=pending:3
  run 00_inventory.sh
  expect_rc 1
  expect '^FAIL row_remapper: expected no pending remaps, measured 1 GPU\(s\) pending \(00000000:48:00.0\) \(an uncorrectable memory error waits for a reset on 00000000:48:00.0'
  run_rest
  expect_stages "1 0 0 0 0"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"code": "row_remap_pending"'
  expect_not '"line_code": "row_remap_pending"'
fi

if wanted row_remap_failure; then
  scenario row_remap_failure h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_REMAP=failure:6
  run 00_inventory.sh
  expect_rc 1
  expect '^FAIL row_remapper: expected no remap failures, measured 1 GPU\(s\) with a failed remap \(00000000:78:00.0\)'
  run_rest
  expect_stages "1 0 0 0 0"
  run 90_summary.sh
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"code": "row_remap_failure"'
fi

if wanted part_4090d; then
  # A 4090D (425 W, fewer SMs) delivered on a 4090 plan: FAIL on the part, whatever else passes.
  scenario part_4090d rtx4090_4x
  export STANDIN_PROFILE=rtx4090 STANDIN_SCENARIO=healthy STANDIN_NAME="NVIDIA GeForce RTX 4090 D" STANDIN_POWER_LIMIT=425.00
  run 00_inventory.sh
  expect_rc 1
  expect '^FAIL GPU 0 name: expected NVIDIA GeForce RTX 4090, measured NVIDIA GeForce RTX 4090 D \(GPU 0 is not the planned part'
  expect '^WARN GPU 0 power.limit: expected 450 W, measured 425.00 W'
  run_rest
  expect_stages "1 0 0 0 0"
  run 90_summary.sh
  expect_rc 1
  check_back rtx4090_4x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"code": "part_mismatch"'
  expect '"message": "GPU 0 is a NVIDIA GeForce RTX 4090 D, not the planned NVIDIA GeForce RTX 4090 \(and 3 more\)'
fi

if wanted part_h800; then
  # An H800 (NVLink cut to 400 GB/s) delivered on an H100 plan.
  scenario part_h800 h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_NAME="NVIDIA H800"
  run 00_inventory.sh
  expect_rc 1
  expect '^FAIL GPU 0 name: expected NVIDIA H100 80GB HBM3'
  run_rest
  expect_stages "1 0 0 0 0"
  run 90_summary.sh
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"code": "part_mismatch"'
fi

if wanted healthy_a800; then
  # HGX A800: NV8, fabric state N/A (Ampere), R535 forward compatibility.
  scenario healthy_a800 a800_8x
  export STANDIN_PROFILE=a800 STANDIN_SCENARIO=healthy
  run 00_inventory.sh
  expect_rc 0
  expect '^PASS memory.total: expected 81920 MiB on each GPU, measured 81920 MiB$'
  expect '^PASS row_remapper'
  run 10_topology.sh
  expect_rc 0
  expect '^SKIP fabric_state: .*measured N/A on 8'
  expect '^PASS topology: expected NV8 between all GPU pairs, measured NV8$'
  expect '^PASS nvlink: expected 8 links x 25 GB/s on each GPU, measured all active$'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  expect_rc 0
  expect ': 0 FAIL, 0 WARN from'
  check_back a800_8x "$VALIDATION_DIR/validation-result.json"
  expect '"overall": "pass"'
fi

if wanted healthy_h20; then
  scenario healthy_h20 h20_8x
  export STANDIN_PROFILE=h20 STANDIN_SCENARIO=healthy
  run 00_inventory.sh
  expect_rc 0
  expect '^PASS memory.total: expected 97871 MiB on each GPU, measured 97871 MiB$'
  expect '^PASS power.limit: expected 500 W'
  run 10_topology.sh
  expect_rc 0
  expect '^PASS fabric_state: expected Completed on 8 GPUs, measured Completed on 8$'
  expect '^PASS topology: expected NV18 between all GPU pairs, measured NV18$'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  expect_rc 0
  expect ': 0 FAIL, 0 WARN from'
  check_back h20_8x "$VALIDATION_DIR/validation-result.json"
  expect '"overall": "pass"'
fi

if wanted healthy_l40s; then
  scenario healthy_l40s l40s_4x
  export STANDIN_PROFILE=l40s STANDIN_SCENARIO=healthy
  run 00_inventory.sh
  expect_rc 0
  expect '^PASS memory.total: expected 46068 MiB on each GPU, measured 46068 MiB$'
  expect '^SKIP row_remapper: expected no pending or failed remaps, measured N/A \(this part has no row remapping'
  run 10_topology.sh
  expect_rc 0
  expect '^PASS peer_to_peer: expected all 12 pairs, measured all$'
  expect_not '^(PASS|WARN|FAIL|SKIP) (NVLink|nvlink)'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  expect_rc 0
  expect ': 0 FAIL, 0 WARN from'
  check_back l40s_4x "$VALIDATION_DIR/validation-result.json"
  expect '"overall": "pass"'
fi

if wanted multinode_roce; then
  # 2x 8 H100 over 400GbE RoCE: the compute ports' link layer is Ethernet, the 100G management
  # port is no fault, and NCCL runs NET/IB over RoCE devices.
  scenario multinode_roce h100_2x8_roce
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_NET=roce STANDIN_STEP_USED_BYTES=75161927680
  run 10_topology.sh
  expect_rc 0
  expect '^PASS network_ports: expected 8 Ethernet ports Active at 400 Gb/s, measured 8$'
  expect '^PASS roce_gid: expected a RoCE v2 GID with an IPv4 address on 8 NICs, measured index 3 on all$'
  expect '^PASS roce_qos: expected PFC and ECN on priority 3, measured on for every NIC$'
  expect_not '^WARN'
  MASTER_ADDR=127.0.0.1 NODE_RANK=0 run 30_nccl.sh
  expect_rc 0
  expect '^NCCL_IB_GID_INDEX=3 \(the RoCE v2 GID 10_topology.sh found'
  if grep -q 'NCCL INFO NCCL_IB_GID_INDEX set by environment to 3[.]' "$VALIDATION_DIR/allreduce_inter.log"; then ok; else bad "NCCL did not get NCCL_IB_GID_INDEX=3"; fi
  expect '^PASS nccl_network: expected NET/IB, measured NET/IB$'
  expect '^PASS allreduce_inter_node: expected >= 80% of 180 GB/s, measured 187.50 GB/s via ib$'
  run_rest
  expect_stages "0 0 0 0 0"
  run 90_summary.sh
  expect_rc 0
  check_back h100_2x8_roce "$VALIDATION_DIR/validation-result.json"
  expect_not '"status": "fail"'
fi

if wanted roce_qos_warn; then
  # PFC off on one RoCE NIC (ECN on: lossy RoCE), ECN off on another (PFC on): WARN each, by name.
  scenario roce_qos_warn h100_2x8_roce
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_NET=roce STANDIN_STEP_USED_BYTES=75161927680 \
    STANDIN_PFC_OFF=mlx5_4 STANDIN_ECN_OFF=mlx5_2
  run 10_topology.sh
  expect_rc 0
  expect '^WARN roce_qos mlx5_4: expected PFC on priority 3, measured off on ens14np0 \(ECN on\) \(mlx5_4 \(ens14np0\): lossy RoCE, .*mlnx_qos -i ens14np0 --trust dscp --pfc 0,0,0,1,0,0,0,0'
  expect '^WARN roce_qos mlx5_2: expected ECN on priority 3, measured off on ens12np0 \(PFC on\) \(.*echo 1 > /sys/class/net/ens12np0/ecn/roce_np/enable/3'
  expect_not '^PASS roce_qos'
  matrix_row h100_2x8_roce "0 0 0 0 0" 0
  expect '"line_code": "roce_pfc_off"'
  expect '"line_code": "roce_ecn_off"'
fi

if wanted roce_lossless_off; then
  # Neither PFC nor ECN on the RoCE priority of one NIC: it drops under load, FAIL.
  scenario roce_lossless_off h100_2x8_roce
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_NET=roce STANDIN_STEP_USED_BYTES=75161927680 \
    STANDIN_PFC_OFF=mlx5_1 STANDIN_ECN_OFF=mlx5_1
  run 10_topology.sh
  expect_rc 1
  expect '^FAIL roce_qos mlx5_1: expected PFC and ECN on priority 3, measured both off on ens11np0 \(mlx5_1 \(ens11np0\): no PFC and no ECN'
  matrix_row h100_2x8_roce "0 1 0 0 0" 1
  expect '"line_code": "roce_lossless_off"'
fi

if wanted roce_no_ipv4_gid; then
  # One RoCE NIC's netdev has no IPv4 address: no RoCE v2 GID NCCL can use on it, FAIL naming it;
  # the others' index still goes to the NCCL stage.
  scenario roce_no_ipv4_gid h100_2x8_roce
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_NET=roce STANDIN_STEP_USED_BYTES=75161927680 \
    STANDIN_ROCE_NO_IPV4=mlx5_6
  run 10_topology.sh
  expect_rc 1
  expect '^FAIL roce_gid mlx5_6: expected a RoCE v2 GID with an IPv4 address, measured none \(mlx5_6 port 1 has no RoCE v2 GID'
  expect_not '^PASS roce_gid'
  if [ "$(cat "$VALIDATION_DIR/nccl_roce.env")" = NCCL_IB_GID_INDEX=3 ]; then ok; else bad "nccl_roce.env is not NCCL_IB_GID_INDEX=3"; fi
  matrix_row h100_2x8_roce "0 1 0 0 0" 1
  expect '"line_code": "roce_gid_missing"'
fi

if wanted roce_gid_differs; then
  # mlx5_3's RoCE v2 GID sits at index 5, the others' at 3: one NCCL_IB_GID_INDEX cannot serve
  # both, so WARN and hand NCCL none (it picks per NIC).
  scenario roce_gid_differs h100_2x8_roce
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_NET=roce STANDIN_STEP_USED_BYTES=75161927680 \
    STANDIN_GID_MOVED=mlx5_3
  run 10_topology.sh
  expect_rc 0
  expect '^WARN roce_gid: expected one RoCE v2 GID index on every NIC, measured indexes 3 5 \(NCCL_IB_GID_INDEX is one number'
  if [ ! -e "$VALIDATION_DIR/nccl_roce.env" ]; then ok; else bad "nccl_roce.env written for differing indexes"; fi
  MASTER_ADDR=127.0.0.1 NODE_RANK=0 run 30_nccl.sh
  expect_rc 0
  expect_not '^NCCL_IB_GID_INDEX='
  matrix_row h100_2x8_roce "0 0 0 0 0" 0
  expect '"line_code": "roce_gid_index_differs"'
fi

if wanted link_flap_nccl; then
  # mlx5_4 goes down and comes back during the cross-server all-reduce: 30_nccl FAILs naming it.
  scenario link_flap_nccl h100_2x8_ib
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_STEP_USED_BYTES=75161927680 STANDIN_FLAP=mlx5_4:nccl
  MASTER_ADDR=127.0.0.1 NODE_RANK=0 run 30_nccl.sh
  expect_rc 1
  expect '^FAIL link_flaps mlx5_4/1: expected link_downed, link_error_recovery, symbol_error unchanged during 30_nccl.sh, measured link_downed \+1, link_error_recovery \+1 \(port mlx5_4/1 went down'
  expect '^PASS allreduce_inter_node'
  matrix_row h100_2x8_ib "0 0 0 1 0" 1
  expect '"line_code": "link_flap"'
fi

if wanted link_flap_burnin; then
  # A RoCE port flaps during the burn-in: 40_burnin FAILs naming it.
  scenario link_flap_burnin h100_2x8_roce
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_NET=roce STANDIN_STEP_USED_BYTES=75161927680 \
    STANDIN_FLAP=mlx5_7:burnin
  run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 1
  expect '^FAIL link_flaps mlx5_7/1: .*unchanged since the burn-in started, measured link_downed \+1, link_error_recovery \+1'
  matrix_row h100_2x8_roce "0 0 0 0 1" 1
  expect '"line_code": "link_flap"'
fi

# server HOST RANK "RC00 RC10 RC20 RC30 RC40" RC: one server of a cluster plays its part: every
# stage (30_nccl.sh across servers as NODE_RANK RANK, the burn-in for the plan's length) into its
# own VALIDATION_DIR, then 90_summary.sh; asserts each stage's exit status and the summary's.
server() {
  export STANDIN_HOST="$1" VALIDATION_DIR="$WORK/$CURRENT/$1"
  STAGE_RC=()
  MASTER_ADDR=10.0.0.1 NODE_RANK="$2" run 30_nccl.sh
  run_rest
  expect_stages "$3"
  run 90_summary.sh
  expect_rc "$4"
}
check_servers() {  # check_servers CASE FILE...: the cluster report of the files into OUT
  set +e
  OUT="$("$TOOL" check-servers "$@" 2>&1)"
  RC=$?
  set -e
}

if wanted cluster_merge; then
  # Two servers of a 2x8 IB plan, each with its own result file: check merges them into one
  # verdict; a server without a file, or one server's file given twice, FAILs.
  scenario cluster_merge h100_2x8_ib
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_STEP_USED_BYTES=75161927680
  server gpu-node-01 0 "0 0 0 0 0" 0
  server gpu-node-02 1 "0 0 0 0 0" 0
  A="$WORK/$CURRENT/gpu-node-01/validation-result.json"
  B="$WORK/$CURRENT/gpu-node-02/validation-result.json"
  check_servers h100_2x8_ib "$A" "$B"
  expect_rc 0
  expect '"kind": "cluster"'
  expect '"overall": "pass"'
  expect '"host": "gpu-node-02"'
  check_servers h100_2x8_ib "$A"
  expect_rc 1
  expect '"message": "1 of 2 servers sent a result file \(gpu-node-01\): run the scripts'
  check_servers h100_2x8_ib "$A" "$A"
  expect_rc 1
  expect '"code": "server_duplicate"'
  check_servers h100_2x8_ib "$B"
  expect_rc 1
  expect '"code": "server_missing"'
  expect '"code": "inter_node_not_measured"'
fi

if wanted cluster_one_bad; then
  # Server 2 of 2 has an IB port down: its report FAILs, server 1's passes, the cluster FAILs.
  scenario cluster_one_bad h100_2x8_ib
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_STEP_USED_BYTES=75161927680
  server gpu-node-01 0 "0 0 0 0 0" 0
  export STANDIN_SCENARIO=ib_down
  server gpu-node-02 1 "0 1 0 0 0" 1
  check_servers h100_2x8_ib "$WORK/$CURRENT/gpu-node-01/validation-result.json" \
    "$WORK/$CURRENT/gpu-node-02/validation-result.json"
  expect_rc 1
  expect '"overall": "fail"'
  if python3 - "$OUT" << 'PY'; then ok; else bad "per-server verdicts are not pass, fail"; fi
import json, sys
c = json.loads(sys.argv[1])
assert [(s["host"], s["overall"]) for s in c["servers"]] == [("gpu-node-01", "pass"), ("gpu-node-02", "fail")]
assert c["counts"] == {"pass": 1, "warn": 0, "fail": 1}
PY
fi

if wanted sdc; then
  # GPU 4's GEMM differs from its reference during the burn-in, with no error anywhere else:
  # silent data corruption, FAIL.
  scenario sdc h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=healthy STANDIN_SDC_GPU=4
  run 40_burnin.sh --hours 0.0005 --interval 1
  expect_rc 1
  expect '^FAIL burn_results: expected every GEMM, memory block and all-reduce equal to its reference, measured mismatches on GPU 4 \(2\) \(silent data corruption'
  expect '^PASS burnin_gpus: expected no throttling'
  run_rest
  expect_stages "0 0 0 0 1"
  run 90_summary.sh
  expect_rc 1
  check_back h100_8x "$VALIDATION_DIR/validation-result.json"
  expect_rc 1
  expect '"line_code": "sdc_detected"'
fi

if wanted identity_warn; then
  # Issue 28 item 7: persistence mode off on three GPUs of a data-centre server, then VBIOS
  # versions that differ in one server: recorded, WARN, the server passes with warnings.
  scenario persistence_off h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=persistence_off
  run 00_inventory.sh
  expect_rc 0
  expect '^WARN persistence_mode: expected Enabled, measured Disabled on GPU 1 4 7 \(.*nvidia-smi -pm 1'
  expect '^PASS mig_mode: expected Disabled \(whole GPUs\)'
  expect '^PASS serial: expected one serial per GPU, measured 8 serials recorded'
  expect_not '^FAIL'
  matrix_row h100_8x "0 0 0 0 0" 0
  expect '"code": "persistence_off"'
  expect_not '"line_code": "persistence_off"'
  expect '"overall": "warn"'
  scenario vbios_mixed h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=vbios_mixed
  run 00_inventory.sh
  expect_rc 0
  expect '^WARN vbios_version: expected one VBIOS version, measured 96.00.89.00.01 96.00.74.00.0D'
  expect '^PASS persistence_mode'
  matrix_row h100_8x "0 0 0 0 0" 0
  expect '"code": "vbios_mixed"'
  expect_not '"line_code": "vbios_mixed"'
  expect '"overall": "warn"'
  if grep -q '"gpu.5.vbios_version": "96.00.74.00.0D"' "$VALIDATION_DIR/validation-result.json"; then ok; else bad "gpu.5.vbios_version not recorded"; fi
  if grep -q '"fabric_manager_version": "570.86.10"' "$VALIDATION_DIR/validation-result.json"; then ok; else bad "fabric_manager_version not recorded"; fi
fi

if wanted identity_fail; then
  # A MIG-enabled GPU (a slice is not the GPU planned) and two boards with one serial: FAIL.
  scenario mig_enabled h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=mig_enabled
  run 00_inventory.sh
  expect_rc 1
  expect '^FAIL mig_mode: expected Disabled, measured Enabled on GPU 2 \(a MIG slice is not the whole GPU'
  matrix_row h100_8x "1 0 0 0 0" 1
  expect '"code": "mig_enabled"'
  expect_not '"line_code": "mig_enabled"'
  expect '"overall": "fail"'
  scenario serial_duplicate h100_8x
  export STANDIN_PROFILE=h100 STANDIN_SCENARIO=serial_duplicate
  run 00_inventory.sh
  expect_rc 1
  expect '^FAIL serial: expected one serial per GPU, measured serial 1652023001234 on more than one GPU'
  matrix_row h100_8x "1 0 0 0 0" 1
  expect '"code": "serial_duplicate"'
  expect_not '"line_code": "serial_duplicate"'
  # GeForce: no serial, persistence off as shipped, no MIG: recorded, no verdict.
  scenario identity_geforce rtx4090_4x
  export STANDIN_PROFILE=rtx4090 STANDIN_SCENARIO=healthy
  run 00_inventory.sh
  expect_rc 0
  expect '^PASS persistence_mode'
  expect '^PASS serial: expected one serial per GPU, measured none reported \(N/A\)'
  expect_not '^WARN'
fi

printf 'stand-in runs: %d scenarios, %d assertions passed, %d failed\n' "$SCENARIOS" "$PASSED" "$FAILED"
[ "$FAILED" -eq 0 ]
