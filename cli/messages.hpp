// SPDX-License-Identifier: MIT
// The words of data/messages/<lang>.json for the CLI: the same files and the same ICU
// MessageFormat subset the page renders (web/js/messages.js), so the CLI and the page say the
// same sentence for a code. The core never calls this: it speaks in codes with parameters.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace gpu_advisor_cli {

/// One language's message table (data/messages/<lang>.json, compiled into the CLI).
class Messages {
 public:
  /// The built-in table of `lang` ("zh-CN" or "en"); nullptr for another language.
  static const Messages* builtin(const std::string& lang);
  Messages(nlohmann::json table, std::string lang);

  bool has(const std::string& key) const;
  /// Message `key` with `params` (a JSON object of numbers, texts and flags); the key itself
  /// when the table has no such message. Throws std::runtime_error on a malformed message.
  std::string render(const std::string& key, const nlohmann::json& params) const;
  const std::string& lang() const { return lang_; }

  /// A number in a style of the messages ({name, number, style}); an unknown style (or none)
  /// reads as an integer or three significant digits.
  std::string number(double value, const std::string& style) const;

 private:
  std::string text_param(const std::string& name, const std::string& value,
                         const nlohmann::json& params) const;
  nlohmann::json table_;
  std::string lang_;
  friend struct Renderer;
};

/// `value` with `decimals` fixed decimals and a comma every three integer digits (what the
/// page's Intl.NumberFormat prints for en-US and zh-CN).
std::string grouped(double value, int decimals);

}  // namespace gpu_advisor_cli
