// SPDX-License-Identifier: MIT
#include "validation/check_identity.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "validation/check_builder.hpp"

namespace advisor::validation {

bool is_gpu_text_field(std::string_view f) {
  return f == "ecc_mode" || f == "persistence_mode" || f == "mig_mode" || f == "vbios_version" ||
         f == "serial";
}

void set_gpu_text_field(GpuInventory& g, std::string_view f, std::string text) {
  std::string& slot = f == "ecc_mode"           ? g.ecc_mode
                      : f == "persistence_mode" ? g.persistence_mode
                      : f == "mig_mode"         ? g.mig_mode
                      : f == "vbios_version"    ? g.vbios_version
                                                : g.serial;
  slot = std::move(text);
}

namespace items {
namespace {

/// A value nvidia-smi prints where the GPU has none: "[N/A]", "[Not Supported]", or nothing.
bool reported(const std::string& v) {
  return !v.empty() && v.find("N/A") == std::string::npos &&
         v.find("Not Supported") == std::string::npos;
}

std::string join_words(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

/// The GPUs (by index) whose FIELD equals VALUE.
std::vector<std::string> gpus_with(const Measurements& m, std::string GpuInventory::*field,
                                   const std::string& value) {
  std::vector<std::string> out;
  for (const auto& g : m.gpus)
    if (g.*field == value) out.push_back(std::to_string(g.index));
  return out;
}

void mig_item(const Measurements& m, Builder& b) {
  const auto on = gpus_with(m, &GpuInventory::mig_mode, "Enabled");
  if (on.empty()) {
    b.add(Area::memory, "mig_mode", Status::pass, ok());
    return;
  }
  b.add(Area::memory, "mig_mode", Status::fail,
        {"mig_enabled",
         {{"gpus", join_words(on)}},
         "MIG is enabled on GPU " + join_words(on) +
             ": a MIG slice is not the whole GPU the plan counts on; turn MIG off (nvidia-smi -i "
             "<GPU> -mig 0 as root, then reset the GPU)"});
}

void persistence_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (p.product != ProductClass::data_center) return;
  const auto off = gpus_with(m, &GpuInventory::persistence_mode, "Disabled");
  if (off.empty()) {
    b.add(Area::compute, "persistence_mode", Status::pass, ok());
    return;
  }
  b.add(Area::compute, "persistence_mode", Status::warn,
        {"persistence_off",
         {{"gpus", join_words(off)}},
         "persistence mode is off on GPU " + join_words(off) +
             ": the driver unloads between jobs and every start pays for the GPUs' "
             "initialisation; turn it on (nvidia-smi -pm 1 as root, or the nvidia-persistenced "
             "service)"});
}

void vbios_and_serial_items(const Measurements& m, Builder& b) {
  std::vector<std::string> versions, serials, duplicates;
  for (const auto& g : m.gpus) {
    if (reported(g.vbios_version) &&
        std::find(versions.begin(), versions.end(), g.vbios_version) == versions.end())
      versions.push_back(g.vbios_version);
    if (!reported(g.serial)) continue;
    if (std::find(serials.begin(), serials.end(), g.serial) != serials.end() &&
        std::find(duplicates.begin(), duplicates.end(), g.serial) == duplicates.end())
      duplicates.push_back(g.serial);
    serials.push_back(g.serial);
  }
  if (versions.size() > 1)
    b.add(Area::compute, "vbios_version", Status::warn,
          {"vbios_mixed",
           {{"versions", join_words(versions)}},
           "the GPUs of this server run different VBIOS versions (" + join_words(versions) +
               "): ask the vendor for one release on all of them"});
  if (!duplicates.empty())
    b.add(Area::power, "serial", Status::fail,
          {"serial_duplicate",
           {{"serial", join_words(duplicates)}},
           "serial " + join_words(duplicates) +
               " is on more than one GPU: two boards cannot share one; the inventory is not "
               "real hardware (a stand-in or a spoofed board)"});
}

/// On an NVSwitch plan, the fabric manager's version against the driver's: NVIDIA ships them as a
/// pair and they must be equal (same branch, same release); another version FAILs naming both.
/// Not recorded ("unknown": nv-fabricmanager not on PATH) or no driver version: no item.
void fabric_manager_version_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  const std::string& fm = m.fabric_manager_version;
  const std::string& driver = m.driver_version;
  if (!p.fabric_manager_required || fm.empty() || fm == "unknown" || driver.empty()) return;
  if (fm == driver) {
    b.add(Area::interconnect, "fabric_manager_version", Status::pass, ok());
    return;
  }
  b.add(Area::interconnect, "fabric_manager_version", Status::fail,
        {"fabric_manager_version_mismatch",
         {{"fabric_manager", fm}, {"driver", driver}},
         "the fabric manager is " + fm + " and the driver " + driver +
             ": they must be the same version (NVSwitch boxes get no NVLink fabric otherwise); "
             "install nvidia-fabricmanager of exactly the driver's version, then restart it"});
}

}  // namespace

void identity_items(const ValidationPlan& p, const Measurements& m, Builder& b) {
  fabric_manager_version_item(p, m, b);
  const bool recorded = std::any_of(m.gpus.begin(), m.gpus.end(), [](const GpuInventory& g) {
    return !g.persistence_mode.empty() || !g.mig_mode.empty();
  });
  if (!recorded) return;
  mig_item(m, b);
  persistence_item(p, m, b);
  vbios_and_serial_items(m, b);
}

}  // namespace items
}  // namespace advisor::validation
