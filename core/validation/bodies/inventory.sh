# shellcheck shell=bash

# within A B TOL: A is B give or take TOL (numbers).
within() { is_number "$1" && awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(d <= t && -d <= t) }'; }

# check_memory INDEX MEMORY_TOTAL ECC_MODE: memory.total against the figure for the GPU's ECC
# mode (GDDR: ECC on reserves 1/16; HBM: the same either way), then the mode against the one
# the plan counts on. Counts into bad_mem, ecc_warned and mem_unknown.
check_memory() {
  local idx="$1" mem="$2" ecc="$3" mode want tol planned
  case "$ecc" in
    Enabled) mode=on; want="$EXPECTED_MEMORY_MIB_ECC_ON"; tol="$MEMORY_TOLERANCE_MIB_ECC_ON" ;;
    Disabled) mode=off; want="$EXPECTED_MEMORY_MIB_ECC_OFF"; tol="$MEMORY_TOLERANCE_MIB_ECC_OFF" ;;
    *) mode=none; want="$EXPECTED_MEMORY_MIB_ECC_OFF"; tol="$MEMORY_TOLERANCE_MIB_ECC_OFF" ;;
  esac
  if [ "$ECC_DEFAULT" = on ]; then planned="$EXPECTED_MEMORY_MIB_ECC_ON"; else planned="$EXPECTED_MEMORY_MIB_ECC_OFF"; fi
  if [ -z "$want" ]; then
    mem_unknown=$((mem_unknown + 1))
  elif ! within "$mem" "$want" "$tol"; then
    bad_mem=$((bad_mem + 1))
    fail memory "GPU $idx memory.total" "$want MiB (ECC $ecc)" "$mem MiB" memory_total_mismatch \
      "GPU $idx is another variant, runs MIG, or has retired memory"
    return 0
  fi
  if [ "$mode" = on ] && [ "$ECC_DEFAULT" != on ] && [ "$MEMORY_KIND" = gddr ]; then
    ecc_warned=$((ecc_warned + 1))
    warn memory "GPU $idx memory.total" "${planned:-?} MiB (ECC off, as the part ships)" "$mem MiB (ECC on)" ecc_on_memory \
      "ECC is enabled on GPU $idx: it reserves 1/16 of the memory, so the plan has ${mem:-?} MiB, not ${planned:-?}, and runs a little slower; keep it if you want error correction and check the plan fits, or turn it off (root: nvidia-smi -i $idx -e 0, then reboot)"
  elif [ "$mode" != on ] && [ "$ECC_DEFAULT" = on ] && [ "$MEMORY_KIND" = gddr ]; then
    ecc_warned=$((ecc_warned + 1))
    warn memory "GPU $idx memory.total" "${planned:-?} MiB (ECC on)" "$mem MiB (ECC $ecc)" ecc_off_memory \
      "ECC is off on GPU $idx: more memory, no error correction on a data-centre part the plan expects it on (root: nvidia-smi -i $idx -e 1, then reboot)"
  elif [ "$mode" != on ] && [ "$ECC_DEFAULT" = on ]; then
    ecc_warned=$((ecc_warned + 1))
    warn health "GPU $idx ECC" "Enabled" "$ecc" ecc_disabled \
      "ECC is off on GPU $idx: no error correction on a data-centre part the plan expects it on (root: nvidia-smi -i $idx -e 1, then reboot)"
  fi
}

# The memory.total the plan counts on (its ECC mode), for the PASS line.
planned_memory_text() {
  if [ "$ECC_DEFAULT" = on ]; then printf '%s' "$EXPECTED_MEMORY_MIB_ECC_ON"; else printf '%s' "$EXPECTED_MEMORY_MIB_ECC_OFF"; fi
}

name_expected() {
  [ -n "$EXPECTED_NAMES" ] || return 0
  case "|$EXPECTED_NAMES|" in *"|$1|"*) return 0 ;; esac
  return 1
}

# The forward-compatibility branch entry that admits driver $1, if any.
forward_compat_ok() {
  local b
  for b in ${FORWARD_COMPAT_BRANCHES[@]+"${FORWARD_COMPAT_BRANCHES[@]}"}; do
    if [ "${1%%.*}" = "${b%%.*}" ] && version_ge "$1" "$b"; then
      printf '%s' "$b"
      return 0
    fi
  done
  return 1
}

# The newest tag (for this GPU) whose minimum driver is <= $1.
tag_for_driver() {
  local entry
  for entry in ${TAG_TABLE[@]+"${TAG_TABLE[@]}"}; do
    if version_ge "$1" "${entry#*:}"; then
      printf '%s' "${entry%%:*}"
      return 0
    fi
  done
  return 1
}

# check_identity: per GPU, what identifies it and how it runs (nvidia-smi --help-query-gpu):
# persistence_mode (Enabled | Disabled), mig.mode.current (Enabled | Disabled; [N/A] on parts
# without MIG), vbios_version and serial ([N/A] where the board has none, as GeForce). All are
# recorded; persistence off on a data-centre part WARNs, MIG on FAILs (the plan counts whole GPUs,
# a MIG slice is not one), VBIOS versions that differ in one server WARN, a serial seen on two
# GPUs FAILs (a stand-in or a spoofed board).
check_identity() {
  local out idx pm mig vbios serial pm_off="" mig_on="" vbios_seen="" serials="" dup=""
  if ! out="$(nvidia-smi --query-gpu=index,persistence_mode,mig.mode.current,vbios_version,serial --format=csv,noheader 2>/dev/null)"; then
    skip health identity "persistence mode, MIG, VBIOS, serial" "not reported" identity_unavailable "this driver does not report them"
    return 0
  fi
  while IFS=',' read -r idx pm mig vbios serial; do
    idx="$(trim "$idx")"
    [ -n "$idx" ] || continue
    pm="$(trim "$pm")"
    mig="$(trim "$mig")"
    vbios="$(trim "$vbios")"
    serial="$(trim "$serial")"
    measure_str "gpu.$idx.persistence_mode" "$pm"
    measure_str "gpu.$idx.mig_mode" "$mig"
    measure_str "gpu.$idx.vbios_version" "$vbios"
    measure_str "gpu.$idx.serial" "$serial"
    if [ "$pm" = Disabled ] && [ "$PRODUCT_CLASS" = data_center ]; then pm_off="$(add_word "$pm_off" "$idx")"; fi
    if [ "$mig" = Enabled ]; then mig_on="$(add_word "$mig_on" "$idx")"; fi
    case "$vbios" in "" | *N/A* | *"Not Supported"*) ;; *) vbios_seen="$(add_word "$vbios_seen" "$vbios")" ;; esac
    case "$serial" in
      "" | *N/A* | *"Not Supported"*) ;;
      *) case " $serials " in *" $serial "*) dup="$(add_word "$dup" "$serial")" ;; esac
        serials="$serials $serial" ;;
    esac
  done <<< "$out"
  if [ -n "$pm_off" ]; then
    warn software persistence_mode "Enabled" "Disabled on GPU $pm_off" persistence_off \
      "the driver unloads between jobs and each start pays for the GPUs' initialisation; root: nvidia-smi -pm 1, or enable the nvidia-persistenced service"
  else
    if [ "$PRODUCT_CLASS" = data_center ]; then pass software persistence_mode "Enabled" "Enabled on every GPU" ok; else pass software persistence_mode "recorded" "not required on this part" ok; fi
  fi
  if [ -n "$mig_on" ]; then
    fail memory mig_mode "Disabled" "Enabled on GPU $mig_on" mig_enabled \
      "a MIG slice is not the whole GPU the plan counts; root: nvidia-smi -i <GPU> -mig 0, then reset the GPU"
  else
    pass memory mig_mode "Disabled (whole GPUs)" "not enabled" ok
  fi
  if [ "$(wc -w <<< "$vbios_seen")" -gt 1 ]; then
    warn software vbios_version "one VBIOS version" "$vbios_seen" vbios_mixed \
      "the GPUs of one server run different VBIOS versions: ask the vendor for one release on all"
  else
    pass software vbios_version "one VBIOS version" "${vbios_seen:-N/A}" ok
  fi
  if [ -n "$dup" ]; then
    fail health serial "one serial per GPU" "serial $dup on more than one GPU" serial_duplicate \
      "two boards cannot share a serial: the inventory is not real hardware, a stand-in or a spoofed board"
  else
    pass health serial "one serial per GPU" "$(if [ -n "$serials" ]; then printf '%s serials recorded' "$(wc -w <<< "$serials")"; else printf 'none reported (N/A)'; fi)" ok
  fi
}

if ! have nvidia-smi; then
  fail software nvidia-smi "nvidia-smi on PATH" "not found" driver_missing "install the NVIDIA driver (root)"
  finish
fi

# pcie.link.*.max: what the GPU and its slot can do. The .current values are recorded only: an idle
# GPU lowers its link to save power, so 40_burnin.sh judges them under load.
QUERY=index,pci.bus_id,name,memory.total,power.limit,power.max_limit,pcie.link.gen.max,pcie.link.width.max,driver_version,compute_cap,ecc.mode.current,pcie.link.gen.current,pcie.link.width.current
if ! SMI_OUT="$(nvidia-smi --query-gpu="$QUERY" --format=csv,noheader,nounits 2>&1)"; then
  fail memory gpu_count "$EXPECTED_GPUS GPUs" "nvidia-smi failed: $(printf '%s\n' "$SMI_OUT" | head -n 1)" \
    nvidia_smi_failed "driver not loaded or a GPU fell off the bus; read the kernel log (root: sudo dmesg -T | tail -n 50)"
  finish
fi
printf '%s\n' "$SMI_OUT" > "$VALIDATION_DIR/inventory.csv"

count=0
bad_name=0
bad_mem=0
ecc_warned=0
mem_unknown=0
bad_power=0
bad_pcie=0
bad_cc=0
driver=""
buses=""
names_seen=""
mem_seen=""
power_seen=""
pcie_seen=""
cc_seen=""
while IFS=',' read -r idx bus name mem plim pmax pgen pwidth drv cc ecc pgen_now pwidth_now; do
  idx="$(trim "$idx")"
  [ -n "$idx" ] || continue
  bus="$(trim "$bus")"
  name="$(trim "$name")"
  mem="$(trim "$mem")"
  plim="$(trim "$plim")"
  pmax="$(trim "$pmax")"
  pgen="$(trim "$pgen")"
  pwidth="$(trim "$pwidth")"
  drv="$(trim "$drv")"
  cc="$(trim "$cc")"
  ecc="$(trim "$ecc")"
  count=$((count + 1))
  buses="$buses $bus"
  driver="$drv"
  names_seen="$(add_word "$names_seen" "'$name'")"
  mem_seen="$(add_word "$mem_seen" "$mem")"
  power_seen="$(add_word "$power_seen" "$plim")"
  pcie_seen="$(add_word "$pcie_seen" "Gen$pgen/x$pwidth")"
  cc_seen="$(add_word "$cc_seen" "$cc")"
  measure_str "gpu.$idx.name" "$name"
  measure_str "gpu.$idx.pci_bus_id" "$bus"
  measure "gpu.$idx.memory_total_mib" "$mem"
  measure "gpu.$idx.power_limit_w" "$plim"
  measure "gpu.$idx.power_max_limit_w" "$pmax"
  measure "gpu.$idx.pcie_gen_max" "$pgen"
  measure "gpu.$idx.pcie_width_max" "$pwidth"
  measure_str "gpu.$idx.compute_cap" "$cc"
  measure_str "gpu.$idx.ecc_mode" "$ecc"
  measure "gpu.$idx.pcie_gen_idle" "$(trim "$pgen_now")"
  measure "gpu.$idx.pcie_width_idle" "$(trim "$pwidth_now")"

  if ! name_expected "$name"; then
    bad_name=$((bad_name + 1))
    fail memory "GPU $idx name" "$EXPECTED_NAMES" "$name" part_mismatch "GPU $idx is not the planned part: the plan's speed, memory and cost assume $EXPECTED_NAMES; refuse the delivery, or plan again for the part delivered"
  fi
  check_memory "$idx" "$mem" "$ecc"
  if ! is_number "$plim" || ! awk -v a="$plim" -v b="$EXPECTED_POWER_LIMIT_W" 'BEGIN { d = a - b; exit !(d < 1 && d > -1) }'; then
    bad_power=$((bad_power + 1))
    warn power "GPU $idx power.limit" "$EXPECTED_POWER_LIMIT_W W" "$plim W" power_limit_differs \
      "the plan's power and speed assume $EXPECTED_POWER_LIMIT_W W (max $pmax W); root: nvidia-smi -i $idx -pl <W>"
  fi
  if ! is_number "$pgen" || [ "$pgen" -lt "$EXPECTED_PCIE_GEN" ]; then
    bad_pcie=$((bad_pcie + 1))
    fail interconnect "GPU $idx PCIe generation" "Gen$EXPECTED_PCIE_GEN" "Gen$pgen" pcie_gen_low \
      "GPU $idx ($bus) links below Gen$EXPECTED_PCIE_GEN: check the slot, riser and BIOS PCIe settings"
  fi
  if ! is_number "$pwidth" || [ "$pwidth" -lt "$EXPECTED_PCIE_WIDTH" ]; then
    bad_pcie=$((bad_pcie + 1))
    fail interconnect "GPU $idx PCIe width" "x$EXPECTED_PCIE_WIDTH" "x$pwidth" pcie_width_low \
      "GPU $idx ($bus) trained at x$pwidth: reseat the card or riser"
  fi
  if [ "$cc" != "$EXPECTED_COMPUTE_CAP" ]; then
    bad_cc=$((bad_cc + 1))
    fail compute "GPU $idx compute capability" "$EXPECTED_COMPUTE_CAP" "$cc" compute_capability_mismatch "not the planned architecture"
  fi
done <<< "$SMI_OUT"

measure gpu_count "$count"
if [ "$count" -eq "$EXPECTED_GPUS" ]; then
  pass memory gpu_count "$EXPECTED_GPUS" "$count" ok
elif [ "$count" -lt "$EXPECTED_GPUS" ]; then
  fail memory gpu_count "$EXPECTED_GPUS" "$count" gpu_missing \
    "$((EXPECTED_GPUS - count)) GPU(s) missing; present at:$buses. Reseat or replace the missing card, and look for Xid 79 in the kernel log (root)"
else
  warn memory gpu_count "$EXPECTED_GPUS" "$count" gpu_extra "more GPUs than planned"
fi
if [ "$count" -gt 0 ]; then
  if [ "$bad_name" -eq 0 ]; then pass memory name "$EXPECTED_NAMES" "$names_seen" ok; fi
  if [ "$mem_unknown" -eq "$count" ]; then
    skip memory memory.total "no catalog value" "$mem_seen MiB" record_memory_total "record this value as the part's memory.total in data/validation.json"
  elif [ "$bad_mem" -eq 0 ] && [ "$ecc_warned" -eq 0 ]; then
    pass memory memory.total "$(planned_memory_text) MiB on each GPU" "$mem_seen MiB" ok
  fi
  if [ "$bad_power" -eq 0 ]; then pass power power.limit "$EXPECTED_POWER_LIMIT_W W" "$power_seen W" ok; fi
  if [ "$bad_pcie" -eq 0 ]; then pass interconnect pcie_link "Gen$EXPECTED_PCIE_GEN/x$EXPECTED_PCIE_WIDTH" "$pcie_seen" ok; fi
  if [ "$bad_cc" -eq 0 ]; then pass compute compute_capability "$EXPECTED_COMPUTE_CAP" "$cc_seen" ok; fi
fi

if [ "$count" -gt 0 ]; then check_identity; fi

measure_str driver_version "$driver"
if [ -n "$driver" ]; then
  if version_ge "$driver" "$MIN_DRIVER"; then
    pass software driver ">= $MIN_DRIVER for NGC $NGC_TAG" "$driver" ok
  elif branch="$(forward_compat_ok "$driver")"; then
    pass software driver ">= $MIN_DRIVER for NGC $NGC_TAG" "$driver" forward_compat \
      "data-centre forward compatibility on the R${branch%%.*} branch (>= $branch)"
  else
    alt="$(tag_for_driver "$driver" || true)"
    if [ -n "$alt" ]; then
      advice="upgrade the driver to >= $MIN_DRIVER (root), or use NGC $alt instead (NGC_TAG=$alt)"
    else
      advice="upgrade the driver to >= $MIN_DRIVER (root): no NGC tag for this GPU runs on $driver"
    fi
    fail software driver ">= $MIN_DRIVER for NGC $NGC_TAG" "$driver" driver_too_old "$advice"
  fi
fi

if KLOG_SOURCE="$(kernel_log_source)"; then
  KLOG="$(kernel_log "$KLOG_SOURCE")"
  XID_LINES="$(printf '%s\n' "$KLOG" | grep -i 'NVRM: Xid' || true)"
  xid_count="$(printf '%s' "$XID_LINES" | grep -c . || true)"
  xid_codes="$(printf '%s\n' "$XID_LINES" | sed -n 's/.*Xid ([^)]*): *\([0-9][0-9]*\).*/\1/p' | sort -un | paste -sd, -)"
  measure xid_count "$xid_count"
  measure_str xid_codes "$xid_codes"
  measure_str xid_log_source "$KLOG_SOURCE"
  xid_report xid "$xid_count" "$xid_codes"
else
  skip health xid "no Xid errors" "kernel log unreadable" xid_needs_root "$(kernel_log_advice)"
fi

# nvidia-smi -q -d ROW_REMAPPER, one block per GPU (NVIDIA's "GPU Memory Error Management" guide,
# docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt; bottlerocket and gpu-operator bug reports):
#   GPU 00000000:18:00.0
#       Remapped Rows
#           Correctable Error                 : 0
#           Uncorrectable Error               : 0
#           Pending                           : No
#           Remapping Failure Occurred        : No
# A pending remap (an uncorrectable error waits for a GPU reset) or a failed one FAILs; parts
# without row remapping (GeForce, GDDR) print N/A and SKIP.
if [ "$CHECK_ROW_REMAPPER" = 1 ]; then
  if RR="$(nvidia-smi -q -d ROW_REMAPPER 2>/dev/null)"; then
    read -r rr_gpus pending failed pending_at failed_at <<< "$(printf '%s\n' "$RR" | awk '
      /^GPU [0-9A-Fa-f]+:/ { bus = $2; next }
      /^[[:space:]]*Pending[[:space:]]*:/ { n++; if ($NF == "Yes") { p++; pa = pa (pa == "" ? "" : ",") bus } }
      /Remapping Failure Occurred[[:space:]]*:/ { if ($NF == "Yes") { f++; fa = fa (fa == "" ? "" : ",") bus } }
      END { print n + 0, p + 0, f + 0, (pa == "" ? "-" : pa), (fa == "" ? "-" : fa) }')"
    measure row_remap_pending_gpus "$pending"
    measure row_remap_failure_gpus "$failed"
    if [ "$rr_gpus" -eq 0 ]; then
      skip health row_remapper "no pending or failed remaps" "N/A" row_remapper_unavailable "these GPUs or this driver report no row remapping"
    elif [ "$failed" -gt 0 ]; then
      fail health row_remapper "no remap failures" "$failed GPU(s) with a failed remap ($failed_at)" row_remap_failure "replace the GPU(s) at $failed_at: memory rows could not be remapped"
    elif [ "$pending" -gt 0 ]; then
      fail health row_remapper "no pending remaps" "$pending GPU(s) pending ($pending_at)" row_remap_pending "an uncorrectable memory error waits for a reset on $pending_at: reset the GPU(s) or reboot (root), run 00_inventory.sh again, and refuse a card whose remap fails"
    else
      pass health row_remapper "no pending or failed remaps" "none" ok
    fi
  else
    skip health row_remapper "no pending or failed remaps" "not reported" row_remapper_unavailable "this driver does not report row remapping"
  fi
else
  skip health row_remapper "no pending or failed remaps" "N/A" row_remapper_unavailable "this part has no row remapping (GeForce or GDDR memory)"
fi

finish
