// SPDX-License-Identifier: MIT
// Numbers in the result print exactly as nlohmann::json's dump() prints them
// (io/json_scalars.cpp): whole numbers, powers of ten and of two around the layout's thresholds,
// and any double; the printer's one serializer is reused between numbers and strings.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "io/json_scalars.hpp"

namespace {

constexpr int kLargestPowerOfTen = 22;  // 1e22 and beyond print with an exponent
constexpr int kLargestExactBits = 53;   // every integer below 2^53 is a double
constexpr int kRandomDoubles = 100000;

std::string formatted(double v) { return std::string(advisor::json_number_text(v)); }

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

TEST_CASE("strings and numbers interleaved: each printed as the library's dump prints it",
          "[json][numbers][strings]") {
  const std::vector<std::string> texts = {"plain", "quote \" and \\", "\xe6\x98\xbe\xe5\xad\x98",
                                          std::string(1, '\0') + "nul", ""};
  std::string out;
  std::string expected;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    out += advisor::json_string_text(texts[i]);
    out += advisor::json_number_text(0.1 * static_cast<double>(i));
    expected += nlohmann::json(texts[i]).dump(-1, ' ', /*ensure_ascii=*/true);
    expected += nlohmann::json(0.1 * static_cast<double>(i)).dump();
  }
  CHECK(out == expected);
}

TEST_CASE("an escaped string is remembered, and stays right once the memory starts afresh",
          "[json][strings]") {
  const auto library = [](const std::string& s) {
    return nlohmann::json(s).dump(-1, ' ', /*ensure_ascii=*/true);
  };
  const std::string source =
      "\xe5\xa2\x9e\xe5\x80\xbc\xe7\xa8\x8e\xe6\xb3\x95 \xe2\x80\x94 art. 10";
  CHECK(std::string(advisor::json_string_text(source)) == library(source));
  CHECK(std::string(advisor::json_string_text(source)) == library(source));  // remembered
  // Distinct strings past the memory's 1 MiB bound (a provider's many names): each still the
  // library's text, and so is the first one after the memory was emptied.
  constexpr int kStrings = 3000;
  const std::string filler(400, 'x');
  for (int i = 0; i < kStrings; ++i) {
    const std::string s = "\xc2\xb7 " + std::to_string(i) + filler;
    REQUIRE(std::string(advisor::json_string_text(s)) == library(s));
  }
  CHECK(std::string(advisor::json_string_text(source)) == library(source));
}
