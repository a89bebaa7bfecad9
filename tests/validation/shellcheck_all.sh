#!/usr/bin/env bash
# Runs shellcheck over every generated script of every test plan (all severities), the stand-ins
# the test runner and the script parts in core/validation/bodies; python3 -m py_compile over the generated probes when python3 is there.
# usage: shellcheck_all.sh <validation_tool> <shellcheck> <work dir>
set -euo pipefail
TOOL="$1"
SHELLCHECK="$2"
WORK="$3"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rm -rf "$WORK"
mkdir -p "$WORK"
status=0
count=0
for c in $("$TOOL" cases); do
  "$TOOL" scripts "$c" "$WORK/$c"
  for f in "$WORK/$c"/*.sh; do
    count=$((count + 1))
    "$SHELLCHECK" --severity=style "$f" || status=1
  done
  if command -v python3 > /dev/null 2>&1; then
    for f in "$WORK/$c"/*.py; do python3 -m py_compile "$f" || status=1; done
  fi
done
(cd "$HERE" && "$SHELLCHECK" --severity=style -x -P SCRIPTDIR standins/* run_standins.sh shellcheck_all.sh) || status=1
# The parts the scripts are made of, where they are kept (each names its shell on its first line).
"$SHELLCHECK" --severity=style "$HERE"/../../core/validation/bodies/*.sh || status=1
echo "shellcheck: $count generated scripts, the stand-ins and the runners: $([ "$status" = 0 ] && echo clean || echo FINDINGS)"
exit "$status"
