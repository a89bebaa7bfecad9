# shellcheck shell=bash

finish() {
  # A stage that ran to its end with nothing to check for this plan (the topology of a one-GPU
  # server) says so: an empty result means a stage that stopped early (90_summary.sh FAILs it).
  if [ ! -s "$CHECKS_FILE" ]; then
    report SKIP health "$SCRIPT_NAME" "checks for this plan" "none apply" nothing_to_check "nothing in this stage applies to this plan"
  fi
  printf '%s: %d FAIL, %d WARN; details in %s\n' "$SCRIPT_NAME" "$N_FAIL" "$N_WARN" "$CHECKS_FILE"
  if [ "$N_FAIL" -gt 0 ]; then exit 1; fi
  exit 0
}

echo "== $SCRIPT_NAME: plan $PLAN_ID ($PLAN_SUMMARY)"
