// SPDX-License-Identifier: MIT
// Issue 28's remaining read-back: each GPU's GEMM rate under the burn-in against its server's
// median (stragglers), DCGM's diagnostics read from dcgmi diag -j's own JSON, the fabric manager's
// version against the driver's, and the cross-server burn-in window's bus bandwidth.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <optional>

#include "cases.hpp"
#include "io/validation_json.hpp"
#include "types/errors.hpp"
#include "validation/check.hpp"

using namespace advisor::validation;
using nlohmann::json;

namespace {

const std::string kData = GPU_ADVISOR_DATA_DIR;

ValidationPlan plan(const std::string& name) { return vtest::make_case(name, kData); }

/// A validation-result.json of plan `p` with `measured` and, where given, DCGM's JSON.
CheckReport check_file(const ValidationPlan& p, const json& measured, const json& dcgm = nullptr) {
  json j = {{"schema", 1},
            {"kind", "gpu-advisor-validation-result"},
            {"plan_id", plan_id(p)},
            {"gpu_id", p.gpu_id},
            {"measured", measured}};
  if (!dcgm.is_null()) j["dcgm"] = dcgm;
  return check_measurements(p, read_measurements(j.dump(), "validation-result.json", p));
}

/// A copy of the item named NAME (reports here are temporaries).
std::optional<CheckItem> item(const CheckReport& r, const std::string& name) {
  for (const auto& i : r.items)
    if (i.item == name) return i;
  return std::nullopt;
}

/// DCGM 3's layout: "DCGM GPU Diagnostic" > test_categories > tests > results (null entries
/// between the deployment tests, gpu_ids as a string or a number).
json dcgm3(const std::string& power_gpu1) {
  json power = json::array();
  for (int g = 0; g < 8; ++g)
    power.push_back({{"gpu_ids", std::to_string(g)}, {"status", g == 1 ? power_gpu1 : "Pass"}});
  power[1]["warnings"] = json::array({json{{"error_category", 4},
                                           {"error_id", 28},
                                           {"error_severity", 2},
                                           {"warning",
                                            "GPU 1 Max power of 524.1 did not reach "
                                            "desired power"}}});
  return {{"DCGM GPU Diagnostic",
           {{"test_categories",
             {{{"category", "Deployment"},
               {"tests",
                {{{"name", "Denylist"},
                  {"results", {{{"gpu_ids", "0,1,2,3,4,5,6,7"}, {"status", "PASS"}}}}},
                 nullptr}}},
              {{"category", "Stress"},
               {"tests",
                {{{"name", "Targeted Stress"}, {"results", {{{"gpu_ids", 0}, {"status", "Pass"}}}}},
                 {{"name", "Targeted Power"}, {"results", power}}}}}}},
            {"version", "3.3.9"}}}};
}

}  // namespace

TEST_CASE("the burn-in's per-GPU GEMM rates: a straggler fails, an even server passes",
          "[validation][burnin][straggler]") {
  const ValidationPlan p = plan("h100_8x");
  json m = json::object();
  for (int g = 0; g < 8; ++g) m["gpu." + std::to_string(g) + ".burn_tflops"] = 790.0 - g;
  SECTION("within a few percent of each other") {
    const std::optional<CheckItem> i = item(check_file(p, m), "burn_throughput");
    REQUIRE(i);
    CHECK(i->status == Status::pass);
    CHECK(i->area == Area::compute);
  }
  SECTION("GPU 5 at 78% of the median") {
    m["gpu.5.burn_tflops"] = 613.1;
    const std::optional<CheckItem> i = item(check_file(p, m), "burn_throughput");
    REQUIRE(i);
    CHECK(i->status == Status::fail);
    CHECK(i->reason.code == "burn_straggler");
    CHECK(i->reason.param("gpu") == "5");
    CHECK(i->reason.param("median_tflops") == "786");
    CHECK(i->reason.message.rfind("GPU 5 ran the burn-in's GEMMs at 613.1 TFLOPS, 78% of", 0) == 0);
  }
  SECTION("just above the limit passes") {
    m["gpu.5.burn_tflops"] = 787.0 * (kStragglerFailFraction + 0.005);
    CHECK(item(check_file(p, m), "burn_throughput")->status == Status::pass);
  }
  SECTION("no rates (the user's own --job): no item") {
    CHECK_FALSE(item(check_file(p, json{{"gpu_count", 8}}), "burn_throughput"));
  }
}

TEST_CASE("DCGM's diagnostics are read from dcgmi diag -j's JSON, each test by name",
          "[validation][burnin][dcgm]") {
  const ValidationPlan p = plan("h100_8x");
  SECTION("DCGM 3: Targeted Power fails on GPU 1, named with DCGM's warning") {
    const CheckReport r = check_file(p, json::object(), dcgm3("Fail"));
    const std::optional<CheckItem> i = item(r, "dcgm_diag");
    REQUIRE(i);
    CHECK(i->status == Status::fail);
    CHECK(i->reason.code == "dcgm_diag_failed");
    CHECK(i->reason.param("tests") == "Targeted Power GPU: 1");
    CHECK(i->reason.message.find("did not reach desired power") != std::string::npos);
    CHECK(r.overall == Status::fail);
  }
  SECTION("DCGM 3: every test passes (PASS, Pass and a numeric gpu_ids alike)") {
    CHECK(item(check_file(p, json::object(), dcgm3("Pass")), "dcgm_diag")->status == Status::pass);
  }
  SECTION("a warning warns, naming the test") {
    const std::optional<CheckItem> i =
        item(check_file(p, json::object(), dcgm3("Warn")), "dcgm_diag");
    CHECK(i->status == Status::warn);
    CHECK(i->reason.param("tests") == "Targeted Power GPU: 1");
  }
  SECTION("the JSON decides over the script's summary of it") {
    const CheckReport r = check_file(p, json{{"dcgm_diag", "pass"}}, dcgm3("Fail"));
    CHECK(item(r, "dcgm_diag")->status == Status::fail);
  }
  SECTION("DCGM 4: the tests at the top, a test_summary per test") {
    const json doc = {{"DCGM Diagnostic",
                       {{"version", "4.2.3"},
                        {"tests",
                         {{{"name", "memory"}, {"test_summary", {{"status", "Pass"}}}},
                          {{"name", "pcie"},
                           {"results",
                            {{{"entity_id", 3}, {"status", "Fail"}},
                             {{"entity_id", 2}, {"status", "Pass"}}}}}}}}}};
    const std::optional<CheckItem> i = item(check_file(p, json::object(), doc), "dcgm_diag");
    CHECK(i->status == Status::fail);
    CHECK(i->reason.param("tests") == "pcie GPU: 3");
  }
  SECTION("every test skipped: no diagnostic ran, FAIL") {
    const json doc = {{"DCGM GPU Diagnostic",
                       {{"test_categories",
                         {{{"category", "Hardware"},
                           {"tests",
                            {{{"name", "GPU Memory"},
                              {"results", {{{"gpu_ids", "0"}, {"status", "Skip"}}}}}}}}}}}}};
    CHECK(item(check_file(p, json::object(), doc), "dcgm_diag")->reason.code == "dcgm_diag_error");
  }
  SECTION("not DCGM's document: a located error") {
    try {
      test::throwing([&] { return check_file(p, json::object(), json{{"tests", json::array()}}); });
      FAIL("no error");
    } catch (const advisor::InputError& e) {
      CHECK(e.path() == "/validation-result.json/dcgm");
    }
  }
}

TEST_CASE("the fabric manager's version must be the driver's on an NVSwitch plan",
          "[validation][burnin][fabric_manager]") {
  const json same = {{"driver_version", "570.86.10"}, {"fabric_manager_version", "570.86.10"}};
  const json other = {{"driver_version", "570.86.10"}, {"fabric_manager_version", "550.54.15"}};
  SECTION("NVSwitch box: equal passes, another version fails naming both") {
    const ValidationPlan p = plan("h100_8x");
    REQUIRE(p.fabric_manager_required);
    CHECK(item(check_file(p, same), "fabric_manager_version")->status == Status::pass);
    const std::optional<CheckItem> i = item(check_file(p, other), "fabric_manager_version");
    REQUIRE(i);
    CHECK(i->status == Status::fail);
    CHECK(i->area == Area::interconnect);
    CHECK(i->reason.code == "fabric_manager_version_mismatch");
    CHECK(i->reason.param("fabric_manager") == "550.54.15");
    CHECK(i->reason.param("driver") == "570.86.10");
  }
  SECTION("not recorded, or a plan without NVSwitch: no item") {
    CHECK_FALSE(item(check_file(plan("h100_8x"), json{{"driver_version", "570.86.10"},
                                                      {"fabric_manager_version", "unknown"}}),
                     "fabric_manager_version"));
    CHECK_FALSE(item(check_file(plan("rtx4090_4x"), other), "fabric_manager_version"));
  }
}

TEST_CASE("the cross-server burn-in window is judged against the plan's bus bandwidth",
          "[validation][burnin][window]") {
  const ValidationPlan p = plan("h100_2x8_ib");
  REQUIRE(p.inter_node_busbw_gbps == Approx(180));
  auto window = [&](double gbps) -> std::optional<CheckItem> {
    return item(check_file(p, json{{"burnin_inter_node_windows", 60},
                                   {"burnin_inter_node_busbw_gbps_min", gbps}}),
                "burnin_inter_node");
  };
  CHECK(window(187.5)->status == Status::pass);
  CHECK(window(130)->status == Status::warn);
  const std::optional<CheckItem> slow = window(95);
  CHECK(slow->status == Status::fail);
  CHECK(slow->reason.code == "burnin_busbw_low");
  CHECK(slow->reason.param("windows") == "60");
  CHECK_FALSE(item(check_file(p, json::object()), "burnin_inter_node"));
}
