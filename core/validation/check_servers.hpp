// SPDX-License-Identifier: MIT
// A cluster's check: one result file per server merged into one verdict
// (validation/check_servers.cpp).
#pragma once
#include <string>
#include <vector>

#include "validation/check.hpp"

namespace advisor::validation {}  // namespace advisor::validation
