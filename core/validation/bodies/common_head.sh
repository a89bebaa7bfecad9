# shellcheck shell=bash
VALIDATION_DIR="${VALIDATION_DIR:-./validation-out}"
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
