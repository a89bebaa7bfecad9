// SPDX-License-Identifier: MIT
// Prints the median latency of advise() (whole catalog: every GPU judged) natively.
// Usage: bench_native REQUEST.json... ; bench/bench.sh runs it beside the wasm figure.
#include <algorithm>
#include <cstdlib>
#include <new>
#include <chrono>
#include <cstdio>
#include <fstream>
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
constexpr int kTimedCalls = 500;
}  // namespace

int main(int argc, char** argv) {
  advisor::builtin_catalog();  // parse once, as the page does at load
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i]);
    std::stringstream s;
    s << in.rdbuf();
    const std::string request = s.str();
    for (int w = 0; w < kWarmupCalls; ++w) advisor::advise_text(request);
    std::vector<double> us;
    for (int c = 0; c < kTimedCalls; ++c) {
      const auto t0 = std::chrono::steady_clock::now();
      advisor::advise_text(request);
      const auto t1 = std::chrono::steady_clock::now();
      us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    const std::size_t before = allocations;
    advisor::advise_text(request);
    const std::size_t per_call = allocations - before;
    std::sort(us.begin(), us.end());
    std::printf("native\t%s\tmedian_us=%.1f\tp95_us=%.1f\tallocations_per_call=%zu\tcalls=%d\n",
                argv[i], us[us.size() / 2], us[us.size() * 95 / 100], per_call, kTimedCalls);
  }
  return 0;
}
