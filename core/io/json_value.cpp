// SPDX-License-Identifier: MIT
#include "io/json_value.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "io/json_scalars.hpp"

namespace advisor {

namespace {
constexpr char kHex[] = "0123456789abcdef";
// Integers up to 15 digits print exactly from their double; longer ones keep their digits.
constexpr std::size_t kExactDigits = 15;

void newline_indent(std::string& out, int width) {
  out += '\n';
  out.append(static_cast<std::size_t>(width), ' ');
}
}  // namespace

JsonValue::JsonValue(bool v) : kind_(Kind::kBoolean), boolean_(v) {}
JsonValue::JsonValue(double v) : kind_(Kind::kNumber), number_(v) {}
JsonValue::JsonValue(int v) : kind_(Kind::kNumber), integer_(true), number_(v) {}
JsonValue::JsonValue(std::int64_t v)
    : kind_(Kind::kNumber), integer_(true), number_(static_cast<double>(v)) {
  if (v > 999'999'999'999'999 || v < -999'999'999'999'999) text_ = std::to_string(v);
}
JsonValue::JsonValue(std::string v) : kind_(Kind::kString), text_(std::move(v)) {}
JsonValue::JsonValue(const char* v) : kind_(Kind::kString), text_(v) {}

JsonValue JsonValue::number_literal(double value, std::string_view literal, bool integer) {
  JsonValue j(value);
  j.integer_ = integer;
  if (integer) {
    if (value == 0) j.number_ = 0;  // "-0" is the integer 0
    const std::size_t digits = literal.size() - (literal[0] == '-' ? 1 : 0);
    if (digits > kExactDigits) j.text_ = std::string(literal);
  }
  return j;
}

JsonValue JsonValue::array() {
  JsonValue j;
  j.kind_ = Kind::kArray;
  return j;
}

JsonValue JsonValue::object() {
  JsonValue j;
  j.kind_ = Kind::kObject;
  return j;
}

const char* JsonValue::type_name() const {
  switch (kind_) {
    case Kind::kNull:
      return "null";
    case Kind::kBoolean:
      return "boolean";
    case Kind::kNumber:
      return "number";
    case Kind::kString:
      return "string";
    case Kind::kArray:
      return "array";
    case Kind::kObject:
      return "object";
  }
  return "null";
}

std::size_t JsonValue::index_of(std::string_view key) const {
  if (kind_ != Kind::kObject) return npos;
  if (sorted_) {
    const auto it =
        std::lower_bound(keys_.begin(), keys_.end(), key,
                         [](const std::string& a, std::string_view b) { return a < b; });
    return it != keys_.end() && *it == key ? static_cast<std::size_t>(it - keys_.begin()) : npos;
  }
  for (std::size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == key) return i;
  return npos;
}

const JsonValue* JsonValue::find(std::string_view key) const {
  const std::size_t i = index_of(key);
  return i == npos ? nullptr : &items_[i];
}

JsonValue* JsonValue::find(std::string_view key) {
  return const_cast<JsonValue*>(static_cast<const JsonValue*>(this)->find(key));
}

std::string JsonValue::string_or(std::string_view key, const std::string& fallback) const {
  const JsonValue* v = find(key);
  return v != nullptr && v->is_string() ? v->text_ : fallback;
}

void JsonValue::push_back(JsonValue v) { items_.push_back(std::move(v)); }

JsonValue& JsonValue::set(std::string key, JsonValue v) {
  if (JsonValue* existing = find(key)) return *existing = std::move(v);
  if (!sorted_) return append(std::move(key), std::move(v));
  const auto it = std::lower_bound(keys_.begin(), keys_.end(), key);
  const auto at = it - keys_.begin();
  keys_.insert(it, std::move(key));
  return *items_.insert(items_.begin() + at, std::move(v));
}

JsonValue JsonValue::sorted_object(std::vector<std::string>& keys, std::vector<JsonValue>& items,
                                   std::size_t* duplicate) {
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Stable: equal keys stay in the text's order, so a repeat is the later of two neighbours.
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::size_t first_repeat = keys.size();
  for (std::size_t i = 1; i < order.size(); ++i)
    if (keys[order[i]] == keys[order[i - 1]]) first_repeat = std::min(first_repeat, order[i]);
  if (first_repeat < keys.size()) {
    *duplicate = first_repeat;
    return {};
  }
  JsonValue out = object();
  out.keys_.reserve(keys.size());
  out.items_.reserve(items.size());
  for (const std::size_t i : order) {
    out.keys_.push_back(std::move(keys[i]));
    out.items_.push_back(std::move(items[i]));
  }
  return out;
}

JsonValue JsonValue::whole_number(std::uint64_t v) {
  JsonValue j(static_cast<double>(v));
  j.integer_ = true;
  if (v > 999'999'999'999'999u) j.text_ = std::to_string(v);
  return j;
}

JsonValue& JsonValue::append(std::string key, JsonValue v) {
  if (!keys_.empty() && !(keys_.back() < key)) sorted_ = false;
  keys_.push_back(std::move(key));
  items_.push_back(std::move(v));
  return items_.back();
}

std::string JsonValue::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

void JsonValue::dump_to(std::string& out, int indent, int level) const {
  switch (kind_) {
    case Kind::kNull:
      out += "null";
      return;
    case Kind::kBoolean:
      out += boolean_ ? "true" : "false";
      return;
    case Kind::kNumber: {
      if (!text_.empty()) {  // an integer beyond what its double prints exactly
        out += text_;
        return;
      }
      if (!std::isfinite(number_)) {
        out += "null";
        return;
      }
      if (integer_) {
        char buffer[24];  // -2^63 is 20 characters
        const char* end =
            std::to_chars(buffer, buffer + sizeof buffer, static_cast<std::int64_t>(number_)).ptr;
        out.append(buffer, static_cast<std::size_t>(end - buffer));
      } else {
        out += json_number_text(number_);
      }
      return;
    }
    case Kind::kString:
      out += json_string_text(text_);
      return;
    case Kind::kArray:
    case Kind::kObject: {
      const bool object = kind_ == Kind::kObject;
      out += object ? '{' : '[';
      if (items_.empty()) {
        out += object ? '}' : ']';
        return;
      }
      const int inner = (level + 1) * indent;
      for (std::size_t i = 0; i < items_.size(); ++i) {
        if (i > 0) out += ',';
        if (indent >= 0) newline_indent(out, inner);
        if (object) {
          out += json_string_text(keys_[i]);
          out += indent >= 0 ? ": " : ":";
        }
        items_[i].dump_to(out, indent, level + 1);
      }
      if (indent >= 0) newline_indent(out, level * indent);
      out += object ? '}' : ']';
      return;
    }
  }
}

bool JsonValue::operator==(const JsonValue& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case Kind::kNull:
      return true;
    case Kind::kBoolean:
      return boolean_ == other.boolean_;
    case Kind::kNumber:
      return number_ == other.number_;
    case Kind::kString:
      return text_ == other.text_;
    case Kind::kArray:
      return items_ == other.items_;
    case Kind::kObject: {
      if (items_.size() != other.items_.size()) return false;
      for (std::size_t i = 0; i < items_.size(); ++i) {
        const JsonValue* v = other.find(keys_[i]);
        if (v == nullptr || !(*v == items_[i])) return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace advisor
