// SPDX-License-Identifier: MIT
// JSON text to a document, strictly (RFC 8259) and with bounded work: the text's size, a NUL
// byte and the nesting depth are checked before any parsing (a bracket scan, no recursion); the
// parser then rejects duplicate keys, numbers beyond a double and arrays longer than the limit,
// each as an InputError located at the JSON pointer where it occurs. Malformed text is located
// by byte as nlohmann::json located it (the parser this one replaced, for a smaller wasm module):
// the count of bytes read when the error was seen, the end of input counting as one more.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "io/json_reader.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

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

/// A malformed text: the error names how many bytes were read when it was seen.
class Malformed {
 public:
  explicit Malformed(std::size_t position) : position(position) {}
  std::size_t position;
};

enum class Token : unsigned char {
  kBeginObject,
  kEndObject,
  kBeginArray,
  kEndArray,
  kNameSeparator,
  kValueSeparator,
  kString,
  kTrue,
  kFalse,
  kNull,
  kNumber,
  kEnd
};

/// Tokens of a JSON text, one at a time. Errors throw Malformed with the position nlohmann's
/// lexer reported: the offending byte counted (index + 1), the end of input as size + 1.
class Lexer {
 public:
  explicit Lexer(const std::string& text) : text_(text) {}

  /// Skips a UTF-8 byte order mark at the start (RFC 8259 allows a parser to).
  void skip_bom() {
    if (text_.empty() || byte(0) != 0xEF) return;
    if (byte(1) != 0xBB) throw Malformed(2);
    if (byte(2) != 0xBF) throw Malformed(3);
    pos_ = 3;
  }

  Token next() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
    begin_ = pos_;
    if (pos_ == text_.size()) {
      end_ = pos_ + 1;  // the end of input is read as one more byte
      return Token::kEnd;
    }
    const char c = text_[pos_++];
    end_ = pos_;
    switch (c) {
      case '{':
        return Token::kBeginObject;
      case '}':
        return Token::kEndObject;
      case '[':
        return Token::kBeginArray;
      case ']':
        return Token::kEndArray;
      case ':':
        return Token::kNameSeparator;
      case ',':
        return Token::kValueSeparator;
      case '"':
        scan_string();
        return Token::kString;
      case 't':
        literal("true");
        return Token::kTrue;
      case 'f':
        literal("false");
        return Token::kFalse;
      case 'n':
        literal("null");
        return Token::kNull;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          scan_number();
          return Token::kNumber;
        }
        throw Malformed(pos_);
    }
  }

  /// Where the last token ends, as a position for an error about it.
  std::size_t end() const { return end_; }
  std::string& string() { return string_; }
  double number() const { return number_; }
  bool integer() const { return integer_; }
  std::string_view token_text() const {
    return std::string_view(text_).substr(begin_, pos_ - begin_);
  }

 private:
  /// The byte at `i`, or 256 past the end (never a valid byte).
  unsigned byte(std::size_t i) const {
    return i < text_.size() ? static_cast<unsigned char>(text_[i]) : 256u;
  }
  /// Consumes one byte, failing unless it is in [low, high].
  void expect_range(unsigned low, unsigned high) {
    const unsigned b = byte(pos_++);
    if (b < low || b > high) throw Malformed(pos_);
  }

  void literal(const char* word) {
    for (std::size_t i = 1; word[i] != '\0'; ++i)
      if (byte(pos_++) != static_cast<unsigned char>(word[i])) throw Malformed(pos_);
    end_ = pos_;
  }

  /// Four hex digits of a \u escape.
  unsigned codepoint() {
    unsigned value = 0;
    for (int i = 0; i < 4; ++i) {
      const unsigned b = byte(pos_++);
      unsigned digit = 0;
      if (b >= '0' && b <= '9')
        digit = b - '0';
      else if (b >= 'a' && b <= 'f')
        digit = b - 'a' + 10;
      else if (b >= 'A' && b <= 'F')
        digit = b - 'A' + 10;
      else
        throw Malformed(pos_);
      value = value * 16 + digit;
    }
    return value;
  }

  void append_utf8(unsigned cp) {
    if (cp < 0x80) {
      string_ += static_cast<char>(cp);
    } else if (cp < 0x800) {
      string_ += static_cast<char>(0xC0 | (cp >> 6));
      string_ += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      string_ += static_cast<char>(0xE0 | (cp >> 12));
      string_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      string_ += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      string_ += static_cast<char>(0xF0 | (cp >> 18));
      string_ += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      string_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      string_ += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  /// The string after its opening quote: escapes decoded, UTF-8 checked (no overlong forms, no
  /// surrogates, nothing past U+10FFFF), control characters refused.
  void scan_string() {
    string_.clear();
    for (;;) {
      std::size_t run = pos_;  // bytes copied as they are
      while (pos_ < text_.size()) {
        const auto c = static_cast<unsigned char>(text_[pos_]);
        if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) break;
        ++pos_;
      }
      string_.append(text_, run, pos_ - run);
      const unsigned c = byte(pos_++);
      if (c == '"') break;
      if (c == '\\') {
        escape();
      } else if (c < 0x20 || c == 256u) {
        throw Malformed(pos_);
      } else {
        run = pos_ - 1;
        utf8_sequence(c);
        string_.append(text_, run, pos_ - run);
      }
    }
    end_ = pos_;
  }

  void escape() {
    const unsigned c = byte(pos_++);
    switch (c) {
      case '"':
        string_ += '"';
        return;
      case '\\':
        string_ += '\\';
        return;
      case '/':
        string_ += '/';
        return;
      case 'b':
        string_ += '\b';
        return;
      case 'f':
        string_ += '\f';
        return;
      case 'n':
        string_ += '\n';
        return;
      case 'r':
        string_ += '\r';
        return;
      case 't':
        string_ += '\t';
        return;
      case 'u':
        break;
      default:
        throw Malformed(pos_);
    }
    unsigned cp = codepoint();
    if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate: its low half must follow
      if (byte(pos_++) != '\\') throw Malformed(pos_);
      if (byte(pos_++) != 'u') throw Malformed(pos_);
      const unsigned low = codepoint();
      if (!(low >= 0xDC00 && low <= 0xDFFF)) throw Malformed(pos_);
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      throw Malformed(pos_);
    }
    append_utf8(cp);
  }

  /// The rest of the UTF-8 sequence led by `lead` (already read), byte ranges as in RFC 3629.
  void utf8_sequence(unsigned lead) {
    if (lead >= 0xC2 && lead <= 0xDF) {
      expect_range(0x80, 0xBF);
    } else if (lead == 0xE0) {
      expect_range(0xA0, 0xBF), expect_range(0x80, 0xBF);
    } else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) {
      expect_range(0x80, 0xBF), expect_range(0x80, 0xBF);
    } else if (lead == 0xED) {
      expect_range(0x80, 0x9F), expect_range(0x80, 0xBF);
    } else if (lead == 0xF0) {
      expect_range(0x90, 0xBF), expect_range(0x80, 0xBF), expect_range(0x80, 0xBF);
    } else if (lead >= 0xF1 && lead <= 0xF3) {
      expect_range(0x80, 0xBF), expect_range(0x80, 0xBF), expect_range(0x80, 0xBF);
    } else if (lead == 0xF4) {
      expect_range(0x80, 0x8F), expect_range(0x80, 0xBF), expect_range(0x80, 0xBF);
    } else {
      throw Malformed(pos_);
    }
  }

  bool digit_at(std::size_t i) const {
    return i < text_.size() && text_[i] >= '0' && text_[i] <= '9';
  }
  /// Consumes one digit, failing on anything else.
  void expect_digit() {
    if (!digit_at(pos_)) throw Malformed(pos_ + 1);
    ++pos_;
  }

  /// A number after its first byte: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  void scan_number() {
    if (text_[pos_ - 1] == '-') expect_digit();
    if (text_[pos_ - 1] != '0')
      while (digit_at(pos_)) ++pos_;
    integer_ = true;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      expect_digit();
      while (digit_at(pos_)) ++pos_;
      integer_ = false;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      expect_digit();
      while (digit_at(pos_)) ++pos_;
      integer_ = false;
    }
    end_ = pos_;
    const std::string_view token = token_text();
    if (integer_) {  // whole numbers beyond 64 bits are doubles, as nlohmann read them
      const char* first = token.data();
      const char* last = first + token.size();
      std::int64_t signed_value = 0;
      std::uint64_t unsigned_value = 0;
      integer_ = token[0] == '-' ? std::from_chars(first, last, signed_value).ec == std::errc()
                                 : std::from_chars(first, last, unsigned_value).ec == std::errc();
    }
    // strtod needs the token alone: the text goes on ("0x1p3" would read as hexadecimal).
    const std::string copy(token);
    number_ = std::strtod(copy.c_str(), nullptr);
  }

  const std::string& text_;
  std::size_t pos_ = 0;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::string string_;
  double number_ = 0;
  bool integer_ = false;
};

/// The string of one JSON string token (`quoted`, quotes included); false when invalid.
bool decode_string(const std::string& quoted, std::string* out) {
  try {
    Lexer lexer(quoted);
    if (lexer.next() != Token::kString || lexer.end() != quoted.size()) return false;
    *out = std::move(lexer.string());
    return true;
  } catch (const Malformed&) {
    return false;
  }
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
      // A key with escapes: the lexer decodes this one short string (raw when invalid).
      std::string decoded;
      if (decode_string(text.substr(begin, i + 1 - begin), &decoded)) return decoded;
      return valid_utf8(text.substr(begin + 1, i - begin - 1));
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

/// Builds the document token by token, in the order nlohmann's SAX parser saw them (so the first
/// error found is the one it found): duplicate keys, numbers beyond a double and overlong arrays
/// stop the parse with a located error; malformed text with its byte position.
class Parser {
 public:
  Parser(const std::string& text, std::string path) : lexer_(text), path_(std::move(path)) {}

  JsonValue parse() {
    lexer_.skip_bom();
    JsonValue root = value(lexer_.next());
    if (lexer_.next() != Token::kEnd) throw Malformed(lexer_.end());
    return root;
  }

 private:
  struct Level {
    bool array;
    std::size_t count = 0;  // arrays: elements read
    std::string key;        // objects: the member being read
  };

  /// The value that starts with `token` (already read).
  JsonValue value(Token token) {
    switch (token) {
      case Token::kBeginObject:
        return object();
      case Token::kBeginArray:
        return array();
      case Token::kString:
        return scalar(JsonValue(std::move(lexer_.string())));
      case Token::kTrue:
        return scalar(JsonValue(true));
      case Token::kFalse:
        return scalar(JsonValue(false));
      case Token::kNull:
        return scalar(JsonValue());
      case Token::kNumber: {
        if (!std::isfinite(lexer_.number())) {
          const std::string at = next_pointer();
          throw InputError("out_of_range", at.empty() ? "/" : at,
                           (at.empty() ? std::string("input") : at) + " is " +
                               unquoted(std::string(lexer_.token_text())) +
                               ", beyond the largest number a double holds (1.8e308)");
        }
        return scalar(
            JsonValue::number_literal(lexer_.number(), lexer_.token_text(), lexer_.integer()));
      }
      default:
        throw Malformed(lexer_.end());
    }
  }

  /// A value about to be added where the parse stands: an array's element must fit.
  JsonValue scalar(JsonValue v) {
    check_room();
    return v;
  }
  void check_room() const {
    if (levels_.empty() || !levels_.back().array) return;
    if (levels_.back().count >= limits::kMaxArrayLength)
      throw InputError("limit_exceeded", pointer(),
                       pointer() + " has more than " + std::to_string(limits::kMaxArrayLength) +
                           " elements (the limit for any array)");
  }

  JsonValue object() {
    check_room();
    JsonValue out = JsonValue::object();
    levels_.push_back({false, 0, {}});
    Token token = lexer_.next();
    if (token != Token::kEndObject) {
      for (;;) {
        if (token != Token::kString) throw Malformed(lexer_.end());
        std::string key = std::move(lexer_.string());
        bool duplicate = false;
        const std::size_t at = out.lower_bound(key, &duplicate);
        if (duplicate) {
          const std::string p = pointer() + "/" + pointer_token(key);
          throw InputError("duplicate", p,
                           p + " appears twice in its object (JSON keys must be unique; which "
                               "one counts would be a guess)");
        }
        if (lexer_.next() != Token::kNameSeparator) throw Malformed(lexer_.end());
        levels_.back().key = key;
        JsonValue member = value(lexer_.next());
        out.insert_at(at, std::move(key), std::move(member));
        token = lexer_.next();
        if (token == Token::kEndObject) break;
        if (token != Token::kValueSeparator) throw Malformed(lexer_.end());
        token = lexer_.next();
      }
    }
    levels_.pop_back();
    return out;
  }

  JsonValue array() {
    check_room();
    JsonValue out = JsonValue::array();
    levels_.push_back({true, 0, {}});
    Token token = lexer_.next();
    if (token != Token::kEndArray) {
      for (;;) {
        out.push_back(value(token));
        ++levels_.back().count;
        token = lexer_.next();
        if (token == Token::kEndArray) break;
        if (token != Token::kValueSeparator) throw Malformed(lexer_.end());
        token = lexer_.next();
      }
    }
    levels_.pop_back();
    return out;
  }

  /// The JSON pointer of the innermost open container.
  std::string pointer() const {
    std::string p = path_;
    for (std::size_t i = 0; i + 1 < levels_.size(); ++i) {
      const Level& l = levels_[i];
      p += '/';
      p += l.array ? std::to_string(l.count) : pointer_token(l.key);
    }
    return p;
  }
  /// The pointer of the value being read now.
  std::string next_pointer() const {
    if (levels_.empty()) return path_;
    const Level& top = levels_.back();
    return pointer() + "/" + (top.array ? std::to_string(top.count) : pointer_token(top.key));
  }

  Lexer lexer_;
  std::string path_;
  std::vector<Level> levels_;
};

}  // namespace

JsonValue parse_json_text(const std::string& text, const std::string& path, std::size_t max_bytes) {
  prescan(text, path, max_bytes);
  try {
    return Parser(text, path).parse();
  } catch (const Malformed& e) {
    throw InputError(
        "malformed_json", path,
        where(path) + " is not valid JSON (at byte " + std::to_string(e.position) + ")");
  }
}

}  // namespace advisor
