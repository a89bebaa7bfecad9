#!/usr/bin/env bash
# Prints the benchmark figures: advise() latency native vs wasm (whole catalog judged per
# call), single-file size raw and gzipped, page load to first result. Build first.
set -euo pipefail
cd "$(dirname "$0")/.."
requests=(tests/requests/finetune_llama31_8b.json tests/requests/inference_deepseek_v3.json
          tests/requests/pretrain_llama2_13b_nodes.json tests/requests/qlora_llama65b_48gb.json)
./build/bench_native "${requests[@]}"
node bench/bench.cjs build-wasm/gpu_advisor.js dist "${requests[@]}"
