// SPDX-License-Identifier: MIT
// Replays fuzz inputs through the targets without libFuzzer (any compiler), checking every
// answer. The fuzz_regressions test runs it over tests/fuzz/regressions/ (each a finding, kept),
// tests/fuzz/seeds/ and the golden requests.
//   fuzz_replay DIR...            every file under DIR/<target>/ goes to that target
//   fuzz_replay TARGET:PATH...    a file, or every file of a folder but *.result.json
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "check_result.hpp"
#include "targets.hpp"

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs every input file of `path` (a file or a folder) through `target`; returns the count.
int replay(const std::string& target, const fs::path& path) {
  const fuzz::Target run = fuzz::target_named(target);
  if (run == nullptr) {
    std::fprintf(stderr, "fuzz_replay: no target %s\n", target.c_str());
    std::exit(2);
  }
  int n = 0;
  auto one = [&](const fs::path& f) {
    const std::string name = f.filename().string();
    if (name.size() > 12 && name.compare(name.size() - 12, 12, ".result.json") == 0) return;
    if (name == "README.md") return;
    run(read(f));  // aborts with the input on a bad answer
    ++n;
  };
  if (fs::is_directory(path)) {
    for (const auto& entry : fs::directory_iterator(path))
      if (entry.is_regular_file()) one(entry.path());
  } else if (fs::is_regular_file(path)) {
    one(path);
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fuzz_replay DIR... | TARGET:PATH...\n");
    return 2;
  }
  int files = 0;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    const std::size_t colon = arg.find(':');
    if (colon != std::string::npos && fuzz::target_named(arg.substr(0, colon)) != nullptr) {
      files += replay(arg.substr(0, colon), arg.substr(colon + 1));
      continue;
    }
    for (const char* name : {"advise", "data", "jobs_csv", "hf_config", "validation"})
      if (fs::is_directory(fs::path(arg) / name)) files += replay(name, fs::path(arg) / name);
  }
  std::printf("fuzz_replay: %d inputs, every answer valid\n", files);
  return files > 0 ? 0 : 1;
}
