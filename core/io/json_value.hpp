// SPDX-License-Identifier: MIT
// A JSON document as the readers see it: null, true/false, a number, a string, an array or an
// object. Small on purpose (the wasm module's size): members are out of line, not templates, and
// the API is what the readers and the few builders use, not a general JSON library's.
//
// Objects keep their members sorted by key (as nlohmann::json's std::map did, which the texts
// and error messages were made with): the first unknown field reported, the order of a catalog's
// GPU overrides and the key order of a dumped object are the ones they always were, and find()
// is a binary search. `append()` keeps insertion order instead, for the documents written in a
// fixed order (validation); such an object is searched member by member.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace advisor {

class JsonValue {
 public:
  enum class Kind : unsigned char { kNull, kBoolean, kNumber, kString, kArray, kObject };

  JsonValue() = default;  // null
  JsonValue(std::nullptr_t) {}
  JsonValue(bool v);
  JsonValue(double v);
  JsonValue(int v);
  JsonValue(std::int64_t v);
  JsonValue(std::string v);
  JsonValue(const char* v);
  /// A number parsed from `literal`, its text: an integer literal stays exact when dumped.
  static JsonValue number_literal(double value, std::string_view literal, bool integer);
  static JsonValue array();
  static JsonValue object();

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_boolean() const { return kind_ == Kind::kBoolean; }
  bool is_number() const { return kind_ == Kind::kNumber; }
  /// A number written without fraction or exponent (and within 64 bits), or built from an int.
  bool is_integer() const { return kind_ == Kind::kNumber && integer_; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool is_object() const { return kind_ == Kind::kObject; }
  /// "null", "boolean", "number", "string", "array" or "object" (for messages).
  const char* type_name() const;

  bool boolean() const { return boolean_; }
  double number() const { return number_; }
  const std::string& string() const { return text_; }

  /// Elements of an array, members of an object; 0 otherwise.
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  /// An array's elements (an object's member values, in key order).
  const std::vector<JsonValue>& elements() const { return items_; }
  const JsonValue& operator[](std::size_t i) const { return items_[i]; }
  /// An object's i-th key (key order; insertion order after append()).
  const std::string& key(std::size_t i) const { return keys_[i]; }

  /// The position of member `key` of an object (a binary search unless append() broke the
  /// key order), or npos (also when this is not an object).
  std::size_t index_of(std::string_view key) const;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  /// The member `key` of an object, or nullptr (also when this is not an object).
  const JsonValue* find(std::string_view key) const;
  JsonValue* find(std::string_view key);
  bool contains(std::string_view key) const { return find(key) != nullptr; }
  /// The string member `key`, or `fallback` when absent or not a string.
  std::string string_or(std::string_view key, const std::string& fallback) const;

  void push_back(JsonValue v);
  /// Sets member `key` of an object (in key order), replacing one of the same key.
  JsonValue& set(std::string key, JsonValue v);
  /// Adds member `key` at the end of an object (a key it does not hold yet).
  JsonValue& append(std::string key, JsonValue v);
  /// An object of these members (moved out of `keys` and `items`), sorted by key in
  /// O(n log n): the parser's way to build one. When a key appears twice: null, the members
  /// left as they were, and `*duplicate` = the index in `keys` of the first repeat in the
  /// members' own order (the one a reader meets first).
  static JsonValue sorted_object(std::vector<std::string>& keys, std::vector<JsonValue>& items,
                                 std::size_t* duplicate);
  /// An integer read from JSON text (all 64 bits exact, as its literal).
  static JsonValue whole_number(std::int64_t v) { return JsonValue(v); }
  static JsonValue whole_number(std::uint64_t v);

  /// The text, as nlohmann::json's dump(indent) wrote it: compact when indent < 0, else one
  /// member per line. A byte of a string that is not UTF-8 is written as U+FFFD.
  std::string dump(int indent = -1) const;
  void dump_to(std::string& out, int indent = -1, int level = 0) const;

  /// Same kind and value (numbers by value: 3 equals 3.0; objects regardless of member order).
  bool operator==(const JsonValue& other) const;

 private:
  Kind kind_ = Kind::kNull;
  bool boolean_ = false;
  bool integer_ = false;
  bool sorted_ = true;  // objects: keys_ ascending (false once append() broke the order)
  double number_ = 0;
  std::string text_;  // a string's text; an integer literal's digits beyond 15 of them
  std::vector<JsonValue> items_;
  std::vector<std::string> keys_;  // objects: keys_[i] names items_[i]
};

}  // namespace advisor
