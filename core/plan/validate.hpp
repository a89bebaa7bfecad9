// SPDX-License-Identifier: MIT
// Checks across fields that need the whole request, the catalog or the chosen layout. The
// readers in io/ check each field alone; these run after them.
#pragma once
#include "engine/memory.hpp"
#include "types/catalog.hpp"
#include "types/request.hpp"

namespace advisor {

/// Cross-field checks that need the whole request and the catalog (pinned hardware): FP8 (FP32)
/// training only on parts with FP8 tensor cores (a published FP32 rate), max_model_len.
void validate_speed(const Request& request, const Catalog& catalog);

/// With pinned hardware: a global batch that is not a multiple of micro-batch x data parallel
/// of the layout chosen for the pinned GPUs is rounded up to the next multiple; this says so
/// (the warning text), or nullopt when it is a multiple.
std::optional<std::string> check_global_batch(const Request& request, const Layout& layout);

/// Without pinned hardware, overrides that describe one server (GPU prices, platform price, GPUs
/// per server, host watts, rack units) have nothing to apply to: an `inconsistent` error.
void reject_server_overrides_without_hardware(const CostRequest& cost_request);

}  // namespace advisor
