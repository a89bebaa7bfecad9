#!/usr/bin/env bash
# One build: native core + CLI + tests (build/), the wasm module (build-wasm/), then
# dist/site/ (static site) and dist/gpu-advisor.html (offline single file).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's emscripten runs its JS optimizer under whatever node is first on PATH; a node that
# is not Debian's does not search Debian's module folder, where acorn lives.
NODE_PATH="$(dirname "$(dpkg -L node-acorn | grep -m1 '/acorn$')")${NODE_PATH:+:$NODE_PATH}"
export NODE_PATH
jobs="$(nproc)"

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs"

emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-wasm -j "$jobs"

node scripts/make_dist.cjs build-wasm/gpu_advisor.js dist
