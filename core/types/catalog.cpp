// SPDX-License-Identifier: MIT
#include "types/catalog.hpp"

#include "types/units.hpp"

namespace advisor {

double GpuSpec::memory_bytes() const { return memory_gib * kBytesPerGib; }

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
