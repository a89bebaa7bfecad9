// SPDX-License-Identifier: MIT
// A sentence of the result as a code with named figures, so that each language can render it:
// warnings, the recommendation's reasons, assumptions, cost bases and notes all use these.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace advisor {

/// One named figure of a reason (a number or a text), so each language can render the reason.
struct ReasonParam {
  std::string name;
  std::optional<double> number;
  std::string text;
};

inline ReasonParam param(const char* name, double value) { return {name, value, {}}; }
/// A yes/no parameter as a number (1 or 0): what a renderer's {name?...} tests.
inline double flag(bool b) { return b ? 1 : 0; }
inline ReasonParam param(const char* name, std::string value) {
  return {name, std::nullopt, std::move(value)};
}

/// One line the result shows (an assumption, a basis, a note): a code with its named figures
/// (numbers, GPU ids, enum names; data/messages words it in each language). `text` is the
/// English sentence where the core still writes one (cost bases, memory terms); the speed
/// assumptions have none.
struct Note {
  std::string code;
  std::vector<ReasonParam> params;
  std::string text = {};
};

}  // namespace advisor
