// SPDX-License-Identifier: MIT
// Validation you can accept a server with (issue 28): every catalog NVIDIA GPU gets scripts with
// its own expectations (GeForce: no ECC, NVLink or forward compatibility), other vendors a
// located error; Xids judged by NVIDIA's catalog (hardware FAIL, application WARN); and check's
// verdict is the scripts' (every FAIL/WARN line they print is in its report).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api.hpp"
#include "cases.hpp"
#include "io/validation_json.hpp"
#include "plan/validation_figures.hpp"
#include "validation/check.hpp"
#include "validation_api.hpp"

using namespace advisor::validation;
using nlohmann::json;

namespace {

ValidationPlan plan(const std::string& name) {
  return vtest::make_case(name, GPU_ADVISOR_DATA_DIR);
}

/// A small custom model (fits a 16 GB card) on `count` pinned `gpu`s.
json request_for(const std::string& gpu, int count) {
  return {{"schema", 1},
          {"task", "inference"},
          {"model",
           {{"name", "probe-1b"},
            {"layers", 16},
            {"hidden", 2048},
            {"ffn_hidden", 8192},
            {"heads", 16},
            {"kv_heads", 8},
            {"vocab", 32000}}},
          {"hardware", {{"gpu", gpu}, {"count", count}}}};
}

json answer_for(const std::string& gpu, int count) {
  return json::parse(advisor::validation_scripts_text(request_for(gpu, count).dump()));
}

std::string file_text(const json& answer, const std::string& name) {
  for (const json& f : answer["files"])
    if (f["name"] == name) return f["text"].get<std::string>();
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string result(const ValidationPlan& p, const json& measured, const json& checks) {
  json j = {{"schema", 1},           {"kind", "gpu-advisor-validation-result"},
            {"plan_id", plan_id(p)}, {"gpu_id", p.gpu_id},
            {"host", "node01"},      {"checks", checks},
            {"measured", measured}};
  return j.dump();
}

CheckReport check_of(const ValidationPlan& p, const json& measured, const json& checks = {}) {
  const json lines = checks.is_null() ? json::array() : checks;
  return check_measurements(
      p, read_measurements(result(p, measured, lines), "validation-result.json", p));
}

const CheckItem* item_with_code(const CheckReport& r, const std::string& code) {
  for (const auto& i : r.items)
    if (i.reason.code == code || i.reason.param("line_code") == code) return &i;
  return nullptr;
}

}  // namespace

TEST_CASE("every catalog NVIDIA GPU gets scripts, others a located error",
          "[validation][issue28]") {
  for (const advisor::GpuSpec& g : advisor::builtin_catalog().gpus) {
    INFO(g.id);
    const json a = answer_for(g.id, 1);
    if (g.software_stack != "cuda") {
      REQUIRE(a.contains("error"));
      CHECK(a["error"]["code"] == "validation_unsupported_gpu");
      CHECK(a["error"]["path"] == "/hardware/gpu");
      CHECK(has(a["error"]["message"].get<std::string>(), "NVIDIA-only"));
      continue;
    }
    INFO(a.dump().substr(0, 400));
    REQUIRE(a.contains("files"));
    const std::string inv = file_text(a, "00_inventory.sh");
    const bool consumer = g.product.product_class == "consumer";
    CHECK(has(inv, "ECC_DEFAULT=on") == (g.product.memory_ecc == "on"));
    if (consumer) CHECK(has(inv, "FORWARD_COMPAT_BRANCHES=()"));
    CHECK(has(inv, "XID_HARDWARE='48 61 62 63 64 74 79 92 94 95 119 120'"));
  }
}

TEST_CASE("GeForce parts expect no ECC, NVLink or fabric manager", "[validation][issue28]") {
  for (const char* id : {"rtx4090d-24gb", "rtx5090-32gb", "rtx3090-24gb", "rtx3090ti-24gb"}) {
    INFO(id);
    const json a = answer_for(id, 2);
    INFO(a.dump().substr(0, 400));
    REQUIRE(a.contains("files"));
    CHECK_FALSE(has(file_text(a, "00_inventory.sh"), "ECC_DEFAULT=on"));
    CHECK(has(file_text(a, "00_inventory.sh"), "FORWARD_COMPAT_BRANCHES=()"));
    const std::string topo = file_text(a, "10_topology.sh");
    CHECK(has(topo, "FABRIC_MANAGER_REQUIRED=0"));
    CHECK(has(topo, "EXPECTED_NVLINK_LINKS=0"));
  }
  // A catalog part without a validation.json entry: derived facts, product from gpus.json.
  const auto parts = parse_part_facts(builtin_validation_json());
  const advisor::GpuSpec* g3090 = advisor::builtin_catalog().find_gpu("rtx3090-24gb");
  REQUIRE(g3090);
  const PartFacts f = advisor::validation_part_facts(*g3090, parts);
  CHECK(f.supported);
  CHECK(f.product == ProductClass::geforce);
  CHECK_FALSE(f.ecc_expected);
  CHECK_FALSE(f.fabric_manager);
  CHECK(f.intra_node == "pcie");
  CHECK_FALSE(f.xid.hardware.empty());
  const PartFacts mi =
      advisor::validation_part_facts(*advisor::builtin_catalog().find_gpu("mi300x-192gb"), parts);
  CHECK_FALSE(mi.supported);
}

TEST_CASE("Xids: hardware fails, application warns", "[validation][issue28]") {
  const ValidationPlan p = plan("h100_8x");
  CHECK(is_hardware_xid(p.xid, 79));
  CHECK_FALSE(is_hardware_xid(p.xid, 13));
  CheckReport app = check_of(p, {{"xid_count", 3}, {"xid_codes", "13,31,43"}});
  REQUIRE(item_with_code(app, "xid_application"));
  CHECK(item_with_code(app, "xid_application")->status == Status::warn);
  CHECK(app.overall == Status::warn);
  CheckReport hw = check_of(p, {{"xid_count", 2}, {"xid_codes", "13,48"}});
  REQUIRE(item_with_code(hw, "xid_errors"));
  CHECK(item_with_code(hw, "xid_errors")->reason.param("codes") == "48");
  CHECK(hw.overall == Status::fail);
  // New during the burn-in: the codes the burn-in measured.
  CheckReport burn = check_of(p, {{"xid_count", 0}, {"xid_new", 1}, {"xid_new_codes", "95"}});
  CHECK(item_with_code(burn, "xid_errors"));
  CHECK(burn.overall == Status::fail);
}

TEST_CASE("check reports every FAIL/WARN line and exits as 90_summary.sh",
          "[validation][issue28]") {
  const ValidationPlan p = plan("h100_8x");
  const json lines = json::array({{{"script", "10_topology"},
                                   {"status", "FAIL"},
                                   {"area", "interconnect"},
                                   {"check", "fabric_state"},
                                   {"expected", "Completed on 8 GPUs"},
                                   {"measured", "Completed on 0"},
                                   {"code", "fabric_not_completed"},
                                   {"detail", "start the fabric manager"}},
                                  {{"script", "00_inventory"},
                                   {"status", "WARN"},
                                   {"area", "health"},
                                   {"check", "GPU 3 ECC"},
                                   {"expected", "Enabled"},
                                   {"measured", "Disabled"},
                                   {"code", "ecc_disabled"},
                                   {"detail", ""}},
                                  {{"script", "00_inventory"},
                                   {"status", "WARN"},
                                   {"area", "health"},
                                   {"check", "GPU 5 ECC"},
                                   {"expected", "Enabled"},
                                   {"measured", "Disabled"},
                                   {"code", "ecc_disabled"},
                                   {"detail", ""}},
                                  {{"script", "00_inventory"},
                                   {"status", "SKIP"},
                                   {"area", "health"},
                                   {"check", "xid"},
                                   {"expected", "no Xid errors"},
                                   {"measured", "kernel log unreadable"},
                                   {"code", "xid_needs_root"},
                                   {"detail", ""}}});
  const CheckReport r = check_of(p, {{"gpu_count", 8}}, lines);
  const CheckItem* fabric = item_with_code(r, "fabric_not_completed");
  REQUIRE(fabric);
  CHECK(fabric->status == Status::fail);
  CHECK(fabric->area == Area::interconnect);
  CHECK(fabric->reason.code == "script_line");
  CHECK(fabric->reason.message ==
        "10_topology: fabric_state: expected Completed on 8 GPUs, measured Completed on 0 (start "
        "the fabric manager)");
  REQUIRE(item_with_code(r, "ecc_disabled"));
  CHECK(item_with_code(r, "ecc_disabled")->status == Status::warn);
  int ecc_lines = 0;  // one item per line: GPU 3 and GPU 5
  for (const auto& i : r.items) ecc_lines += i.reason.param("line_code") == "ecc_disabled" ? 1 : 0;
  CHECK(ecc_lines == 2);
  CHECK_FALSE(item_with_code(r, "xid_needs_root"));
  CHECK(r.overall == Status::fail);
  // Items stay in the source's order with the script lines among them.
  for (std::size_t i = 1; i < r.items.size(); ++i) CHECK(r.items[i - 1].area <= r.items[i].area);
  // A line an item already reports is not repeated.
  const CheckReport x = check_of(p, {{"xid_count", 1}, {"xid_codes", "79"}},
                                 json::array({{{"script", "00_inventory"},
                                               {"status", "FAIL"},
                                               {"area", "health"},
                                               {"check", "xid"},
                                               {"expected", "no hardware Xid"},
                                               {"measured", "1 (Xid 79)"},
                                               {"code", "xid_errors"},
                                               {"detail", ""}}}));
  int xid_items = 0;
  for (const auto& i : x.items) xid_items += i.reason.code == "xid_errors" ? 1 : 0;
  CHECK(xid_items == 1);
}
