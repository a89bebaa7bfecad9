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
