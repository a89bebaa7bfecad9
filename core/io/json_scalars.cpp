// SPDX-License-Identifier: MIT
#include "io/json_scalars.hpp"

#include <nlohmann/json.hpp>

namespace advisor {

namespace {

// One serializer and its buffers per thread: made per value, they cost advise() 18-27% more
// (bench/RESULTS.md, 2026-12-05 late). It prints one of its two values (kept apart, so that a
// string's buffer is reused), then the text is appended.
struct LibraryPrinter {
  std::string printed;
  nlohmann::json number = 0.0;
  nlohmann::json text = std::string();
  nlohmann::detail::serializer<nlohmann::json> serializer{
      nlohmann::detail::output_adapter<char>(printed), ' ',
      nlohmann::json::error_handler_t::replace};

  void append(const nlohmann::json& value, std::string& out) {
    printed.clear();
    serializer.dump(value, /*pretty_print=*/false, /*ensure_ascii=*/true, 0);
    out += printed;
  }
};

LibraryPrinter& printer() {
  thread_local LibraryPrinter p;
  return p;
}

}  // namespace

void append_json_number(std::string& out, double value) {
  LibraryPrinter& p = printer();
  p.number.get_ref<double&>() = value;
  p.append(p.number, out);
}

void append_json_string(std::string& out, std::string_view s) {
  LibraryPrinter& p = printer();
  p.text.get_ref<std::string&>().assign(s);
  p.append(p.text, out);
}

}  // namespace advisor
