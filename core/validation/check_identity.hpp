// SPDX-License-Identifier: MIT
// Each GPU's identity as 00_inventory.sh recorded it (persistence mode, MIG mode, VBIOS,
// serial): the result file's text fields into GpuInventory, and the check's items about them
// (internal to core/validation; validation/check.cpp calls identity_items after memory_items).
#pragma once
#include <string>
#include <string_view>

#include "validation/check.hpp"
#include "validation/measurements.hpp"

namespace advisor::validation {

/// True when FIELD (of gpu.<i>.FIELD) is one of the inventory's text fields: ecc_mode,
/// persistence_mode, mig_mode, vbios_version, serial.
bool is_gpu_text_field(std::string_view field);

/// Sets that field of G to TEXT (is_gpu_text_field(field) must hold).
void set_gpu_text_field(GpuInventory& g, std::string_view field, std::string text);

namespace items {

class Builder;

/// MIG enabled on a GPU (the plan counts whole GPUs): FAIL mig_enabled. Persistence mode off on
/// a data-centre part: WARN persistence_off. VBIOS versions that differ: WARN vbios_mixed. One
/// serial on two GPUs: FAIL serial_duplicate. Nothing recorded (an older file, a raw CSV): no item.
/// On an NVSwitch plan, a fabric manager of another version than the driver: FAIL
/// fabric_manager_version_mismatch, naming both.
void identity_items(const ValidationPlan& p, const Measurements& m, Builder& b);

}  // namespace items
}  // namespace advisor::validation
