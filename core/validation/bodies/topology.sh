# shellcheck shell=bash

topo_ok() {
  local e
  [ "${#EXPECTED_TOPO[@]}" -gt 0 ] || return 0
  for e in "${EXPECTED_TOPO[@]}"; do
    if [ "$e" = "$1" ]; then return 0; fi
    if [ "$e" = "NV*" ] && [[ "$1" == NV[0-9]* ]]; then return 0; fi
  done
  return 1
}

# why ENTRY: sets code and reason for a topo entry other than the planned one.
why() {
  if [[ "$1" == NV[0-9]* ]]; then
    code=topo_nvlink_count
    reason="fewer NVLink links than planned: see the NVLink status below"
  else
    code=traffic_on_pcie
    reason="the GPUs talk over PCIe ($1), not NVLink"
  fi
}

# Prints "i j entry" for every pair of GPUs in a `nvidia-smi topo -m` / `topo -p2p r` matrix.
gpu_pairs() {
  awk '
    { gsub(/\033\[[0-9;]*m/, "") }
    !hdr && $1 ~ /^GPU[0-9]+$/ { ng = 0; for (k = 1; k <= NF; k++) if ($k ~ /^GPU[0-9]+$/) ng++; hdr = 1; next }
    hdr && $1 ~ /^GPU[0-9]+$/ { i = substr($1, 4); for (j = 0; j < ng; j++) if (j != i) print i, j, $(j + 2) }
  '
}

if ! have nvidia-smi; then
  fail software nvidia-smi "nvidia-smi on PATH" "not found" driver_missing "install the NVIDIA driver (root)"
  finish
fi

if [ "$FABRIC_MANAGER_REQUIRED" = 1 ]; then
  if have systemctl; then
    fm_state="$(systemctl is-active nvidia-fabricmanager 2>/dev/null || true)"
    fm_state="${fm_state:-unknown}"
    measure_str fabric_manager_state "$fm_state"
    if [ "$fm_state" = active ]; then
      pass interconnect fabric_manager active "$fm_state" ok
    else
      fail interconnect fabric_manager active "$fm_state" fabric_manager_inactive \
        "NVSwitch boxes need it for NVLink; root: systemctl enable --now nvidia-fabricmanager (same version as the driver)"
    fi
  else
    skip interconnect fabric_manager active "no systemctl" fabric_manager_unknown "check the nvidia-fabricmanager service by hand"
  fi
  # The fabric manager must be the driver's exact version (same branch, same release): NVIDIA
  # ships them as a pair and the fabric manager refuses to start on another driver, often after
  # a driver upgrade that left the nvidia-fabricmanager package behind. "Fabric Manager version
  # is : 535.161.08".
  fm_version=""
  if have nv-fabricmanager; then
    fm_version="$(nv-fabricmanager --version 2>/dev/null | sed -n 's/.*[Vv]ersion[^0-9]*\([0-9][0-9.]*\).*/\1/p' | head -n 1 || true)"
  fi
  measure_str fabric_manager_version "${fm_version:-unknown}"
  fm_driver="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '[:space:]' || true)"
  if [ -z "$fm_version" ] || [ -z "$fm_driver" ]; then
    skip interconnect fabric_manager_version "the driver's version" "${fm_version:-nv-fabricmanager not on PATH}" fabric_manager_version_unknown \
      "compare nv-fabricmanager --version with the driver's version by hand: they must be equal"
  elif [ "$fm_version" = "$fm_driver" ]; then
    pass interconnect fabric_manager_version "$fm_driver (the driver's)" "$fm_version" ok
  else
    fail interconnect fabric_manager_version "$fm_driver (the driver's)" "$fm_version" fabric_manager_version_mismatch \
      "the fabric manager is $fm_version and the driver $fm_driver: install nvidia-fabricmanager of exactly the driver's version (root), then systemctl restart nvidia-fabricmanager"
  fi
  FABRIC="$(nvidia-smi -q 2>/dev/null | grep -i -A 3 '^[[:space:]]*Fabric' || true)"
  completed="$(printf '%s\n' "$FABRIC" | grep -ciE 'State[[:space:]]*:[[:space:]]*Completed' || true)"
  # Ampere NVSwitch boards (HGX A100/A800) print "State : N/A" with the fabric manager running;
  # the per-GPU fabric state is reported from Hopper on.
  unreported="$(printf '%s\n' "$FABRIC" | grep -ciE 'State[[:space:]]*:[[:space:]]*(N/A|Not Supported)' || true)"
  measure fabric_completed_gpus "$completed"
  if [ "$completed" -ge "$EXPECTED_GPUS" ]; then
    pass interconnect fabric_state "Completed on $EXPECTED_GPUS GPUs" "Completed on $completed" ok
  elif [ "$completed" -eq 0 ] && [ "$unreported" -ge "$EXPECTED_GPUS" ]; then
    skip interconnect fabric_state "Completed on $EXPECTED_GPUS GPUs" "N/A on $unreported" fabric_state_not_reported \
      "these GPUs do not report a fabric state (HGX A100/A800 print N/A): the fabric manager, NVLink and busbw checks stand for it"
  else
    fail interconnect fabric_state "Completed on $EXPECTED_GPUS GPUs" "Completed on $completed" fabric_not_completed \
      "GPUs have not joined the NVLink fabric: start the fabric manager, then reset the GPUs or reboot (root)"
  fi
fi

if [ "$EXPECTED_GPUS" -gt 1 ]; then
  if TOPO="$(nvidia-smi topo -m 2>&1)"; then
    printf '%s\n' "$TOPO" > "$VALIDATION_DIR/topo.txt"
    echo "nvidia-smi topo -m (the last columns give each GPU's CPU and NUMA affinity; NIC rows show which NIC sits near which GPU):"
    printf '%s\n' "$TOPO"
    pairs=0
    mismatched=0
    entries=""
    bad_pairs=""
    declare -A BAD_ROW ENTRY_ROW
    while read -r a b entry; do
      [ -n "$a" ] || continue
      pairs=$((pairs + 1))
      entries="$(add_word "$entries" "$entry")"
      if ! topo_ok "$entry"; then
        mismatched=$((mismatched + 1))
        BAD_ROW[$a]=$((${BAD_ROW[$a]:-0} + 1))
        ENTRY_ROW[$a]="$(add_word "${ENTRY_ROW[$a]:-}" "$entry")"
        bad_pairs="$bad_pairs $a:$b:$entry"
      fi
    done <<< "$(printf '%s\n' "$TOPO" | gpu_pairs)"
    measure topo_pairs "$pairs"
    measure topo_mismatched_pairs "$mismatched"
    measure_str topo_entries "$entries"
    if [ "$pairs" -eq 0 ]; then
      fail interconnect topology "a GPU matrix" "none parsed" topo_unreadable "nvidia-smi topo -m printed no GPU matrix"
    elif [ "${#EXPECTED_TOPO[@]}" -eq 0 ]; then
      skip interconnect topology "no catalog value" "$entries" record_topo "record this entry as the part's topo_entry in data/validation.json"
    elif [ "$mismatched" -eq 0 ]; then
      pass interconnect topology "${EXPECTED_TOPO[*]} between all GPU pairs" "$entries" ok
    elif [ "$mismatched" -eq "$pairs" ]; then
      why "${entries%% *}"
      fail interconnect topology "${EXPECTED_TOPO[*]} between all GPU pairs" "$entries on all $pairs pairs" "$code" "$reason"
    else
      # A GPU wrong towards every other GPU is reported once; other pairs one by one (8 at most).
      shown=0
      culprits=" "
      for g in $(printf '%s\n' "${!BAD_ROW[@]}" | sort -n); do
        if [ "${BAD_ROW[$g]}" -ge $((EXPECTED_GPUS - 1)) ]; then
          culprits="$culprits$g "
          why "${ENTRY_ROW[$g]%% *}"
          fail interconnect "topo GPU$g" "${EXPECTED_TOPO[*]} to every other GPU" "${ENTRY_ROW[$g]} to all $((EXPECTED_GPUS - 1))" "$code" "GPU$g: $reason"
        fi
      done
      for p in $bad_pairs; do
        IFS=':' read -r a b entry <<< "$p"
        if [[ "$culprits" == *" $a "* || "$culprits" == *" $b "* ]]; then continue; fi
        shown=$((shown + 1))
        if [ "$shown" -le 8 ]; then
          why "$entry"
          fail interconnect "topo GPU$a-GPU$b" "${EXPECTED_TOPO[*]}" "$entry" "$code" "GPU$a-GPU$b: $reason"
        fi
      done
      if [ "$shown" -gt 8 ]; then echo "... $((shown - 8)) more pairs differ; see $VALIDATION_DIR/topo.txt"; fi
    fi
  else
    fail interconnect topology "nvidia-smi topo -m" "failed" topo_unreadable "$(printf '%s\n' "$TOPO" | head -n 1)"
  fi
fi

if [ "$EXPECTED_NVLINK_LINKS" -gt 0 ]; then
  if NVL="$(nvidia-smi nvlink --status 2>&1)"; then
    printf '%s\n' "$NVL" > "$VALIDATION_DIR/nvlink_status.txt"
    bad_links=0
    gpus_seen=0
    while read -r g active inactive minrate; do
      [ -n "$g" ] || continue
      gpus_seen=$((gpus_seen + 1))
      measure "nvlink.$g.active_links" "$active"
      measure_str "nvlink.$g.inactive_links" "${inactive/-/}"
      measure "nvlink.$g.min_link_gbps" "$minrate"
      if [ "$inactive" != "-" ]; then
        IFS=',' read -r -a down_links <<< "$inactive"
        bad_links=$((bad_links + ${#down_links[@]}))
        if [ "${#down_links[@]}" -le 2 ]; then
          for l in "${down_links[@]}"; do
            fail interconnect "NVLink GPU $g link $l" "$EXPECTED_NVLINK_LINK_GBPS GB/s" inactive nvlink_inactive \
              "link $l inactive on GPU $g: reseat the GPU/baseboard, then reset; replace if it stays down"
          done
        else
          fail interconnect "NVLink GPU $g" "$EXPECTED_NVLINK_LINKS links active" "${#down_links[@]} inactive" nvlink_inactive \
            "links $inactive inactive on GPU $g: with every GPU like this, NVLink is down (fabric manager?)"
        fi
      elif [ "$active" -lt "$EXPECTED_NVLINK_LINKS" ]; then
        bad_links=$((bad_links + 1))
        fail interconnect "NVLink GPU $g" "$EXPECTED_NVLINK_LINKS links" "$active links" nvlink_missing "GPU $g reports fewer links than planned"
      fi
      if [ "$active" -gt 0 ] && ! num_ge "$minrate" "$(awk -v r="$EXPECTED_NVLINK_LINK_GBPS" 'BEGIN { print r * 0.99 }')"; then
        bad_links=$((bad_links + 1))
        fail interconnect "NVLink GPU $g speed" "$EXPECTED_NVLINK_LINK_GBPS GB/s per link" "$minrate GB/s" nvlink_slow "GPU $g has links below the planned rate"
      fi
    done <<< "$(printf '%s\n' "$NVL" | awk '
      /^GPU [0-9]+:/ { g = $2; sub(":", "", g); seen[g] = 1; act[g] += 0; next }
      /Link [0-9]+:/ {
        n = $0; sub(/.*Link /, "", n); sub(/:.*/, "", n)
        if ($0 ~ /inactive/) { inact[g] = inact[g] (inact[g] == "" ? "" : ",") n; next }
        r = $0; sub(/.*Link [0-9]+: */, "", r); sub(/ .*/, "", r)
        act[g]++
        if (!(g in mn) || r + 0 < mn[g]) mn[g] = r + 0
      }
      END { for (g in seen) print g, act[g] + 0, (inact[g] == "" ? "-" : inact[g]), (g in mn ? mn[g] : 0) }
    ' | sort -n)"
    measure nvlink_gpus "$gpus_seen"
    if [ "$gpus_seen" -lt "$EXPECTED_GPUS" ]; then
      fail interconnect nvlink_gpus "$EXPECTED_GPUS GPUs with NVLink" "$gpus_seen" nvlink_missing "some GPUs report no NVLink at all"
    elif [ "$bad_links" -eq 0 ]; then
      pass interconnect nvlink "$EXPECTED_NVLINK_LINKS links x $EXPECTED_NVLINK_LINK_GBPS GB/s on each GPU" "all active" ok
    fi
  else
    fail interconnect nvlink "nvidia-smi nvlink --status" "failed" nvlink_unreadable "$(printf '%s\n' "$NVL" | head -n 1)"
  fi
  # nvidia-smi nvlink -e prints three counters per link and GPU, e.g. (NVIDIA/srt-slurm PR #307,
  # stas00/ml-engineering):   GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)
  #                             Link 0: Replay Errors: 0
  #                             Link 0: Recovery Errors: 0
  #                             Link 0: CRC Errors: 0
  # Per link: a count at or above its NVLINK_*_FAIL limit FAILs (a CRC storm, a retrained
  # link); any other count WARNs, as one to read again after the burn-in.
  if NVE="$(nvidia-smi nvlink -e 2>/dev/null)"; then
    printf '%s\n' "$NVE" > "$VALIDATION_DIR/nvlink_errors.txt"
    nvl_errors=0
    nvl_storms=0
    nvl_worst=""
    while read -r kind g l crc replay recovery; do
      case "$kind" in
        total) nvl_errors="$g" ;;
        link)
          nvl_storms=$((nvl_storms + 1))
          if [ "$nvl_storms" -le 4 ]; then
            fail interconnect "NVLink GPU $g link $l errors" "CRC < $NVLINK_CRC_FAIL, replay < $NVLINK_REPLAY_FAIL, recovery < $NVLINK_RECOVERY_FAIL" \
              "CRC $crc, replay $replay, recovery $recovery" nvlink_error_storm \
              "GPU $g link $l: NVLink errors at a failing rate; reseat the GPU or baseboard, check the NVSwitch tray, rerun 10_topology.sh after a reset"
          fi
          nvl_worst="${nvl_worst:+$nvl_worst,}$g:$l" ;;
      esac
    done <<< "$(printf '%s\n' "$NVE" | awk -v crc_max="$NVLINK_CRC_FAIL" -v replay_max="$NVLINK_REPLAY_FAIL" -v recovery_max="$NVLINK_RECOVERY_FAIL" '
      function over(v, max) { return max > 0 && v >= max }
      /^GPU [0-9]+:/ { g = $2; sub(":", "", g); next }
      /Link [0-9]+:.*Errors?:/ {
        l = $0; sub(/.*Link /, "", l); sub(/:.*/, "", l)
        v = $NF
        if (v !~ /^[0-9]+$/) next
        key = g ":" l
        if (!(key in seen)) { seen[key] = 1; order[++n] = key }
        if ($0 ~ /CRC/) crc[key] += v
        else if ($0 ~ /Replay/) replay[key] += v
        else if ($0 ~ /Recovery/) recovery[key] += v
        total += v
      }
      END {
        print "total", total + 0
        for (i = 1; i <= n; i++) {
          k = order[i]
          if (over(crc[k], crc_max) || over(replay[k], replay_max) || over(recovery[k], recovery_max)) {
            split(k, gl, ":")
            print "link", gl[1], gl[2], crc[k] + 0, replay[k] + 0, recovery[k] + 0
          }
        }
      }')"
    measure nvlink_error_count "$nvl_errors"
    measure nvlink_error_storm_links "$nvl_storms"
    measure_str nvlink_error_storm_at "$nvl_worst"
    if [ "$nvl_storms" -gt 4 ]; then echo "... $((nvl_storms - 4)) more links over the limits; see $VALIDATION_DIR/nvlink_errors.txt"; fi
    if [ "$nvl_errors" -eq 0 ]; then
      pass interconnect nvlink_errors 0 0 ok
    elif [ "$nvl_storms" -eq 0 ]; then
      warn interconnect nvlink_errors 0 "$nvl_errors" nvlink_errors "CRC/replay errors on NVLink, below the failing limits: run 10_topology.sh again after the burn-in; rising counts mean a bad link"
    fi
  else
    skip interconnect nvlink_errors 0 "not reported" nvlink_errors_unavailable "this driver has no 'nvidia-smi nvlink -e'"
  fi
fi

if [ "$EXPECTED_GPUS" -gt 1 ] && [ -n "$EXPECTED_P2P" ]; then
  if P2P="$(nvidia-smi topo -p2p r 2>&1)"; then
    p2p_pairs=0
    p2p_ok=0
    first_ns=""
    while read -r a b s; do
      [ -n "$a" ] || continue
      p2p_pairs=$((p2p_pairs + 1))
      if [ "$s" = OK ]; then p2p_ok=$((p2p_ok + 1)); elif [ -z "$first_ns" ]; then first_ns="GPU$a-GPU$b: $s"; fi
    done <<< "$(printf '%s\n' "$P2P" | gpu_pairs)"
    measure p2p_pairs "$p2p_pairs"
    measure p2p_ok_pairs "$p2p_ok"
    if [ "$EXPECTED_P2P" = no ]; then
      if [ "$p2p_ok" -eq 0 ]; then
        pass interconnect peer_to_peer "none (the plan routes GPU traffic through host memory)" "none of $p2p_pairs pairs" ok
      else
        warn interconnect peer_to_peer "none" "$p2p_ok of $p2p_pairs pairs" p2p_better_than_plan "peer-to-peer works here; all-reduce may beat the plan"
      fi
    elif [ "$p2p_ok" -eq "$p2p_pairs" ]; then
      pass interconnect peer_to_peer "all $p2p_pairs pairs" "all" ok
    else
      fail interconnect peer_to_peer "all $p2p_pairs pairs" "$p2p_ok" p2p_unavailable \
        "$first_ns; traffic falls back to host memory: check ACS/IOMMU settings in the BIOS (root)"
    fi
  else
    skip interconnect peer_to_peer "a p2p matrix" "not reported" p2p_unreadable "$(printf '%s\n' "$P2P" | head -n 1)"
  fi
fi

# nic_gpus: "DEV GPU" for every NIC that `nvidia-smi topo -m` lists (its "NIC Legend" names the
# devices), GPU being the one nearest it (PIX before PXB, PHB, NODE, SYS; the lowest index on a tie).
nic_gpus() {
  nvidia-smi topo -m 2> /dev/null | awk '
    function rank(e) { return e == "PIX" ? 1 : e == "PXB" ? 2 : e == "PHB" ? 3 : e == "NODE" ? 4 : e == "SYS" ? 5 : 9 }
    { gsub(/\033\[[0-9;]*m/, "") }
    !hdr && $1 ~ /^GPU[0-9]+$/ { for (k = 1; k <= NF; k++) if ($k ~ /^NIC[0-9]+$/) col[k] = $k; hdr = 1; next }
    hdr && $1 ~ /^GPU[0-9]+$/ {
      g = substr($1, 4)
      for (k in col) { r = rank($(k + 1)); if (!(col[k] in best) || r < best[col[k]]) { best[col[k]] = r; gpu[col[k]] = g } }
    }
    /^[[:space:]]*NIC[0-9]+:/ { n = $1; sub(":", "", n); dev[n] = $2 }
    END { for (n in gpu) if (n in dev) print dev[n], gpu[n] }'
}

# rdma_bandwidth DEV...: GPUDirect RDMA write bandwidth of each compute NIC (perftest's ib_write_bw
# with --use_cuda=<the GPU nearest the NIC>, GPU memory to GPU memory) against IB_PEER, each NIC
# on its own TCP port from IB_PORT_BASE, against RDMA_BW_FRACTION of the line rate.
rdma_bandwidth() {
  local -a nics=("$@")
  local dev gpu out bw k=0 slow=0 min="" need peer_script="$VALIDATION_DIR/ib_write_bw_peer.sh"
  local -A near=()
  if [ -n "${IB_DEVICE:-}" ]; then nics=("$IB_DEVICE"); fi
  need="$(awk -v r="$NETWORK_RATE_GBIT" -v f="$RDMA_BW_FRACTION" 'BEGIN { print r * f }')"
  local want=">= $need Gb/s ($RDMA_BW_FRACTION of line rate), GPU memory to GPU memory"
  while read -r dev gpu; do [ -n "$dev" ] && near[$dev]="$gpu"; done <<< "$(nic_gpus)"
  {
    echo "#!/usr/bin/env bash"
    echo "# Run on the peer server before IB_PEER=<this peer> ./10_topology.sh: one ib_write_bw server per NIC."
    for dev in ${nics[@]+"${nics[@]}"}; do
      printf 'CUDA_DEVICE_ORDER=PCI_BUS_ID ib_write_bw -d %q --use_cuda=%q --report_gbits -D 5 -p %q &\n' \
        "$dev" "${near[$dev]:-$((k % EXPECTED_GPUS))}" "$((IB_PORT_BASE + k))"
      k=$((k + 1))
    done
    echo "wait"
  } > "$peer_script"
  chmod +x "$peer_script"
  if [ "${#nics[@]}" -eq 0 ]; then return; fi
  if [ -z "${IB_PEER:-}" ] || ! have ib_write_bw; then
    skip interconnect ib_write_bw "$want on ${#nics[@]} NICs" "not run" ib_bw_needs_peer \
      "copy $peer_script to a peer server and run it there (perftest built with CUDA, nvidia-peermem loaded), then rerun here with IB_PEER=<peer host>"
    return
  fi
  k=0
  for dev in "${nics[@]}"; do
    gpu="${near[$dev]:-$((k % EXPECTED_GPUS))}"
    # PCI bus order: perftest's CUDA device i is nvidia-smi's GPU i.
    out="$(CUDA_DEVICE_ORDER=PCI_BUS_ID ib_write_bw -d "$dev" --use_cuda="$gpu" --report_gbits -D 5 \
      -p "$((IB_PORT_BASE + k))" "$IB_PEER" 2>&1 || true)"
    printf '%s\n' "$out" > "$VALIDATION_DIR/ib_write_bw.$dev.txt"
    k=$((k + 1))
    # The result row: "#bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]".
    bw="$(printf '%s\n' "$out" | awk '$1 ~ /^[0-9]+$/ && NF >= 5 && $4 ~ /^[0-9.]+$/ { v = $4 } END { print v }')"
    if [ -z "$bw" ]; then
      slow=$((slow + 1))
      fail interconnect "ib_write_bw $dev" "$want" "no result" rdma_bw_failed \
        "$dev with GPU $gpu: $(printf '%s\n' "$out" | grep -m 1 -iE 'error|unrecognized|fail|unable|couldn' || echo "see $VALIDATION_DIR/ib_write_bw.$dev.txt"); is the peer running $peer_script, and is perftest built with CUDA?"
      continue
    fi
    measure "rdma.$dev.write_bw_gbit_per_s" "$bw"
    measure "rdma.$dev.gpu" "$gpu"
    if [ -z "$min" ] || ! num_ge "$bw" "$min"; then min="$bw"; fi
    if num_ge "$bw" "$need"; then
      pass interconnect "ib_write_bw $dev" "$want" "$bw Gb/s with GPU $gpu" ok
    else
      slow=$((slow + 1))
      fail interconnect "ib_write_bw $dev" "$want" "$bw Gb/s with GPU $gpu" rdma_bw_low \
        "$dev (GPU $gpu) is slow: check its cable or transceiver and switch port speed, its firmware, that it and GPU $gpu share a PCIe switch (nvidia-smi topo -m), and that nvidia-peermem is loaded"
    fi
  done
  measure ib_write_bw_gbit_per_s "${min:-0}"
  measure rdma_slow_nics "$slow"
}

# The sysfs trees the network checks read; SYSFS_ROOT=<dir> reads a copy (the stand-in tests).
SYS_IB="${SYSFS_ROOT:-}/sys/class/infiniband"
SYS_NET="${SYSFS_ROOT:-}/sys/class/net"

# roce_gid DEV PORT: "INDEX NETDEV" of the port's RoCE v2 GID with an IPv4 address (the one NCCL
# uses by default), from sysfs: gid_attrs/types/N reads "RoCE v2" or "IB/RoCE v1", gids/N the GID
# (IPv4-mapped: 0000:...:ffff:0a00:0001), gid_attrs/ndevs/N the Ethernet device. Unused entries
# fail to read (EINVAL); nothing printed: no such GID.
roce_gid() {
  local dir="$SYS_IB/$1/ports/$2" f n
  for f in "$dir"/gid_attrs/types/*; do
    n="${f##*/}"
    [ "$(cat "$f" 2> /dev/null || true)" = "RoCE v2" ] || continue
    [[ "$(cat "$dir/gids/$n" 2> /dev/null || true)" == 0000:0000:0000:0000:0000:ffff:* ]] || continue
    printf '%s %s\n' "$n" "$(cat "$dir/gid_attrs/ndevs/$n" 2> /dev/null || true)"
    return
  done
}

# pfc_on NETDEV: 1 when `mlnx_qos -i NETDEV` shows PFC enabled on ROCE_PRIORITY, 0 when off, "" when
# unknown. Its "PFC configuration:" block (mlnx_qos docs, community.mellanox.com DOC-2792):
#   priority    0   1   2   3   4   5   6   7
#   enabled     0   0   0   1   0   0   0   0
pfc_on() {
  mlnx_qos -i "$1" 2> /dev/null | awk -v p="$ROCE_PRIORITY" '
    /PFC configuration/ { pfc = 1; next }
    pfc && $1 == "enabled" { print $(p + 2); exit }'
}

# ecn_on NETDEV: 1 when ECN is on for ROCE_PRIORITY both as notification point (roce_np: the
# receiver sends CNPs) and as reaction point (roce_rp: the sender slows down, DCQCN), 0 when not,
# "" when the driver has no such files (/sys/class/net/<netdev>/ecn/roce_{np,rp}/enable/<prio>).
ecn_on() {
  local base="$SYS_NET/$1/ecn" np rp
  np="$(cat "$base/roce_np/enable/$ROCE_PRIORITY" 2> /dev/null || true)"
  rp="$(cat "$base/roce_rp/enable/$ROCE_PRIORITY" 2> /dev/null || true)"
  if [ -z "$np" ] || [ -z "$rp" ]; then return; fi
  if [ "$np" = 1 ] && [ "$rp" = 1 ]; then echo 1; else echo 0; fi
}

# roce_settings DEV...: per compute NIC, its RoCE v2 GID index (exported to 30_nccl.sh as
# NCCL_IB_GID_INDEX), PFC and ECN on the priority RoCE traffic uses (ROCE_PRIORITY).
roce_settings() {
  local dev idx nd pfc ecn gids="" missing=0 unknown=0 bad=0 fix
  for dev in "$@"; do
    read -r idx nd <<< "$(roce_gid "$dev" 1)" || true
    if [ -z "${idx:-}" ]; then
      missing=$((missing + 1))
      fail interconnect "roce_gid $dev" "a RoCE v2 GID with an IPv4 address" "none" roce_gid_missing \
        "$dev port 1 has no RoCE v2 GID with an IPv4 address: give its Ethernet device an address, and set RoCE v2 (root: cma_roce_mode -d $dev -p 1 -m 2)"
      continue
    fi
    gids="$(add_word "$gids" "$idx")"
    pfc="$(pfc_on "$nd")"
    ecn="$(ecn_on "$nd")"
    fix="root: mlnx_qos -i $nd --trust dscp --pfc $(awk -v p="$ROCE_PRIORITY" 'BEGIN { for (i = 0; i < 8; i++) printf "%s%d", i ? "," : "", i == p }')"
    if [ -z "$pfc" ] || [ -z "$ecn" ]; then
      unknown=$((unknown + 1))
    elif [ "$pfc" = 0 ] && [ "$ecn" = 0 ]; then
      bad=$((bad + 1))
      fail interconnect "roce_qos $dev" "PFC and ECN on priority $ROCE_PRIORITY" "both off on $nd" roce_lossless_off \
        "$dev ($nd): no PFC and no ECN on priority $ROCE_PRIORITY, so RoCE drops and retransmits under load; $fix; echo 1 > /sys/class/net/$nd/ecn/roce_np/enable/$ROCE_PRIORITY and roce_rp; match the switch"
    elif [ "$pfc" = 0 ]; then
      bad=$((bad + 1))
      warn interconnect "roce_qos $dev" "PFC on priority $ROCE_PRIORITY" "off on $nd (ECN on)" roce_pfc_off \
        "$dev ($nd): lossy RoCE, fine only where the switches are set up for it; else $fix, matching the switch ports"
    elif [ "$ecn" = 0 ]; then
      bad=$((bad + 1))
      warn interconnect "roce_qos $dev" "ECN on priority $ROCE_PRIORITY" "off on $nd (PFC on)" roce_ecn_off \
        "$dev ($nd): no congestion control (DCQCN), so PFC pauses spread under load; root: echo 1 > /sys/class/net/$nd/ecn/roce_np/enable/$ROCE_PRIORITY and echo 1 > /sys/class/net/$nd/ecn/roce_rp/enable/$ROCE_PRIORITY"
    fi
  done
  measure_str roce_gid_indexes "$gids"
  if [ -n "$gids" ] && [ "$gids" = "${gids%% *}" ]; then
    printf 'NCCL_IB_GID_INDEX=%s\n' "$gids" > "$VALIDATION_DIR/nccl_roce.env"
    measure roce_gid_index "$gids"
    [ "$missing" -gt 0 ] || pass interconnect roce_gid "a RoCE v2 GID with an IPv4 address on $# NICs" "index $gids on all" ok
  elif [ -n "$gids" ]; then
    rm -f "$VALIDATION_DIR/nccl_roce.env"
    warn interconnect roce_gid "one RoCE v2 GID index on every NIC" "indexes $gids" roce_gid_index_differs \
      "NCCL_IB_GID_INDEX is one number for all NICs: configure the NICs alike, or leave it unset and let NCCL (2.21 or newer) pick each NIC's"
  fi
  if [ "$unknown" -gt 0 ]; then
    skip interconnect roce_qos "PFC and ECN on priority $ROCE_PRIORITY" "unknown on $unknown NICs" roce_qos_unknown \
      "mlnx_qos (mlnx-tools) or /sys/class/net/<netdev>/ecn is missing: check PFC and ECN by hand (mlnx_qos -i <netdev>)"
  elif [ "$bad" -eq 0 ] && [ -n "$gids" ]; then
    pass interconnect roce_qos "PFC and ECN on priority $ROCE_PRIORITY" "on for every NIC" ok
  fi
}

if [ "$NETWORK" = infiniband ] || [ "$NETWORK" = roce ]; then
  if [ "$NETWORK" = infiniband ]; then layer=InfiniBand; else layer=Ethernet; fi
  compute_nics=()
  if have ibstat; then
    IB="$(ibstat 2>&1 || true)"
    printf '%s\n' "$IB" > "$VALIDATION_DIR/ibstat.txt"
    good=0
    down=""
    slow=""
    min_rate=""
    while read -r ca port state rate link; do
      [ -n "$ca" ] || continue
      [ "$link" = "$layer" ] || continue
      if [ "$state" != Active ]; then
        down="$down $ca/$port($state)"
      elif ! num_ge "$rate" "$NETWORK_RATE_GBIT"; then
        slow="$slow $ca/$port(${rate}G)"
      else
        good=$((good + 1))
        compute_nics+=("$ca")
      fi
      if [ "$state" = Active ] && { [ -z "$min_rate" ] || ! num_ge "$rate" "$min_rate"; }; then min_rate="$rate"; fi
    done <<< "$(printf '%s\n' "$IB" | awk '
      /^CA / { ca = $2; gsub(/\047/, "", ca) }
      /^[[:space:]]*Port [0-9]+:/ { port = $2; sub(":", "", port) }
      /^[[:space:]]*State:/ { state = $2 }
      /^[[:space:]]*Rate:/ { rate = $2 }
      /^[[:space:]]*Link layer:/ { print ca, port, state, rate, $3 }
    ')"
    measure ib_ports_active "$good"
    measure ib_rate_gbit_per_s_min "${min_rate:-0}"
    if [ "$good" -ge "$NETWORK_PORTS" ]; then
      pass interconnect network_ports "$NETWORK_PORTS $layer ports Active at $NETWORK_RATE_GBIT Gb/s" "$good" ok
      # Ports beyond the plan's that are down are worth a look; slower ones on the same link
      # layer are the management or storage NICs a RoCE server also has, not a fault.
      if [ -n "$down" ]; then
        warn interconnect network_ports_extra "unused ports up or absent" "$down" ib_port_down "ports beyond the plan are down"
      fi
    else
      fail interconnect network_ports "$NETWORK_PORTS $layer ports Active at $NETWORK_RATE_GBIT Gb/s" "$good" ib_port_down \
        "down:${down:- none}; slow:${slow:- none}. Check cables, switch ports and the subnet manager (opensm/UFM)"
    fi
  else
    fail interconnect network_ports "ibstat" "not found" ibstat_missing "install infiniband-diags (root)"
  fi
  if [ "$NETWORK" = roce ] && [ "${#compute_nics[@]}" -gt 0 ]; then roce_settings "${compute_nics[@]}"; fi
  rdma_bandwidth ${compute_nics[@]+"${compute_nics[@]}"}
fi

finish
