// SPDX-License-Identifier: MIT
// NGC PyTorch tag choice (data/ngc.json, reference/validation.md §1).
#include <catch2/catch.hpp>

#include "cases.hpp"
#include "io/validation_json.hpp"
#include "types/errors.hpp"
#include "validation/ngc.hpp"

using namespace advisor::validation;

namespace {
const NgcCatalog& ngc() {
  static const NgcCatalog c =
      parse_ngc_catalog(vtest::read_text(std::string(GPU_ADVISOR_DATA_DIR) + "/ngc.json"));
  return c;
}
GpuForTag hopper() { return {"9.0", "cuda", ProductClass::data_center}; }
GpuForTag ada_geforce() { return {"8.9", "cuda", ProductClass::geforce}; }
GpuForTag b200() { return {"10.0", "cuda", ProductClass::data_center}; }
}  // namespace

TEST_CASE("ngc.json holds 24.10 as the source and validation.md give it", "[validation][ngc]") {
  const NgcTag* t = nullptr;
  for (const auto& x : ngc().tags)
    if (x.tag == "24.10") t = &x;
  REQUIRE(t);
  CHECK(t->cuda == "12.6.2");
  CHECK(t->min_driver == "560.35.03");
  CHECK(t->dc_forward_compat_branches ==
        std::vector<std::string>{"470.57", "525.85", "535.86", "545.23"});
  CHECK_FALSE(t->native_blackwell);
  CHECK(t->status == TagStatus::confirmed);
  CHECK(ngc().tags.front().tag == "24.04");
  CHECK(ngc().tags.back().tag == "26.08");
  for (const auto& x : ngc().tags) {
    CHECK_FALSE(x.source.empty());
    if (compare_versions(x.tag, "25.01") >= 0) CHECK(x.native_blackwell);
  }
}

TEST_CASE("the newest tag the host driver supports", "[validation][ngc]") {
  TagChoice c = pick_ngc_tag(ngc(), hopper(), std::string("550.54.15"));
  REQUIRE(c.found);
  CHECK(c.tag == "24.05");
  CHECK(c.reason.code == "newest_for_driver");
  CHECK(c.reason.param("driver") == "550.54.15");
  CHECK(c.reason.param("tag") == "24.05");
  CHECK_FALSE(c.forward_compat);

  c = pick_ngc_tag(ngc(), hopper(), std::string("570.86.10"));
  CHECK(c.tag == "25.02");  // 25.03 needs 570.124.06
  c = pick_ngc_tag(ngc(), hopper(), std::string("560.35.03"));
  CHECK(c.tag == "24.10");
  c = pick_ngc_tag(ngc(), ada_geforce(), std::string("560.35.03"));
  CHECK(c.tag == "24.10");
}

TEST_CASE("without a driver: the newest secondary-or-better tag, unconfirmed rows only on request",
          "[validation][ngc]") {
  TagChoice c = pick_ngc_tag(ngc(), hopper(), std::nullopt);
  CHECK(c.tag == "26.02");
  CHECK(c.reason.code == "newest_no_driver");
  CHECK(c.min_driver == "590.48.01");
  c = pick_ngc_tag(ngc(), hopper(), std::nullopt, true);
  CHECK(c.tag == "26.08");
  CHECK(c.status == TagStatus::unconfirmed);
  CHECK_THAT(c.reason.message, Catch::Contains("confirm on its release-notes page"));
}

TEST_CASE("forward compatibility: data-centre parts only, on the listed branches",
          "[validation][ngc]") {
  TagChoice c = pick_ngc_tag(ngc(), hopper(), std::string("535.104.05"));
  REQUIRE(c.found);
  CHECK(c.forward_compat);
  CHECK(c.reason.code == "forward_compat");
  CHECK(c.reason.param("branch") == "535.86");
  CHECK(c.tag == "25.03");  // newest with R535 listed (CUDA 12.8 text)
  c = pick_ngc_tag(ngc(), hopper(), std::string("535.54.03"));  // R535 but older than 535.86
  CHECK_FALSE(c.found);
  CHECK(c.reason.code == "driver_too_old");

  c = pick_ngc_tag(ngc(), ada_geforce(), std::string("535.104.05"));
  CHECK_FALSE(c.found);
  CHECK(c.reason.code == "driver_too_old");
  CHECK(c.reason.param("product") == "geforce");
  CHECK_THAT(c.reason.message, Catch::Contains("GeForce cards cannot use forward compatibility"));

  GpuForTag workstation{"8.9", "cuda", ProductClass::workstation};
  CHECK_FALSE(pick_ngc_tag(ngc(), workstation, std::string("535.104.05")).found);
}

TEST_CASE("Blackwell needs 25.01 or later and no forward compatibility", "[validation][ngc]") {
  TagChoice c = pick_ngc_tag(ngc(), b200(), std::string("560.35.03"));
  CHECK_FALSE(c.found);
  CHECK_THAT(c.reason.message, Catch::Contains("Blackwell needs 25.01"));
  c = pick_ngc_tag(ngc(), b200(), std::string("535.104.05"));
  CHECK_FALSE(c.found);
  c = pick_ngc_tag(ngc(), b200(), std::string("570.86.10"));
  CHECK(c.tag == "25.02");
  GpuForTag rtx5090{"12.0", "cuda", ProductClass::geforce};
  CHECK(pick_ngc_tag(ngc(), rtx5090, std::string("570.124.06")).tag == "25.03");
  for (const NgcTag* t : tags_for_gpu(ngc(), b200())) CHECK(compare_versions(t->tag, "25.01") >= 0);
}

TEST_CASE("architecture limits and non-CUDA parts", "[validation][ngc]") {
  GpuForTag pascal{"6.0", "cuda", ProductClass::data_center};
  CHECK(pick_ngc_tag(ngc(), pascal, std::nullopt).tag == "24.12");  // 25.01 dropped Pascal
  GpuForTag mi300x{"", "rocm", ProductClass::data_center};
  TagChoice c = pick_ngc_tag(ngc(), mi300x, std::string("570.86.10"));
  CHECK_FALSE(c.found);
  CHECK(c.reason.code == "no_ngc_for_stack");
  GpuForTag maxwell{"5.2", "cuda", ProductClass::data_center};
  CHECK(pick_ngc_tag(ngc(), maxwell, std::nullopt).reason.code == "no_tag_for_gpu");
}

TEST_CASE("dotted versions compare numerically", "[validation][ngc]") {
  CHECK(compare_versions("570.124.06", "570.86.10") > 0);
  CHECK(compare_versions("570.26", "570.26.0") == 0);
  CHECK(compare_versions("25.10", "25.9") > 0);
  CHECK(compare_versions("9.0", "10.0") < 0);
  CHECK(is_blackwell_cc("10.0"));
  CHECK(is_blackwell_cc("12.0"));
  CHECK_FALSE(is_blackwell_cc("9.0"));
}

TEST_CASE("ngc.json errors are located", "[validation][ngc]") {
  std::string text = vtest::read_text(std::string(GPU_ADVISOR_DATA_DIR) + "/ngc.json");
  std::string bad = text;
  bad.replace(bad.find("\"status\": \"confirmed\""), 21, "\"status\": \"maybe\"    ");
  try {
    test::throwing([&] { return parse_ngc_catalog(bad); });
    FAIL("no error");
  } catch (const advisor::InputError& e) {
    CHECK(e.path() == "ngc.json/tags/6/status");
  }
  CHECK(tag_choice_json(pick_ngc_tag(ngc(), hopper(), std::string("550.54.15")))
            .find("\"newest_for_driver\"") != std::string::npos);
}

TEST_CASE("compiled-in data matches data/", "[validation][ngc]") {
  CHECK(std::string(builtin_ngc_json()) ==
        vtest::read_text(std::string(GPU_ADVISOR_DATA_DIR) + "/ngc.json"));
  CHECK(std::string(builtin_validation_json()) ==
        vtest::read_text(std::string(GPU_ADVISOR_DATA_DIR) + "/validation.json"));
  auto parts = parse_part_facts(builtin_validation_json());
  CHECK(parts.at("h100-sxm-80gb").memory_total_mib_ecc_on == 81559);
  CHECK(parts.at("h100-sxm-80gb").topo_entry == std::string("NV18"));
  CHECK(parts.at("a100-sxm-80gb").nvlink_links_per_gpu == 12);
  CHECK(parts.at("l20-48gb").memory_total_mib_ecc_off == 49140);
  CHECK_FALSE(parts.at("mi300x-192gb").supported);
}
