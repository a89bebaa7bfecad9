// SPDX-License-Identifier: MIT
// What the check's item builders share (check_fabric, check_health; validation/check.cpp calls
// them in the source's order): the report builder and the wording of numbers. Internal to
// core/validation.
#pragma once
#include <cstdio>
#include <optional>
#include <string>

#include "types/text.hpp"
#include "validation/check.hpp"

namespace advisor::validation::items {

constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;

inline std::string num(double v, int decimals = 1) { return trimmed_decimal(v, decimals); }

inline std::string percent(double fraction) { return num(fraction * 100, 0) + "%"; }

inline Reason ok() { return {"ok", {}, "as planned"}; }

class Builder {
 public:
  explicit Builder(CheckReport& r) : report_(r) {}

  CheckItem& add(Area area, std::string item, Status status, Reason reason,
                 std::optional<double> expected = {}, std::optional<double> measured = {},
                 std::string unit = "") {
    CheckItem c;
    c.area = area;
    c.item = std::move(item);
    c.status = status;
    c.reason = std::move(reason);
    c.expected = expected;
    c.measured = measured;
    c.unit = std::move(unit);
    if (expected && measured && *expected != 0) c.deviation = (*measured - *expected) / *expected;
    report_.items.push_back(std::move(c));
    return report_.items.back();
  }

 private:
  CheckReport& report_;
};

inline std::string more(std::size_t n) {
  return n > 1 ? " (and " + std::to_string(n - 1) + " more)" : "";
}

}  // namespace advisor::validation::items
