// SPDX-License-Identifier: MIT
// The read-back is untrusted input (a file dropped on the page): the security review's findings,
// each kept as a regression test. Logs of another server fail, every number is bounded before it
// is cast, memory stays bounded, a BOM or old Mac line ends do not change what is read.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cases.hpp"
#include "io/validation_json.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "validation/check.hpp"
#include "validation/gpu_csv.hpp"

using namespace advisor::validation;

namespace {

ValidationPlan plan8() { return vtest::make_case("h100_8x", GPU_ADVISOR_DATA_DIR); }

const char* const kHeader =
    "timestamp, index, power.draw [W], power.limit [W], clocks_throttle_reasons.active\n";

/// A log of `gpus` GPUs (indices from `first`), `rows` samples each.
std::string log_of(int gpus, int rows = 3, int first = 0) {
  std::string s = kHeader;
  for (int r = 0; r < rows; ++r)
    for (int g = first; g < first + gpus; ++g)
      s += "2026/12/01 10:00:0" + std::to_string(r) + ".000, " + std::to_string(g) +
           ", 600.00, 700.00, 0x0\n";
  return s;
}

std::string error_of(const std::string& text, const std::string& file = "gpu.csv") {
  try {
    test::throwing([&] { return read_measurements(text, file, plan8()); });
  } catch (const advisor::InputError& e) {
    return e.code() + " " + e.path();
  }
  return "none";
}

/// The items of `text` checked against the 8-GPU plan with this code.
int items_with_code(const std::string& text, const std::string& code) {
  const ValidationPlan p = plan8();
  const CheckReport r = check_measurements(p, read_measurements(text, "gpu.csv", p), {});
  int n = 0;
  for (const auto& i : r.items) n += i.reason.code == code && i.status == Status::fail;
  return n;
}

std::string result_with(const nlohmann::json& patch) {
  nlohmann::json j = {{"schema", 1},
                      {"kind", "gpu-advisor-validation-result"},
                      {"plan_id", plan_id(plan8())},
                      {"gpu_id", "h100-sxm-80gb"},
                      {"measured", nlohmann::json::object()}};
  j.merge_patch(patch);
  return j.dump();
}

}  // namespace

TEST_CASE("a CSV log of another server fails: too few GPUs or an index the plan lacks",
          "[validation][security]") {
  CHECK(items_with_code(log_of(8), "gpu_missing_in_log") == 0);
  CHECK(items_with_code(log_of(8), "gpu_extra_in_log") == 0);
  CHECK(items_with_code(log_of(1), "gpu_missing_in_log") == 1);  // passed before: 1 GPU of 8
  CHECK(items_with_code(log_of(16), "gpu_extra_in_log") == 1);   // passed before: 16 of 8
}

TEST_CASE("every CSV number is bounded before it is cast or summed", "[validation][security]") {
  // An index of 1e300 was cast to int (undefined behaviour, shown by UBSan).
  CHECK(error_of(std::string(kHeader) + "t, 1e300, 600, 700, 0x0\n") ==
        "csv_bad_value /gpu.csv/row 2/index");
  CHECK(error_of(std::string(kHeader) + "t, 64, 600, 700, 0x0\n") ==
        "csv_bad_value /gpu.csv/row 2/index");
  CHECK(error_of(std::string(kHeader) + "t, 2.5, 600, 700, 0x0\n") ==
        "csv_bad_value /gpu.csv/row 2/index");
  // A negative draw dropped the power check.
  CHECK(error_of(std::string(kHeader) + "t, 0, -600, 700, 0x0\n") ==
        "csv_bad_value /gpu.csv/row 2/power.draw");
  CHECK(error_of(std::string(kHeader) + "t, 0, 600, 700, 0x1FFFFFFFFFFFFFFFFF\n") ==
        "csv_bad_value /gpu.csv/row 2/clocks_throttle_reasons.active");
  // A 1 MB value is echoed as 80 characters, not copied into the message.
  try {
    test::throwing([&] {
      return read_measurements(
          std::string(kHeader) + "t, 0, " + std::string(1 << 20, '9') + "x, 700, 0x0\n", "gpu.csv",
          plan8());
    });
    FAIL("no error");
  } catch (const advisor::InputError& e) {
    CHECK(std::string(e.what()).size() < 300);
  }
}

TEST_CASE("a CSV log's memory is bounded: indices and rows have limits", "[validation][security]") {
  // 1,000,000 distinct indices were read into 535 MB: now an index beyond one server's is refused
  // at its row, and so is the row past the limit.
  std::string many = kHeader;
  for (int i = 0; i < 100; ++i) many += "t, " + std::to_string(i) + ", 600, 700, 0x0\n";
  CHECK(error_of(many) == "csv_bad_value /gpu.csv/row 66/index");
  const std::string row = "t, 0, 600, 700, 0x0\n";
  std::string rows = kHeader;
  rows.reserve(rows.size() + row.size() * (advisor::limits::kMaxGpuCsvRows + 1));
  for (std::size_t i = 0; i <= advisor::limits::kMaxGpuCsvRows; ++i) rows += row;
  CHECK(error_of(rows) == "limit_exceeded /gpu.csv");
}

TEST_CASE("a CSV with a byte order mark or CR-only line ends reads as its plain twin",
          "[validation][security]") {
  const std::string plain = log_of(8);
  const std::string bom = "\xEF\xBB\xBF" + plain;
  std::string cr = plain;
  for (char& c : cr)
    if (c == '\n') c = '\r';
  CHECK(looks_like_gpu_csv(bom));  // was read as JSON ("not valid JSON")
  const Measurements a = read_measurements(plain, "gpu.csv", plan8());
  for (const std::string& other : {bom, cr}) {
    const Measurements b = read_measurements(other, "gpu.csv", plan8());
    REQUIRE(b.power.size() == a.power.size());
    CHECK(b.power[7].samples == a.power[7].samples);
    CHECK(*b.power[7].power_draw_w_p50 == *a.power[7].power_draw_w_p50);
  }
}

TEST_CASE("result-file integers are exact: no wrapped schema, index or count",
          "[validation][security]") {
  CHECK(error_of(result_with({{"schema", 4294967297LL}}), "validation-result.json") ==
        "unsupported_schema /validation-result.json/schema");  // read as 1 before
  CHECK(error_of(result_with({{"measured", {{"gpu.2147483648.name", "NVIDIA H100"}}}}),
                 "validation-result.json") ==
        "bad_value /validation-result.json/measured/gpu.2147483648.name");  // atoi overflowed
  CHECK(error_of(result_with({{"measured", {{"gpu.64.name", "NVIDIA H100"}}}}),
                 "validation-result.json") ==
        "bad_value /validation-result.json/measured/gpu.64.name");
  CHECK(error_of(result_with({{"measured", {{"gpu_count", 1e300}}}}), "validation-result.json") ==
        "bad_value /validation-result.json/measured/gpu_count");
  CHECK(error_of(result_with({{"measured", {{"gpu_count", -3}}}}), "validation-result.json") ==
        "bad_value /validation-result.json/measured/gpu_count");
  CHECK(error_of(result_with({{"measured", {{"gpu.7.name", "NVIDIA H100 80GB HBM3"}}}}),
                 "validation-result.json") == "none");
}
