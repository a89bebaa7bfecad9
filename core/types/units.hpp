// SPDX-License-Identifier: MIT
// Unit constants shared by every layer: one home each.
#pragma once

namespace advisor {

constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;  // memory is GiB everywhere
constexpr double kBitsPerByte = 8;
constexpr double kHoursPerYear = 8760;
constexpr double kHoursPerMonth = kHoursPerYear / 12;  // 730
constexpr double kDaysPerYear = 365;
constexpr double kHoursPerDay = 24;

}  // namespace advisor
