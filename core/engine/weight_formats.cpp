// SPDX-License-Identifier: MIT
// Bits per weight of the weight formats people serve and fine-tune with (engine/memory.hpp).
#include "engine/weight_formats.hpp"

#include <string>

#include "engine/memory.hpp"

namespace advisor {

namespace {

// NF4 with double quantisation: 4 bits + 0.127 bits of block constants per parameter
// (Dettmers et al. 2023, "QLoRA", sec. 3, Double Quantization).
constexpr double kNf4BitsPerParam = 4.127;
// LLM.int8(): one byte per weight; row-wise scales and fp16 outliers are under 0.1%.
constexpr double kInt8BitsPerParam = 8;
// GPTQ / AWQ int4 with group size 128: an fp16 scale and a 4-bit zero point per group.
constexpr double kInt4GroupedBitsPerParam = 4 + (16.0 + 4.0) / 128.0;
// FP8 (E4M3) weights with per-tensor or per-channel scales.
constexpr double kFp8BitsPerParam = 8;
}  // namespace

double weight_bits_for(const std::string& format) {
  if (format == "nf4") return kNf4BitsPerParam;
  if (format == "int4") return kInt4GroupedBitsPerParam;
  if (format == "int8") return kInt8BitsPerParam;
  if (format == "fp8") return kFp8BitsPerParam;
  if (format == "fp32") return 32;
  // GGUF (llama.cpp): Q8_0 is 32 int8 + one fp16 scale per block = 8.5 bits (ggml-common.h
  // block_q8_0); the legacy 4/5-bit blocks likewise: Q4_0 16 bytes of nibbles + fp16 scale per
  // 32 weights = 4.5 bits, Q4_1 + fp16 min = 5.0, Q5_0 + 4 bytes of fifth bits = 5.5, Q5_1 6.0
  // (block_q4_0 ... block_q5_1; llama.cpp's README table, 7B bits/weight 4.5/5.0/5.5/6.0).
  // The k-quant mixes are whole-file bits per weight measured on Llama 2 7B by
  // llama.cpp's examples/quantize/README.md (they mix block types, e.g. Q2_K uses Q4_K for
  // attention.wv and feed_forward.w2, so they exceed the pure block sizes 2.625-6.5625).
  if (format == "gguf_q8_0") return 8.5;
  if (format == "gguf_q5_1") return 6.0;
  if (format == "gguf_q5_0") return 5.5;
  if (format == "gguf_q4_1") return 5.0;
  if (format == "gguf_q4_0") return 4.5;
  if (format == "gguf_q6_k") return 6.56;
  if (format == "gguf_q5_k_m") return 5.68;
  if (format == "gguf_q4_k_m") return 4.84;
  if (format == "gguf_q3_k_m") return 3.91;
  if (format == "gguf_q2_k") return 3.35;
  return 16;  // bf16 / fp16
}

EdgeWeightBits edge_weight_bits_for(const std::string& format) {
  if (format.rfind("gguf_", 0) != 0) return {};
  // The k-quant mixes' figures are whole-file averages that already include the embedding and
  // the output tensor. The pure block formats keep the embedding in their own block and store
  // the output tensor as Q6_K (256 weights in 210 bytes = 6.5625 bits), Q8_0 files as Q8_0
  // (llama.cpp src/llama-quant.cpp, llama_tensor_get_type). Check: Llama 3 8B Q4_0 comes to
  // 4.33 GiB, the size llama-bench prints for it.
  constexpr double kQ6KBits = 210.0 * 8 / 256;
  const double bits = weight_bits_for(format);
  const bool mix = format.find("_k") != std::string::npos;
  return {bits, mix || format == "gguf_q8_0" ? bits : kQ6KBits};
}

}  // namespace advisor
