// SPDX-License-Identifier: MIT
// Numbers in the result print exactly as nlohmann::json prints them (io/json_number.cpp):
// whole numbers, powers of ten and of two around the layout's thresholds, and any double.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "io/json_number.hpp"

namespace {

constexpr int kLargestPowerOfTen = 22;  // 1e22 and beyond print with an exponent
constexpr int kLargestExactBits = 53;   // every integer below 2^53 is a double
constexpr int kRandomDoubles = 100000;

std::string formatted(double v) {
  char buffer[64];
  return std::string(buffer, advisor::format_double(buffer, v));
}

}  // namespace

TEST_CASE("whole numbers print as nlohmann::json prints them", "[json][numbers]") {
  std::vector<double> values;
  for (int i = 0; i <= 100000; ++i) values.push_back(i);
  for (int e = 0; e <= kLargestPowerOfTen; ++e) {
    const double p = std::pow(10.0, e);
    for (double v : {p - 1, p, p + 1, std::nextafter(p, 0.0), std::nextafter(p, 2 * p)})
      values.push_back(v);
  }
  for (int bits = 0; bits <= kLargestExactBits + 1; ++bits) {
    const double p = std::ldexp(1.0, bits);
    for (double v : {p - 1, p, p + 1}) values.push_back(v);
  }
  for (double v : {0.5, 0.1, 1e-5, 123.456, 1e15 - 0.5, 2.5e14 + 0.25}) values.push_back(v);
  for (const double v : values) {
    for (const double signed_v : {v, -v}) {
      INFO(signed_v);
      CHECK(formatted(signed_v) == nlohmann::json(signed_v).dump());
    }
  }
}

TEST_CASE("any double prints as nlohmann::json prints it", "[json][numbers]") {
  std::mt19937_64 bits_of(12345);  // fixed: the same doubles every run
  int checked = 0;
  while (checked < kRandomDoubles) {
    const std::uint64_t bits = bits_of();
    double v = 0;
    std::memcpy(&v, &bits, sizeof v);
    if (!std::isfinite(v)) continue;
    ++checked;
    INFO(bits);
    REQUIRE(formatted(v) == nlohmann::json(v).dump());
  }
}
