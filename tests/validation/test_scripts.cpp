// SPDX-License-Identifier: MIT
// Script generation: golden files for four plans, and the rules every script follows.
// Rewrite the goldens only on purpose:  GOLDEN_UPDATE=1 build/tests/validation/validation_tests
// "[golden]"
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cases.hpp"
#include "types/errors.hpp"
#include "validation/scripts.hpp"

using namespace advisor::validation;
namespace fs = std::filesystem;

namespace {
ValidationPlan plan(const std::string& name) {
  return vtest::make_case(name, GPU_ADVISOR_DATA_DIR);
}
bool updating() {
  const char* u = std::getenv("GOLDEN_UPDATE");
  return u && std::string(u) == "1";
}
const ScriptFile& file(const std::vector<ScriptFile>& files, const std::string& name) {
  for (const auto& f : files)
    if (f.name == name) return f;
  throw std::runtime_error("no " + name);
}
}  // namespace

TEST_CASE("generated scripts match the goldens", "[validation][golden]") {
  for (const auto& name : vtest::case_names()) {
    const fs::path dir = fs::path(VALIDATION_TEST_DIR) / "golden" / name;
    auto files = generate_scripts(plan(name));
    if (updating()) {
      fs::remove_all(dir);
      fs::create_directories(dir);
      for (const auto& f : files) std::ofstream(dir / f.name, std::ios::binary) << f.text;
      WARN("rewrote golden/" << name);
      continue;
    }
    std::size_t on_disk = 0;
    for (const auto& e : fs::directory_iterator(dir)) on_disk += e.is_regular_file();
    CHECK(on_disk == files.size());
    for (const auto& f : files) {
      INFO(name << "/" << f.name << " (GOLDEN_UPDATE=1 rewrites the goldens)");
      REQUIRE(fs::exists(dir / f.name));
      CHECK(vtest::read_text((dir / f.name).string()) == f.text);
    }
  }
}

TEST_CASE("every script: expected values on top, strict mode, nothing piped into a shell",
          "[validation][scripts]") {
  std::vector<std::string> all = vtest::case_names();
  all.insert(all.end(), vtest::extra_case_names().begin(), vtest::extra_case_names().end());
  for (const auto& name : all) {
    for (const auto& f : generate_scripts(plan(name))) {
      INFO(name << "/" << f.name);
      if (f.name.size() < 3 || f.name.substr(f.name.size() - 3) != ".sh") continue;
      CHECK(f.executable);
      CHECK(f.text.rfind("#!/usr/bin/env bash\n", 0) == 0);
      const auto strict = f.text.find("\nset -euo pipefail\n");
      const auto expected = f.text.find("# --- The plan's expected values");
      const auto plan_line = f.text.find("\nPLAN_ID=");
      REQUIRE(strict != std::string::npos);
      CHECK(strict < expected);
      CHECK(expected < plan_line);
      CHECK(f.text.find("# Root: ") < strict);
      for (const char* banned : {"curl", "wget", "| sh", "| bash", "|sh", "eval "})
        CHECK(f.text.find(banned) == std::string::npos);
    }
  }
}

TEST_CASE("the scripts carry the plan's figures", "[validation][scripts]") {
  auto h100 = generate_scripts(plan("h100_8x"));
  const std::string& inv = file(h100, "00_inventory.sh").text;
  CHECK_THAT(inv, Catch::Contains("EXPECTED_GPUS=8"));
  CHECK_THAT(inv, Catch::Contains("EXPECTED_MEMORY_MIB_ECC_ON=81559"));
  CHECK_THAT(inv, Catch::Contains("EXPECTED_MEMORY_MIB_ECC_OFF=81559"));
  CHECK_THAT(inv, Catch::Contains("ECC_DEFAULT=on"));
  CHECK_THAT(inv, Catch::Contains("MEMORY_KIND=hbm"));
  CHECK_THAT(inv, Catch::Contains("EXPECTED_POWER_LIMIT_W=700"));
  CHECK_THAT(inv, Catch::Contains("NGC_TAG=25.02"));
  CHECK_THAT(inv, Catch::Contains("FORWARD_COMPAT_BRANCHES=(470.57 525.85 535.86 545.23)"));
  const std::string& topo = file(h100, "10_topology.sh").text;
  CHECK_THAT(topo, Catch::Contains("FABRIC_MANAGER_REQUIRED=1"));
  CHECK_THAT(topo, Catch::Contains("EXPECTED_TOPO=(NV18)"));
  CHECK_THAT(topo, Catch::Contains("EXPECTED_NVLINK_LINKS=18"));
  CHECK_THAT(file(h100, "20_container.sh").text, Catch::Contains("EXPECTED_GEMM_TFLOPS=794.5"));
  CHECK_THAT(file(h100, "20_container.sh").text,
             Catch::Contains("REGISTRY=\"${REGISTRY:-nvcr.io}\""));
  CHECK_THAT(file(h100, "30_nccl.sh").text, Catch::Contains("EXPECTED_BUSBW_GBPS=360"));
  CHECK_THAT(file(h100, "40_burnin.sh").text, Catch::Contains("BURNIN_HOURS=10"));
  // ZeRO-2: all 32 layers in bf16 with gradients and state would pass 90% of the plan's memory.
  CHECK_THAT(file(h100, "probe.py").text, Catch::Contains("\"layers_planned\": 32,"));
  CHECK_THAT(file(h100, "probe.py").text, Catch::Contains("\"layers\": 27,"));

  auto geforce = generate_scripts(plan("rtx4090_4x"));
  CHECK_THAT(file(geforce, "00_inventory.sh").text, Catch::Contains("FORWARD_COMPAT_BRANCHES=()"));
  CHECK_THAT(file(geforce, "00_inventory.sh").text, Catch::Contains("NGC_TAG=24.05"));
  CHECK_THAT(file(geforce, "10_topology.sh").text, Catch::Contains("EXPECTED_P2P=no"));
  CHECK_THAT(file(geforce, "10_topology.sh").text, Catch::Contains("FABRIC_MANAGER_REQUIRED=0"));

  auto l20 = generate_scripts(plan("l20_8x"));
  CHECK_THAT(file(l20, "00_inventory.sh").text, Catch::Contains("NGC_TAG=25.03"));
  CHECK_THAT(file(l20, "20_container.sh").text,
             Catch::Contains("forward compatibility on the R535 branch"));
  CHECK_THAT(file(l20, "10_topology.sh").text,
             Catch::Contains("EXPECTED_TOPO=(PIX PXB PHB NODE SYS)"));

  auto ib = generate_scripts(plan("h100_2x8_ib"));
  CHECK_THAT(file(ib, "10_topology.sh").text, Catch::Contains("NETWORK=infiniband"));
  CHECK_THAT(file(ib, "10_topology.sh").text, Catch::Contains("NETWORK_PORTS=8"));
  CHECK_THAT(file(ib, "30_nccl.sh").text, Catch::Contains("INTER_NODE_BUSBW_GBPS=180"));
  CHECK_THAT(file(ib, "README.txt").text,
             Catch::Contains("MASTER_ADDR=<server 0> NODE_RANK=<i> ./30_nccl.sh"));
}

TEST_CASE("one GPU, Blackwell and a derived NV8", "[validation][scripts]") {
  ValidationPlan l4 = plan("l4_1x");
  CHECK(l4.intra_node_link == IntraNodeLink::none);
  CHECK(l4.topo_entries.empty());
  CHECK_THAT(file(generate_scripts(l4), "10_topology.sh").text, Catch::Contains("EXPECTED_P2P=''"));
  ValidationPlan b200 = plan("b200_8x");
  CHECK(b200.ngc_tag == "26.02");  // no driver given: the newest, and Blackwell needs 25.01+
  CHECK(b200.forward_compat_branches.empty());
  CHECK(b200.nvlink_links_per_gpu == 18);
  ValidationPlan a800 = plan("a800_8x");
  CHECK(a800.topo_entries == std::vector<std::string>{"NV8"});
  CHECK(a800.nvlink_link_gbps == 25);
}

TEST_CASE("plan ids are stable and follow every expected value", "[validation][scripts]") {
  ValidationPlan a = plan("h100_8x");
  CHECK(plan_id(a) == plan_id(plan("h100_8x")));
  CHECK(plan_id(a).size() == 16);
  ValidationPlan b = a;
  b.allreduce_busbw_gbps = 359;
  CHECK(plan_id(b) != plan_id(a));
  b = a;
  b.probe.micro_batch = 2;
  CHECK(plan_id(b) != plan_id(a));
  CHECK(plan_id(plan("h100_2x8_ib")) != plan_id(a));
}

TEST_CASE("inconsistent plans are located errors", "[validation][scripts]") {
  ValidationPlan p = plan("h100_8x");
  p.memory_band_high_bytes = p.memory_per_gpu_bytes / 2;
  try {
    test::throwing([&] { return generate_scripts(p); });
    FAIL("no error");
  } catch (const advisor::InputError& e) {
    CHECK(e.code() == "validation_invalid");
    CHECK(e.path() == "/validation/memory_band_low_bytes");
  }
  p = plan("h100_8x");
  p.probe.kv_heads = 5;
  CHECK_THROWS_AS(test::throwing([&] { return generate_scripts(p); }), advisor::InputError);
  p = plan("h100_8x");
  p.total_gpus = 9;
  CHECK_THROWS_AS(test::throwing([&] { return generate_scripts(p); }), advisor::InputError);

  const std::string gpus = vtest::read_text(std::string(GPU_ADVISOR_DATA_DIR) + "/gpus.json");
  auto parts =
      parse_part_facts(vtest::read_text(std::string(GPU_ADVISOR_DATA_DIR) + "/validation.json"));
  NgcCatalog ngc =
      parse_ngc_catalog(vtest::read_text(std::string(GPU_ADVISOR_DATA_DIR) + "/ngc.json"));
  PlanFigures f;
  f.probe = plan("h100_8x").probe;
  try {
    test::throwing([&] {
      return build_validation_plan(gpu_facts_from_catalog_json(gpus, "mi300x-192gb"),
                                   parts.at("mi300x-192gb"), ngc, f);
    });
    FAIL("no error");
  } catch (const advisor::InputError& e) {
    CHECK(e.code() == "validation_unsupported_gpu");
  }
  f.host_driver = "470.42.01";
  try {
    test::throwing([&] {
      return build_validation_plan(gpu_facts_from_catalog_json(gpus, "rtx4090-24gb"),
                                   parts.at("rtx4090-24gb"), ngc, f);
    });
    FAIL("no error");
  } catch (const advisor::InputError& e) {
    CHECK(e.code() == "validation_no_ngc_tag");
    CHECK(e.path() == "/validation/host_driver");
  }
  CHECK_THROWS_AS(test::throwing([&] { return gpu_facts_from_catalog_json(gpus, "no-such-gpu"); }),
                  advisor::InputError);
}

TEST_CASE("shell words are quoted when they need it", "[validation][scripts]") {
  CHECK(shell_quote("NV18") == "NV18");
  CHECK(shell_quote("570.86.10") == "570.86.10");
  CHECK(shell_quote("") == "''");
  CHECK(shell_quote("NV*") == "'NV*'");
  CHECK(shell_quote("a b") == "'a b'");
  CHECK(shell_quote("it's $HOME") == "'it'\\''s $HOME'");
}

TEST_CASE("scripts JSON for the page and the wasm API", "[validation][scripts]") {
  ValidationPlan p = plan("l20_8x");
  std::string j = scripts_json(p, generate_scripts(p));
  CHECK_THAT(j, Catch::Contains("\"plan_id\": \"" + plan_id(p) + "\""));
  CHECK_THAT(j, Catch::Contains("\"image\": \"nvcr.io/nvidia/pytorch:25.03-py3\""));
  CHECK_THAT(j, Catch::Contains("\"code\": \"forward_compat\""));
  CHECK_THAT(j, Catch::Contains("\"name\": \"90_summary.sh\""));
}
