// SPDX-License-Identifier: MIT
// Model arithmetic: parameter counts by kind, the attention widths the memory and FLOP models
// use, and the checks of a model's fields against each other and its size.
#pragma once
#include <cstdint>
#include <string>

#include "types/model.hpp"

namespace advisor {

/// Parameters by kind (embeddings, attention, MLP, experts, linear layers), total and active.
ParamCounts count_params(const ModelArch& arch);

/// Widths used by memory and FLOP models.
std::int64_t q_width(const ModelArch& arch);         // query projection output width
std::int64_t kv_width(const ModelArch& arch);        // one of K or V (per token, all KV heads)
std::int64_t attn_out_width(const ModelArch& arch);  // input width of the output projection
/// KV-cache elements per token per layer (K and V, or MLA's latent + rope key).
std::int64_t kv_cache_elements_per_token_layer(const ModelArch& arch);

/// Checks relations between fields (heads divisible by KV heads, ...) and the size of the model
/// (at most limits::kMaxParameters parameters); reports the first that fails, named `path` + "/"
/// + the key in `keys`. Checks nothing after a problem already reported (the fields are fallbacks).
void validate_arch(const ModelArch& arch, const std::string& path, const ArchKeys& keys = {});

}  // namespace advisor
