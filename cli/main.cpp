// SPDX-License-Identifier: MIT
// gpu-advisor: the native command line over the same core as the page.
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "api.hpp"
#include "io/form_json.hpp"

namespace {

constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;

const char* kUsage =
    "usage: gpu-advisor advise FILE|- [--gpus FILE] [--models FILE] [--assumptions FILE]\n"
    "                              [--performance FILE] [--prices FILE]\n"
    "       gpu-advisor catalog      (built-in GPUs, model presets, default request)\n"
    "       gpu-advisor defaults     (the default request document)\n"
    "advise reads a request (API v1, see docs/api.md) and prints the result JSON;\n"
    "on bad input it prints {\"error\":{\"code\",\"message\",\"path\"}} and exits 1.\n"
    "--gpus/--models/--assumptions/--performance/--prices replace the built-in data files\n"
    "(a provider's own GPUs or prices; validated like any input).\n";

bool read_all(const std::string& path, std::string* out) {
  if (path == "-") {
    out->assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *out = s.str();
  return true;
}

int fail_input(const std::string& code, const std::string& message, const std::string& path) {
  std::cout << advisor::error_envelope(code, message, path).dump() << "\n";
  return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? kExitUsage : 0;
  }
  const std::string command = args[0];
  if (command == "catalog" || command == "defaults") {
    try {
      const advisor::Catalog& catalog = advisor::builtin_catalog();
      std::cout << (command == "catalog" ? advisor::catalog_text(catalog)
                                         : advisor::default_request(catalog).dump(2))
                << "\n";
      return 0;
    } catch (const std::exception& e) {
      return fail_input("catalog_invalid", e.what(), "");
    }
  }
  if (command != "advise" || args.size() < 2) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  std::string request;
  advisor::CatalogTexts data;
  const std::pair<const char*, std::string*> data_flags[] = {
      {"--gpus", &data.gpus},
      {"--models", &data.models},
      {"--assumptions", &data.assumptions},
      {"--performance", &data.performance},
      {"--prices", &data.prices}};
  bool replaced = false;
  if (!read_all(args[1], &request)) {
    return fail_input("unreadable_file", "cannot read request file " + args[1], "");
  }
  for (std::size_t i = 2; i < args.size(); i += 2) {
    std::string* target = nullptr;
    for (const auto& [flag, text] : data_flags)
      if (args[i] == flag) target = text;
    if (i + 1 >= args.size() || target == nullptr) {
      std::cerr << kUsage;
      return kExitUsage;
    }
    replaced = true;
    if (!read_all(args[i + 1], target)) {
      return fail_input("unreadable_file", "cannot read catalog file " + args[i + 1], "");
    }
    if (target->empty()) return fail_input("catalog_invalid", args[i + 1] + " is empty", "");
  }
  bool ok = false;
  const std::string out = replaced ? advisor::advise_with_catalog_text(request, data, &ok)
                                   : advisor::advise_text(request, &ok);
  std::cout << out << "\n";
  return ok ? 0 : kExitBadInput;
}
