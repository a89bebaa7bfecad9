// SPDX-License-Identifier: MIT
#include "types/catalog.hpp"

#include "types/units.hpp"

namespace advisor {

double GpuSpec::memory_bytes() const {
  constexpr double kBytesPerMib = 1024.0 * 1024.0;
  return memory_usable_mib ? *memory_usable_mib * kBytesPerMib : memory_gib * kBytesPerGib;
}

const GpuSpec* Catalog::find_gpu(const std::string& id) const {
  for (const GpuSpec& g : gpus)
    if (g.id == id) return &g;
  return nullptr;
}

const ModelArch* Catalog::find_model(const std::string& id) const {
  for (const ModelArch& m : models)
    if (m.id == id) return &m;
  return nullptr;
}

}  // namespace advisor
