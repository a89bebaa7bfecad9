// SPDX-License-Identifier: MIT
// JSON text to a document, strictly and with bounded work: the text's size, a NUL byte and the
// nesting depth are checked before any parsing (a bracket scan, no recursion); the document is
// then built by a SAX handler that rejects duplicate keys, numbers beyond a double and arrays
// longer than the limit, each as an InputError located at the JSON pointer where it occurs.
#include <cstdio>
#include <vector>

#include "io/json_reader.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

using nlohmann::json;

std::string where(const std::string& path) {
  return path.empty() ? std::string("input") : path;
}

/// A token of the text as echoed in a message (escaped and shortened like any echo).
std::string unquoted(const std::string& token) {
  const std::string q = in_quotes(token);
  return q.substr(1, q.size() - 2);
}

std::string bytes_text(std::size_t n) {
  if (n >= (1u << 20) && n % (1u << 20) == 0) return std::to_string(n >> 20) + " MiB";
  return std::to_string(n) + " bytes";
}

/// The text of a JSON string starting at text[begin] (the opening quote); `end` receives the
/// index after the closing quote (npos when unterminated).
std::string string_at(const std::string& text, std::size_t begin, std::size_t* end) {
  bool escaped = false;
  bool plain = true;
  for (std::size_t i = begin + 1; i < text.size(); ++i) {
    const char c = text[i];
    if (escaped) {
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
      plain = false;
    } else if (c == '"') {
      *end = i + 1;
      // Raw text may hold any bytes: the key goes into an error's path, which must be UTF-8.
      if (plain) return valid_utf8(text.substr(begin + 1, i - begin - 1));
      try {  // a key with escapes: let the parser decode this one short string
        return json::parse(text.substr(begin, i + 1 - begin)).get<std::string>();
      } catch (const json::exception&) {
        return valid_utf8(text.substr(begin + 1, i - begin - 1));
      }
    }
  }
  *end = std::string::npos;
  return {};
}

/// Before parsing: the size limit, no NUL byte, and no nesting beyond the limit. The scan
/// follows strings (brackets inside them do not count) and tracks the pointer of the open
/// containers, so the error names where the deep nesting starts.
void prescan(const std::string& text, const std::string& path, std::size_t max_bytes) {
  if (text.size() > max_bytes) {
    throw InputError("limit_exceeded", path,
                     where(path) + " is larger than " + bytes_text(max_bytes) + ", the limit");
  }
  struct Level {
    bool object;
    std::string token;  // the current member's key, or the element index
    std::size_t index = 0;
  };
  std::vector<Level> open;
  std::string last_string;
  bool have_string = false;
  auto pointer = [&]() {
    std::string p = path;
    for (const Level& l : open) {
      p += '/';
      p += pointer_token(l.token);
    }
    return p;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '\0':
        throw InputError("malformed_json", path,
                         where(path) + " is not valid JSON (at byte " + std::to_string(i) +
                             "): a NUL byte (text after it would be ignored)");
      case '"': {
        std::size_t end = 0;
        last_string = string_at(text, i, &end);
        if (end == std::string::npos) return;  // unterminated: the parser reports it
        have_string = true;
        i = end - 1;
        continue;
      }
      case ':':
        if (!open.empty() && open.back().object && have_string) open.back().token = last_string;
        break;
      case ',':
        if (!open.empty() && !open.back().object)
          open.back().token = std::to_string(++open.back().index);
        break;
      case '{':
      case '[':
        if (static_cast<int>(open.size()) >= limits::kMaxNestingDepth) {
          const std::string at = pointer();
          throw InputError("limit_exceeded", at.empty() ? "/" : at,
                           where(path) + " nests arrays and objects deeper than " +
                               std::to_string(limits::kMaxNestingDepth) +
                               " levels, the limit (at byte " + std::to_string(i) + ")");
        }
        open.push_back({c == '{', c == '[' ? "0" : "", 0});
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
}

/// Builds the document from SAX events: duplicate keys, numbers beyond a double and overlong
/// arrays stop the parse with a located error.
class StrictBuilder {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  explicit StrictBuilder(std::string path) : path_(std::move(path)) {}

  bool null() { return put(json(nullptr)); }
  bool boolean(bool v) { return put(json(v)); }
  bool number_integer(number_integer_t v) { return put(json(v)); }
  bool number_unsigned(number_unsigned_t v) { return put(json(v)); }
  bool number_float(number_float_t v, const string_t&) { return put(json(v)); }
  bool string(string_t& v) { return put(json(std::move(v))); }
  bool binary(binary_t&) { return false; }  // not produced by JSON text

  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(string_t& k) {
    Level& top = stack_.back();
    if (top.value->contains(k)) {
      error_ = InputError("duplicate", pointer() + "/" + pointer_token(k),
                          pointer() + "/" + pointer_token(k) +
                              " appears twice in its object (JSON keys must be unique; which "
                              "one counts would be a guess)");
      return false;
    }
    top.key = std::move(k);
    return true;
  }

  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& e) {
    if (e.id == 406) {  // number overflow: a number beyond the largest double
      const std::string at = next_pointer();
      error_ = InputError("out_of_range", at.empty() ? "/" : at,
                          (at.empty() ? std::string("input") : at) + " is " + unquoted(last_token) +
                              ", beyond the largest number a double holds (1.8e308)");
    } else {
      error_ = InputError("malformed_json", path_,
                          where(path_) + " is not valid JSON (at byte " +
                              std::to_string(position) + ")");
    }
    return false;
  }

  json take() { return std::move(root_); }
  const std::optional<InputError>& error() const { return error_; }

 private:
  struct Level {
    json* value;
    std::string key;  // objects: the member being read
  };

  /// The JSON pointer of the innermost open container.
  std::string pointer() const {
    std::string p = path_;
    for (std::size_t i = 0; i + 1 < stack_.size(); ++i) {
      const Level& l = stack_[i];
      p += '/';
      p += l.value->is_array() ? std::to_string(l.value->size() - 1) : pointer_token(l.key);
    }
    return p;
  }
  /// The pointer of the value being read now.
  std::string next_pointer() const {
    if (stack_.empty()) return path_;
    const Level& top = stack_.back();
    return pointer() + "/" +
           (top.value->is_array() ? std::to_string(top.value->size()) : pointer_token(top.key));
  }

  bool put(json v) { return insert(std::move(v)) != nullptr; }
  /// Adds `v` where the parse stands; nullptr (with the error set) when an array is full.
  json* insert(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Level& top = stack_.back();
    if (top.value->is_array()) {
      if (top.value->size() >= limits::kMaxArrayLength) {
        error_ = InputError("limit_exceeded", pointer(),
                            pointer() + " has more than " +
                                std::to_string(limits::kMaxArrayLength) +
                                " elements (the limit for any array)");
        return nullptr;
      }
      top.value->push_back(std::move(v));
      return &top.value->back();
    }
    json& slot = (*top.value)[top.key];
    slot = std::move(v);
    return &slot;
  }
  bool open(json container) {
    json* slot = insert(std::move(container));
    if (slot == nullptr) return false;
    stack_.push_back({slot, {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  std::string path_;
  json root_;
  std::vector<Level> stack_;
  std::optional<InputError> error_;
};

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const std::string& path,
                               std::size_t max_bytes) {
  prescan(text, path, max_bytes);
  StrictBuilder builder(path);
  bool ok = false;
  try {
    ok = json::sax_parse(text, &builder);
  } catch (const json::exception& e) {  // the SAX handler reports errors; this is a backstop
    throw InputError("malformed_json", path, where(path) + " is not valid JSON (" + e.what() + ")");
  }
  if (builder.error()) throw *builder.error();
  if (!ok) throw InputError("malformed_json", path, where(path) + " is not valid JSON");
  return builder.take();
}

}  // namespace advisor
