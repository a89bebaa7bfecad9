// SPDX-License-Identifier: MIT
// Faults that used to pass now fail, in the scripts and in the read-back alike: a PCIe link
// trained narrower than its slot under load, a burn-in shorter than the plan's length (the plan's,
// never the length the run was started with), and a DCGM diagnostic that could not run because
// its host engine is unreachable.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cases.hpp"
#include "io/validation_json.hpp"
#include "validation/check.hpp"
#include "validation/gpu_csv.hpp"
#include "validation/scripts.hpp"

using namespace advisor::validation;
using nlohmann::json;

namespace {

const std::string kData = GPU_ADVISOR_DATA_DIR;

ValidationPlan plan(const std::string& name) { return vtest::make_case(name, kData); }

/// A validation-result.json of plan `p` with `measured` and the script lines `checks`.
CheckReport check_result(const ValidationPlan& p, const json& measured,
                         const json& checks = json::array()) {
  const json j = {{"schema", 1},           {"kind", "gpu-advisor-validation-result"},
                  {"plan_id", plan_id(p)}, {"gpu_id", p.gpu_id},
                  {"checks", checks},      {"measured", measured}};
  return check_measurements(p, read_measurements(j.dump(), "validation-result.json", p));
}

const CheckItem* item(const CheckReport& r, const std::string& name) {
  for (const auto& i : r.items)
    if (i.item == name) return &i;
  return nullptr;
}

std::size_t count_code(const CheckReport& r, const std::string& code) {
  std::size_t n = 0;
  for (const auto& i : r.items)
    if (i.reason.code == code || i.reason.param("line_code") == code) ++n;
  return n;
}

/// An nvidia-smi burn-in log of two GPUs: idle samples (Gen1, utilisation 0), then busy ones;
/// GPU 1's link at `busy_width` lanes while busy, in an x16 link.
std::string pcie_log(int busy_width, int busy_gen = 5) {
  std::string s =
      "timestamp, index, power.draw [W], utilization.gpu [%], pcie.link.gen.current, "
      "pcie.link.gen.max, pcie.link.width.current, pcie.link.width.max\n";
  for (int t = 0; t < 4; ++t)
    for (int g = 0; g < 2; ++g) {
      const bool busy = t >= 2;
      const int gen = busy ? (g == 1 ? busy_gen : 5) : 1;
      const int width = busy && g == 1 ? busy_width : 16;
      s += "2026/12/01 10:00:0" + std::to_string(t) + ".000, " + std::to_string(g) + ", " +
           (busy ? "650.00" : "70.00") + ", " + (busy ? "100" : "0") + ", " + std::to_string(gen) +
           ", 5, " + std::to_string(width) + ", 16\n";
    }
  return s;
}

}  // namespace

using vtest::has;
using vtest::script;

TEST_CASE("a PCIe link trained narrow under load fails, an idle link's low generation does not",
          "[validation][faults][pcie]") {
  const ValidationPlan p = plan("h100_8x");
  REQUIRE(p.pcie_width == 16);
  REQUIRE(p.pcie_generation == 5);

  SECTION("raw log: x8 in an x16 link while busy") {
    const Measurements m = summarize_gpu_csv(pcie_log(8));
    REQUIRE(m.power.size() == 2);
    CHECK(*m.power[1].pcie_width_min_busy == 8);
    CHECK(*m.power[1].pcie_width_max_logged == 16);
    CHECK(*m.power[0].pcie_width_min_busy == 16);
    CHECK(*m.power[0].pcie_gen_min_busy == 5);  // the idle Gen1 samples do not count
    const CheckReport r = check_measurements(p, m);
    const CheckItem* pcie = item(r, "pcie_under_load");
    REQUIRE(pcie);
    CHECK(pcie->status == Status::fail);
    CHECK(pcie->area == Area::interconnect);
    CHECK(pcie->reason.code == "pcie_width_downtrained");
    CHECK(pcie->reason.param("gpu") == "1");
    CHECK(pcie->reason.param("width") == "8");
    CHECK(pcie->reason.param("link_width") == "16");
    CHECK(pcie->reason.message.rfind("GPU 1 trained at x8 in an x16 link under load", 0) == 0);
    CHECK(*pcie->expected == 16);
    CHECK(*pcie->measured == 8);
  }
  SECTION("raw log: every link at x16 and Gen5 while busy, Gen1 while idle: a pass") {
    const CheckReport r = check_measurements(p, summarize_gpu_csv(pcie_log(16)));
    REQUIRE(item(r, "pcie_under_load"));
    CHECK(item(r, "pcie_under_load")->status == Status::pass);
  }
  SECTION("raw log: Gen4 while busy is a warning, not a width fault") {
    const CheckReport r = check_measurements(p, summarize_gpu_csv(pcie_log(16, 4)));
    REQUIRE(item(r, "pcie_under_load"));
    CHECK(item(r, "pcie_under_load")->status == Status::warn);
    CHECK(item(r, "pcie_under_load")->reason.code == "pcie_downtrained");
  }
  SECTION("result file: the burn-in's figures, and its FAIL line not repeated") {
    json m = {{"gpu.0.samples", 60},
              {"gpu.0.pcie_width_min_busy", 16},
              {"gpu.0.pcie_width_max_logged", 16},
              {"gpu.3.samples", 60},
              {"gpu.3.pcie_width_min_busy", 8},
              {"gpu.3.pcie_width_max_logged", 16}};
    const json lines = json::array({{{"script", "40_burnin"},
                                     {"status", "FAIL"},
                                     {"area", "interconnect"},
                                     {"check", "GPU 3 PCIe width under load"},
                                     {"expected", "x16"},
                                     {"measured", "x8"},
                                     {"code", "pcie_width_downtrained"},
                                     {"detail", "GPU 3 trained at x8 in an x16 link under load"}}});
    const CheckReport r = check_result(p, m, lines);
    CHECK(r.overall == Status::fail);
    CHECK(count_code(r, "pcie_width_downtrained") == 1);
    CHECK(item(r, "pcie_under_load")->reason.param("gpu") == "3");
  }
  SECTION("a slot that offers only x8 says so") {
    json m = {{"gpu.2.samples", 60},
              {"gpu.2.pcie_width_min_busy", 8},
              {"gpu.2.pcie_width_max_logged", 8}};
    const CheckReport r = check_result(p, m);
    const CheckItem* pcie = item(r, "pcie_under_load");
    REQUIRE(pcie);
    CHECK(pcie->status == Status::fail);
    CHECK(pcie->reason.message.rfind("GPU 2 runs at x8 under load, the plan expects x16", 0) == 0);
  }
}

TEST_CASE("the scripts read the PCIe link's current width and generation",
          "[validation][faults][pcie]") {
  for (const char* name : {"h100_8x", "rtx4090_4x", "l20_8x"}) {
    const ValidationPlan p = plan(name);
    CHECK(p.pcie_width == 16);  // every catalog part is x16 (data/gpus.json pcie_lanes)
    const std::string burn = script(p, "40_burnin.sh");
    CHECK(has(burn,
              "pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,"
              "pcie.link.width.max"));
    CHECK(has(burn, "EXPECTED_PCIE_WIDTH=16"));
    CHECK(has(burn, "pcie_width_downtrained"));
    const std::string inv = script(p, "00_inventory.sh");
    CHECK(has(inv, "ecc.mode.current,pcie.link.gen.current,pcie.link.width.current"));
  }
}

TEST_CASE("a burn-in shorter than the plan's length fails, whatever the run was told",
          "[validation][faults][burnin]") {
  const ValidationPlan p = plan("h100_8x");
  REQUIRE(p.burnin_hours == 10);

  SECTION("an 11-second run that completed its own --hours") {
    const CheckReport r = check_result(p, {{"burnin_seconds", 11}, {"burnin_target_seconds", 11}});
    const CheckItem* b = item(r, "burnin_duration");
    REQUIRE(b);
    CHECK(b->status == Status::fail);
    CHECK(b->reason.code == "burnin_short");
    CHECK(b->reason.param("plan_hours") == "10");
    CHECK(b->reason.param("run_hours") == "0.0031");
    CHECK(has(b->reason.message, "the burn-in ran 0.0031 h"));
    CHECK(has(b->reason.message, "shorter than the plan's 10 h"));
    CHECK(has(b->reason.message, "40_burnin.sh --hours 10"));
    CHECK(*b->expected == 10);
    CHECK(r.overall == Status::fail);
  }
  SECTION("a run stopped early") {
    const CheckReport r =
        check_result(p, {{"burnin_seconds", 9000}, {"burnin_target_seconds", 36000}});
    const CheckItem* b = item(r, "burnin_duration");
    REQUIRE(b);
    CHECK(b->status == Status::fail);
    CHECK(b->reason.code == "burnin_incomplete");
    CHECK(b->reason.message.rfind("the burn-in ran 2.5 h of the plan's 10 h", 0) == 0);
  }
  SECTION("within 2% of the plan passes; beyond it does not") {
    const CheckReport in =
        check_result(p, {{"burnin_seconds", 35300}, {"burnin_target_seconds", 36000}});
    CHECK(item(in, "burnin_duration")->status == Status::pass);
    const CheckReport out =
        check_result(p, {{"burnin_seconds", 35200}, {"burnin_target_seconds", 36000}});
    CHECK(item(out, "burnin_duration")->status == Status::fail);
  }
  SECTION("the file's own target never lowers the bar") {
    // A result file whose burn-in "target" is 1 h: the plan still asks 10 h.
    const CheckReport r =
        check_result(p, {{"burnin_seconds", 3600}, {"burnin_target_seconds", 3600}});
    const CheckItem* b = item(r, "burnin_duration");
    REQUIRE(b);
    CHECK(b->status == Status::fail);
    CHECK(b->reason.code == "burnin_short");
    CHECK(has(b->reason.message, "the burn-in ran 1 h (the run was set to 1 h)"));
  }
  SECTION("the script judges by the plan's length too") {
    const std::string burn = script(p, "40_burnin.sh");
    CHECK(has(burn, "BURNIN_HOURS=10"));
    CHECK(has(burn, "plan_s=\"$(awk -v h=\"$BURNIN_HOURS\""));
    CHECK(has(burn, "burnin_short"));
    CHECK(has(script(p, "90_summary.sh"), "'FAIL\\tpower\\tburnin_duration"));
  }
}

TEST_CASE("DCGM asked for and unreachable fails with the fix", "[validation][faults][dcgm]") {
  const ValidationPlan p = plan("h100_8x");
  SECTION("host engine unreachable") {
    const json lines = json::array({{{"script", "40_burnin"},
                                     {"status", "FAIL"},
                                     {"area", "health"},
                                     {"check", "dcgm_diag"},
                                     {"expected", "dcgmi diag -r 3 passes"},
                                     {"measured", "host engine unreachable (exit 255)"},
                                     {"code", "dcgm_unreachable"},
                                     {"detail", "dcgmi cannot reach DCGM's host engine"}}});
    const CheckReport r = check_result(p, {{"dcgm_diag", "unreachable"}}, lines);
    const CheckItem* d = item(r, "dcgm_diag");
    REQUIRE(d);
    CHECK(d->status == Status::fail);
    CHECK(d->reason.code == "dcgm_unreachable");
    CHECK(has(d->reason.message, "nv-hostengine"));
    CHECK(has(d->reason.message, "datacenter-gpu-manager"));
    CHECK(count_code(r, "dcgm_unreachable") == 1);
    CHECK(r.overall == Status::fail);
  }
  SECTION("each state") {
    const auto status_of = [&](const char* state, const char* tests = "") {
      const CheckReport r = check_result(p, {{"dcgm_diag", state}, {"dcgm_failed_tests", tests}});
      const CheckItem* d = item(r, "dcgm_diag");
      REQUIRE(d);
      return std::make_pair(d->status, d->reason.code);
    };
    CHECK(status_of("pass") == std::make_pair(Status::pass, std::string("ok")));
    CHECK(status_of("warn", "Memory Bandwidth GPU: 2") ==
          std::make_pair(Status::warn, std::string("dcgm_diag_warn")));
    CHECK(status_of("fail", "Targeted Power GPU: 1") ==
          std::make_pair(Status::fail, std::string("dcgm_diag_failed")));
    CHECK(status_of("missing") == std::make_pair(Status::fail, std::string("dcgm_missing")));
    CHECK(status_of("error") == std::make_pair(Status::fail, std::string("dcgm_diag_error")));
  }
  SECTION("not asked for: no item") {
    const CheckReport r = check_result(p, json::object());
    CHECK_FALSE(item(r, "dcgm_diag"));
  }
  SECTION("the script tells an unreachable host engine from a pass, at the part's level") {
    const std::string burn = script(p, "40_burnin.sh");
    CHECK(has(burn, "DCGM_LEVEL=4"));  // the plan's 10 h burn-in: DCGM's extended level
    CHECK(has(burn, "dcgmi diag -r \"$DCGM_LEVEL\" -j"));
    CHECK(has(burn, "unable to connect to host engine"));
    CHECK(has(burn, "dcgm_unreachable"));
    CHECK(has(burn, "dcgm_not_requested"));
    CHECK(has(script(plan("rtx4090_4x"), "40_burnin.sh"), "DCGM_LEVEL=1"));
  }
}

TEST_CASE("the one-step probe never holds more than the plan's per-GPU memory",
          "[validation][faults][probe]") {
  constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
  const auto parts = parse_part_facts(vtest::read_text(kData + "/validation.json"));
  const NgcCatalog ngc = parse_ngc_catalog(vtest::read_text(kData + "/ngc.json"));
  // Llama-2-7B LoRA (bf16 base, adapters only: no optimizer state on the base) on one RTX 4090;
  // the plan counts ~17 GiB, QLoRA (4-bit base) ~7 GiB. bf16 weights and gradients of all 32
  // layers would be ~27 GB: out of memory on a 24 GB card before any step.
  const auto lora_plan = [&](double per_gpu_gib) {
    PlanFigures f;
    f.gpus_per_server = 1;
    f.matmul_fraction = 0.8;
    f.summary = "Llama-2-7B LoRA";
    f.probe = {"Llama-2-7B", true, 32, 4096, 32, 32, 128, 11008, 32000, 2048, 1, true, 0};
    f.memory_per_gpu_bytes = per_gpu_gib * GiB;
    f.memory_band_low_bytes = 0.85 * per_gpu_gib * GiB;
    f.memory_band_high_bytes = 1.15 * per_gpu_gib * GiB;
    return build_validation_plan(
        gpu_facts_from_catalog_json(vtest::read_text(kData + "/gpus.json"), "rtx4090-24gb"),
        parts.at("rtx4090-24gb"), ngc, f);
  };
  for (double gib : {17.0, 7.0}) {
    CAPTURE(gib);
    const ValidationPlan p = lora_plan(gib);
    const ProbeScale s = probe_scale(p);
    CHECK(s.planned_layers == 32);
    CHECK(s.scaled());
    CHECK(s.layers >= 1);
    CHECK(s.static_bytes <= kProbeStaticShare * p.memory_per_gpu_bytes);
    CHECK(s.static_bytes < 22.0 * GiB);  // fits the card with room for activations
    const std::string probe = script(p, "probe.py");
    CHECK(has(probe, "\"layers\": " + std::to_string(s.layers) + ","));
    CHECK(has(probe, "\"layers_planned\": 32,"));
    CHECK(has(script(p, "20_container.sh"), "PROBE_LAYERS=" + std::to_string(s.layers)));
    // A reduced slice below the band is not a warning; above it still fails.
    const CheckReport low =
        check_result(p, {{"step_status", "ok"}, {"step_device_used_bytes", 0.5 * gib * GiB}});
    CHECK(item(low, "one_step_memory")->status == Status::pass);
    const CheckReport high =
        check_result(p, {{"step_status", "ok"}, {"step_device_used_bytes", 1.3 * gib * GiB}});
    CHECK(item(high, "one_step_memory")->reason.code == "memory_above_band");
  }
  SECTION("a plan that counts the whole slice runs it whole") {
    // 8B inference on an H100: bf16 weights only, well inside a 40 GiB figure.
    ValidationPlan p = plan("h100_8x");
    p.probe.training = false;
    const ProbeScale s = probe_scale(p);
    CHECK_FALSE(s.scaled());
    CHECK(s.layers == 32);
    const CheckReport low =
        check_result(p, {{"step_status", "ok"}, {"step_device_used_bytes", 10 * GiB}});
    CHECK(item(low, "one_step_memory")->reason.code == "memory_below_band");
  }
}
