// SPDX-License-Identifier: MIT
// The fixed parts of the generated scripts (scripts.cpp adds each plan's expected values on
// top). Kept as raw strings so the shell reads exactly what is here; shellcheck runs over every
// generated script in tests/validation.
#pragma once

namespace advisor::validation::bodies {

// Shared by 00-40: reporting and measured values. Needs SCRIPT_NAME.
inline constexpr const char* kCommonHead = R"SH(VALIDATION_DIR="${VALIDATION_DIR:-./validation-out}"
mkdir -p "$VALIDATION_DIR"
CHECKS_FILE="$VALIDATION_DIR/$SCRIPT_NAME.checks.tsv"
MEASURED_FILE="$VALIDATION_DIR/$SCRIPT_NAME.measured.tsv"
: > "$CHECKS_FILE"
: > "$MEASURED_FILE"
N_FAIL=0
N_WARN=0

one_line() { printf '%s' "$1" | tr '\t\r\n' '   ' | tr -d '\000-\010\013\014\016-\037'; }

# report STATUS AREA CHECK EXPECTED MEASURED CODE [DETAIL]: prints
# "STATUS check: expected X, measured Y (detail)" and appends the fields to $CHECKS_FILE.
report() {
  local status="$1" area="$2" check="$3" expected="$4" measured="$5" code="$6" detail="${7:-}"
  if [ -n "$detail" ]; then
    printf '%s %s: expected %s, measured %s (%s)\n' "$status" "$check" "$expected" "$measured" "$detail"
  else
    printf '%s %s: expected %s, measured %s\n' "$status" "$check" "$expected" "$measured"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$status" "$area" "$(one_line "$check")" \
    "$(one_line "$expected")" "$(one_line "$measured")" "$code" "$(one_line "$detail")" >> "$CHECKS_FILE"
  case "$status" in
    FAIL) N_FAIL=$((N_FAIL + 1)) ;;
    WARN) N_WARN=$((N_WARN + 1)) ;;
  esac
}
)SH";

/// Small helpers; scripts.cpp includes the ones a script's body uses.
struct Helper {
  const char* name;
  const char* text;
};
inline constexpr Helper kHelpers[] = {
    {"pass", "pass() { report PASS \"$@\"; }\n"},
    {"warn", "warn() { report WARN \"$@\"; }\n"},
    {"fail", "fail() { report FAIL \"$@\"; }\n"},
    {"skip", "skip() { report SKIP \"$@\"; }\n"},
    {"measure", "# measure KEY VALUE: a number when it looks like one.\n"
                "measure() { printf '%s\\t%s\\tn\\n' \"$1\" \"$(one_line \"$2\")\" >> \"$MEASURED_FILE\"; }\n"},
    {"measure_str", "# measure_str KEY VALUE: always text.\n"
                    "measure_str() { printf '%s\\t%s\\ts\\n' \"$1\" \"$(one_line \"$2\")\" >> \"$MEASURED_FILE\"; }\n"},
    {"trim", "trim() {\n  local s=\"$1\"\n  s=\"${s#\"${s%%[![:space:]]*}\"}\"\n  s=\"${s%\"${s##*[![:space:]]}\"}\"\n  printf '%s' \"$s\"\n}\n"},
    {"have", "have() { command -v \"$1\" > /dev/null 2>&1; }\n"},
    {"is_number", "is_number() { [[ \"$1\" =~ ^-?[0-9]+([.][0-9]+)?$ ]]; }\n"},
    {"num_ge", "num_ge() { awk -v a=\"$1\" -v b=\"$2\" 'BEGIN { exit !((a + 0) >= (b + 0)) }'; }\n"},
    {"ratio", "ratio() { awk -v a=\"$1\" -v b=\"$2\" 'BEGIN { if (b + 0 == 0) print 0; else printf \"%.3f\", a / b }'; }\n"},
    {"version_ge", "version_ge() { [ \"$(printf '%s\\n%s\\n' \"$1\" \"$2\" | sort -V | head -n 1)\" = \"$2\" ]; }\n"},
    {"add_word", "add_word() { case \" $1 \" in *\" $2 \"*) printf '%s' \"$1\" ;; *) printf '%s' \"${1:+$1 }$2\" ;; esac; }\n"},
};

inline constexpr const char* kCommonTail = R"SH(
finish() {
  printf '%s: %d FAIL, %d WARN; details in %s\n' "$SCRIPT_NAME" "$N_FAIL" "$N_WARN" "$CHECKS_FILE"
  if [ "$N_FAIL" -gt 0 ]; then exit 1; fi
  exit 0
}

echo "== $SCRIPT_NAME: plan $PLAN_ID ($PLAN_SUMMARY)"
)SH";

inline constexpr const char* kInventory = R"SH(
name_expected() {
  [ -n "$EXPECTED_NAMES" ] || return 0
  case "|$EXPECTED_NAMES|" in *"|$1|"*) return 0 ;; esac
  return 1
}

# The forward-compatibility branch entry that admits driver $1, if any.
forward_compat_ok() {
  local b
  for b in "${FORWARD_COMPAT_BRANCHES[@]}"; do
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
  for entry in "${TAG_TABLE[@]}"; do
    if version_ge "$1" "${entry#*:}"; then
      printf '%s' "${entry%%:*}"
      return 0
    fi
  done
  return 1
}

xid_advice() {
  local c out=""
  local -a codes
  IFS=',' read -r -a codes <<< "$1"
  for c in "${codes[@]}"; do
    case "$c" in
      48) out="$out Xid 48: double-bit ECC error; reset the GPU, replace it if it recurs." ;;
      63 | 64) out="$out Xid $c: row-remapping event; reset the GPU to apply it, replace on failure." ;;
      74) out="$out Xid 74: NVLink error; reseat the GPU/baseboard and run 10_topology.sh." ;;
      79) out="$out Xid 79: GPU fell off the bus; check power, PCIe seating and cooling." ;;
      92) out="$out Xid 92: high single-bit ECC rate; watch it, replace if it climbs." ;;
      94) out="$out Xid 94: contained ECC error; restart the job." ;;
      95) out="$out Xid 95: uncontained ECC error; reset the GPU." ;;
      119 | 120) out="$out Xid $c: GSP error; update the driver or reset the GPU." ;;
    esac
  done
  printf '%s' "${out# }"
}

if ! have nvidia-smi; then
  fail software nvidia-smi "nvidia-smi on PATH" "not found" driver_missing "install the NVIDIA driver (root)"
  finish
fi

QUERY=index,pci.bus_id,name,memory.total,power.limit,power.max_limit,pcie.link.gen.max,pcie.link.width.max,driver_version,compute_cap,ecc.mode.current
if ! SMI_OUT="$(nvidia-smi --query-gpu="$QUERY" --format=csv,noheader,nounits 2>&1)"; then
  fail memory gpu_count "$EXPECTED_GPUS GPUs" "nvidia-smi failed: $(printf '%s\n' "$SMI_OUT" | head -n 1)" \
    nvidia_smi_failed "driver not loaded or a GPU fell off the bus; read the kernel log (root: sudo dmesg -T | tail -n 50)"
  finish
fi
printf '%s\n' "$SMI_OUT" > "$VALIDATION_DIR/inventory.csv"

count=0
bad_name=0
bad_mem=0
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
while IFS=',' read -r idx bus name mem plim pmax pgen pwidth drv cc ecc; do
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

  if ! name_expected "$name"; then
    bad_name=$((bad_name + 1))
    warn memory "GPU $idx name" "$EXPECTED_NAMES" "$name" name_mismatch "not the planned part, or a name this script does not know"
  fi
  ecc_reported=0
  if [ -n "$EXPECTED_MEMORY_MIB" ] && [ "$mem" != "$EXPECTED_MEMORY_MIB" ]; then
    if [ -n "$EXPECTED_MEMORY_MIB_ECC_OFF" ] && [ "$mem" = "$EXPECTED_MEMORY_MIB_ECC_OFF" ]; then
      ecc_reported=1
      warn memory "GPU $idx memory.total" "$EXPECTED_MEMORY_MIB MiB" "$mem MiB" ecc_off_memory \
        "ECC is off on GPU $idx: more memory, no error correction (root: nvidia-smi -i $idx -e 1, then reboot)"
    else
      bad_mem=$((bad_mem + 1))
      fail memory "GPU $idx memory.total" "$EXPECTED_MEMORY_MIB MiB" "$mem MiB" memory_total_mismatch \
        "GPU $idx is another variant, runs MIG, or has retired memory"
    fi
  fi
  if [ -n "$EXPECTED_ECC" ] && [ "$ecc" != "$EXPECTED_ECC" ] && [ "$ecc_reported" = 0 ]; then
    warn health "GPU $idx ECC" "$EXPECTED_ECC" "$ecc" ecc_disabled "turn ECC on (root: nvidia-smi -i $idx -e 1, then reboot)"
  fi
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
  if [ -z "$EXPECTED_MEMORY_MIB" ]; then
    skip memory memory.total "no catalog value" "$mem_seen MiB" record_memory_total "record this value as the part's memory.total in data/validation.json"
  elif [ "$bad_mem" -eq 0 ]; then
    pass memory memory.total "$EXPECTED_MEMORY_MIB MiB on each GPU" "$mem_seen MiB" ok
  fi
  if [ "$bad_power" -eq 0 ]; then pass power power.limit "$EXPECTED_POWER_LIMIT_W W" "$power_seen W" ok; fi
  if [ "$bad_pcie" -eq 0 ]; then pass interconnect pcie_link "Gen$EXPECTED_PCIE_GEN/x$EXPECTED_PCIE_WIDTH" "$pcie_seen" ok; fi
  if [ "$bad_cc" -eq 0 ]; then pass compute compute_capability "$EXPECTED_COMPUTE_CAP" "$cc_seen" ok; fi
fi

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

if KLOG="$(dmesg 2>/dev/null)"; then
  XID_LINES="$(printf '%s\n' "$KLOG" | grep -i 'NVRM: Xid' || true)"
  xid_count="$(printf '%s' "$XID_LINES" | grep -c . || true)"
  xid_codes="$(printf '%s\n' "$XID_LINES" | sed -n 's/.*Xid ([^)]*): *\([0-9][0-9]*\).*/\1/p' | sort -un | paste -sd, -)"
  measure xid_count "$xid_count"
  measure_str xid_codes "$xid_codes"
  if [ "$xid_count" -eq 0 ]; then
    pass health xid "no Xid errors" "none" ok
  else
    fail health xid "no Xid errors" "$xid_count (Xid $xid_codes)" xid_errors "$(xid_advice "$xid_codes")"
  fi
else
  skip health xid "no Xid errors" "kernel log unreadable" xid_needs_root "reading it needs root here: sudo dmesg -T | grep -i xid"
fi

if [ "$CHECK_ROW_REMAPPER" = 1 ]; then
  if RR="$(nvidia-smi -q -d ROW_REMAPPER 2>/dev/null)"; then
    pending="$(printf '%s\n' "$RR" | grep -ciE '^[[:space:]]*Pending[[:space:]]*:[[:space:]]*Yes' || true)"
    failed="$(printf '%s\n' "$RR" | grep -ciE 'Remapping Failure Occurred[[:space:]]*:[[:space:]]*Yes' || true)"
    measure row_remap_pending_gpus "$pending"
    measure row_remap_failure_gpus "$failed"
    if [ "$failed" -gt 0 ]; then
      fail health row_remapper "no remap failures" "$failed GPU(s) with a failed remap" row_remap_failure "replace the GPU(s): memory rows could not be remapped"
    elif [ "$pending" -gt 0 ]; then
      warn health row_remapper "no pending remaps" "$pending GPU(s) pending" row_remap_pending "reset the GPUs or reboot to apply pending remaps (root)"
    else
      pass health row_remapper "no pending or failed remaps" "none" ok
    fi
  else
    skip health row_remapper "no pending or failed remaps" "not reported" row_remapper_unavailable "this driver does not report row remapping"
  fi
fi

finish
)SH";

inline constexpr const char* kTopology = R"SH(
topo_ok() {
  local e
  [ "${#EXPECTED_TOPO[@]}" -gt 0 ] || return 0
  for e in "${EXPECTED_TOPO[@]}"; do
    if [ "$e" = "$1" ]; then return 0; fi
    if [ "$e" = "NV*" ] && [[ "$1" == NV[0-9]* ]]; then return 0; fi
  done
  return 1
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
  completed="$(nvidia-smi -q 2>/dev/null | grep -i -A 3 '^[[:space:]]*Fabric' | grep -ciE 'State[[:space:]]*:[[:space:]]*Completed' || true)"
  measure fabric_completed_gpus "$completed"
  if [ "$completed" -ge "$EXPECTED_GPUS" ]; then
    pass interconnect fabric_state "Completed on $EXPECTED_GPUS GPUs" "Completed on $completed" ok
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
    while read -r a b entry; do
      [ -n "$a" ] || continue
      pairs=$((pairs + 1))
      entries="$(add_word "$entries" "$entry")"
      if ! topo_ok "$entry"; then
        mismatched=$((mismatched + 1))
        if [[ "$entry" == NV[0-9]* ]]; then code=topo_nvlink_count; why="fewer NVLink links than planned: see the NVLink status below"
        else code=traffic_on_pcie; why="GPU$a and GPU$b talk over PCIe ($entry), not NVLink"; fi
        if [ "$mismatched" -le 8 ]; then
          fail interconnect "topo GPU$a-GPU$b" "${EXPECTED_TOPO[*]}" "$entry" "$code" "$why"
        fi
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
    elif [ "$mismatched" -gt 8 ]; then
      echo "... $((mismatched - 8)) more pairs differ; see $VALIDATION_DIR/topo.txt"
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
  if NVE="$(nvidia-smi nvlink -e 2>/dev/null)"; then
    errors="$(printf '%s\n' "$NVE" | awk '/Errors?:/ { v = $NF; if (v ~ /^[0-9]+$/) s += v } END { print s + 0 }')"
    measure nvlink_error_count "$errors"
    if [ "$errors" -eq 0 ]; then
      pass interconnect nvlink_errors 0 0 ok
    else
      warn interconnect nvlink_errors 0 "$errors" nvlink_errors "CRC/replay errors on NVLink: rerun after the burn-in; rising counts mean a bad link"
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

if [ "$NETWORK" = infiniband ] || [ "$NETWORK" = roce ]; then
  if [ "$NETWORK" = infiniband ]; then layer=InfiniBand; else layer=Ethernet; fi
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
      if [ -n "$down$slow" ]; then
        warn interconnect network_ports_extra "unused ports up or absent" "${down}${slow}" ib_port_down "ports beyond the plan are down or slow"
      fi
    else
      fail interconnect network_ports "$NETWORK_PORTS $layer ports Active at $NETWORK_RATE_GBIT Gb/s" "$good" ib_port_down \
        "down:${down:- none}; slow:${slow:- none}. Check cables, switch ports and the subnet manager (opensm/UFM)"
    fi
  else
    fail interconnect network_ports "ibstat" "not found" ibstat_missing "install infiniband-diags (root)"
  fi
  if [ -n "${IB_PEER:-}" ] && have ib_write_bw; then
    BW_OUT="$(ib_write_bw -d "${IB_DEVICE:-mlx5_0}" --report_gbits -D 5 "$IB_PEER" 2>&1 || true)"
    bw="$(printf '%s\n' "$BW_OUT" | awk '$1 ~ /^[0-9]+$/ && NF >= 4 { v = $4 } END { print v + 0 }')"
    measure ib_write_bw_gbit_per_s "$bw"
    need="$(awk -v r="$NETWORK_RATE_GBIT" 'BEGIN { print r * 0.9 }')"
    if num_ge "$bw" "$need"; then
      pass interconnect ib_write_bw ">= $need Gb/s (90% of line rate)" "$bw Gb/s" ok
    else
      fail interconnect ib_write_bw ">= $need Gb/s (90% of line rate)" "$bw Gb/s" ib_bw_low "check cables, NIC firmware and PCIe placement of ${IB_DEVICE:-mlx5_0}"
    fi
  else
    skip interconnect ib_write_bw ">= 90% of $NETWORK_RATE_GBIT Gb/s" "not run" ib_bw_needs_peer \
      "on the peer run 'ib_write_bw -d mlx5_0 --report_gbits', then rerun here with IB_PEER=<peer host> (perftest package)"
  fi
fi

finish
)SH";

inline constexpr const char* kContainer = R"SH(
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
  if printf '%s\n' "$PROBE_OUT" | grep -qiE 'driver version is insufficient|unsatisfied condition: cuda|driver.*too old'; then
    fail software container_run "the probe runs" "exit $rc: $last" driver_too_old_for_container \
      "the host driver is older than NGC $NGC_TAG needs (>= $MIN_DRIVER): upgrade it (root) or set NGC_TAG to an older tag (00_inventory.sh names one)"
  elif printf '%s\n' "$PROBE_OUT" | grep -qi 'could not select device driver'; then
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
)SH";

inline constexpr const char* kNccl = R"SH(
IMAGE="$REGISTRY/nvidia/pytorch:${NGC_TAG}-py3"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
IB_ARGS=()
if [ -e /dev/infiniband ]; then IB_ARGS=(--device /dev/infiniband --cap-add IPC_LOCK); fi

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
  docker run --rm --gpus all --ipc=host --network host "${IB_ARGS[@]}" --ulimit memlock=-1 --ulimit stack=67108864 \
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
    elif [ "$NETWORK" = infiniband ] && [ "$net" = ib ]; then
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

finish
)SH";

// 40_burnin.sh: options, read before anything is written.
inline constexpr const char* kBurninArgs = R"SH(
usage() {
  cat << USAGE
usage: $0 [--hours H] [--interval S] [--job 'COMMAND'] [--restart]
  --hours H      burn-in length in hours (default $BURNIN_HOURS; the source asks for >= 10)
  --interval S   nvidia-smi sampling interval in seconds (default $SAMPLE_INTERVAL_S)
  --job CMD      run your planned training job instead of the GEMM + all-reduce loop
  --restart      start over (the old log is kept as gpu.csv.<time>)
Safe to stop (Ctrl-C) at any time: run it again to resume where it stopped.
USAGE
}
HOURS="$BURNIN_HOURS"
INTERVAL="$SAMPLE_INTERVAL_S"
JOB=""
RESTART=0
while [ $# -gt 0 ]; do
  case "$1" in
    --hours) HOURS="$2"; shift 2 ;;
    --interval) INTERVAL="$2"; shift 2 ;;
    --job) JOB="$2"; shift 2 ;;
    --restart) RESTART=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done
)SH";

inline constexpr const char* kBurnin = R"SH(
IMAGE="$REGISTRY/nvidia/pytorch:${NGC_TAG}-py3"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CSV="$VALIDATION_DIR/gpu.csv"
STATE="$VALIDATION_DIR/burnin.state"
WALL_CSV="$VALIDATION_DIR/wall.csv"
LOAD_NAME="gpu-advisor-burnin-$PLAN_ID"
FIELDS=timestamp,index,temperature.gpu,temperature.memory,power.draw,power.limit,clocks.sm,clocks.mem,clocks_throttle_reasons.active,utilization.gpu,memory.used,ecc.errors.uncorrected.volatile.total,pcie.link.gen.current
HEADER='timestamp, index, temperature.gpu, temperature.memory, power.draw [W], power.limit [W], clocks.sm [MHz], clocks.mem [MHz], clocks_throttle_reasons.active, utilization.gpu [%], memory.used [MiB], ecc.errors.uncorrected.volatile.total, pcie.link.gen.current'

num_gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !((a + 0) > (b + 0)) }'; }
pct() { awk -v f="$1" 'BEGIN { printf "%.0f%%", f * 100 }'; }
xid_total() { dmesg 2> /dev/null | grep -ci 'NVRM: Xid' || true; }

if ! is_number "$HOURS" || ! is_number "$INTERVAL" || [ "$INTERVAL" -lt 1 ]; then
  echo "--hours must be a number and --interval a whole number of seconds >= 1" >&2
  exit 2
fi
if ! have nvidia-smi; then
  fail software nvidia-smi "nvidia-smi on PATH" "not found" driver_missing "install the NVIDIA driver (root)"
  finish
fi
if [ "$RESTART" = 1 ]; then
  stamp="$(date +%Y%m%d%H%M%S)"
  for f in "$CSV" "$WALL_CSV"; do
    if [ -f "$f" ]; then mv "$f" "$f.$stamp"; fi
  done
  rm -f "$STATE"
fi
target="$(awk -v h="$HOURS" 'BEGIN { printf "%d", h * 3600 + 0.5 }')"
done_s=0
if [ -f "$STATE" ]; then done_s="$(cat "$STATE")"; fi
is_number "$done_s" || done_s=0
XID_READABLE=0
if dmesg > /dev/null 2>&1; then XID_READABLE=1; fi

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
  if [ -z "$JOB" ] && have docker; then docker rm -f "$LOAD_NAME" > /dev/null 2>&1 || true; fi
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
  echo "burn-in: $done_s s done, $remaining s to go; nvidia-smi every $INTERVAL s into $CSV"
  if [ ! -s "$CSV" ]; then printf '%s\n' "$HEADER" > "$CSV"; fi
  xid_before="$(xid_total)"
  trap on_stop INT TERM
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
    bash -c "$JOB" &
    LOAD_PID=$!
  else
    docker rm -f "$LOAD_NAME" > /dev/null 2>&1 || true
    if ! docker run -d --name "$LOAD_NAME" --gpus all --ipc=host --ulimit memlock=-1 --ulimit stack=67108864 \
      -v "$SCRIPT_DIR:/w:ro" "$IMAGE" torchrun --nproc_per_node="$GPUS_PER_SERVER" /w/burn.py --seconds "$remaining" > /dev/null; then
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
  trap - INT TERM
  if [ "$XID_READABLE" = 1 ]; then
    xid_new=$(($(xid_total) - xid_before))
    measure xid_new "$xid_new"
    if [ "$xid_new" -eq 0 ]; then
      pass health xid_during_burnin 0 0 ok
    else
      fail health xid_during_burnin 0 "$xid_new" xid_new "new Xid errors during the burn-in: run 00_inventory.sh for the codes and what to do"
    fi
  else
    skip health xid_during_burnin 0 "kernel log unreadable" xid_needs_root "reading it needs root here: sudo dmesg -T | grep -i xid"
  fi
else
  echo "burn-in already complete ($done_s s); analysing $CSV (--restart to run again)"
fi

measure burnin_seconds "$done_s"
measure burnin_target_seconds "$target"
hours_done="$(awk -v s="$done_s" 'BEGIN { printf "%.2f", s / 3600 }')"
if [ "$done_s" -ge "$target" ]; then
  pass power burnin_duration "$HOURS h" "$hours_done h" ok
else
  warn power burnin_duration "$HOURS h" "$hours_done h" burnin_incomplete "run $0 again to resume"
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
  function flush() { if (cur != "") print cur, n, v[rank(50, n)], v[rank(99, n)] }
  $1 != cur { flush(); cur = $1; n = 0 }
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
# ECC, lowest PCIe generation while busy (utilization >= 50%).
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
    u = f("utilization.gpu"); p = f("pcie.link.gen.current")
    if (u + 0 >= 50 && p ~ /^[0-9]+$/ && (!(g in pmin) || p + 0 < pmin[g])) pmin[g] = p + 0
  }
  END { for (g in n) printf "%s %d %s %s %.4f %.4f %.4f %d %s\n", g, n[g], lim[g] + 0, tmax[g] + 0,
        th[g] / n[g], br[g] / n[g], cap[g] / n[g], ecc[g] + 0, (g in pmin ? pmin[g] : "-") }' "$CSV" | sort -n)"

# A GPU at its power cap far more often than the median GPU is the outlier worth a look (under a
# full load every GPU may sit at its cap).
cap_median="$(printf '%s\n' "$STATS" | awk 'NF { print $7 }' | sort -n | awk '{ v[++n] = $1 } END { print n ? v[int((n + 1) / 2)] : 0 }')"
cap_limit="$(awk -v m="$cap_median" 'BEGIN { print m + 0.10 }')"
gpus_logged=0
bad=0
p50_seen=""
while read -r g n lim tmax fth fbr fcap ecc pmin; do
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
)SH";

// 90_summary.sh: options, then the JSON writer.
inline constexpr const char* kSummary = R"SH(
usage() {
  cat << USAGE
usage: $0 [--tokens-per-second N] [--wall-power-w W] [-o FILE]
  --tokens-per-second N  tokens/s per server measured from your training job's log
  --wall-power-w W       peak wall power of one server read from the PDU, W
  -o FILE                output (default \$VALIDATION_DIR/validation-result.json)
USAGE
}
TPS=""
WALL_W=""
OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tokens-per-second) TPS="$2"; shift 2 ;;
    --wall-power-w) WALL_W="$2"; shift 2 ;;
    -o) OUT="$2"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done
echo "== 90_summary: plan $PLAN_ID ($PLAN_SUMMARY)"
VALIDATION_DIR="${VALIDATION_DIR:-./validation-out}"
OUT="${OUT:-$VALIDATION_DIR/validation-result.json}"
if [ ! -d "$VALIDATION_DIR" ]; then
  echo "no $VALIDATION_DIR: run 00_inventory.sh and the other scripts first" >&2
  exit 2
fi
for v in "$TPS" "$WALL_W"; do
  if [ -n "$v" ] && ! [[ "$v" =~ ^[0-9]+([.][0-9]+)?$ ]]; then
    echo "--tokens-per-second and --wall-power-w take plain numbers" >&2
    exit 2
  fi
done
EXTRA="$VALIDATION_DIR/90_summary.measured.tsv"
: > "$EXTRA"
if [ -n "$TPS" ]; then printf 'job.tokens_per_second_per_server\t%s\tn\n' "$TPS" >> "$EXTRA"; fi
if [ -n "$WALL_W" ]; then printf 'wall_power_w_max\t%s\tn\n' "$WALL_W" >> "$EXTRA"; fi

checks=()
measured=()
scripts=""
for s in 00_inventory 10_topology 20_container 30_nccl 40_burnin; do
  if [ -f "$VALIDATION_DIR/$s.checks.tsv" ]; then
    checks+=("$VALIDATION_DIR/$s.checks.tsv")
    scripts="${scripts:+$scripts }$s"
  fi
  if [ -f "$VALIDATION_DIR/$s.measured.tsv" ]; then measured+=("$VALIDATION_DIR/$s.measured.tsv"); fi
done
measured+=("$EXTRA")
if [ -z "$scripts" ]; then
  echo "no results in $VALIDATION_DIR: run 00_inventory.sh and the other scripts first" >&2
  exit 2
fi
files=""
for f in inventory.csv topo.txt nvlink_status.txt ibstat.txt probe.log allreduce_intra.log allreduce_inter.log gpu.csv wall.csv; do
  if [ -f "$VALIDATION_DIR/$f" ]; then files="${files:+$files }$f"; fi
done

awk -F '\t' -v plan="$PLAN_ID" -v gpu="$GPU_ID" -v host="$(hostname 2> /dev/null || echo unknown)" \
  -v created="$(date -u +%Y-%m-%dT%H:%M:%SZ)" -v scripts="$scripts" -v files="$files" '
  function esc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return s }
  function str(s) { return "\"" esc(s) "\"" }
  function val(s, t) { if (t != "s" && s ~ /^-?(0|[1-9][0-9]*)([.][0-9]+)?$/) return s; return str(s) }
  function list(s,   a, n, i, o) { n = split(s, a, " "); o = ""; for (i = 1; i <= n; i++) o = o (i > 1 ? ", " : "") str(a[i]); return "[" o "]" }
  FILENAME ~ /[.]checks[.]tsv$/ {
    sc = FILENAME; sub(/.*\//, "", sc); sub(/[.]checks[.]tsv$/, "", sc)
    c[++nc] = "{\"script\": " str(sc) ", \"status\": " str($1) ", \"area\": " str($2) ", \"check\": " str($3) \
      ", \"expected\": " str($4) ", \"measured\": " str($5) ", \"code\": " str($6) ", \"detail\": " str($7) "}"
    if ($1 == "FAIL") nf++
    if ($1 == "WARN") nw++
    next
  }
  $1 != "" { if (!($1 in m)) key[++nk] = $1; m[$1] = val($2, $3) }
  END {
    print "{"
    print "  \"schema\": 1,"
    print "  \"kind\": \"gpu-advisor-validation-result\","
    print "  \"plan_id\": " str(plan) ","
    print "  \"gpu_id\": " str(gpu) ","
    print "  \"host\": " str(host) ","
    print "  \"created_at\": " str(created) ","
    print "  \"scripts\": " list(scripts) ","
    print "  \"files\": " list(files) ","
    printf "  \"summary\": {\"fail\": %d, \"warn\": %d},\n", nf, nw
    print "  \"checks\": ["
    for (i = 1; i <= nc; i++) print "    " c[i] (i < nc ? "," : "")
    print "  ],"
    print "  \"measured\": {"
    for (i = 1; i <= nk; i++) print "    " str(key[i]) ": " m[key[i]] (i < nk ? "," : "")
    print "  }"
    print "}"
  }' "${checks[@]}" "${measured[@]}" > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
nf="$(cat "${checks[@]}" | grep -c '^FAIL' || true)"
nw="$(cat "${checks[@]}" | grep -c '^WARN' || true)"
echo "wrote $OUT: $nf FAIL, $nw WARN from $scripts"
echo "read it back: gpu-advisor check <request.json> $OUT (or drop it on the page's validation panel)"
if [ "$nf" -gt 0 ]; then exit 1; fi
)SH";

}  // namespace advisor::validation::bodies
