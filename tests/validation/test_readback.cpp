// SPDX-License-Identifier: MIT
// Read-back: nvidia-smi CSV logs and validation-result.json into Measurements (with located
// errors), then measured vs planned in the source's order.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cases.hpp"
#include "io/validation_json.hpp"
#include "types/errors.hpp"
#include "validation/check.hpp"
#include "validation/gpu_csv.hpp"

using namespace advisor::validation;

namespace {
ValidationPlan plan(const std::string& name) {
  return vtest::make_case(name, GPU_ADVISOR_DATA_DIR);
}
std::string sample(const std::string& name) {
  return vtest::read_text(std::string(VALIDATION_TEST_DIR) + "/samples/" + name);
}
std::string with_plan(std::string text, const ValidationPlan& p) {
  for (auto at = text.find("@PLAN_ID@"); at != std::string::npos; at = text.find("@PLAN_ID@"))
    text.replace(at, 9, plan_id(p));
  return text;
}
/// The InputError `f` throws (code + path), or "none".
template <class F>
std::string error_of(F&& f) {
  try {
    test::throwing([&] { return f(); });
  } catch (const advisor::InputError& e) {
    return e.code() + " " + e.path();
  }
  return "none";
}
const CheckItem* item(const CheckReport& r, const std::string& name) {
  for (const auto& i : r.items)
    if (i.item == name) return &i;
  return nullptr;
}
/// A result file for plan `p` with these measured values.
std::string result(const ValidationPlan& p, const nlohmann::json& measured) {
  nlohmann::json j = {{"schema", 1},           {"kind", "gpu-advisor-validation-result"},
                      {"plan_id", plan_id(p)}, {"gpu_id", p.gpu_id},
                      {"host", "node01"},      {"checks", nlohmann::json::array()},
                      {"measured", measured}};
  return j.dump();
}
}  // namespace

TEST_CASE("an nvidia-smi CSV log becomes per-GPU statistics", "[validation][readback]") {
  Measurements m = summarize_gpu_csv(sample("gpu_ok.csv"));
  REQUIRE(m.power.size() == 2);
  const GpuPowerStats& a = m.power[0];
  const GpuPowerStats& b = m.power[1];
  CHECK(a.samples == 10);
  CHECK(*a.power_draw_w_p50 == 640);  // nearest rank: 5th of 600..690
  CHECK(*a.power_draw_w_p99 == 690);
  CHECK(*a.power_limit_w == 700);
  CHECK(*a.temperature_c_max == 69);
  CHECK(a.power_cap_fraction == 0);
  CHECK(*b.power_draw_w_p50 == 540);
  CHECK(b.power_cap_fraction == Approx(0.2));
  CHECK(b.thermal_throttle_fraction == Approx(0.1));
  CHECK(*b.pcie_gen_min_busy == 4);
  CHECK(*b.ecc_uncorrected_max == 0);
  CHECK(m.gpus_logged == 2);
  CHECK(m.plan_id.empty());

  Measurements u = summarize_gpu_csv(sample("gpu_units_in_values.csv"));
  CHECK(*u.power[1].power_draw_w_p50 == 540);
  CHECK(looks_like_gpu_csv(sample("gpu_ok.csv")));
  CHECK_FALSE(looks_like_gpu_csv(sample("result_other_plan.json")));
}

TEST_CASE("bad CSV logs are located errors", "[validation][readback]") {
  CHECK(error_of([] { summarize_gpu_csv(sample("gpu_truncated.csv")); }) ==
        "csv_truncated /gpu.csv/row 12/power.limit");
  CHECK(error_of([] { summarize_gpu_csv(sample("gpu_missing_column.csv")); }) ==
        "csv_missing_column /gpu.csv/header");
  CHECK(error_of([] { summarize_gpu_csv(sample("gpu_wrong_units.csv")); }) ==
        "csv_wrong_unit /gpu.csv/header/power.draw");
  CHECK(error_of([] { summarize_gpu_csv(sample("gpu_wrong_unit_value.csv"), "burnin/gpu.csv"); }) ==
        "csv_wrong_unit /burnin/gpu.csv/row 3/power.draw");
  CHECK(error_of([] { summarize_gpu_csv("index, power.draw [W]\n0, 300\n"); }) ==
        "csv_not_nvidia_smi /gpu.csv/header");
  CHECK(error_of([] { summarize_gpu_csv("timestamp, index, power.draw [W]\nx, 0, lots\n"); }) ==
        "csv_bad_value /gpu.csv/row 2/power.draw");
  try {
    test::throwing([&] { return summarize_gpu_csv(sample("gpu_missing_column.csv")); });
  } catch (const advisor::InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("has no power.draw column"));
  }
  try {
    test::throwing([&] { return summarize_gpu_csv(sample("gpu_truncated.csv")); });
  } catch (const advisor::InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("row 12 has 5 of 13 columns"));
  }
}

TEST_CASE("result files: another plan's, wrong units, cut short", "[validation][readback]") {
  const ValidationPlan p = plan("h100_8x");
  CHECK(error_of([&] {
          read_measurements(sample("result_other_plan.json"), "validation-result.json", p);
        }) == "other_plan /validation-result.json/plan_id");
  CHECK(error_of([&] {
          read_measurements(sample("result_other_gpu.json"), "validation-result.json", p);
        }) == "other_plan /validation-result.json/gpu_id");
  try {
    test::throwing([&] {
      return read_measurements(sample("result_other_plan.json"), "validation-result.json", p);
    });
  } catch (const advisor::InputError& e) {
    CHECK_THAT(e.what(),
               Catch::Contains("plan 0123456789abcdef, not this plan (" + plan_id(p) + ")"));
  }
  CHECK(error_of([&] {
          read_measurements(with_plan(sample("result_wrong_units.json"), p),
                            "validation-result.json", p);
        }) == "wrong_unit /validation-result.json/measured/gpu.1.memory_total_mib");
  CHECK(error_of([&] {
          read_measurements(with_plan(sample("result_memory_in_gib.json"), p), "r.json", p);
        }) == "wrong_unit /r.json/measured/gpu.0.memory_total_mib");
  CHECK(error_of([&] {
          read_measurements(with_plan(sample("result_percent_not_share.json"), p), "r.json", p);
        }) == "wrong_unit /r.json/measured/gpu.5.power_cap_fraction");
  CHECK(error_of([&] {
          read_measurements(sample("result_truncated.json"), "validation-result.json", p);
        }) == "json_invalid /validation-result.json");
  CHECK(error_of([&] { read_measurements("{\"schema\": 1}", "x.json", p); }) ==
        "not_a_validation_result /x.json/kind");
  // Read as strictly as a request (a fuzz finding: 1e400 was an internal error without a path).
  CHECK(error_of([&] { read_measurements("{\"schema\": 1, \"gpu_id\": 1e400}", "r.json", p); }) ==
        "out_of_range /r.json/gpu_id");
  CHECK(error_of([&] { read_measurements("{\"schema\": 1, \"schema\": 1}", "r.json", p); }) ==
        "duplicate /r.json/schema");
  CHECK(error_of([&] {
          read_measurements(std::string(70, '[') + std::string(70, ']'), "r.json", p);
        }).rfind("limit_exceeded /r.json", 0) == 0);
  CHECK(error_of([&] {
          read_measurements(result(p, {{"gpu.0.power_limit_w", true}}), "r.json", p);
        }) == "bad_value /r.json/measured/gpu.0.power_limit_w");
  // A raw CSV names no plan: any plan reads it.
  CHECK(error_of([&] { read_measurements(sample("gpu_ok.csv"), "gpu.csv", p); }) == "none");
}

TEST_CASE("items come in the source's order with deviations", "[validation][check]") {
  const ValidationPlan p = plan("h100_8x");
  nlohmann::json m = {{"gpu_count", 8},
                      {"driver_version", "570.86.10"},
                      {"allreduce_busbw_gbps", 371.4},
                      {"gpu.0.memory_total_mib", 81559},
                      {"gpu.0.power_limit_w", 700},
                      {"gpu.0.gemm_tflops", 790},
                      {"gpu.0.samples", 100},
                      {"gpu.0.power_draw_w_p50", 600},
                      {"step_status", "ok"},
                      {"step_device_used_bytes", 42.0 * (1 << 30)},
                      {"job.tokens_per_second_per_server", 72000}};
  CheckReport r =
      check_measurements(p, read_measurements(result(p, m), "validation-result.json", p),
                         CostInputs{2.5, "CNY", 20000.0});
  int last = -1;
  for (const auto& i : r.items) {
    CHECK(static_cast<int>(i.area) >= last);
    last = static_cast<int>(i.area);
  }
  CHECK(r.overall == Status::pass);
  CHECK(r.failed == 0);
  const CheckItem* bw = item(r, "allreduce_busbw");
  REQUIRE(bw);
  CHECK(*bw->deviation == Approx(371.4 / 360 - 1));
  const CheckItem* cost = item(r, "cost_per_run");
  REQUIRE(cost);
  CHECK(*cost->expected == Approx(50000));
  CHECK(*cost->measured == Approx(50000));
  CHECK(r.items.back().area == Area::cost);
  nlohmann::json j = nlohmann::json::parse(check_report_json(r));
  CHECK(j["overall"] == "pass");
  CHECK(j["items"][0]["area"] == "memory");
}

TEST_CASE("faults read back as reasons a person can act on", "[validation][check]") {
  const ValidationPlan p = plan("h100_8x");
  nlohmann::json m = {{"gpu_count", 7},
                      {"nvlink.3.active_links", 17},
                      {"nvlink.3.inactive_links", "11"},
                      {"nvlink.3.min_link_gbps", 26.562},
                      {"allreduce_busbw_gbps", 21},
                      {"fabric_manager_state", "inactive"},
                      {"topo_pairs", 56},
                      {"topo_mismatched_pairs", 56},
                      {"topo_entries", "SYS"},
                      {"gpu.5.samples", 3600},
                      {"gpu.5.power_cap_fraction", 0.18},
                      {"gpu.5.power_draw_w_p50", 690},
                      {"gpu.2.samples", 3600},
                      {"gpu.2.thermal_throttle_fraction", 0.04},
                      {"xid_count", 1},
                      {"xid_codes", "79"},
                      {"burnin_seconds", 9000},
                      {"burnin_target_seconds", 36000}};
  CheckReport r =
      check_measurements(p, read_measurements(result(p, m), "validation-result.json", p));
  CHECK(r.overall == Status::fail);
  CHECK(item(r, "gpu_count")->reason.message.rfind("1 of 8 GPUs missing", 0) == 0);
  const CheckItem* nv = item(r, "nvlink");
  REQUIRE(nv);
  CHECK(nv->reason.code == "nvlink_inactive");
  CHECK(nv->reason.param("gpu") == "3");
  CHECK(nv->reason.param("link") == "11");
  CHECK(nv->reason.message.rfind("link 11 inactive on GPU 3", 0) == 0);
  CHECK(item(r, "allreduce_busbw")->reason.code == "busbw_on_pcie");
  CHECK(item(r, "allreduce_busbw")
            ->reason.message.rfind("busbw 21 GB/s: traffic is on PCIe, not NVLink", 0) == 0);
  CHECK(item(r, "topology")->reason.code == "traffic_on_pcie");
  CHECK(item(r, "fabric_manager")->status == Status::fail);
  const CheckItem* cap = item(r, "power_cap");
  REQUIRE(cap);
  CHECK(cap->status == Status::warn);
  CHECK(cap->reason.message.rfind("GPU 5 power-capped 18% of samples", 0) == 0);
  CHECK(item(r, "thermal_throttle")
            ->reason.message.rfind("GPU 2 thermal-throttled 4% of samples", 0) == 0);
  CHECK(item(r, "xid")->reason.param("codes") == "79");
  CHECK(item(r, "burnin_duration")->status == Status::fail);
  CHECK(item(r, "burnin_duration")
            ->reason.message.rfind("the burn-in ran 2.5 h of the plan's 10 h", 0) == 0);
}

TEST_CASE("driver, GEMM, tokens/s and cost", "[validation][check]") {
  const ValidationPlan g = plan("rtx4090_4x");
  CheckReport r = check_measurements(
      g, read_measurements(result(g, {{"driver_version", "535.104.05"}}), "r.json", g));
  CHECK(item(r, "driver")->reason.code == "driver_too_old");
  CHECK_THAT(item(r, "driver")->reason.message,
             Catch::Contains("GeForce cannot use forward compatibility"));

  const ValidationPlan h = plan("h100_8x");
  r = check_measurements(
      h, read_measurements(result(h, {{"driver_version", "535.104.05"}}), "r.json", h));
  CHECK(item(r, "driver")->status == Status::pass);
  CHECK(item(r, "driver")->reason.code == "forward_compat");

  nlohmann::json m = {{"gpu.0.gemm_tflops", 600},
                      {"gpu.1.gemm_tflops", 800},
                      {"job.tokens_per_second_per_server", 54000}};
  r = check_measurements(h, read_measurements(result(h, m), "r.json", h),
                         CostInputs{3.0, "CNY", 10000.0});
  const CheckItem* gemm = item(r, "bf16_gemm");
  CHECK(gemm->status == Status::warn);  // 600 / 794.5 = 0.755
  CHECK(gemm->reason.param("gpu") == "0");
  CHECK(gemm->reason.param("matmul_fraction_measured") == "0.707");
  const CheckItem* tps = item(r, "tokens_per_second");
  CHECK(tps->status == Status::warn);  // -25%
  CHECK(tps->reason.param("mfu_measured") == "0.315");
  const CheckItem* cost = item(r, "cost_per_run");
  CHECK(cost->status == Status::warn);
  CHECK(*cost->measured == Approx(40000));  // 10000 h x 72000/54000 x 3 CNY
  CHECK(cost->reason.param("basis") == "tokens_per_second");
  CHECK_THAT(cost->reason.message, Catch::Contains("+33%"));
}

TEST_CASE("a raw CSV yields the power items only", "[validation][check]") {
  const ValidationPlan p = plan("h100_8x");
  CheckReport r = check_measurements(p, read_measurements(sample("gpu_ok.csv"), "gpu.csv", p));
  // Power items, and the PCIe link under load (the log's busy samples).
  for (const auto& i : r.items) CHECK((i.area == Area::power || i.item == "pcie_under_load"));
  REQUIRE(item(r, "pcie_under_load") != nullptr);
  CHECK(item(r, "pcie_under_load")->reason.code == "pcie_downtrained");  // GPU 1 at Gen4, busy
  CHECK(item(r, "thermal_throttle")
            ->reason.message.rfind("GPU 1 thermal-throttled 10% of samples", 0) == 0);
  CHECK(item(r, "power_cap")->reason.message.rfind("GPU 1 power-capped 20% of samples", 0) == 0);
  // A raw log is of one whole server: 2 GPUs of the plan's 8 is the log of another server, or
  // of one where GPUs dropped out (it passed before the security review).
  REQUIRE(item(r, "gpus_logged") != nullptr);
  CHECK(item(r, "gpus_logged")->status == Status::fail);
  CHECK(item(r, "gpus_logged")->reason.code == "gpu_missing_in_log");
}

TEST_CASE("wall power re-runs the rack verdict", "[validation][check]") {
  ValidationPlan p = plan("h100_8x");
  p.servers_per_rack = 2;
  p.rack_budget_kw = 20;
  CheckReport r = check_measurements(
      p, read_measurements(result(p, {{"wall_power_w_max", 10900}}), "r.json", p));
  CHECK(item(r, "wall_power")->reason.code == "wall_power_above_plan");
  CHECK(item(r, "rack_power")->status == Status::fail);
  CHECK(item(r, "rack_power")->reason.param("rack_kw") == "21.8");
}

TEST_CASE("a power cap on every GPU is the load, not a fault", "[validation][check]") {
  const ValidationPlan p = plan("h100_8x");
  nlohmann::json m = nlohmann::json::object();
  for (int g = 0; g < 8; ++g) {
    m["gpu." + std::to_string(g) + ".samples"] = 3600;
    m["gpu." + std::to_string(g) + ".power_cap_fraction"] = g == 6 ? 0.93 : 0.85;
  }
  CheckReport r = check_measurements(p, read_measurements(result(p, m), "r.json", p));
  CHECK(item(r, "power_cap") == nullptr);
  m["gpu.6.power_cap_fraction"] = 1.0;
  m["gpu.1.power_cap_fraction"] = 0.0;
  r = check_measurements(p, read_measurements(result(p, m), "r.json", p));
  CHECK(item(r, "power_cap")->reason.param("gpu") == "6");
}
