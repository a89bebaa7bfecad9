// SPDX-License-Identifier: MIT
// gpu-advisor: the native command line over the same core as the page.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api.hpp"
#include "io/form_json.hpp"
#include "messages.hpp"
#include "report.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"
#include "validation_api.hpp"

namespace {

constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;

const char* kUsage =
    "usage: gpu-advisor advise FILE|- [--lang zh-CN|en] [--gpus FILE] [--models FILE]\n"
    "                              [--assumptions FILE] [--performance FILE] [--prices FILE]\n"
    "                              [--provider FILE]\n"
    "       gpu-advisor advise-lines [DATA FLAGS]  (one request per stdin line, one result "
    "line each)\n"
    "       gpu-advisor catalog      (built-in GPUs, model presets, default request)\n"
    "       gpu-advisor defaults     (the default request document)\n"
    "       gpu-advisor words --lang zh-CN|en  (one {\"key\",\"params\"} per stdin line: the "
    "message in words)\n"
    "       gpu-advisor scripts FILE|- -o DIR [DATA FLAGS]  (validation scripts for the plan)\n"
    "       gpu-advisor check FILE|- RESULT [--lang zh-CN|en] [DATA FLAGS]  "
    "(validation-result.json or an "
    "nvidia-smi\n"
    "                                            CSV compared with the plan; exit 3 if a check "
    "fails)\n"
    "       gpu-advisor check FILE|- RESULT RESULT... [DATA FLAGS]  (a cluster: one result per "
    "server,\n"
    "                                            each server's verdict and one; a missing server "
    "fails)\n"
    "advise reads a request (API v1, see docs/api.md) and prints the result JSON;\n"
    "on bad input it prints {\"error\":{\"code\",\"message\",\"path\"}} and exits 1.\n"
    "--lang zh-CN|en (advise, check) prints the answer or the check as text in that language\n"
    "instead (the words of data/messages/, the page's).\n"
    "--gpus/--models/--assumptions/--performance/--prices replace the built-in data files\n"
    "(a provider's own GPUs or prices; validated like any input); --provider reads a provider\n"
    "catalog (data/provider.schema.json): rentals become its offers, racks its packages.\n"
    "scripts and check take the same flags as advise: the plan they check is the one advise "
    "gives.\n";

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

/// Reads the data flags args[from..] (--gpus FILE ... --provider FILE) into `source`; returns
/// 0, or the exit status of a usage error or an unreadable or empty file (already reported).
int read_data_flags(const std::vector<std::string>& args, std::size_t from,
                    advisor::DataSource* source) {
  const std::pair<const char*, std::string*> flags[] = {
      {"--gpus", &source->replaced.gpus},
      {"--models", &source->replaced.models},
      {"--assumptions", &source->replaced.assumptions},
      {"--performance", &source->replaced.performance},
      {"--prices", &source->replaced.prices},
      {"--provider", &source->provider}};
  for (std::size_t i = from; i < args.size(); i += 2) {
    std::string* target = nullptr;
    for (const auto& [flag, text] : flags)
      if (args[i] == flag) target = text;
    if (i + 1 >= args.size() || target == nullptr) {
      std::cerr << kUsage;
      return kExitUsage;
    }
    if (!read_all(args[i + 1], advisor::limits::kMaxCatalogFileBytes, target))
      return fail_input("unreadable_file",
                        "cannot read catalog file " + advisor::in_quotes(args[i + 1]), "");
    if (target->empty())
      return fail_input("catalog_invalid", advisor::in_quotes(args[i + 1]) + " is empty", "");
  }
  return 0;
}

/// The request file args[1] and the data flags from args[from]: 0, or the exit status.
int read_request(const std::vector<std::string>& args, std::size_t from, std::string* request,
                 advisor::DataSource* source) {
  if (!read_all(args[1], advisor::limits::kMaxRequestBytes, request))
    return fail_input("unreadable_file", "cannot read request file " + advisor::in_quotes(args[1]),
                      "");
  return read_data_flags(args, from, source);
}

/// Takes "--lang L" from args[at...] when it is there: 0, or the usage status.
int take_lang(std::vector<std::string>& args, std::size_t at,
              const gpu_advisor_cli::Messages** words) {
  while (at < args.size() && args[at] != "--lang") ++at;
  if (at >= args.size()) return 0;
  *words = args.size() > at + 1 ? gpu_advisor_cli::Messages::builtin(args[at + 1]) : nullptr;
  if (!*words) {
    std::cerr << "--lang: give zh-CN or en\n" << kUsage;
    return kExitUsage;
  }
  args.erase(args.begin() + static_cast<std::ptrdiff_t>(at),
             args.begin() + static_cast<std::ptrdiff_t>(at + 2));
  return 0;
}

/// The core's JSON as is, or (with --lang) the report `as_text` makes of it in that language.
template <typename Report>
int print_result(const std::string& result, const gpu_advisor_cli::Messages* words,
                 Report as_text) {
  if (!words) {
    std::cout << result << "\n";
    return 0;
  }
  try {
    std::cout << as_text(nlohmann::json::parse(result), *words);
  } catch (const std::exception& e) {  // a message table that does not parse (messages_registry)
    return fail_input("internal_error", e.what(), "");
  }
  return 0;
}

int write_scripts(const std::vector<std::string>& args) {
  if (args.size() < 4 || args[2] != "-o") {
    std::cerr << kUsage;
    return kExitUsage;
  }
  std::string request;
  advisor::DataSource source;
  if (const int status = read_request(args, 4, &request, &source)) return status;
  std::optional<advisor::InputError> problem;
  const advisor::ValidationBundle bundle = advisor::in_own_scope(
      [&] {
        const std::shared_ptr<const advisor::Catalog> catalog = advisor::catalog_for(source);
        return advisor::problem_reported() ? advisor::ValidationBundle{}
                                           : advisor::validation_bundle(request, *catalog);
      },
      problem);
  if (problem) return fail_input(problem->code(), problem->what(), problem->path());
  const std::filesystem::path dir = args[3];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (const auto& f : bundle.files) {
    const std::filesystem::path path = dir / f.name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << f.text;
    if (!out)
      return fail_input("unwritable_file", "cannot write " + advisor::in_quotes(path.string()), "");
    out.close();
    if (f.executable) {
      std::filesystem::permissions(path,
                                   std::filesystem::perms::owner_exec |
                                       std::filesystem::perms::group_exec |
                                       std::filesystem::perms::others_exec,
                                   std::filesystem::perm_options::add, ec);
    }
    std::cout << path.string() << (f.root.empty() ? "" : "  (needs root: " + f.root + ")") << "\n";
  }
  return 0;
}

/// check REQUEST RESULT [RESULT...] [--lang L] [DATA FLAGS]: one RESULT, its report; several
/// (one per server of a cluster), each server's report and one verdict.
int check_results(std::vector<std::string> args) {
  const gpu_advisor_cli::Messages* words = nullptr;
  if (const int status = take_lang(args, 3, &words)) return status;
  if (args.size() < 3) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  std::size_t flags = 2;
  while (flags < args.size() && args[flags].rfind("--", 0) != 0) ++flags;
  std::string request;
  advisor::DataSource source;
  if (const int status = read_request(args, flags, &request, &source)) return status;
  std::vector<std::pair<std::string, std::string>> results;
  for (std::size_t i = 2; i < flags; ++i) {
    std::string text;
    if (!read_all(args[i], kMaxResultFileBytes, &text))
      return fail_input("unreadable_file", "cannot read result file " + advisor::in_quotes(args[i]),
                        "");
    results.emplace_back(std::filesystem::path(args[i]).filename().string(), std::move(text));
  }
  bool ok = false, failed = false;
  const std::string report =
      results.size() == 1
          ? advisor::validation_check_text(request, results[0].second, results[0].first, source,
                                           &ok, &failed)
          : advisor::validation_check_servers_text(request, results, source, &ok, &failed);
  if (const int status = print_result(report, words, gpu_advisor_cli::check_report)) return status;
  if (!ok) return kExitBadInput;
  return failed ? kExitCheckFailed : 0;
}

/// advise-lines: one request per line of stdin, one result per line of stdout, the data files
/// read once. The calibration scripts send thousands of requests per fitted constant: a process
/// and a catalog parse per request cost more than the advice itself.
int advise_lines(const std::vector<std::string>& args) {
  advisor::DataSource source;
  if (const int status = read_data_flags(args, 1, &source)) return status;
  std::optional<advisor::InputError> problem;
  const std::shared_ptr<const advisor::Catalog> catalog =
      advisor::in_own_scope([&] { return advisor::catalog_for(source); }, problem);
  if (problem) return fail_input(problem->code(), problem->what(), problem->path());
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    // The result text is compact JSON (newlines inside strings are escaped): one line each.
    std::cout << advisor::advise_text(line, *catalog) << "\n";
  }
  return 0;
}

/// words --lang L: one {"key", "params"} per stdin line, the message in words per stdout line
/// (how tests/js/messages.test.cjs compares the CLI's renderer with the page's).
int render_words(std::vector<std::string> args) {
  const gpu_advisor_cli::Messages* words = nullptr;
  if (const int status = take_lang(args, 1, &words)) return status;
  if (!words || args.size() != 1) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  std::string line;
  while (std::getline(std::cin, line)) {
    const nlohmann::json item = nlohmann::json::parse(line, nullptr, false);
    if (!item.is_object() || !item.contains("key") || !item["key"].is_string()) {
      std::cout << "\n";
      continue;
    }
    const nlohmann::json params = item.value("params", nlohmann::json::object());
    std::cout << words->render(item["key"].get<std::string>(), params) << "\n";
  }
  return 0;
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
    const advisor::Catalog& catalog = advisor::builtin_catalog();
    bool ok = true;
    const std::string text =
        command == "catalog" ? advisor::guarded(&ok, [&] { return advisor::catalog_text(catalog); })
                             : advisor::default_request(catalog).dump(2);
    std::cout << text << "\n";
    return ok ? 0 : kExitBadInput;
  }
  if (command == "scripts") return write_scripts(args);
  if (command == "check") return check_results(args);
  if (command == "advise-lines") return advise_lines(args);
  if (command == "words") return render_words(args);
  if (command != "advise" || args.size() < 2) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  const gpu_advisor_cli::Messages* words = nullptr;
  if (const int status = take_lang(args, 2, &words)) return status;
  std::string request;
  advisor::DataSource source;
  if (const int status = read_request(args, 2, &request, &source)) return status;
  bool ok = false;
  const std::string result = advisor::advise_text(request, source, &ok);
  if (const int status = print_result(result, words, gpu_advisor_cli::advice_report)) return status;
  return ok ? 0 : kExitBadInput;
}
