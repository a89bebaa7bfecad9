// SPDX-License-Identifier: MIT
// Look-ups in the speed model's constants (io/performance_json.cpp reads them): the networks,
// and each GPU's measured matmul and attention fractions.
#include "types/perf_constants.hpp"

#include <utility>

namespace advisor {

const NetworkKind* PerformanceConstants::find_network(const std::string& id) const {
  for (const NetworkKind& n : networks)
    if (n.id == id) return &n;
  return nullptr;
}

const ServerNetwork* PerformanceConstants::find_server_network(
    const std::string& server_class) const {
  for (const ServerNetwork& n : server_networks)
    if (n.server_class == server_class) return &n;
  return nullptr;
}

double PerformanceConstants::matmul_fraction(const std::string& gpu_id, bool fp8) const {
  const auto entry = matmul_entry_of_.find(gpu_id);
  if (entry == matmul_entry_of_.end())
    return fp8 ? default_matmul_fraction_fp8 : default_matmul_fraction_bf16;
  const MatmulFraction& m = matmul_fractions[entry->second];
  if (!fp8) return m.bf16;
  return m.fp8 ? *m.fp8 : default_matmul_fraction_fp8;
}

double PerformanceConstants::attention_fraction(const std::string& gpu_id) const {
  const auto entry = attention_entry_of_.find(gpu_id);
  return entry == attention_entry_of_.end() ? default_attention_fraction
                                            : attention_fractions[entry->second].value;
}

void PerformanceConstants::add_fraction(MatmulFraction fraction) {
  for (const std::string& id : fraction.gpus)
    matmul_entry_of_.try_emplace(id, matmul_fractions.size());
  matmul_fractions.push_back(std::move(fraction));
}

void PerformanceConstants::add_fraction(AttentionFraction fraction) {
  for (const std::string& id : fraction.gpus)
    attention_entry_of_.try_emplace(id, attention_fractions.size());
  attention_fractions.push_back(std::move(fraction));
}

}  // namespace advisor
