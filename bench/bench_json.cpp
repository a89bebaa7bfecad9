// SPDX-License-Identifier: MIT
// Prints how long parsing takes for hostile key orders: 100,000 keys as 10 objects of 10,000
// (the member limit) in ascending, descending and random order, one object of 100,000 keys
// (refused at the limit), and whole requests of ~1 MiB through advise(). Before objects were
// sorted once on close, a descending 1 MiB request took 82 s natively (quadratic insertion).
// Usage: bench_json   (bench/json_keys.cjs prints the same figures for the wasm module)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "api.hpp"
#include "io/json_reader.hpp"
#include "types/errors.hpp"

namespace {

std::string keys_text(int objects, int keys, const char* order) {
  std::vector<int> k(static_cast<std::size_t>(keys));
  std::iota(k.begin(), k.end(), 0);
  if (std::string(order) == "descending") std::reverse(k.begin(), k.end());
  if (std::string(order) == "random") std::shuffle(k.begin(), k.end(), std::mt19937(7));
  std::string s = "{";
  for (int o = 0; o < objects; ++o) {
    s += (o ? ",\"o" : "\"o") + std::to_string(o) + "\":{";
    for (std::size_t i = 0; i < k.size(); ++i)
      s += (i ? ",\"" : "\"") + std::to_string(k[i]) + "\":1";
    s += "}";
  }
  return s + "}";
}

template <typename F>
double milliseconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main() {
  for (const char* order : {"ascending", "descending", "random"}) {
    const std::string text = keys_text(10, 10'000, order);
    const double ms = milliseconds([&] { advisor::parse_json_text(text, "", 4 << 20); });
    std::printf("parse 10 x 10,000 keys, %-10s %8.1f ms (%zu bytes)\n", order, ms, text.size());
  }
  const std::string wide = keys_text(1, 100'000, "descending");
  const double refused = milliseconds([&] {
    const advisor::ProblemScope scope;  // the refusal is the expected answer
    advisor::parse_json_text(wide, "", 4 << 20);
  });
  std::printf("one object of 100,000 keys (refused at the limit) %8.1f ms\n", refused);
  for (const char* order : {"ascending", "descending"}) {
    const std::string request = R"({"schema": 1, "x": )" + keys_text(9, 10'000, order) + "}";
    const double ms = milliseconds([&] { advisor::advise_text(request); });
    std::printf("advise() of a %zu-byte request, keys %-10s %8.1f ms\n", request.size(), order, ms);
  }
  return 0;
}
