// SPDX-License-Identifier: MIT
#include "io/json_scalars.hpp"

#include <nlohmann/json.hpp>

namespace advisor {

namespace {

// One serializer and its buffers per thread: made per value, they cost advise() 18-27% more
// (bench/RESULTS.md, 2026-12-05 late). It prints one of its two values (kept apart, so that a
// string's buffer is reused) into `printed`, which the caller copies where it writes.
struct LibraryPrinter {
  std::string printed;
  nlohmann::json number = 0.0;
  nlohmann::json text = std::string();
  nlohmann::detail::serializer<nlohmann::json> serializer{
      nlohmann::detail::output_adapter<char>(printed), ' ',
      nlohmann::json::error_handler_t::replace};

  std::string_view print(const nlohmann::json& value) {
    printed.clear();
    serializer.dump(value, /*pretty_print=*/false, /*ensure_ascii=*/true, 0);
    return printed;
  }
};

LibraryPrinter& printer() {
  thread_local LibraryPrinter p;
  return p;
}

}  // namespace

std::string_view json_number_text(double value) {
  LibraryPrinter& p = printer();
  p.number.get_ref<double&>() = value;
  return p.print(p.number);
}

std::string_view json_string_text(std::string_view s) {
  LibraryPrinter& p = printer();
  p.text.get_ref<std::string&>().assign(s);
  return p.print(p.text);
}

}  // namespace advisor
