// SPDX-License-Identifier: MIT
#pragma once
#include <string>

#include "io/json_value.hpp"
#include "types/model.hpp"

namespace advisor {

/// Reads a model object: a catalog entry (`catalog_entry`: every key required, published counts
/// included) or a request's custom fields (optional keys take Llama-style defaults).
ModelArch parse_model_fields(const JsonValue& j, const std::string& path, bool catalog_entry);

/// Reads a Hugging Face config.json as pasted (Llama, Mistral, Mixtral, Qwen2, Qwen2-MoE, Qwen3,
/// Qwen3-MoE, DeepSeek-V2/V3 families).
ModelArch parse_hf_config(const JsonValue& j, const std::string& path);

}  // namespace advisor
