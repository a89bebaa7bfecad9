#!/usr/bin/env bash
# Prints the benchmark figures: advise() latency native vs wasm (whole catalog judged per
# call), single-file size raw and gzipped, page load to first result. Build first.
set -euo pipefail
cd "$(dirname "$0")/.."
requests=(tests/golden/finetune_llama31_8b.request.json tests/golden/inference_deepseek_v3.request.json
          tests/golden/pretrain_llama2_13b_nodes.request.json tests/golden/qlora_llama65b_48gb.request.json)
./build/bench_native "${requests[@]}"
node bench/bench.cjs build-wasm/gpu_advisor.js dist "${requests[@]}"
node bench/page_bench.cjs dist build/bench_native "${requests[@]}"
