# shellcheck shell=bash

finish() {
  printf '%s: %d FAIL, %d WARN; details in %s\n' "$SCRIPT_NAME" "$N_FAIL" "$N_WARN" "$CHECKS_FILE"
  if [ "$N_FAIL" -gt 0 ]; then exit 1; fi
  exit 0
}

echo "== $SCRIPT_NAME: plan $PLAN_ID ($PLAN_SUMMARY)"
