# shellcheck shell=bash

IMAGE="$REGISTRY/nvidia/pytorch:${NGC_TAG}-py3"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
IB_ARGS=()
if [ -e /dev/infiniband ]; then IB_ARGS=(--device /dev/infiniband --cap-add IPC_LOCK); fi
# RoCE: the RoCE v2 GID index 10_topology.sh found on every NIC, unless NCCL_IB_GID_INDEX is set.
if [ "$NETWORK" = roce ] && [ -z "${NCCL_IB_GID_INDEX:-}" ] && [ -s "$VALIDATION_DIR/nccl_roce.env" ]; then
  NCCL_IB_GID_INDEX="$(sed -n 's/^NCCL_IB_GID_INDEX=\([0-9][0-9]*\)$/\1/p' "$VALIDATION_DIR/nccl_roce.env")"
fi
if [ -n "${NCCL_IB_GID_INDEX:-}" ]; then
  export NCCL_IB_GID_INDEX
  IB_ARGS+=(-e "NCCL_IB_GID_INDEX=$NCCL_IB_GID_INDEX")
  echo "NCCL_IB_GID_INDEX=$NCCL_IB_GID_INDEX (the RoCE v2 GID 10_topology.sh found; NCCL_IB_GID_INDEX=<n> overrides)"
  measure nccl_ib_gid_index "$NCCL_IB_GID_INDEX"
fi
# Link flaps: the InfiniBand/RoCE ports' error counters before the all-reduce, compared after it.
LINK_BEFORE="$VALIDATION_DIR/link_counters.nccl"
if [ "$NETWORK" = infiniband ] || [ "$NETWORK" = roce ]; then link_counters > "$LINK_BEFORE"; fi

# run_allreduce NNODES: all-reduce bus bandwidth from 1 MiB to MAX_BYTES, NCCL_DEBUG=INFO.
# With ALL_REDUCE_PERF=<path to nccl-tests all_reduce_perf> the single-node run uses it instead.
run_allreduce() {
  local nnodes="$1"
  local -a dist=(--nproc_per_node="$GPUS_PER_SERVER")
  if [ "$nnodes" -gt 1 ]; then
    dist+=(--nnodes="$nnodes" --node_rank="${NODE_RANK:-0}" --master_addr="$MASTER_ADDR" --master_port="${MASTER_PORT:-29500}")
  fi
  if [ -n "${ALL_REDUCE_PERF:-}" ] && [ "$nnodes" -eq 1 ]; then
    NCCL_DEBUG=INFO "$ALL_REDUCE_PERF" -b 8 -e "$MAX_BYTES" -f 2 -g "$GPUS_PER_SERVER" 2>&1
    return
  fi
  docker run --rm --gpus all --ipc=host --network host ${IB_ARGS[@]+"${IB_ARGS[@]}"} --ulimit memlock=-1 --ulimit stack=67108864 \
    -e NCCL_DEBUG=INFO -v "$SCRIPT_DIR:/w:ro" "$IMAGE" \
    torchrun "${dist[@]}" /w/allreduce.py --max-bytes "$MAX_BYTES" 2>&1
}

# "bytes busbw" of the largest message (probe lines or nccl-tests rows).
busbw_of() {
  printf '%s\n' "$1" | awk '
    $1 == "PROBE" && $2 == "allreduce" { if ($3 + 0 >= size) { size = $3 + 0; bw = $5 } }
    $1 ~ /^[0-9]+$/ && NF >= 8 && $3 ~ /^(float|half|bfloat16|double|int32|int8)$/ { if ($1 + 0 >= size) { size = $1 + 0; bw = $8 } }
    END { if (size > 0) print size, bw }'
}
intra_transport() {
  if grep -q 'NVLS' <<< "$1"; then echo nvls
  elif grep -q 'via P2P' <<< "$1"; then echo p2p
  elif grep -q 'via SHM' <<< "$1"; then echo shm
  else echo unknown; fi
}
net_transport() {
  if grep -q 'NET/IB' <<< "$1"; then echo ib
  elif grep -q 'NET/Socket' <<< "$1"; then echo socket
  else echo none; fi
}

# check_busbw NAME EXPECTED_GBPS MEASURED_GBPS TRANSPORT
check_busbw() {
  local name="$1" expected="$2" got="$3" transport="$4" r
  local want=">= 80% of $expected GB/s"
  r="$(ratio "$got" "$expected")"
  if num_ge "$r" 0.8; then
    pass interconnect "$name" "$want" "$got GB/s via $transport" ok
  elif [ "$name" = allreduce ] && { [ "$INTRA_LINK" = nvswitch ] || [ "$INTRA_LINK" = nvlink_bridge ]; } && ! num_ge "$got" "$PCIE_GBPS"; then
    fail interconnect "$name" "$want" "$got GB/s via $transport" busbw_on_pcie \
      "busbw $got GB/s: traffic is on PCIe, not NVLink; run 10_topology.sh (fabric manager, NVLink status)"
  elif num_ge "$r" 0.6; then
    warn interconnect "$name" "$want" "$got GB/s via $transport" busbw_low "busbw is $r of the plan: steps will be slower than planned"
  else
    fail interconnect "$name" "$want" "$got GB/s via $transport" busbw_low "busbw is $r of the plan: steps will be much slower than planned"
  fi
}

docker_ready() {
  if [ -n "${ALL_REDUCE_PERF:-}" ]; then return 0; fi
  if ! have docker || ! docker info > /dev/null 2>&1; then
    fail software docker "a reachable docker daemon" "not reachable" docker_unreachable "run 20_container.sh first: it says what is missing"
    return 1
  fi
}

if [ "$GPUS_PER_SERVER" -gt 1 ]; then
  docker_ready || finish
  set +e
  OUT="$(run_allreduce 1)"
  rc=$?
  set -e
  printf '%s\n' "$OUT" > "$VALIDATION_DIR/allreduce_intra.log"
  read -r size busbw <<< "$(busbw_of "$OUT")" || true
  if [ -z "${busbw:-}" ]; then
    fail interconnect allreduce ">= 80% of $EXPECTED_BUSBW_GBPS GB/s" "exit $rc, no result" nccl_failed "see $VALIDATION_DIR/allreduce_intra.log"
  else
    transport="$(intra_transport "$OUT")"
    measure allreduce_busbw_gbps "$busbw"
    measure allreduce_bytes "$size"
    measure_str nccl_transport_intra "$transport"
    check_busbw allreduce "$EXPECTED_BUSBW_GBPS" "$busbw" "$transport"
  fi
else
  skip interconnect allreduce "one GPU per server" "not run" single_gpu "nothing to all-reduce inside one server"
fi

if [ "$SERVERS" -gt 1 ]; then
  if [ -z "${MASTER_ADDR:-}" ]; then
    skip interconnect allreduce_inter_node ">= 80% of $INTER_NODE_BUSBW_GBPS GB/s" "not run" needs_all_servers \
      "run on all $SERVERS servers at once: MASTER_ADDR=<server 0> NODE_RANK=<0..$((SERVERS - 1))> $0"
  else
    docker_ready || finish
    set +e
    OUT="$(run_allreduce "$SERVERS")"
    rc=$?
    set -e
    printf '%s\n' "$OUT" > "$VALIDATION_DIR/allreduce_inter.log"
    net="$(net_transport "$OUT")"
    measure_str nccl_transport_net "$net"
    busbw=""
    read -r size busbw <<< "$(busbw_of "$OUT")" || true
    if [ "$net" = socket ]; then
      fail interconnect nccl_network "NET/IB" "NET/Socket" nccl_on_socket \
        "NCCL fell back to TCP sockets: pass /dev/infiniband into the container, set NCCL_IB_HCA, and check 10_topology.sh (ibstat)"
    elif { [ "$NETWORK" = infiniband ] || [ "$NETWORK" = roce ]; } && [ "$net" = ib ]; then
      # RoCE runs through NCCL's IB transport too: its devices print /RoCE (NCCL_DEBUG=INFO).
      pass interconnect nccl_network "NET/IB" "NET/IB" ok
    fi
    if [ "${NODE_RANK:-0}" != 0 ]; then
      skip interconnect allreduce_inter_node ">= 80% of $INTER_NODE_BUSBW_GBPS GB/s" "on server 0" measured_on_rank0 "server 0 prints the bandwidth"
    elif [ -z "$busbw" ]; then
      fail interconnect allreduce_inter_node ">= 80% of $INTER_NODE_BUSBW_GBPS GB/s" "exit $rc, no result" nccl_failed "see $VALIDATION_DIR/allreduce_inter.log"
    else
      measure inter_node_busbw_gbps "$busbw"
      check_busbw allreduce_inter_node "$INTER_NODE_BUSBW_GBPS" "$busbw" "$net"
    fi
  fi
fi

if [ "$NETWORK" = infiniband ] || [ "$NETWORK" = roce ]; then
  link_flap_report "$LINK_BEFORE" "during 30_nccl.sh" link_flaps_nccl
fi

finish
