# shellcheck shell=bash

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
    --tokens-per-second) TPS="${2:?--tokens-per-second needs a value}"; shift 2 ;;
    --wall-power-w) WALL_W="${2:?--wall-power-w needs a value}"; shift 2 ;;
    -o) OUT="${2:?-o needs a file}"; shift 2 ;;
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

# The burn-in as its own files tell it: still running (burnin.pid names a live 40_burnin.sh,
# detached or not), or stopped before its end without writing its results (a reboot, kill -9,
# an SSH drop under an old version): burnin.state and burnin.target give how far it got,
# burnin.log its last line.
SUMMARY_CHECKS="$VALIDATION_DIR/90_summary.checks.tsv"
: > "$SUMMARY_CHECKS"
flat() { printf '%s' "$1" | tr '\t\r\n' '   ' | tr -d '\000-\010\013\014\016-\037'; }
b_done="$(cat "$VALIDATION_DIR/burnin.state" 2> /dev/null || true)"
b_target="$(cat "$VALIDATION_DIR/burnin.target" 2> /dev/null || true)"
b_pid="$(cat "$VALIDATION_DIR/burnin.pid" 2> /dev/null || true)"
b_last="$(grep -E '^(PASS|WARN|FAIL|SKIP|burn-in|stopped)' "$VALIDATION_DIR/burnin.log" 2> /dev/null | tail -n 1 || true)"
b_running=0
if [[ "$b_pid" =~ ^[0-9]+$ ]] && kill -0 "$b_pid" 2> /dev/null; then
  case "$(ps -o args= -p "$b_pid" 2> /dev/null || true)" in *burnin*) b_running=1 ;; esac
fi
[[ "$b_done" =~ ^[0-9]+$ ]] || b_done=""
[[ "$b_target" =~ ^[0-9]+$ ]] || b_target=""
if [ "$b_running" = 1 ]; then
  printf 'WARN\tpower\tburnin\tthe burn-in finished\trunning as PID %s: %s of %s s\tburnin_running\t%s\n' \
    "$b_pid" "${b_done:-0}" "${b_target:-?}" "still running: wait for it (40_burnin.sh --status, tail -f $VALIDATION_DIR/burnin.log), then run 90_summary.sh again" >> "$SUMMARY_CHECKS"
elif [ -n "$b_done" ] && [ -n "$b_target" ] && ! grep -q '^burnin_seconds' "$VALIDATION_DIR/40_burnin.measured.tsv" 2> /dev/null; then
  printf 'FAIL\tpower\tburnin_duration\t%s s\t%s s\tburnin_incomplete\t%s\n' "$b_target" "$b_done" \
    "$(flat "the burn-in stopped without writing its results${b_last:+ (last line of burnin.log: $b_last)}: run 40_burnin.sh --detach to resume")" >> "$SUMMARY_CHECKS"
  printf 'burnin_seconds\t%s\tn\nburnin_target_seconds\t%s\tn\n' "$b_done" "$b_target" >> "$EXTRA"
fi

# A stage that should have run and left no result (never run, or stopped before its first check
# line) FAILs: a missing stage must not read as a pass. "scripts" lists the stages with results,
# so check can tell the same from the file alone. A burn-in still running or stopped early has
# its own line above.
stage_area() {
  case "$1" in
    00_inventory) printf memory ;;
    10_topology | 30_nccl) printf interconnect ;;
    20_container) printf software ;;
    *) printf power ;;
  esac
}
checks=()
measured=()
scripts=""
for s in 00_inventory 10_topology 20_container 30_nccl 40_burnin; do
  if [ -s "$VALIDATION_DIR/$s.checks.tsv" ]; then
    checks+=("$VALIDATION_DIR/$s.checks.tsv")
    scripts="${scripts:+$scripts }$s"
  elif [ "$s" = 40_burnin ] && grep -qE 'burnin_(running|incomplete)' "$SUMMARY_CHECKS"; then
    :
  elif [ -e "$VALIDATION_DIR/$s.checks.tsv" ]; then
    printf 'FAIL\t%s\t%s\tits results\tstarted, no result\tstage_missing\t%s\n' "$(stage_area "$s")" "$s" \
      "$s.sh stopped before its first check: run ./$s.sh again and read its output, then 90_summary.sh" >> "$SUMMARY_CHECKS"
  else
    printf 'FAIL\t%s\t%s\tits results\tnot run\tstage_missing\t%s\n' "$(stage_area "$s")" "$s" \
      "run ./$s.sh on this server, then 90_summary.sh again" >> "$SUMMARY_CHECKS"
  fi
  if [ -f "$VALIDATION_DIR/$s.measured.tsv" ]; then measured+=("$VALIDATION_DIR/$s.measured.tsv"); fi
done
measured+=("$EXTRA")
awk -F '\t' '$6 == "stage_missing" { printf "FAIL %s: expected its results, measured %s (%s)\n", $3, $5, $7 }' "$SUMMARY_CHECKS"
if [ -s "$SUMMARY_CHECKS" ]; then checks+=("$SUMMARY_CHECKS"); fi
if [ -z "$scripts" ]; then
  echo "no results in $VALIDATION_DIR: run 00_inventory.sh and the other scripts first" >&2
  exit 2
fi
files=""
for f in inventory.csv topo.txt nvlink_status.txt nvlink_errors.txt ibstat.txt probe.log allreduce_intra.log allreduce_inter.log gpu.csv wall.csv burnin.log dcgm_diag.json; do
  if [ -f "$VALIDATION_DIR/$f" ]; then files="${files:+$files }$f"; fi
done
# DCGM's own JSON (40_burnin.sh --dcgm kept it only when it is one object): check reads each test.
dcgm_json=""
if [ -s "$VALIDATION_DIR/dcgm_diag.json" ]; then dcgm_json="$VALIDATION_DIR/dcgm_diag.json"; fi

awk -F '\t' -v plan="$PLAN_ID" -v dcgm="$dcgm_json" -v gpu="$GPU_ID" -v host="$(hostname 2> /dev/null || echo unknown)" \
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
    print "  }" (dcgm != "" ? "," : "")
    if (dcgm != "") {
      printf "  \"dcgm\": "
      while ((getline line < dcgm) > 0) print line
    }
    print "}"
  }' "${checks[@]}" "${measured[@]}" > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
nf="$(cat "${checks[@]}" | grep -c '^FAIL' || true)"
nw="$(cat "${checks[@]}" | grep -c '^WARN' || true)"
echo "wrote $OUT: $nf FAIL, $nw WARN from $scripts"
echo "read it back: gpu-advisor check <request.json> $OUT (or drop it on the page's validation panel)"
if [ "$nf" -gt 0 ]; then exit 1; fi
