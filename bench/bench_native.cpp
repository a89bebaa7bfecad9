// SPDX-License-Identifier: MIT
// Prints the median latency of advise() (whole catalog: every GPU judged) natively.
// Usage: bench_native [--calls N] [--part whole|answer|levers] REQUEST.json... ; bench/bench.sh
// runs it beside the wasm figure, and bench/page_bench.cjs in short rounds between Chromium's
// (--calls 40). --part: the whole result (default), the answer without its levers, or the
// levers alone (the page's two calls: api.hpp PlanPart).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "api.hpp"
#include "types/catalog.hpp"

// Every heap allocation of the process is counted, so a call's allocations can be reported.
namespace {
std::size_t allocations = 0;
}  // namespace
void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {
constexpr int kWarmupCalls = 20;
constexpr int kDefaultTimedCalls = 500;
constexpr int kMaxTimedCalls = 100000;
}  // namespace

std::string advise(const std::string& request, advisor::PlanPart part) {
  return advisor::advise_text(request, advisor::DataSource{}, nullptr, part);
}

struct NamedPart {
  const char* name;
  advisor::PlanPart part;
};
constexpr NamedPart kParts[] = {{"whole", advisor::PlanPart::kWhole},
                                {"answer", advisor::PlanPart::kAnswer},
                                {"levers", advisor::PlanPart::kLevers}};

const NamedPart* find_part(const std::string& name) {
  for (const NamedPart& p : kParts)
    if (name == p.name) return &p;
  return nullptr;
}

int main(int argc, char** argv) {
  int first_file = 1;
  int timed_calls = kDefaultTimedCalls;
  const NamedPart* part = &kParts[0];
  while (first_file + 1 < argc && std::string(argv[first_file]).rfind("--", 0) == 0) {
    const std::string flag = argv[first_file], value = argv[first_file + 1];
    if (flag == "--calls") {
      timed_calls = std::atoi(value.c_str());
      if (timed_calls < 1 || timed_calls > kMaxTimedCalls) {
        std::fprintf(stderr, "bench_native: --calls takes 1 to %d\n", kMaxTimedCalls);
        return 2;
      }
    } else if (const NamedPart* named = flag == "--part" ? find_part(value) : nullptr) {
      part = named;
    } else {
      std::fprintf(stderr, "bench_native: unknown %s %s\n", flag.c_str(), value.c_str());
      return 2;
    }
    first_file += 2;
  }
  advisor::builtin_catalog();  // parse once, as the page does at load
  for (int i = first_file; i < argc; ++i) {
    std::ifstream in(argv[i]);
    std::stringstream s;
    s << in.rdbuf();
    const std::string request = s.str();
    for (int w = 0; w < kWarmupCalls; ++w) advise(request, part->part);
    std::vector<double> us;
    for (int c = 0; c < timed_calls; ++c) {
      const auto t0 = std::chrono::steady_clock::now();
      advise(request, part->part);
      const auto t1 = std::chrono::steady_clock::now();
      us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    const std::size_t before = allocations;
    advise(request, part->part);
    const std::size_t per_call = allocations - before;
    double total_us = 0;
    for (const double u : us) total_us += u;
    std::sort(us.begin(), us.end());
    std::printf(
        "native\t%s\tmedian_us=%.1f\tp95_us=%.1f\tmean_us=%.1f\tallocations_per_call=%zu\tcalls=%"
        "d\tpart=%s\n",
        argv[i], us[us.size() / 2], us[us.size() * 95 / 100], total_us / timed_calls, per_call,
        timed_calls, part->name);
  }
  return 0;
}
