// SPDX-License-Identifier: MIT
// gpu-advisor: the native command line over the same core as the page.
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "api.hpp"
#include "io/form_json.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"

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

/// Reads at most `limit` + 1 bytes: enough for the core to report a text over its limit
/// (limit_exceeded) without holding an arbitrarily large file in memory.
bool read_all(const std::string& path, std::size_t limit, std::string* out) {
  std::ifstream file;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) return false;
  }
  std::istream& in = path == "-" ? std::cin : file;
  out->clear();
  char buffer[1 << 16];
  while (out->size() <= limit && in.read(buffer, sizeof buffer).gcount() > 0)
    out->append(buffer, static_cast<std::size_t>(in.gcount()));
  if (out->size() > limit + 1) out->resize(limit + 1);
  return !in.bad();
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
  if (!read_all(args[1], advisor::limits::kMaxRequestBytes, &request)) {
    return fail_input("unreadable_file",
                      "cannot read request file " + advisor::in_quotes(args[1]), "");
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
    if (!read_all(args[i + 1], advisor::limits::kMaxCatalogFileBytes, target)) {
      return fail_input("unreadable_file",
                        "cannot read catalog file " + advisor::in_quotes(args[i + 1]), "");
    }
    if (target->empty())
      return fail_input("catalog_invalid", advisor::in_quotes(args[i + 1]) + " is empty", "");
  }
  bool ok = false;
  const std::string out = replaced ? advisor::advise_with_catalog_text(request, data, &ok)
                                   : advisor::advise_text(request, &ok);
  std::cout << out << "\n";
  return ok ? 0 : kExitBadInput;
}
