// SPDX-License-Identifier: MIT
// Shared by 00_inventory.sh to 40_burnin.sh: reporting, measured values and the small helpers
// (scripts.cpp includes the helpers a body uses).
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

}  // namespace advisor::validation::bodies
