// SPDX-License-Identifier: MIT
// The fault matrix's core side: a stage that should have run and left nothing fails (located at
// the result file's stage list); NVLink error counters and row remapping are judged by the
// thresholds in data/validation.json; a part other than the planned one fails.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cases.hpp"
#include "io/validation_json.hpp"
#include "types/errors.hpp"
#include "validation/check.hpp"
#include "validation/scripts.hpp"

using namespace advisor::validation;
using nlohmann::json;

namespace {

const std::string kData = GPU_ADVISOR_DATA_DIR;

ValidationPlan plan(const std::string& name) { return vtest::make_case(name, kData); }

const json kAllStages = {"00_inventory", "10_topology", "20_container", "30_nccl", "40_burnin"};

/// A validation-result.json of plan `p` listing `stages` as run, with `checks` as its lines.
CheckReport check_stages(const ValidationPlan& p, const json& stages,
                         const json& checks = json::array()) {
  const json j = {{"schema", 1},
                  {"kind", "gpu-advisor-validation-result"},
                  {"plan_id", plan_id(p)},
                  {"gpu_id", p.gpu_id},
                  {"scripts", stages},
                  {"checks", checks},
                  {"measured", json::object()}};
  return check_measurements(p, read_measurements(j.dump(), "validation-result.json", p));
}

std::vector<const CheckItem*> with_code(const CheckReport& r, const std::string& code) {
  std::vector<const CheckItem*> out;
  for (const auto& i : r.items)
    if (i.reason.code == code) out.push_back(&i);
  return out;
}

}  // namespace

using vtest::has;
using vtest::script;

TEST_CASE("a stage that should have run and left nothing fails, located",
          "[validation][matrix][stages]") {
  const ValidationPlan p = plan("h100_8x");
  SECTION("every stage listed: no stage item") {
    const CheckReport r = check_stages(p, kAllStages);
    CHECK(with_code(r, "stage_missing").empty());
    CHECK(r.overall == Status::pass);
  }
  SECTION("20_container missing: FAIL in compute, naming the stage and the file's list") {
    const CheckReport r =
        check_stages(p, json{"00_inventory", "10_topology", "30_nccl", "40_burnin"});
    const auto missing = with_code(r, "stage_missing");
    REQUIRE(missing.size() == 1);
    CHECK(missing[0]->item == "20_container");
    CHECK(missing[0]->area == Area::compute);
    CHECK(missing[0]->status == Status::fail);
    CHECK(missing[0]->reason.param("stage") == "20_container");
    CHECK(has(missing[0]->reason.message, "(/validation-result.json/scripts)"));
    CHECK(r.overall == Status::fail);
  }
  SECTION("only the inventory: four stages fail") {
    const CheckReport r = check_stages(p, json{"00_inventory"});
    CHECK(with_code(r, "stage_missing").size() == 4);
  }
  SECTION("a burn-in still running is its own warning, not a missing stage") {
    const json running = json::array({{{"script", "90_summary"},
                                       {"status", "WARN"},
                                       {"area", "power"},
                                       {"check", "burnin"},
                                       {"expected", "the burn-in finished"},
                                       {"measured", "running as PID 7: 3 of 7 s"},
                                       {"code", "burnin_running"},
                                       {"detail", "still running"}}});
    const CheckReport r =
        check_stages(p, json{"00_inventory", "10_topology", "20_container", "30_nccl"}, running);
    CHECK(with_code(r, "stage_missing").empty());
    CHECK(r.overall == Status::warn);
  }
  SECTION("the summary's own stage_missing line is not reported twice") {
    const json line = json::array({{{"script", "90_summary"},
                                    {"status", "FAIL"},
                                    {"area", "software"},
                                    {"check", "20_container"},
                                    {"expected", "its results"},
                                    {"measured", "not run"},
                                    {"code", "stage_missing"},
                                    {"detail", "run ./20_container.sh"}}});
    const CheckReport r =
        check_stages(p, json{"00_inventory", "10_topology", "30_nccl", "40_burnin"}, line);
    CHECK(with_code(r, "stage_missing").size() == 1);
    CHECK(with_code(r, "script_line").empty());
  }
  SECTION("a file without a stage list (an older summary) is not judged on stages") {
    const json j = {{"schema", 1},
                    {"kind", "gpu-advisor-validation-result"},
                    {"plan_id", plan_id(p)},
                    {"gpu_id", p.gpu_id},
                    {"measured", json::object()}};
    const CheckReport r =
        check_measurements(p, read_measurements(j.dump(), "validation-result.json", p));
    CHECK(with_code(r, "stage_missing").empty());
  }
}

TEST_CASE("90_summary.sh fails a stage that left no result", "[validation][matrix][stages]") {
  const std::string s = script(plan("h100_8x"), "90_summary.sh");
  CHECK(has(s, "stage_missing"));
  CHECK(has(s, "if [ -s \"$VALIDATION_DIR/$s.checks.tsv\" ]; then"));
  // A stage with nothing to check for its plan (a one-GPU server's topology) still leaves a line.
  CHECK(has(script(plan("l4_1x"), "10_topology.sh"), "nothing_to_check"));
}

namespace {

/// A result file with every stage run and `measured`.
CheckReport check_measured(const ValidationPlan& p, const json& measured) {
  const json j = {{"schema", 1},           {"kind", "gpu-advisor-validation-result"},
                  {"plan_id", plan_id(p)}, {"gpu_id", p.gpu_id},
                  {"scripts", kAllStages}, {"measured", measured}};
  return check_measurements(p, read_measurements(j.dump(), "validation-result.json", p));
}

const CheckItem* item(const CheckReport& r, const std::string& name) {
  for (const auto& i : r.items)
    if (i.item == name) return &i;
  return nullptr;
}

}  // namespace

TEST_CASE("NVLink error limits come from data/validation.json into the plan and the script",
          "[validation][matrix][nvlink]") {
  const ValidationPlan p = plan("h100_8x");
  CHECK(p.nvlink_errors.crc_fail_per_link == 100);
  CHECK(p.nvlink_errors.replay_fail_per_link == 100);
  CHECK(p.nvlink_errors.recovery_fail_per_link == 1);
  CHECK(has(p.nvlink_errors.source, "DCGM"));
  const std::string topo = script(p, "10_topology.sh");
  CHECK(has(topo, "NVLINK_CRC_FAIL=100"));
  CHECK(has(topo, "NVLINK_RECOVERY_FAIL=1"));
  SECTION("the limits are part of the plan's identity") {
    ValidationPlan q = p;
    q.nvlink_errors.crc_fail_per_link = 50;
    CHECK(plan_id(q) != plan_id(p));
  }
  SECTION("a part without an entry gets the file-wide limits") {
    const auto parts = parse_part_facts(vtest::read_text(kData + "/validation.json"));
    for (const auto& [id, f] : parts) CHECK(f.nvlink_errors.crc_fail_per_link == 100);
  }
}

TEST_CASE("Multi-node limits come from data/validation.json into the plan and 10_topology.sh",
          "[validation][matrix][network]") {
  const ValidationPlan p = plan("h100_2x8_roce");
  CHECK(p.network_checks.rdma_bw_fraction == Approx(0.9));
  CHECK(p.network_checks.roce_priority == 3);
  CHECK(has(p.network_checks.source, "mlnx_qos"));
  const std::string topo = script(p, "10_topology.sh");
  CHECK(has(topo, "RDMA_BW_FRACTION=0.9"));
  CHECK(has(topo, "ROCE_PRIORITY=\"${ROCE_PRIORITY:-3}\""));
  CHECK(has(topo, "--use_cuda="));
  CHECK(has(script(p, "30_nccl.sh"), "NCCL_IB_GID_INDEX"));
  CHECK(has(script(p, "40_burnin.sh"), "link_flap_report"));
  SECTION("the limits are part of the plan's identity") {
    ValidationPlan q = p;
    q.network_checks.roce_priority = 4;
    CHECK(plan_id(q) != plan_id(p));
    q = p;
    q.network_checks.rdma_bw_fraction = 0.8;
    CHECK(plan_id(q) != plan_id(p));
  }
  SECTION("a priority outside 0-7 or a share above 1 is a located catalog error") {
    std::string text = vtest::read_text(kData + "/validation.json");
    const std::string prio = "\"roce_priority\": 3";
    REQUIRE(text.find(prio) != std::string::npos);
    std::string bad = text;
    bad.replace(bad.find(prio), prio.size(), "\"roce_priority\": 8");
    try {
      test::throwing([&] { return parse_part_facts(bad); });
      FAIL("no error");
    } catch (const advisor::InputError& e) {
      CHECK(e.code() == "catalog_invalid");
      CHECK(e.path() == "validation.json/network_checks/roce_priority");
    }
    const std::string frac = "\"rdma_bw_fraction\": 0.9";
    REQUIRE(text.find(frac) != std::string::npos);
    bad = text;
    bad.replace(bad.find(frac), frac.size(), "\"rdma_bw_fraction\": 90");
    CHECK_THROWS_AS(test::throwing([&] { return parse_part_facts(bad); }), advisor::InputError);
  }
}

TEST_CASE("NVLink counters: a storm fails, a few errors warn, none passes",
          "[validation][matrix][nvlink]") {
  const ValidationPlan p = plan("h100_8x");
  SECTION("storm") {
    const CheckReport r = check_measured(p, {{"nvlink_error_count", 1278},
                                             {"nvlink_error_storm_links", 1},
                                             {"nvlink_error_storm_at", "5:2"}});
    const CheckItem* i = item(r, "nvlink_errors");
    REQUIRE(i);
    CHECK(i->status == Status::fail);
    CHECK(i->reason.code == "nvlink_error_storm");
    CHECK(i->reason.param("at") == "5:2");
    CHECK(r.overall == Status::fail);
  }
  SECTION("a few") {
    const CheckReport r =
        check_measured(p, {{"nvlink_error_count", 4}, {"nvlink_error_storm_links", 0}});
    const CheckItem* i = item(r, "nvlink_errors");
    REQUIRE(i);
    CHECK(i->status == Status::warn);
    CHECK(i->reason.code == "nvlink_errors");
  }
  SECTION("none") {
    const CheckReport r =
        check_measured(p, {{"nvlink_error_count", 0}, {"nvlink_error_storm_links", 0}});
    REQUIRE(item(r, "nvlink_errors"));
    CHECK(item(r, "nvlink_errors")->status == Status::pass);
  }
}

TEST_CASE("row remapping: pending or failed fails", "[validation][matrix][remap]") {
  const ValidationPlan p = plan("h100_8x");
  const CheckReport pending =
      check_measured(p, {{"row_remap_pending_gpus", 1}, {"row_remap_failure_gpus", 0}});
  REQUIRE(item(pending, "row_remapper"));
  CHECK(item(pending, "row_remapper")->status == Status::fail);
  CHECK(item(pending, "row_remapper")->reason.code == "row_remap_pending");
  const CheckReport failed =
      check_measured(p, {{"row_remap_pending_gpus", 0}, {"row_remap_failure_gpus", 2}});
  CHECK(item(failed, "row_remapper")->reason.code == "row_remap_failure");
  const CheckReport fine =
      check_measured(p, {{"row_remap_pending_gpus", 0}, {"row_remap_failure_gpus", 0}});
  CHECK(item(fine, "row_remapper")->status == Status::pass);
  SECTION("the script fails a pending remap and skips parts without remapping") {
    CHECK(has(script(p, "00_inventory.sh"), "fail health row_remapper \"no pending remaps\""));
    CHECK(has(script(plan("rtx4090_4x"), "00_inventory.sh"), "CHECK_ROW_REMAPPER=0"));
  }
}

TEST_CASE("a part other than the planned one fails", "[validation][matrix][part]") {
  const ValidationPlan p = plan("rtx4090_4x");
  json m = json::object();
  for (int g = 0; g < 4; ++g) m["gpu." + std::to_string(g) + ".name"] = "NVIDIA GeForce RTX 4090 D";
  const CheckReport r = check_measured(p, m);
  const CheckItem* i = item(r, "part");
  REQUIRE(i);
  CHECK(i->status == Status::fail);
  CHECK(i->reason.code == "part_mismatch");
  CHECK(i->reason.param("measured") == "NVIDIA GeForce RTX 4090 D");
  CHECK(has(i->reason.message, "(and 3 more)"));
  json same = json::object();
  for (int g = 0; g < 4; ++g)
    same["gpu." + std::to_string(g) + ".name"] = "NVIDIA GeForce RTX 4090";
  CHECK(item(check_measured(p, same), "part")->status == Status::pass);
  CHECK(has(script(p, "00_inventory.sh"), "part_mismatch"));
}

TEST_CASE("the GPUs' recorded identity: MIG on fails, persistence off and mixed VBIOS warn",
          "[validation][matrix][identity]") {
  const ValidationPlan p = plan("h100_8x");
  json m = json::object();
  for (int g = 0; g < 8; ++g) {
    const std::string k = "gpu." + std::to_string(g) + ".";
    m[k + "persistence_mode"] = g == 4 ? "Disabled" : "Enabled";
    m[k + "mig_mode"] = g == 2 ? "Enabled" : "Disabled";
    m[k + "vbios_version"] = g == 5 ? "96.00.74.00.0D" : "96.00.89.00.01";
    m[k + "serial"] = std::to_string(1652023001234 + (g == 7 ? 0 : g));
  }
  const CheckReport r = check_measured(p, m);
  REQUIRE(item(r, "mig_mode"));
  CHECK(item(r, "mig_mode")->status == Status::fail);
  CHECK(item(r, "mig_mode")->reason.code == "mig_enabled");
  CHECK(item(r, "mig_mode")->reason.param("gpus") == "2");
  CHECK(item(r, "persistence_mode")->reason.code == "persistence_off");
  CHECK(item(r, "persistence_mode")->status == Status::warn);
  CHECK(item(r, "vbios_version")->reason.param("versions") == "96.00.89.00.01, 96.00.74.00.0D");
  CHECK(item(r, "serial")->reason.code == "serial_duplicate");
  CHECK(r.overall == Status::fail);
  // GeForce: persistence off as shipped, no serial: no verdict. A file without the fields: no item.
  const ValidationPlan g = plan("rtx4090_4x");
  json geforce = json::object();
  for (int i = 0; i < 4; ++i) {
    geforce["gpu." + std::to_string(i) + ".persistence_mode"] = "Disabled";
    geforce["gpu." + std::to_string(i) + ".mig_mode"] = "[N/A]";
    geforce["gpu." + std::to_string(i) + ".serial"] = "[N/A]";
  }
  const CheckReport rg = check_measured(g, geforce);
  CHECK(item(rg, "mig_mode")->status == Status::pass);
  CHECK_FALSE(item(rg, "persistence_mode"));
  CHECK_FALSE(item(rg, "serial"));
  CHECK_FALSE(item(check_measured(g, json::object()), "mig_mode"));
}

namespace {

/// One server's result file of plan `p`, from `host`, with every stage run and `measured`.
Measurements server_file(const ValidationPlan& p, const std::string& host, const json& measured) {
  const json j = {{"schema", 1},           {"kind", "gpu-advisor-validation-result"},
                  {"plan_id", plan_id(p)}, {"gpu_id", p.gpu_id},
                  {"host", host},          {"scripts", kAllStages},
                  {"measured", measured}};
  return read_measurements(j.dump(), "validation-result.json", p);
}

const CheckItem* cluster_item(const ClusterReport& c, const std::string& code) {
  for (const auto& i : c.items)
    if (i.reason.code == code) return &i;
  return nullptr;
}

}  // namespace

TEST_CASE("check merges one result file per server into one verdict",
          "[validation][matrix][cluster]") {
  const ValidationPlan p = plan("h100_2x8_ib");
  const Measurements a = server_file(p, "gpu-node-01", {{"inter_node_busbw_gbps", 187.5}});
  const Measurements b = server_file(p, "gpu-node-02", json::object());
  SECTION("every server: each one's report, the servers item passes") {
    const ClusterReport c = check_servers(p, {a, b});
    REQUIRE(c.servers.size() == 2);
    CHECK(c.servers[1].host == "gpu-node-02");
    CHECK(c.servers_expected == 2);
    REQUIRE(cluster_item(c, "ok"));
    CHECK(cluster_item(c, "ok")->item == "servers");
    CHECK_FALSE(cluster_item(c, "inter_node_not_measured"));
    CHECK(c.overall == c.servers[0].report.overall);
  }
  SECTION("a server without a file fails, naming the ones that sent theirs") {
    const ClusterReport c = check_servers(p, {a});
    REQUIRE(cluster_item(c, "server_missing"));
    CHECK(cluster_item(c, "server_missing")->status == Status::fail);
    CHECK(has(cluster_item(c, "server_missing")->reason.message, "1 of 2 servers"));
    CHECK(c.overall == Status::fail);
  }
  SECTION("one server's file twice is one server, not two") {
    const ClusterReport c = check_servers(p, {a, a});
    CHECK(cluster_item(c, "server_duplicate"));
    CHECK(cluster_item(c, "server_missing"));
    CHECK(c.overall == Status::fail);
  }
  SECTION("more files than servers warn; no cross-server all-reduce anywhere fails") {
    const Measurements extra = server_file(p, "gpu-node-03", json::object());
    const ClusterReport c =
        check_servers(p, {b, extra, server_file(p, "gpu-node-04", json::object())});
    REQUIRE(cluster_item(c, "server_extra"));
    CHECK(cluster_item(c, "server_extra")->status == Status::warn);
    REQUIRE(cluster_item(c, "inter_node_not_measured"));
    CHECK(c.overall == Status::fail);
  }
  SECTION("a server that fails fails the cluster; the counts are per server") {
    Measurements bad = server_file(p, "gpu-node-02", {{"ib_ports_active", 7}});
    const ClusterReport c = check_servers(p, {a, bad});
    CHECK(c.servers[1].report.overall == Status::fail);
    CHECK(c.servers_failed == 1);
    CHECK(c.overall == Status::fail);
  }
}
