// SPDX-License-Identifier: MIT
// gpu-advisor: the native command line over the same core as the page.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "api.hpp"
#include "types/errors.hpp"
#include "validation_api.hpp"
#include "io/form_json.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"

namespace {

constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;

const char* kUsage =
    "usage: gpu-advisor advise FILE|- [--gpus FILE] [--models FILE] [--assumptions FILE]\n"
    "                              [--performance FILE] [--prices FILE] [--provider FILE]\n"
    "       gpu-advisor catalog      (built-in GPUs, model presets, default request)\n"
    "       gpu-advisor defaults     (the default request document)\n"
    "       gpu-advisor scripts FILE|- -o DIR   (validation scripts for the plan, written to DIR)\n"
    "       gpu-advisor check FILE|- RESULT     (validation-result.json or an nvidia-smi CSV\n"
    "                                            compared with the plan; exit 3 if a check fails)\n"
    "advise reads a request (API v1, see docs/api.md) and prints the result JSON;\n"
    "on bad input it prints {\"error\":{\"code\",\"message\",\"path\"}} and exits 1.\n"
    "--gpus/--models/--assumptions/--performance/--prices replace the built-in data files\n"
    "(a provider's own GPUs or prices; validated like any input); --provider reads a provider\n"
    "catalog (data/provider.schema.json): rentals become its offers, racks its packages.\n";

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

constexpr int kExitCheckFailed = 3;
// The result file of a burn-in (nvidia-smi CSV every few seconds for 10 h) is the largest
// input: allow it more room than a request.
constexpr std::size_t kMaxResultFileBytes = 64 << 20;

int write_scripts(const std::vector<std::string>& args) {
  if (args.size() != 4 || args[2] != "-o") {
    std::cerr << kUsage;
    return kExitUsage;
  }
  std::string request;
  if (!read_all(args[1], advisor::limits::kMaxRequestBytes, &request))
    return fail_input("unreadable_file", "cannot read request file " + advisor::in_quotes(args[1]), "");
  advisor::ValidationBundle bundle;
  try {
    bundle = advisor::validation_bundle(request);
  } catch (const advisor::InputError& e) {
    return fail_input(e.code(), e.what(), e.path());
  } catch (const std::exception& e) {
    return fail_input("internal_error", e.what(), "");
  }
  const std::filesystem::path dir = args[3];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (const auto& f : bundle.files) {
    const std::filesystem::path path = dir / f.name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << f.text;
    if (!out) return fail_input("unwritable_file", "cannot write " + advisor::in_quotes(path.string()), "");
    out.close();
    if (f.executable) {
      std::filesystem::permissions(path,
                                   std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec |
                                       std::filesystem::perms::others_exec,
                                   std::filesystem::perm_options::add, ec);
    }
    std::cout << path.string() << (f.root.empty() ? "" : "  (needs root: " + f.root + ")") << "\n";
  }
  return 0;
}

int check_results(const std::vector<std::string>& args) {
  if (args.size() != 3) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  std::string request, result;
  if (!read_all(args[1], advisor::limits::kMaxRequestBytes, &request))
    return fail_input("unreadable_file", "cannot read request file " + advisor::in_quotes(args[1]), "");
  if (!read_all(args[2], kMaxResultFileBytes, &result))
    return fail_input("unreadable_file", "cannot read result file " + advisor::in_quotes(args[2]), "");
  bool ok = false, failed = false;
  const std::string file = std::filesystem::path(args[2]).filename().string();
  std::cout << advisor::validation_check_text(request, result, file, &ok, &failed) << "\n";
  if (!ok) return kExitBadInput;
  return failed ? kExitCheckFailed : 0;
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
  if (command == "scripts") return write_scripts(args);
  if (command == "check") return check_results(args);
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
  std::string provider;
  bool replaced = false, with_provider = false;
  if (!read_all(args[1], advisor::limits::kMaxRequestBytes, &request)) {
    return fail_input("unreadable_file",
                      "cannot read request file " + advisor::in_quotes(args[1]), "");
  }
  for (std::size_t i = 2; i < args.size(); i += 2) {
    std::string* target = nullptr;
    for (const auto& [flag, text] : data_flags)
      if (args[i] == flag) target = text;
    if (args[i] == "--provider") target = &provider;
    if (i + 1 >= args.size() || target == nullptr) {
      std::cerr << kUsage;
      return kExitUsage;
    }
    (target == &provider ? with_provider : replaced) = true;
    if (!read_all(args[i + 1], advisor::limits::kMaxCatalogFileBytes, target)) {
      return fail_input("unreadable_file",
                        "cannot read catalog file " + advisor::in_quotes(args[i + 1]), "");
    }
    if (target->empty())
      return fail_input("catalog_invalid", advisor::in_quotes(args[i + 1]) + " is empty", "");
  }
  bool ok = false;
  const std::string out = with_provider ? advisor::advise_with_provider_text(request, provider, &ok, data)
                          : replaced    ? advisor::advise_with_catalog_text(request, data, &ok)
                                        : advisor::advise_text(request, &ok);
  std::cout << out << "\n";
  return ok ? 0 : kExitBadInput;
}
