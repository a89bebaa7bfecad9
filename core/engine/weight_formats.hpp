// SPDX-License-Identifier: MIT
// Bits per weight of each weight format (engine/weight_formats.cpp): the one table the memory
// and speed models read.
#pragma once
#include <string>

namespace advisor {

/// Bits per weight of a weight format (bf16, fp8, int8, int4, nf4, gguf_*), scales included.
double weight_bits_for(const std::string& format);
/// Bits per weight of the token embedding and of the LM head (output tensor) under a weight
/// format: 16 (kept unquantised) except in GGUF files, which quantise them too.
struct EdgeWeightBits {
  double embedding = 16;
  double lm_head = 16;
};
EdgeWeightBits edge_weight_bits_for(const std::string& format);

}  // namespace advisor
