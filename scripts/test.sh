#!/usr/bin/env bash
# README command 2: the same set-up and build, then every test (Catch2 core tests, CLI
# contract, wasm-vs-native under Node, the page in headless Chromium) through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j 2
