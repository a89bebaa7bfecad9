// SPDX-License-Identifier: MIT
// The ICU MessageFormat subset of data/messages (docs/languages.md "Message syntax"): {name},
// {name, number, style}, {name, plural, =N/one/other {...}}, {name, select, key/other {...}}.
// web/js/messages.js is the page's reader of the same syntax; the two are checked against each
// other by tests/js/messages.test.cjs through `gpu-advisor words`.
#include "messages.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace advisor {
const char* builtin_messages_en_json();
const char* builtin_messages_zh_CN_json();
}  // namespace advisor

namespace gpu_advisor_cli {

using nlohmann::json;

namespace {

struct Node;
using Parts = std::vector<Node>;
struct Node {
  bool is_text = true;
  std::string text;  // the text, or the parameter's name
  std::string type;  // "", number, plural, select
  std::string style;
  std::vector<std::pair<std::string, Parts>> branches;
};

/// Reads a message into its parts; a malformed message is an error naming where it broke.
class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}
  Parts message() {
    Parts parts = sequence(false);
    if (i_ < s_.size()) fail("unmatched }");
    return parts;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("message syntax: " + why + " at " + std::to_string(i_) + " in \"" +
                             std::string(s_) + "\"");
  }
  void spaces() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n')) ++i_;
  }
  std::string word() {
    spaces();
    const std::size_t start = i_;
    while (i_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '='))
      ++i_;
    if (i_ == start) fail("a name expected");
    std::string w(s_.substr(start, i_ - start));
    spaces();
    return w;
  }
  Parts sequence(bool in_branch) {
    Parts parts;
    std::string text;
    while (i_ < s_.size() && s_[i_] != '}') {
      if (s_[i_] != '{') {
        text += s_[i_++];
        continue;
      }
      if (!text.empty()) parts.push_back({true, std::move(text), {}, {}, {}});
      text.clear();
      parts.push_back(argument());
    }
    if (i_ < s_.size() && !in_branch) fail("unmatched }");
    if (!text.empty()) parts.push_back({true, std::move(text), {}, {}, {}});
    return parts;
  }
  Node argument() {
    ++i_;  // {
    Node node{false, word(), {}, {}, {}};
    if (i_ < s_.size() && s_[i_] == ',') {
      ++i_;
      node.type = word();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        if (node.type == "number")
          node.style = word();
        else
          node.branches = branches();
      }
    }
    if (i_ >= s_.size() || s_[i_] != '}') fail("} expected");
    ++i_;
    const bool chooses = node.type == "plural" || node.type == "select";
    if (chooses && (node.branches.empty() || node.branches.back().first != "other"))
      fail("the last branch must be other");
    return node;
  }
  std::vector<std::pair<std::string, Parts>> branches() {
    std::vector<std::pair<std::string, Parts>> out;
    while (i_ < s_.size() && s_[i_] != '}') {
      std::string key = word();
      if (i_ >= s_.size() || s_[i_] != '{') fail("{ expected after " + key);
      ++i_;
      Parts body = sequence(true);
      if (i_ >= s_.size()) fail("unclosed branch " + key);
      ++i_;
      spaces();
      out.emplace_back(std::move(key), std::move(body));
    }
    return out;
  }
  std::string_view s_;
  std::size_t i_ = 0;
};

std::string strip_zeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

/// Rounds to `digits` significant digits, as Intl's maximumSignificantDigits does.
std::string significant(double v, int digits) {
  if (v == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  const int decimals = std::max(0, digits - 1 - magnitude);
  const double step = std::pow(10.0, magnitude - digits + 1);
  const double rounded = decimals > 0 ? v : std::round(v / step) * step;
  return strip_zeros(grouped(rounded, decimals));
}

/// Three significant figures at most, by magnitude (web/js/format.js num3).
std::string num3(double v) {
  const double a = std::fabs(v);
  if (a == 0) return "0";
  return grouped(v, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
}

constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;
constexpr double kBytesPerMib = 1024.0 * 1024.0;
constexpr const char* kMinus = "\u2212";  // the page's minus sign for money and differences

std::string gib(double bytes) {
  const double v = bytes / kBytesPerGib, a = std::fabs(v);
  if (v == 0) return "0";
  return grouped(v, a >= 100 ? 1 : a >= 0.01 ? 2 : 4);
}

}  // namespace

std::string grouped(double value, int decimals) {
  // Intl.NumberFormat rounds the shortest decimal that reads back as the double (1.255, not
  // 1.25499999999999989) half away from zero; printf would round the binary value.
  char buffer[64];
  const auto end =
      std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value), std::chars_format::scientific)
          .ptr;
  const std::string sci(buffer, end);  // d.ddde[+-]xx
  const std::size_t e = sci.find('e');
  std::string digits = sci.substr(0, 1) + (e > 2 ? sci.substr(2, e - 2) : "");
  int point = std::stoi(sci.substr(e + 1)) + 1;  // digits before the decimal point
  if (point < 1) {
    digits.insert(0, static_cast<std::size_t>(1 - point), '0');
    point = 1;
  }
  const std::size_t keep = static_cast<std::size_t>(point + decimals);
  if (digits.size() < keep) digits.append(keep - digits.size(), '0');
  const bool up = digits.size() > keep && digits[keep] >= '5';
  digits.resize(keep);
  for (std::size_t i = keep; up; --i) {
    if (i == 0) {
      digits.insert(0, "1");
      ++point;
      break;
    }
    if (digits[i - 1] == '9') {
      digits[i - 1] = '0';
    } else {
      ++digits[i - 1];
      break;
    }
  }
  std::string whole = digits.substr(0, static_cast<std::size_t>(point));
  for (std::size_t at = whole.size(); at > 3; at -= 3) whole.insert(at - 3, ",");
  const bool zero = digits.find_first_not_of('0') == std::string::npos;
  std::string out = (value < 0 && !zero ? "-" : "") + whole;
  if (decimals > 0) out += "." + digits.substr(static_cast<std::size_t>(point));
  return out;
}

struct Renderer {
  const Messages& m;
  const json& params;
  std::string out;

  static std::string select_key(const json* v) {
    if (!v || v->is_null()) return "0";
    if (v->is_boolean()) return v->get<bool>() ? "1" : "0";
    if (v->is_string()) return v->get<std::string>().empty() ? "0" : v->get<std::string>();
    if (v->is_number()) {
      const double d = v->get<double>();
      if (d == std::floor(d) && std::fabs(d) < 1e15)
        return std::to_string(static_cast<long long>(d));
    }
    return "other";
  }
  static std::optional<double> count(const json* v) {
    if (v && v->is_number()) return v->get<double>();
    if (v && v->is_string()) {
      std::string s;
      for (char c : v->get<std::string>())
        if (c != ',' && c != ' ') s += c;
      char* end = nullptr;
      const double d = std::strtod(s.c_str(), &end);
      if (!s.empty() && end && *end == '\0') return d;
    }
    return std::nullopt;
  }
  const Parts* branch(const Node& n, const json* v) const {
    std::string key;
    if (n.type == "select") {
      key = select_key(v);
    } else if (auto c = count(v)) {
      key = "=" + select_key(v);
      for (const auto& [k, body] : n.branches)
        if (k == key) return &body;
      key = m.lang() == "en" && *c == 1 ? "one" : "other";
    }
    for (const auto& [k, body] : n.branches)
      if (k == key) return &body;
    return &n.branches.back().second;
  }
  void walk(const Parts& parts) {
    for (const Node& n : parts) {
      if (n.is_text) {
        out += n.text;
        continue;
      }
      const auto it = params.find(n.text);
      const json* v = it == params.end() ? nullptr : &*it;
      if (!n.branches.empty())
        walk(*branch(n, v));
      else if (!v)
        out += "{" + n.text + "}";
      else
        out += value(n, *v);
    }
  }
  std::string value(const Node& n, const json& v) const {
    const auto code = params.find(n.text + "_code");
    if (code != params.end() && code->is_string() && m.has("optnote." + code->get<std::string>()))
      return m.render("optnote." + code->get<std::string>(), params);
    if (v.is_number()) return m.number(v.get<double>(), n.style);
    if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
    if (v.is_string()) return m.text_param(n.text, v.get<std::string>(), params);
    return v.dump();
  }
};

const Messages* Messages::builtin(const std::string& lang) {
  static const std::unique_ptr<Messages> en =
      std::make_unique<Messages>(json::parse(advisor::builtin_messages_en_json()), "en");
  static const std::unique_ptr<Messages> zh =
      std::make_unique<Messages>(json::parse(advisor::builtin_messages_zh_CN_json()), "zh-CN");
  if (lang == "en") return en.get();
  if (lang == "zh-CN") return zh.get();
  return nullptr;
}

Messages::Messages(json table, std::string lang)
    : table_(std::move(table)), lang_(std::move(lang)) {}

bool Messages::has(const std::string& key) const {
  const auto it = table_.find(key);
  return it != table_.end() && it->is_string() && !it->get<std::string>().empty();
}

std::string Messages::render(const std::string& key, const json& params) const {
  if (!has(key)) return key;
  Renderer r{*this, params, {}};
  r.walk(Parser(table_.at(key).get<std::string>()).message());
  return r.out;
}

/// A text parameter in words: the label of its id (stack_id, low_stack_id), of its enum value
/// (note.value.<name>.<value>, note.value.<value>), of a reason's code (link., deploy., ...).
std::string Messages::text_param(const std::string& name, const std::string& value,
                                 const json& params) const {
  // Under the name's last word: stack_id and low_stack_id both label from stack.<id>.
  const std::string kind = name.substr(name.rfind('_') + 1);
  const auto id = params.find(name + "_id");
  if (id != params.end() && id->is_string() && has(kind + "." + id->get<std::string>()))
    return render(kind + "." + id->get<std::string>(), json::object());
  for (const std::string& key : {"note.value." + name + "." + value, "note.value." + value})
    if (has(key)) return render(key, json::object());
  static const std::pair<const char*, const char*> kLabels[] = {
      {"link", "link."},
      {"facility", "power.facility."},
      {"status", "china."},
      {"basis", "basis."},
      {"stack", "stack."},
      {"deployment", "deploy."},
      {"outlay_basis", "outlay_basis."},
      {"nearest_outlay_basis", "outlay_basis."}};
  for (const auto& [param, prefix] : kLabels)
    if (name == param && has(prefix + value)) return render(prefix + value, json::object());
  return value;
}

std::string Messages::number(double v, const std::string& style) const {
  const double a = std::fabs(v);
  const std::string minus = v < 0 ? kMinus : "";
  const bool en = lang_ == "en";
  const auto upto = [](double x, int d) { return strip_zeros(grouped(x, d)); };
  const auto unit = [this](const char* key, const std::string& n) {
    return render(key, json{{"n", n}});
  };
  const auto signed_of = [&](const std::string& inner_style) {
    if (v == 0) return number(0, inner_style);
    return (v > 0 ? std::string("+") : std::string(kMinus)) + number(a, inner_style);
  };
  if (style == "percent")
    return grouped(v * 100,
                   std::round(v * 1000) / 10 == std::floor(std::round(v * 1000) / 10) ? 0 : 1) +
           "%";
  if (style == "percent_whole") return grouped(v * 100, 0) + "%";
  if (style == "cny") {
    if (en) return minus + "\u00a5" + (a >= 100 ? grouped(a, 0) : grouped(a, 2));
    if (a >= 1e8) return minus + grouped(a / 1e8, 2) + " 亿元";
    if (a >= 1e4) return minus + grouped(a / 1e4, 2) + " 万元";
    return minus + grouped(a, a >= 100 ? 0 : 2) + " 元";
  }
  if (style == "signed_cny") return signed_of("cny");
  if (style == "signed_duration") return signed_of("duration");
  if (style == "duration") {
    if (a < 1) return unit("unit.minutes", num3(v * 60));
    if (a < 48) return unit("unit.hours", num3(v));
    if (a < 24 * 365 * 2) return unit("unit.days", num3(v / 24));
    return unit("unit.years", grouped(v / 24 / 365, 1));
  }
  if (style == "tokens") {
    if (en && v >= 1e12) return upto(v / 1e12, 2) + " T";
    if (en && v >= 1e9) return upto(v / 1e9, 2) + " B";
    if (en && v >= 1e6) return upto(v / 1e6, 1) + " M";
    if (!en && v >= 1e12) return upto(v / 1e12, 2) + " 万亿";
    if (!en && v >= 1e8) return upto(v / 1e8, 2) + " 亿";
    if (!en && v >= 1e4) return upto(v / 1e4, 1) + " 万";
    return grouped(v, 0);
  }
  if (style == "tokens_per_s") return num3(v) + " tok/s";
  if (style == "gbps") return num3(v) + " GB/s";
  if (style == "kw") return num3(v) + " kW";
  if (style == "watts") return num3(v / 1000) + " kW";
  if (style == "s") {
    if (v == 0) return "0 s";
    if (a < 1) return grouped(v * 1000, v * 1000 < 10 ? 2 : 0) + " ms";
    return num3(v) + " s";
  }
  if (style == "gib") return gib(v) + " GiB";
  if (style == "bytes" && a >= kBytesPerMib) return gib(v) + " GiB";
  return v == std::floor(v) ? grouped(v, 0) : significant(v, 3);
}

}  // namespace gpu_advisor_cli
