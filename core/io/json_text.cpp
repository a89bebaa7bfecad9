// SPDX-License-Identifier: MIT
// JSON text to a document, strictly (RFC 8259) and with bounded work: the text's size, a NUL
// byte and the nesting depth are checked before any parsing (a bracket scan, no recursion); then
// nlohmann::json's SAX parser reads the text (no DOM of its own) and the Builder below makes the
// document, rejecting duplicate keys, numbers beyond a double, keys over limits::kMaxKeyBytes
// and containers over their member limits, each as an InputError located at the JSON pointer
// where it occurs. Objects are sorted once when they close (O(n log n)), never per insert.
// Malformed text is located by the byte nlohmann's lexer stood at.
#include "io/json_text.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "io/json_reader.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

std::string where(const std::string& path) { return path.empty() ? std::string("input") : path; }

std::string bytes_text(std::size_t n) {
  if (n >= (1u << 20) && n % (1u << 20) == 0) return std::to_string(n >> 20) + " MiB";
  return std::to_string(n) + " bytes";
}

/// nlohmann's out_of_range error for a number beyond a double ("number overflow parsing").
constexpr int kNumberOverflow = 406;

/// Builds a JsonValue from nlohmann's SAX events. A located error stops the parse: the event
/// returns false and the error waits in error(), so no exception crosses nlohmann's parser.
class Builder {
 public:
  using json = nlohmann::json;
  explicit Builder(std::string path) : path_(std::move(path)) {}

  bool null() { return add(JsonValue()); }
  bool boolean(bool v) { return add(JsonValue(v)); }
  bool number_integer(json::number_integer_t v) { return add(JsonValue::whole_number(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return add(JsonValue::whole_number(v)); }
  bool number_float(json::number_float_t v, const std::string& literal) {
    return add(JsonValue::number_literal(v, literal, false));
  }
  bool string(std::string& v) { return add(JsonValue(std::move(v))); }
  bool binary(json::binary_t&) { return false; }  // not produced from JSON text

  bool start_object(std::size_t) { return open(false); }
  bool start_array(std::size_t) { return open(true); }
  bool key(std::string& k) {
    Level& top = levels_.back();
    if (top.keys.size() >= limits::kMaxObjectMembers)
      return fail("limit_exceeded", pointer(),
                  where(pointer()) + " has more than " + std::to_string(limits::kMaxObjectMembers) +
                      " members (the limit for any object)");
    if (k.size() > limits::kMaxKeyBytes)
      return fail("limit_exceeded", pointer(),
                  where(pointer()) + " has a key of " + std::to_string(k.size()) + " bytes, over " +
                      std::to_string(limits::kMaxKeyBytes) +
                      " (the limit for any key): " + in_quotes(k));
    top.keys.push_back(std::move(k));
    return true;
  }
  bool end_object() {
    Level& top = levels_.back();
    std::size_t repeat = 0;
    JsonValue object = JsonValue::sorted_object(top.keys, top.items, &repeat);
    if (object.is_null()) {
      const std::string p = pointer() + "/" + pointer_token(top.keys[repeat]);
      return fail("duplicate", p,
                  p + " appears twice in its object (JSON keys must be unique; which one counts "
                      "would be a guess)");
    }
    levels_.pop_back();
    return add(std::move(object));
  }
  bool end_array() {
    JsonValue array = JsonValue::array();
    for (JsonValue& v : levels_.back().items) array.push_back(std::move(v));
    levels_.pop_back();
    return add(std::move(array));
  }

  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& e) {
    if (e.id == kNumberOverflow) {
      const std::string at = levels_.empty() ? path_ : member_pointer();
      return fail("out_of_range", at.empty() ? "/" : at,
                  where(at) + " is " + unquoted(token) +
                      ", beyond the largest number a double holds (1.8e308)");
    }
    return fail("malformed_json", path_,
                where(path_) + " is not valid JSON (at byte " + std::to_string(position) + ")");
  }

  const std::optional<InputError>& error() const { return error_; }
  JsonValue take() { return std::move(root_); }

 private:
  struct Level {
    bool array;
    std::vector<std::string> keys;  // objects: the keys read so far, in the text's order
    std::vector<JsonValue> items;
  };

  static std::string unquoted(const std::string& token) {
    const std::string q = in_quotes(token);
    return q.substr(1, q.size() - 2);
  }

  bool fail(const char* code, const std::string& path, const std::string& message) {
    error_.emplace(code, path, message);
    return false;
  }

  bool open(bool array) {
    if (!room()) return false;
    levels_.push_back({array, {}, {}});
    return true;
  }
  /// Whether the open array has room for one more element.
  bool room() {
    if (levels_.empty() || !levels_.back().array) return true;
    if (levels_.back().items.size() < limits::kMaxArrayLength) return true;
    return fail("limit_exceeded", pointer(),
                pointer() + " has more than " + std::to_string(limits::kMaxArrayLength) +
                    " elements (the limit for any array)");
  }
  bool add(JsonValue v) {
    if (levels_.empty()) {
      root_ = std::move(v);
      return true;
    }
    if (!room()) return false;
    levels_.back().items.push_back(std::move(v));
    return true;
  }

  /// The JSON pointer of the innermost open container.
  std::string pointer() const {
    std::string p = path_;
    for (std::size_t i = 0; i + 1 < levels_.size(); ++i) p += '/' + token_of(levels_[i]);
    return p;
  }
  /// The pointer of the member or element being read now.
  std::string member_pointer() const { return pointer() + "/" + token_of(levels_.back()); }
  /// A level's current reference token: an array's index, an object's last key.
  static std::string token_of(const Level& l) {
    if (l.array) return std::to_string(l.items.size());
    return l.keys.empty() ? std::string() : pointer_token(l.keys.back());
  }

  std::string path_;
  std::vector<Level> levels_;
  JsonValue root_;
  std::optional<InputError> error_;
};

/// The string of one JSON string token (`quoted`, quotes included); false when invalid.
bool decode_string(const std::string& quoted, std::string* out) {
  Builder b("");
  if (!nlohmann::json::sax_parse(quoted, &b) || b.error()) return false;
  JsonValue v = b.take();
  if (!v.is_string()) return false;
  *out = v.string();
  return true;
}

/// The index after the closing quote of the JSON string starting at text[begin] (its opening
/// quote); npos when unterminated.
std::size_t string_end(const std::string& text, std::size_t begin) {
  bool escaped = false;
  for (std::size_t i = begin + 1; i < text.size(); ++i) {
    const char c = text[i];
    if (escaped)
      escaped = false;
    else if (c == '\\')
      escaped = true;
    else if (c == '"')
      return i + 1;
  }
  return std::string::npos;
}

/// The text of the (terminated) JSON string starting at text[begin], for an error's path.
std::string string_at(const std::string& text, std::size_t begin) {
  const std::size_t end = string_end(text, begin);
  const std::string raw = text.substr(begin + 1, end - begin - 2);
  // Raw text may hold any bytes: the key goes into an error's path, which must be UTF-8.
  if (raw.find('\\') == std::string::npos) return valid_utf8(raw);
  // A key with escapes: the lexer decodes this one short string (raw when invalid).
  std::string decoded;
  if (decode_string(text.substr(begin, end - begin), &decoded)) return decoded;
  return valid_utf8(raw);
}

/// Before parsing: the size limit, no NUL byte, and no nesting beyond the limit. The scan
/// follows strings (brackets inside them do not count) and tracks the pointer of the open
/// containers, so the error names where the deep nesting starts. False when it reported one.
bool prescan(const std::string& text, const std::string& path, std::size_t max_bytes) {
  ADVISOR_REQUIRE(text.size() <= max_bytes, "limit_exceeded", path,
                  where(path) + " is larger than " + bytes_text(max_bytes) + ", the limit");
  // Where each open container's current member starts, decoded into a pointer only for an
  // error: the scan itself copies nothing (it runs over every text the core reads, the built-in
  // catalogs at start-up among them).
  struct Level {
    bool object;
    std::size_t index = 0;                   // an array's current element
    std::size_t key_at = std::string::npos;  // an object's current key (its opening quote)
  };
  std::vector<Level> open;
  std::size_t last_string_at = std::string::npos;
  bool have_string = false;
  auto pointer = [&]() {
    std::string p = path;
    for (const Level& l : open) {
      p += '/';
      if (!l.object)
        p += std::to_string(l.index);
      else if (l.key_at != std::string::npos)
        p += pointer_token(string_at(text, l.key_at));
    }
    return p;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '\0':
        return report_problem("malformed_json", path,
                              where(path) + " is not valid JSON (at byte " + std::to_string(i) +
                                  "): a NUL byte (text after it would be ignored)");
      case '"': {
        const std::size_t end = string_end(text, i);
        if (end == std::string::npos) return true;  // unterminated: the parser reports it
        last_string_at = i;
        have_string = true;
        i = end - 1;
        continue;
      }
      case ':':
        if (!open.empty() && open.back().object && have_string) open.back().key_at = last_string_at;
        break;
      case ',':
        if (!open.empty() && !open.back().object) ++open.back().index;
        break;
      case '{':
      case '[':
        if (static_cast<int>(open.size()) >= limits::kMaxNestingDepth) {
          const std::string at = pointer();
          return report_problem("limit_exceeded", at.empty() ? "/" : at,
                                where(path) + " nests arrays and objects deeper than " +
                                    std::to_string(limits::kMaxNestingDepth) +
                                    " levels, the limit (at byte " + std::to_string(i) + ")");
        }
        open.push_back({c == '{'});
        break;
      case '}':
      case ']':
        if (!open.empty()) open.pop_back();
        break;
      case ' ':
      case '\t':
      case '\n':
      case '\r':
        continue;  // between a key and its colon
      default:
        break;
    }
    have_string = false;
  }
  return true;
}

}  // namespace

JsonValue parse_json_text(const std::string& text, const std::string& path, std::size_t max_bytes) {
  if (!prescan(text, path, max_bytes)) return {};
  Builder builder(path);
  if (!nlohmann::json::sax_parse(text, &builder) || builder.error()) {
    if (builder.error()) {
      record_problem(*builder.error());
      return {};
    }
    return report_problem("malformed_json", path, where(path) + " is not valid JSON");
  }
  return builder.take();
}

}  // namespace advisor
