// SPDX-License-Identifier: MIT
// memory.total by ECC mode (HBM: the same either way; GDDR: ECC on reserves 1/16), a sourced
// validation.json entry for every catalog NVIDIA part, and the operations a burn-in needs on a
// real server: detached under setsid + nohup with a log and PID file, and Xid lines from
// journalctl -k where dmesg is restricted.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api.hpp"
#include "cases.hpp"
#include "io/validation_json.hpp"
#include "validation/check.hpp"
#include "validation/scripts.hpp"
#include "validation_api.hpp"

using namespace advisor::validation;
using nlohmann::json;

namespace {

const std::string kData = GPU_ADVISOR_DATA_DIR;

/// A small serving plan on `count` `gpu`s, built from data/ as the advisor builds it.
ValidationPlan plan_for(const std::string& gpu, int count = 4) {
  const auto parts = parse_part_facts(vtest::read_text(kData + "/validation.json"));
  const NgcCatalog ngc = parse_ngc_catalog(vtest::read_text(kData + "/ngc.json"));
  PlanFigures f;
  f.gpus_per_server = count;
  f.allreduce_busbw_gbps = 20;
  f.matmul_fraction = 0.8;
  f.summary = "probe-1b serving";
  f.probe = {"probe-1b", false, 4, 1024, 8, 8, 128, 4096, 32000, 1024, 1, false, 0};
  f.memory_per_gpu_bytes = 4e9;
  f.memory_band_low_bytes = 3e9;
  f.memory_band_high_bytes = 5e9;
  return build_validation_plan(
      gpu_facts_from_catalog_json(vtest::read_text(kData + "/gpus.json"), gpu), parts.at(gpu), ngc,
      f);
}

/// A result file whose GPUs report `mib` MiB, GPU `odd` reporting `odd_mib` in ECC `odd_mode`.
CheckReport memory_check(const ValidationPlan& p, const std::string& mode, int mib, int odd = -1,
                         const std::string& odd_mode = "", int odd_mib = 0) {
  json measured = {{"gpu_count", p.gpus_per_server}};
  for (int g = 0; g < p.gpus_per_server; ++g) {
    const std::string k = "gpu." + std::to_string(g);
    measured[k + ".memory_total_mib"] = g == odd ? odd_mib : mib;
    if (!mode.empty()) measured[k + ".ecc_mode"] = g == odd ? odd_mode : mode;
  }
  const json j = {{"schema", 1},
                  {"kind", "gpu-advisor-validation-result"},
                  {"plan_id", plan_id(p)},
                  {"gpu_id", p.gpu_id},
                  {"checks", json::array()},
                  {"measured", measured}};
  return check_measurements(p, read_measurements(j.dump(), "validation-result.json", p));
}

const CheckItem* memory_item(const CheckReport& r) {
  for (const auto& i : r.items)
    if (i.item == "memory_total") return &i;
  return nullptr;
}

}  // namespace

using vtest::has;
using vtest::script;

TEST_CASE("memory.total is expected for the part's ECC mode", "[validation][ecc]") {
  // HBM: ECC is out of band, one figure in both modes.
  const ValidationPlan h100 = plan_for("h100-sxm-80gb", 8);
  CHECK(h100.hbm);
  CHECK(h100.ecc_default == EccMode::on);
  CHECK(h100.memory_total_mib_ecc_on == 81559);
  CHECK(h100.memory_total_mib_ecc_off == 81559);
  CHECK(h100.memory_tolerance_mib_ecc_off == 0);
  // GDDR data-centre part with both figures sourced: exact.
  const ValidationPlan l20 = plan_for("l20-48gb", 8);
  CHECK_FALSE(l20.hbm);
  CHECK(l20.memory_total_mib_ecc_on == 46068);
  CHECK(l20.memory_total_mib_ecc_off == 49140);
  CHECK(l20.memory_tolerance_mib_ecc_on == 0);
  CHECK(planned_memory_total_mib(l20) == 46068);
  // Workstation card shipped with ECC off: the ECC-on figure is 15/16 of the sourced one.
  const ValidationPlan ada = plan_for("rtx6000ada-48gb");
  CHECK(ada.ecc_default == EccMode::off);
  CHECK(ada.memory_total_mib_ecc_off == 49140);
  CHECK(ada.memory_total_mib_ecc_on == 46068);  // the L20's sourced ECC-on figure, same board
  CHECK(ada.memory_tolerance_mib_ecc_on == 461);
  CHECK(ada.memory_tolerance_mib_ecc_off == 0);
  CHECK(planned_memory_total_mib(ada) == 49140);
  // Data-centre GDDR card sourced with ECC on: the ECC-off figure is 16/15 of it.
  const ValidationPlan a10 = plan_for("a10-24gb");
  CHECK(a10.memory_total_mib_ecc_on == 23028);
  CHECK(a10.memory_total_mib_ecc_off == 24563);  // the RTX 4090's 24,564 is within 1%
  CHECK(a10.memory_tolerance_mib_ecc_off == 246);
  // No ECC at all: the as-shipped figure only.
  const ValidationPlan g5090 = plan_for("rtx5090-32gb");
  CHECK(g5090.ecc_default == EccMode::none);
  CHECK_FALSE(g5090.memory_total_mib_ecc_on);
  CHECK(g5090.memory_total_mib_ecc_off == 32607);
  // The mode nvidia-smi reports picks the figure.
  CHECK(expected_memory_for_mode(ada, "Enabled") == std::make_pair(46068, 461));
  CHECK(expected_memory_for_mode(ada, "Disabled") == std::make_pair(49140, 0));
  CHECK(expected_memory_for_mode(ada, "[N/A]") == std::make_pair(49140, 0));
  CHECK_FALSE(expected_memory_for_mode(g5090, "Enabled"));

  const std::string inv = script(ada, "00_inventory.sh");
  CHECK(has(inv, "ECC_DEFAULT=off"));
  CHECK(has(inv, "MEMORY_KIND=gddr"));
  CHECK(has(inv,
            "EXPECTED_MEMORY_MIB_ECC_ON=46068  # memory.total ECC on, MiB, derived from the "
            "ECC-off figure (GDDR 1/16 rule): within 461 MiB"));
  CHECK(has(inv, "EXPECTED_MEMORY_MIB_ECC_OFF=49140  # memory.total ECC off, MiB\n"));
  CHECK(has(inv, "check_memory \"$idx\" \"$mem\" \"$ecc\""));
}

TEST_CASE("ECC on a GDDR part shipped without it, or off on a data-centre part, is a WARN",
          "[validation][ecc]") {
  const ValidationPlan l20 = plan_for("l20-48gb", 8);
  CHECK(memory_item(memory_check(l20, "Enabled", 46068))->status == Status::pass);
  // An older result file without ecc_mode: the mode the plan counts on.
  CHECK(memory_item(memory_check(l20, "", 46068))->status == Status::pass);
  const CheckReport off = memory_check(l20, "Enabled", 46068, 2, "Disabled", 49140);
  REQUIRE(memory_item(off));
  CHECK(memory_item(off)->status == Status::warn);
  CHECK(memory_item(off)->reason.code == "ecc_off_memory");
  CHECK(memory_item(off)->reason.param("gpu") == "2");
  CHECK(off.overall == Status::warn);
  // ECC on, but memory.total is the ECC-off figure: another variant, not a mode.
  const CheckReport odd = memory_check(l20, "Enabled", 46068, 5, "Enabled", 49140);
  CHECK(memory_item(odd)->status == Status::fail);
  CHECK(memory_item(odd)->reason.code == "memory_total_mismatch");
  CHECK(memory_item(odd)->reason.param("expected_mib") == "46068");

  const ValidationPlan g4090 = plan_for("rtx4090-24gb");
  CHECK(memory_item(memory_check(g4090, "[N/A]", 24564))->status == Status::pass);
  CHECK(memory_item(memory_check(g4090, "Disabled", 24564))->status == Status::pass);
  const CheckReport on = memory_check(g4090, "Disabled", 24564, 1, "Enabled", 23028);
  REQUIRE(memory_item(on));
  CHECK(memory_item(on)->status == Status::warn);
  CHECK(memory_item(on)->reason.code == "ecc_on_memory");
  CHECK(has(memory_item(on)->reason.message, "23028 MiB, not 24564"));

  const ValidationPlan h100 = plan_for("h100-sxm-80gb", 8);
  CHECK(memory_item(memory_check(h100, "Enabled", 81559))->status == Status::pass);
  const CheckReport hbm = memory_check(h100, "Enabled", 81559, 4, "Disabled", 81559);
  CHECK(memory_item(hbm)->status == Status::warn);
  CHECK(memory_item(hbm)->reason.code == "ecc_disabled");
  CHECK(memory_item(memory_check(h100, "Enabled", 40960))->status == Status::fail);
}

TEST_CASE("every catalog NVIDIA part has its own validation.json entry", "[validation][data]") {
  const json doc = json::parse(vtest::read_text(kData + "/validation.json"));
  const json& parts = doc["parts"];
  for (const advisor::GpuSpec& g : advisor::builtin_catalog().gpus) {
    if (g.software_stack != "cuda") continue;
    INFO(g.id);
    REQUIRE(parts.contains(g.id));
    const json& e = parts[g.id];
    CHECK_FALSE(e.contains("ecc_expected"));  // gpus.json product.memory_ecc is its home
    const json derived = e.value("derived", json::object());
    for (const auto& [field, rule] : derived.items()) {
      CHECK(e.contains(field));
      CHECK(rule.get<std::string>().size() > 20);
    }
    // A memory.total left null says why (derived or record) unless the other mode's is known.
    for (const char* f : {"memory_total_mib_ecc_on", "memory_total_mib_ecc_off"})
      if (e[f].is_null() && !e["memory_total_mib_ecc_on"].is_number() &&
          !e["memory_total_mib_ecc_off"].is_number() && g.product.memory_ecc != "none")
        CHECK((derived.contains("memory_total_mib_ecc_on") ||
               derived.contains("memory_total_mib_ecc_off") ||
               has(e["notes"].get<std::string>(), "record")));
  }
  // The HGX H20 141GB gets NVSwitch expectations, not PCIe ones.
  const ValidationPlan h20 = plan_for("h20-141gb", 8);
  CHECK(h20.intra_node_link == IntraNodeLink::nvswitch);
  CHECK(h20.topo_entries == std::vector<std::string>{"NV18"});
  CHECK(h20.fabric_manager_required);
  CHECK(h20.smi_names == std::vector<std::string>{"NVIDIA H20-3e"});
  // Figures from public nvidia-smi outputs for the parts that had none.
  CHECK(plan_for("v100-sxm-32gb").memory_total_mib_ecc_on == 32510);
  CHECK(plan_for("a30-24gb").memory_total_mib_ecc_off == 24576);  // HBM: the same figure
  CHECK(plan_for("rtx3090ti-24gb").memory_total_mib_ecc_off == 24564);
  CHECK(plan_for("rtx4080-16gb").memory_total_mib_ecc_off == 16376);
  // A GeForce part without ECC expects no ECC and no forward compatibility.
  const ValidationPlan g3090 = plan_for("rtx3090-24gb");
  CHECK(g3090.ecc_default == EccMode::none);
  CHECK(g3090.memory_total_mib_ecc_off == 24576);
  CHECK(g3090.forward_compat_branches.empty());
  // "derived" must name a field of its entry.
  json bad = doc;
  bad["parts"]["l20-48gb"]["derived"] = {{"nope", "a rule for a field the entry does not have"}};
  try {
    test::throwing([&] { return parse_part_facts(bad.dump()); });
    FAIL("no error");
  } catch (const advisor::InputError& e) {
    CHECK(e.path() == "validation.json/parts/l20-48gb/derived/nope");
  }
}

TEST_CASE("the burn-in survives an SSH drop and Xids come from the journal",
          "[validation][operations]") {
  const ValidationPlan p = vtest::make_case("h100_8x", kData);
  const std::string burn = script(p, "40_burnin.sh");
  CHECK(has(burn,
            "setsid nohup bash \"$0\" ${RUN_ARGS[@]+\"${RUN_ARGS[@]}\"} >> \"$RUN_LOG\" 2>&1 < "
            "/dev/null &"));
  CHECK(has(burn, "PID_FILE=\"$RUN_DIR/burnin.pid\""));
  CHECK(has(burn, "trap on_stop INT TERM HUP"));
  CHECK(has(burn, "trap release_pid_file EXIT"));
  CHECK(has(burn, "--status"));
  // The options are read, and a running burn-in found, before common_head truncates its files.
  CHECK(burn.find("running_pid()") < burn.find(": > \"$CHECKS_FILE\""));
  CHECK(has(burn, "XID_SOURCE=\"$(kernel_log_source)\""));
  const std::string inv = script(p, "00_inventory.sh");
  CHECK(has(inv, "journalctl -k -b -q --no-pager"));
  CHECK(has(inv, "measure_str xid_log_source \"$KLOG_SOURCE\""));
  CHECK_FALSE(has(inv, "dmesg 2>/dev/null)"));
  // bash 4.2 (CentOS 7) under set -u calls an empty array unbound: arrays that may be empty
  // (no Xid, GeForce without forward compatibility, one server without IB) expand guarded.
  const ValidationPlan g = vtest::make_case("rtx4090_4x", kData);
  CHECK(has(script(g, "00_inventory.sh"), "FORWARD_COMPAT_BRANCHES=()"));
  CHECK(has(script(g, "00_inventory.sh"),
            "for b in ${FORWARD_COMPAT_BRANCHES[@]+\"${FORWARD_COMPAT_BRANCHES[@]}\"}; do"));
  CHECK(has(inv, "for c in ${list[@]+\"${list[@]}\"}; do"));
  CHECK(has(script(p, "30_nccl.sh"), "${IB_ARGS[@]+\"${IB_ARGS[@]}\"}"));
  for (const auto& f : generate_scripts(g))
    for (const char* unguarded : {"\"${FORWARD_COMPAT_BRANCHES[@]}\"", "in \"${list[@]}\"",
                                  "in \"${TAG_TABLE[@]}\"", "host \"${IB_ARGS[@]}\""})
      CHECK_FALSE(has(f.text, std::string(" ") + unguarded));
  const std::string summary = script(p, "90_summary.sh");
  CHECK(has(summary, "burnin_running"));
  CHECK(has(summary, "burnin.log"));
  for (const auto& f : generate_scripts(p))
    if (f.name == "README.txt") {
      CHECK(has(f.text, "./40_burnin.sh --detach"));
      CHECK(has(f.text, "survives a dropped connection"));
      CHECK(has(f.text, "journalctl -k"));
    }
}
