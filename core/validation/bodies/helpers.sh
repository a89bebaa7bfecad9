# shellcheck shell=bash
# helper: pass
pass() { report PASS "$@"; }
# helper: warn
warn() { report WARN "$@"; }
# helper: fail
fail() { report FAIL "$@"; }
# helper: skip
skip() { report SKIP "$@"; }
# helper: measure
# measure KEY VALUE: a number when it looks like one.
measure() { printf '%s\t%s\tn\n' "$1" "$(one_line "$2")" >> "$MEASURED_FILE"; }
# helper: measure_str
# measure_str KEY VALUE: always text.
measure_str() { printf '%s\t%s\ts\n' "$1" "$(one_line "$2")" >> "$MEASURED_FILE"; }
# helper: trim
trim() {
  local s="$1"
  s="${s#"${s%%[![:space:]]*}"}"
  s="${s%"${s##*[![:space:]]}"}"
  printf '%s' "$s"
}
# helper: have
have() { command -v "$1" > /dev/null 2>&1; }
# helper: is_number
is_number() { [[ "$1" =~ ^-?[0-9]+([.][0-9]+)?$ ]]; }
# helper: num_ge
num_ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !((a + 0) >= (b + 0)) }'; }
# helper: ratio
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print 0; else printf "%.3f", a / b }'; }
# helper: version_ge
version_ge() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$2" ]; }
# helper: add_word
add_word() { case " $1 " in *" $2 "*) printf '%s' "$1" ;; *) printf '%s' "${1:+$1 }$2" ;; esac; }
# helper: kernel_log_source
# kernel_log_source: prints where the kernel log can be read, "dmesg" or "journalctl" (dmesg is
# restricted for users where kernel.dmesg_restrict=1, Ubuntu's default; the journal's kernel
# messages are readable by the adm and systemd-journal groups); returns 1 when neither is.
kernel_log_source() {
  if dmesg > /dev/null 2>&1; then
    printf dmesg
  elif have journalctl && [ -n "$(journalctl -k -b -q --no-pager 2> /dev/null | head -n 1)" ]; then
    printf journalctl
  else
    return 1
  fi
}
# helper: kernel_log
# kernel_log SOURCE: the kernel log of this boot from SOURCE (kernel_log_source).
kernel_log() {
  case "$1" in
    dmesg) dmesg 2> /dev/null || true ;;
    journalctl) journalctl -k -b -q --no-pager 2> /dev/null || true ;;
  esac
}
# helper: kernel_log_advice
kernel_log_advice() {
  printf '%s' "neither dmesg nor journalctl -k is readable by this user: run as root (sudo dmesg -T | grep -i xid), or add the user to the adm group"
}
# helper: xid_advice
# xid_advice CODES: what to do about each hardware Xid of the comma list CODES.
xid_advice() {
  local c out=""
  local -a codes
  IFS=',' read -r -a codes <<< "$1"
  for c in ${codes[@]+"${codes[@]}"}; do
    case "$c" in
      48) out="$out Xid 48: double-bit ECC error; reset the GPU, replace it if it recurs." ;;
      63 | 64) out="$out Xid $c: row-remapping event; reset the GPU to apply it, replace on failure." ;;
      74) out="$out Xid 74: NVLink error; reseat the GPU/baseboard and run 10_topology.sh." ;;
      79) out="$out Xid 79: GPU fell off the bus; check power, PCIe seating and cooling." ;;
      92) out="$out Xid 92: high single-bit ECC rate; watch it, replace if it climbs." ;;
      94) out="$out Xid 94: contained ECC error; restart the job." ;;
      95) out="$out Xid 95: uncontained ECC error; reset the GPU." ;;
      61 | 62) out="$out Xid $c: GPU micro-controller halted; reset the GPU, update the driver if it recurs." ;;
      119 | 120) out="$out Xid $c: GSP error; update the driver or reset the GPU." ;;
    esac
  done
  printf '%s' "${out# }"
}
# helper: xid_report
# xid_report CHECK COUNT CODES: PASS without Xid lines; FAIL when one of the comma list CODES is
# in XID_HARDWARE (the card, its memory, links or firmware); else WARN (XID_APPLICATION: a
# program's fault, or a code neither list names).
xid_report() {
  local check="$1" count="$2" seen="$3" c hw="" app="" other=""
  local -a list
  IFS=',' read -r -a list <<< "$seen"
  for c in ${list[@]+"${list[@]}"}; do
    case " $XID_HARDWARE " in *" $c "*) hw="${hw:+$hw,}$c"; continue ;; esac
    case " $XID_APPLICATION " in *" $c "*) app="${app:+$app,}$c" ;; *) other="${other:+$other,}$c" ;; esac
  done
  if [ "$count" -eq 0 ]; then
    pass health "$check" "no Xid errors" "none" ok
  elif [ -n "$hw" ]; then
    fail health "$check" "no hardware Xid" "$count (Xid $seen)" xid_errors \
      "hardware: $(xid_advice "$hw")"
  else
    warn health "$check" "no hardware Xid" "$count (Xid ${seen:-?})" xid_application \
      "${app:+application Xid $app: a program fault (bad address, page fault), not a card fault; }${other:+Xid $other not classified: look it up at https://docs.nvidia.com/deploy/xid-errors/; }none of them is a hardware Xid"
  fi
}
# helper: link_counters
# link_counters: "DEV/PORT COUNTER VALUE" for each InfiniBand or RoCE port's link_downed,
# link_error_recovery and symbol_error counters in sysfs (SYSFS_ROOT=<dir> reads a copy).
link_counters() {
  local d c rest
  for d in "${SYSFS_ROOT:-}"/sys/class/infiniband/*/ports/*/counters; do
    rest="${d#"${SYSFS_ROOT:-}"/sys/class/infiniband/}"
    for c in link_downed link_error_recovery symbol_error; do
      [ -r "$d/$c" ] || continue
      printf '%s/%s %s %s\n' "${rest%%/*}" "$(cut -d / -f 3 <<< "$rest")" "$c" "$(cat "$d/$c" 2> /dev/null || echo 0)"
    done
  done
}
# helper: link_flap_report
# link_flap_report BEFORE WHEN KEY: FAIL link_flap for each port whose link_downed,
# link_error_recovery or symbol_error grew since BEFORE (link_counters's output then); PASS when
# none grew; SKIP when sysfs had no counters. KEY: the measured key of the count of such ports.
link_flap_report() {
  local before="$1" when="$2" key="$3" grown port deltas n=0
  local want="link_downed, link_error_recovery, symbol_error unchanged $when"
  if [ ! -s "$before" ]; then
    skip interconnect link_flaps "$want" "no port counters" link_counters_unavailable \
      "no /sys/class/infiniband/*/ports/*/counters here: watch the switch ports' logs for flaps instead"
    return
  fi
  grown="$(link_counters | awk 'NR == FNR { b[$1 " " $2] = $3; next }
    ($1 " " $2) in b && $3 + 0 > b[$1 " " $2] + 0 {
      if (!($1 in d)) order[++n] = $1
      d[$1] = d[$1] (d[$1] == "" ? "" : ", ") $2 " +" ($3 - b[$1 " " $2])
    }
    END { for (i = 1; i <= n; i++) print order[i], d[order[i]] }' "$before" -)"
  while read -r port deltas; do
    [ -n "$port" ] || continue
    n=$((n + 1))
    fail interconnect "link_flaps $port" "$want" "$deltas" link_flap \
      "port $port went down, retrained or took bit errors $when: reseat or replace its cable or transceiver, read the switch port's log, then run 10_topology.sh again"
  done <<< "$grown"
  measure "$key" "$n"
  if [ "$n" -eq 0 ]; then
    pass interconnect link_flaps "$want" "none grew on $(wc -l < "$before") counters" ok
  fi
}
