// SPDX-License-Identifier: MIT
// Risk as a visible fact (issue 25 item 7): second-hand, consumer (no ECC), grey-import and
// end-of-life parts carry a badge and a reason on every plan that uses them; a customer-facing
// serving plan on such parts is flagged and a data-centre alternative is shown next to it.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "helpers.hpp"

using nlohmann::json;

namespace {

std::set<std::string> codes(const json& risks) {
  std::set<std::string> out;
  for (const auto& r : risks) out.insert(r["code"].get<std::string>());
  return out;
}

const json* risk_of(const json& risks, const std::string& code) {
  for (const auto& r : risks)
    if (r["code"] == code) return &r;
  return nullptr;
}

/// Every plan the recommendation shows in full.
std::vector<json> shown_plans(const json& rec) {
  std::vector<json> out;
  for (const char* key : {"best", "datacenter_alternative", "nearest"})
    if (rec[key].is_object()) out.push_back(rec[key]);
  for (const auto& u : rec["runners_up"]) out.push_back(u["plan"]);
  for (const auto& l : rec["levers"]) out.push_back(l["plan"]);
  return out;
}

const json* warning_of(const json& warnings, const std::string& code) {
  for (const auto& w : warnings)
    if (w["code"] == code) return &w;
  return nullptr;
}

/// Risks that rule a part out for customers: all but ECC merely off by default.
bool barred(const json& risks) {
  for (const auto& r : risks)
    if (r["code"] != "no_ecc" || r["reason"] == "ecc_absent") return true;
  return false;
}

/// The reviewer's case: a 72B service for a few users, asked for the cheapest plan, where
/// RTX 3090s (end of life, consumer, no ECC) win on cost.
json serving_72b(const json& extra = json::object()) {
  json j = test::request("inference", "qwen2.5-72b",
                         {{"inference",
                           {{"weight_format", "int4"},
                            {"target_users", 4},
                            {"target_tokens_per_second_per_user", 10}}},
                          {"goal", {{"objective", "cheapest"}}}});
  j.merge_patch(extra);
  return j;
}

}  // namespace

TEST_CASE("every catalog GPU states its product class, memory ECC and end of life",
          "[risk][catalog]") {
  for (const advisor::GpuSpec& g : advisor::builtin_catalog().gpus) {
    INFO(g.id);
    CHECK_FALSE(g.product.derived);
    CHECK_FALSE(g.product.basis.empty());
    CHECK_FALSE(g.product.source.empty());
    // The GeForce class of the fabrics (no peer-to-peer) is the consumer class.
    CHECK((g.product.product_class == "consumer") == !g.pcie_peer_to_peer);
  }
  const advisor::Catalog& c = advisor::builtin_catalog();
  CHECK(c.find_gpu("rtx3090-24gb")->product.memory_ecc == "none");
  CHECK(c.find_gpu("rtx3090-24gb")->product.end_of_life);
  CHECK(c.find_gpu("rtx4090-24gb")->product.memory_ecc == "off_by_default");
  CHECK(c.find_gpu("h100-sxm-80gb")->product.memory_ecc == "on");
  CHECK(c.prices.gpus.at("rtx3090-24gb").purchase_second_hand);
  CHECK_FALSE(c.prices.gpus.at("rtx4090-24gb").purchase_second_hand);
}

TEST_CASE(
    "a customer-facing 72B service on used consumer cards is flagged, with a data-centre "
    "alternative next to it",
    "[risk][serving]") {
  const json rec = test::advise_json(serving_72b())["recommendation"];
  const json& best = rec["best"];
  REQUIRE(best.is_object());
  INFO(best.dump().substr(0, 600));
  // The cheapest plan is on GeForce cards: badges with reasons, not a silent answer.
  REQUIRE(barred(best["risks"]));
  const std::set<std::string> got = codes(best["risks"]);
  CHECK(got.count("consumer") == 1);
  CHECK(got.count("no_ecc") == 1);
  for (const auto& r : best["risks"]) {
    CHECK_FALSE(r["reason"].get<std::string>().empty());
    CHECK_FALSE(r["message"].get<std::string>().empty());
    CHECK(r["params"].contains("gpu"));
  }
  const json* flag = warning_of(best["warnings"], "risky_parts_customer_facing");
  REQUIRE(flag != nullptr);
  CHECK((*flag)["path"] == "/inference/customer_facing");
  CHECK((*flag)["params"]["alternative"] == 1);
  // The alternative: the cheapest plan on parts without those risks, a full plan.
  const json& alt = rec["datacenter_alternative"];
  REQUIRE(alt.is_object());
  CHECK_FALSE(barred(alt["risks"]));
  CHECK(alt["cost"]["cny"].get<double>() >= best["cost"]["cny"].get<double>());
  CHECK(alt["reasons"].size() == best["reasons"].size());
  CHECK((*flag)["params"]["alternative_gpus"] == alt["gpus"]);
  CHECK(warning_of(alt["warnings"], "risky_parts_customer_facing") == nullptr);
}

TEST_CASE("RTX 3090 plans say consumer, no ECC and end of life, bought, second-hand too",
          "[risk]") {
  const json rec = test::advise_json(serving_72b())["recommendation"];
  // The cheapest plan rents them: the part's risks, not the buying channel's.
  REQUIRE(rec["best"]["gpu"] == "rtx3090-24gb");
  REQUIRE(rec["best"]["deployment"] != "buy");
  CHECK(codes(rec["best"]["risks"]) == std::set<std::string>{"consumer", "no_ecc", "end_of_life"});
  CHECK((*risk_of(rec["best"]["risks"], "no_ecc"))["reason"] == "ecc_absent");
  for (const json& p : shown_plans(rec)) {
    if (p["gpu"] != "rtx3090-24gb" || p["deployment"] != "buy") continue;
    CHECK(codes(p["risks"]) ==
          std::set<std::string>{"consumer", "no_ecc", "end_of_life", "second_hand"});
  }
  // Four used cards pinned (the reviewer's office box): buying them is second-hand.
  const json r =
      test::advise_json(serving_72b({{"hardware", {{"gpu", "rtx3090-24gb"}, {"count", 4}}}}));
  CHECK(codes(r["risks"]) ==
        std::set<std::string>{"consumer", "no_ecc", "end_of_life", "second_hand"});
  CHECK((*risk_of(r["risks"], "second_hand"))["params"]["deployment"] == "buy");
  CHECK((*risk_of(r["risks"], "second_hand"))["params"]["price_cny"] == 5000);
  CHECK(warning_of(r["warnings"], "risky_parts_customer_facing") != nullptr);
}

TEST_CASE("an internal service keeps its badges but needs no alternative", "[risk][serving]") {
  const json rec = test::advise_json(
      serving_72b({{"inference", {{"customer_facing", false}}}}))["recommendation"];
  CHECK(rec["datacenter_alternative"].is_null());
  CHECK(barred(rec["best"]["risks"]));
  CHECK(warning_of(rec["best"]["warnings"], "risky_parts_customer_facing") == nullptr);
}

TEST_CASE("a training plan on RTX 4090 carries the consumer and no-ECC badges", "[risk]") {
  const json job = test::request(
      "lora", "qwen2.5-7b",
      {{"hardware", {{"gpu", "rtx4090-24gb"}, {"count", 1}}}, {"goal", {{"china_only", false}}}});
  const json r = test::advise_json(job);
  const std::set<std::string> got = codes(r["risks"]);
  CHECK(got.count("consumer") == 1);
  CHECK(got.count("no_ecc") == 1);
  CHECK((*risk_of(r["risks"], "no_ecc"))["reason"] == "ecc_off_by_default");
  // Licence-required in China: bought there, it is a grey import.
  REQUIRE(risk_of(r["risks"], "grey_import") != nullptr);
  CHECK((*risk_of(r["risks"], "grey_import"))["params"]["status"] == "license-required");
  // Training is never flagged for customers.
  CHECK(warning_of(r["warnings"], "risky_parts_customer_facing") == nullptr);
  CHECK(r["recommendation"]["datacenter_alternative"].is_null());
  // Every shown plan on a 4090 carries the part's badges; a bought one the grey import too.
  for (const json& p : shown_plans(r["recommendation"])) {
    if (p["gpu"] != "rtx4090-24gb") continue;
    CHECK(codes(p["risks"]).count("consumer") == 1);
    CHECK((codes(p["risks"]).count("grey_import") == 1) == (p["deployment"] == "buy"));
  }
  // The front carries them too.
  for (const auto& p : r["recommendation"]["pareto"]) CHECK(p["risks"].is_array());
}

TEST_CASE("a data-centre H100 plan carries no badge", "[risk]") {
  const json job = test::request("full_finetune", "qwen2.5-14b",
                                 {{"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 8}}}});
  const json r = test::advise_json(job);
  // The part itself is clean; only buying it in mainland China is a grey import.
  for (const auto& risk : r["risks"]) {
    CHECK(risk["code"] == "grey_import");
    CHECK(risk["params"]["deployment"] == "buy");
  }
  for (const json& p : shown_plans(r["recommendation"]))
    if (p["gpu"] == "h100-sxm-80gb" && p["deployment"] != "buy") CHECK(p["risks"].empty());
  // A part sold in China for data centres: nothing at all.
  const json l20 = test::advise_json(test::request(
      "inference", "qwen2.5-7b", {{"hardware", {{"gpu", "l20-48gb"}, {"count", 1}}}}));
  CHECK(l20["risks"].empty());
  CHECK(warning_of(l20["warnings"], "risky_parts_customer_facing") == nullptr);
}

TEST_CASE(
    "a provider's GPU states its product facts or gets them derived, and a bad one is "
    "a located error",
    "[risk][provider]") {
  json doc = json::parse(test::data_file("examples/provider-example.json"));
  json bad = doc;
  bad["gpus"][0]["product"]["class"] = "gaming";
  bool ok = true;
  json e = json::parse(advisor::provider_text(bad.dump(), &ok));
  CHECK_FALSE(ok);
  CHECK(e["error"]["path"] == "/gpus/0/product/class");
  bad = doc;
  bad["gpus"][0]["product"]["end_of_life"] = "yes";
  e = json::parse(advisor::provider_text(bad.dump(), &ok));
  CHECK_FALSE(ok);
  CHECK(e["error"]["path"] == "/gpus/0/product/end_of_life");
  bad = doc;
  bad["gpus"][0]["product"].erase("source");
  e = json::parse(advisor::provider_text(bad.dump(), &ok));
  CHECK_FALSE(ok);
  CHECK(e["error"]["path"] == "/gpus/0/product/source");
  // Without "product", a card without peer-to-peer is taken for a consumer card without ECC.
  json derived = doc;
  derived["gpus"][0].erase("product");
  const std::string id = derived["gpus"][0]["id"];
  json job = test::request("lora", "qwen2.5-7b", {{"hardware", {{"gpu", id}, {"count", 1}}}});
  const json r = json::parse(advisor::advise_with_provider_text(job.dump(), derived.dump(), &ok));
  REQUIRE(ok);
  REQUIRE(risk_of(r["risks"], "no_ecc") != nullptr);
  CHECK((*risk_of(r["risks"], "no_ecc"))["reason"] == "ecc_absent");
  CHECK((*risk_of(r["risks"], "consumer"))["params"]["derived"] == 1);
}

TEST_CASE("a bad customer_facing or second_hand is a located error", "[risk][request]") {
  bool ok = true;
  const json job = serving_72b({{"inference", {{"customer_facing", "yes"}}}});
  json e = json::parse(advisor::advise_text(job.dump(), &ok));
  CHECK_FALSE(ok);
  CHECK(e["error"]["path"] == "/inference/customer_facing");
  json prices = json::parse(test::data_file("prices.json"));
  prices["gpus"]["rtx3090-24gb"]["purchase"]["second_hand"] = "used";
  e = json::parse(advisor::advise_with_catalog_text(serving_72b().dump(),
                                                    {"", "", "", "", prices.dump()}, &ok));
  CHECK_FALSE(ok);
  CHECK(e["error"]["path"] == "prices.json/gpus/rtx3090-24gb/purchase/second_hand");
}
