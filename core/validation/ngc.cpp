// SPDX-License-Identifier: MIT
#include "validation/ngc.hpp"

#include <algorithm>
#include <cstdlib>

namespace advisor::validation {
namespace {

std::vector<long> version_parts(const std::string& v) {
  std::vector<long> parts;
  std::size_t i = 0;
  while (i < v.size()) {
    std::size_t j = v.find('.', i);
    if (j == std::string::npos) j = v.size();
    parts.push_back(std::strtol(v.substr(i, j - i).c_str(), nullptr, 10));
    i = j + 1;
  }
  return parts;
}

long branch_of(const std::string& v) {
  auto p = version_parts(v);
  return p.empty() ? 0 : p.front();
}

bool supports_gpu(const NgcTag& t, const GpuForTag& gpu) {
  if (compare_versions(gpu.compute_capability, t.arch_min_cc) < 0) return false;
  if (is_blackwell_cc(gpu.compute_capability) && !t.native_blackwell) return false;
  return true;
}

bool eligible(const NgcTag& t, bool allow_unconfirmed) {
  return allow_unconfirmed || t.status != TagStatus::unconfirmed;
}

/// The forward-compatibility branch entry ("535.86") that admits `driver`, or nullptr.
const std::string* forward_branch(const NgcTag& t, const std::string& driver) {
  for (const auto& b : t.dc_forward_compat_branches)
    if (branch_of(b) == branch_of(driver) && compare_versions(driver, b) >= 0) return &b;
  return nullptr;
}

TagChoice chosen(const NgcTag& t) {
  TagChoice c;
  c.found = true;
  c.tag = t.tag;
  c.min_driver = t.min_driver;
  c.status = t.status;
  return c;
}

std::string unconfirmed_note(const NgcTag& t) {
  return t.status == TagStatus::confirmed
             ? ""
             : " (row from tables sharing the monthly base; confirm on its release-notes page)";
}

}  // namespace

int compare_versions(const std::string& a, const std::string& b) {
  auto x = version_parts(a), y = version_parts(b);
  std::size_t n = std::max(x.size(), y.size());
  for (std::size_t i = 0; i < n; ++i) {
    long p = i < x.size() ? x[i] : 0, q = i < y.size() ? y[i] : 0;
    if (p != q) return p < q ? -1 : 1;
  }
  return 0;
}

bool is_blackwell_cc(const std::string& cc) {
  long major = branch_of(cc);
  return major >= 10 && major <= 12;
}

std::vector<const NgcTag*> tags_for_gpu(const NgcCatalog& catalog, const GpuForTag& gpu,
                                        bool allow_unconfirmed) {
  std::vector<const NgcTag*> out;
  if (gpu.software_stack != "cuda" || gpu.compute_capability.empty()) return out;
  for (auto it = catalog.tags.rbegin(); it != catalog.tags.rend(); ++it)
    if (supports_gpu(*it, gpu) && eligible(*it, allow_unconfirmed)) out.push_back(&*it);
  return out;
}

TagChoice pick_ngc_tag(const NgcCatalog& catalog, const GpuForTag& gpu,
                       const std::optional<std::string>& host_driver, bool allow_unconfirmed) {
  TagChoice none;
  if (gpu.software_stack != "cuda" || gpu.compute_capability.empty()) {
    none.reason = {"no_ngc_for_stack",
                   {{"stack", gpu.software_stack}},
                   "NGC PyTorch containers are CUDA-only; this part uses " + gpu.software_stack};
    return none;
  }
  auto candidates = tags_for_gpu(catalog, gpu, allow_unconfirmed);
  if (candidates.empty()) {
    none.reason = {"no_tag_for_gpu",
                   {{"compute_capability", gpu.compute_capability}},
                   "no NGC PyTorch tag in data/ngc.json supports compute capability " +
                       gpu.compute_capability};
    return none;
  }
  const bool blackwell = is_blackwell_cc(gpu.compute_capability);
  if (!host_driver || host_driver->empty()) {
    const NgcTag& t = *candidates.front();
    TagChoice c = chosen(t);
    c.reason = {"newest_no_driver",
                {{"tag", t.tag}, {"min_driver", t.min_driver}},
                "no host driver given: the newest tag for this GPU, " + t.tag +
                    ", needs driver >= " + t.min_driver + unconfirmed_note(t)};
    return c;
  }
  const std::string& driver = *host_driver;
  for (const NgcTag* t : candidates) {
    if (compare_versions(t->min_driver, driver) <= 0) {
      TagChoice c = chosen(*t);
      c.reason = {"newest_for_driver",
                  {{"driver", driver}, {"tag", t->tag}, {"min_driver", t->min_driver}},
                  "driver " + driver + " runs " + t->tag + " (needs >= " + t->min_driver +
                      "), the newest tag for this GPU it supports" + unconfirmed_note(*t)};
      return c;
    }
  }
  if (gpu.product == ProductClass::data_center && !blackwell) {
    for (const NgcTag* t : candidates) {
      if (const std::string* b = forward_branch(*t, driver)) {
        TagChoice c = chosen(*t);
        c.forward_compat = true;
        c.reason = {"forward_compat",
                    {{"driver", driver}, {"branch", *b}, {"tag", t->tag}},
                    "driver " + driver + " is older than " + t->tag + " needs (" + t->min_driver +
                        "), but data-centre GPUs run it through forward compatibility on the R" +
                        std::to_string(branch_of(*b)) + " branch (>= " + *b + ")" +
                        unconfirmed_note(*t)};
        return c;
      }
    }
  }
  const NgcTag& oldest = *candidates.back();
  none.min_driver = oldest.min_driver;
  std::string why;
  if (gpu.product == ProductClass::geforce)
    why = "; GeForce cards cannot use forward compatibility";
  else if (gpu.product == ProductClass::workstation)
    why = "; forward compatibility is for data-centre GPUs";
  else if (blackwell)
    why = "; Blackwell needs 25.01 or later and a driver that knows the part";
  none.reason = {"driver_too_old",
                 {{"driver", driver},
                  {"min_driver", oldest.min_driver},
                  {"tag", oldest.tag},
                  {"product", to_string(gpu.product)}},
                 "driver " + driver + " is older than any tag for this GPU needs (" + oldest.tag +
                     " needs >= " + oldest.min_driver + ")" + why + ": upgrade the driver (root)"};
  return none;
}

const char* to_string(TagStatus s) {
  switch (s) {
    case TagStatus::confirmed:
      return "confirmed";
    case TagStatus::secondary:
      return "secondary";
    case TagStatus::unconfirmed:
      return "unconfirmed";
  }
  return "secondary";
}

const char* to_string(ProductClass p) {
  switch (p) {
    case ProductClass::data_center:
      return "data_center";
    case ProductClass::workstation:
      return "workstation";
    case ProductClass::geforce:
      return "geforce";
  }
  return "data_center";
}

}  // namespace advisor::validation
