#!/usr/bin/env bash
# README command 1: install what is missing, build everything, serve dist/site/ on localhost.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec node scripts/serve.cjs "${PORT:-8080}"
