# shellcheck shell=bash

IMAGE="$REGISTRY/nvidia/pytorch:${NGC_TAG}-py3"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
echo "image: $IMAGE (set REGISTRY=<mirror> for a Harbor mirror; offline: docker load -i pytorch-$NGC_TAG.tar)"
echo "why this tag: $NGC_REASON"

gib() { awk -v b="$1" 'BEGIN { printf "%.1f GiB", b / 1073741824 }'; }
probe() { printf '%s\n' "$PROBE_OUT" | awk -v k="$1" '$1 == "PROBE" && $2 == k { v = $3 } END { print v }'; }

if ! have docker; then
  fail software docker docker "not found" docker_missing "install Docker and the NVIDIA Container Toolkit (root)"
  finish
fi
if ! docker info > /dev/null 2>&1; then
  fail software docker "a reachable docker daemon" "not reachable" docker_unreachable \
    "add your user to the docker group (root: usermod -aG docker <user>) or run this script with sudo"
  finish
fi
if ! docker image inspect "$IMAGE" > /dev/null 2>&1; then
  echo "pulling $IMAGE ..."
  if ! docker pull "$IMAGE"; then
    fail software container_image "$IMAGE" "pull failed" image_pull_failed "set REGISTRY to a reachable mirror, or docker load a saved image"
    finish
  fi
fi
pass software container_image "$IMAGE" present ok
measure_str ngc_tag "$NGC_TAG"

set +e
PROBE_OUT="$(docker run --rm --gpus all --ipc=host --ulimit memlock=-1 --ulimit stack=67108864 \
  -v "$SCRIPT_DIR:/w:ro" "$IMAGE" python /w/probe.py 2>&1)"
rc=$?
set -e
printf '%s\n' "$PROBE_OUT" > "$VALIDATION_DIR/probe.log"
devices="$(probe device_count)"
if ! is_number "$devices"; then
  last="$(printf '%s\n' "$PROBE_OUT" | grep -v '^[[:space:]]*$' | tail -n 1)"
  if grep -qiE 'driver version is insufficient|unsatisfied condition: cuda|driver.*too old' <<<"$PROBE_OUT"; then
    fail software container_run "the probe runs" "exit $rc: $last" driver_too_old_for_container \
      "the host driver is older than NGC $NGC_TAG needs (>= $MIN_DRIVER): upgrade it (root) or set NGC_TAG to an older tag (00_inventory.sh names one)"
  elif grep -qi 'could not select device driver' <<<"$PROBE_OUT"; then
    fail software container_run "the probe runs" "exit $rc: $last" container_toolkit_missing \
      "install the NVIDIA Container Toolkit and restart docker (root)"
  else
    fail software container_run "the probe runs" "exit $rc: $last" probe_failed "see $VALIDATION_DIR/probe.log"
  fi
  finish
fi

measure_str torch_version "$(probe torch_version)"
measure_str container_cuda_version "$(probe cuda_version)"
measure container_device_count "$devices"
echo "container: torch $(probe torch_version), CUDA $(probe cuda_version), $devices GPUs"
if [ "$devices" -eq "$EXPECTED_GPUS" ]; then
  pass compute container_gpus "$EXPECTED_GPUS" "$devices" ok
else
  fail compute container_gpus "$EXPECTED_GPUS" "$devices" container_gpus_missing \
    "the container sees a different number of GPUs than planned: check CUDA_VISIBLE_DEVICES and the container toolkit"
fi

gemm_bad=0
gemm_seen=""
for ((i = 0; i < devices; i++)); do
  cap="$(probe "gpu.$i.capability")"
  tf="$(probe "gpu.$i.gemm_tflops")"
  measure "gpu.$i.gemm_tflops" "$tf"
  gemm_seen="$(add_word "$gemm_seen" "$tf")"
  if [ "$cap" != "$EXPECTED_COMPUTE_CAP" ]; then
    fail compute "GPU $i capability in the container" "$EXPECTED_COMPUTE_CAP" "$cap" compute_capability_mismatch "not the planned architecture"
  fi
  r="$(ratio "${tf:-0}" "$EXPECTED_GEMM_TFLOPS")"
  if num_ge "$r" 1.15; then
    warn compute "GPU $i bf16 GEMM" "$EXPECTED_GEMM_TFLOPS TFLOPS" "$tf TFLOPS" gemm_faster_than_plan \
      "GPU $i beats the plan's matmul fraction $MATMUL_FRACTION: the plan is conservative"
  elif num_ge "$r" 0.9; then
    :
  elif num_ge "$r" 0.75; then
    gemm_bad=$((gemm_bad + 1))
    warn compute "GPU $i bf16 GEMM" "$EXPECTED_GEMM_TFLOPS TFLOPS" "$tf TFLOPS" gemm_slow \
      "GPU $i reaches $r of the planned rate: check clocks, power limit and throttling (nvidia-smi -q -d PERFORMANCE)"
  else
    gemm_bad=$((gemm_bad + 1))
    fail compute "GPU $i bf16 GEMM" "$EXPECTED_GEMM_TFLOPS TFLOPS" "$tf TFLOPS" gemm_slow \
      "GPU $i reaches $r of the planned rate: check clocks, power limit and throttling (nvidia-smi -q -d PERFORMANCE)"
  fi
done
if [ "$gemm_bad" -eq 0 ] && [ "$devices" -gt 0 ]; then
  pass compute bf16_gemm "$EXPECTED_GEMM_TFLOPS TFLOPS ($BF16_PEAK_TFLOPS peak x $MATMUL_FRACTION) -10%" "$gemm_seen TFLOPS" ok
fi

step_status="$(probe step.status)"
used="$(probe step.device_used_bytes)"
measure_str step_status "${step_status:-not_run}"
measure step_device_used_bytes "${used:-}"
measure step_peak_reserved_bytes "$(probe step.peak_reserved_bytes)"
measure step_tokens_per_second_per_gpu "$(probe step.tokens_per_second)"
expected_mem="$(gib "$MEMORY_PER_GPU_BYTES") (band $(gib "$MEMORY_BAND_LOW_BYTES") - $(gib "$MEMORY_BAND_HIGH_BYTES"))"
case "$step_status" in
  oom)
    fail memory one_step "$expected_mem" "out of memory" memory_oom \
      "one step of $PROBE_MODEL does not fit: lower the micro-batch or sequence length, or spread the model over more GPUs"
    ;;
  ok)
    if num_ge "$used" "$MEMORY_BAND_HIGH_BYTES" && [ "$used" != "$MEMORY_BAND_HIGH_BYTES" ]; then
      fail memory one_step "$expected_mem" "$(gib "$used")" memory_above_band \
        "one step of $PROBE_MODEL uses more than the plan's band: expect out-of-memory on longer runs"
    elif [ "$PROBE_LAYERS" -lt "$PROBE_LAYERS_PLANNED" ]; then
      # A reduced slice (ZeRO, LoRA or quantised plans hold less than bf16 weights and gradients
      # of every layer): it fits the plan's memory, and below the band is expected.
      pass memory one_step "<= $(gib "$MEMORY_BAND_HIGH_BYTES")" "$(gib "$used") ($PROBE_LAYERS of $PROBE_LAYERS_PLANNED layers)" ok
    elif ! num_ge "$used" "$MEMORY_BAND_LOW_BYTES"; then
      warn memory one_step "$expected_mem" "$(gib "$used")" memory_below_band "uses less than planned: the estimate is conservative here"
    else
      pass memory one_step "$expected_mem" "$(gib "$used")" ok
    fi
    ;;
  *)
    skip memory one_step "$expected_mem" "not run" step_not_run "the probe did not reach the model step: see $VALIDATION_DIR/probe.log"
    ;;
esac
if [ "$rc" -ne 0 ]; then
  fail compute container_run "the probe exits 0" "exit $rc" probe_failed "see $VALIDATION_DIR/probe.log"
fi

finish
