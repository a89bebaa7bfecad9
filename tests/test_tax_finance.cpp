// SPDX-License-Identifier: MIT
// VAT, financing and lead time (issue 26 item 3): the VAT inside VAT-inclusive prices or
// recovered by a general VAT payer, a purchase repaid as an annuity, and the calendar days to
// get the GPUs that a deadline in days can rule out (docs/cost.md "VAT", "Financing", "Lead
// time").
#include <catch2/catch.hpp>
#include <string>

#include "engine/cost.hpp"
#include "engine/vat.hpp"
#include "helpers.hpp"

namespace {

using nlohmann::json;

json error_of(const json& j) {
  bool ok = true;
  const auto out = json::parse(advisor::advise_text(j.dump(), &ok));
  CHECK_FALSE(ok);
  REQUIRE(out.contains("error"));
  return out["error"];
}

/// One H100 SXM board (4 GPUs) fine-tuning Llama-3.1-8B for one year at known prices: the
/// figures below are hand-computed from them.
json one_year(const json& cost_patch = json::object()) {
  json cost = {{"life_years", 1},
               {"residual_fraction", 0},
               {"utilization", 0.5},
               {"tariff", "flat"},
               {"network_line", "bgp"},
               {"network_mbps", 100},
               {"operations_capex_share", 0.03},
               {"spares_share", 0.02},
               {"egress_tb_per_month", 0},
               {"prices",
                {{"gpu_purchase_cny", 200000},
                 {"server_platform_cny", 400000},
                 {"rental_cny_per_gpu_hour", 20},
                 {"electricity_flat_cny_per_kwh", 1.0},
                 {"colocation_cny_per_rack_month", 5000},
                 {"network_cny_per_mbps_month", 50}}}};
  cost.merge_patch(cost_patch);
  return test::request("full_finetune", "llama-3.1-8b",
                       {{"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 8}}},
                        {"power", {{"host_watts", 2400}, {"pue", 1.5}, {"rack_kw", 10}}},
                        {"cost", cost}});
}

double line(const json& option, const std::string& name) {
  for (const auto& i : option["line_items"])
    if (i["name"] == name) return i["yearly_cny"].get<double>();
  FAIL("no line item " << name);
  return 0;
}

bool has_line(const json& option, const std::string& name) {
  for (const auto& i : option["line_items"])
    if (i["name"] == name) return true;
  return false;
}

}  // namespace

TEST_CASE("VAT inside an inclusive price and on top of an ex-VAT one", "[cost][vat]") {
  // 100,000 CNY of hardware bought VAT-inclusive holds 100,000 x 0.13 / 1.13 = 11,504.42.
  CHECK(advisor::vat_of(100000, 0.13, false) == Approx(11504.42).margin(0.01));
  // The same purchase ex-VAT (88,495.58) pays the same tax on top, and a general VAT payer
  // recovers it.
  CHECK(advisor::without_vat(100000, 0.13) == Approx(88495.58).margin(0.01));
  CHECK(advisor::vat_of(advisor::without_vat(100000, 0.13), 0.13, true) ==
        Approx(11504.42).margin(0.01));
  // Services at 6%: 10,600 inclusive holds 600.
  CHECK(advisor::vat_of(10600, 0.06, false) == Approx(600));
  const advisor::VatTerms v;
  CHECK(advisor::line_vat_rate("electricity", "energy", v) == 0.13);
  CHECK(advisor::line_vat_rate("colocation", "racks_per_rack", v) == 0.06);
  CHECK(advisor::line_vat_rate("gpu_hours", "rent_hours_used", v) == 0.06);
  CHECK(advisor::line_vat_rate("operations", "staff", v) == 0);  // wages carry no VAT
  CHECK(advisor::line_vat_rate("operations", "share_of_capex", v) == 0.13);
  CHECK(advisor::line_vat_rate("financing_interest", "annuity_interest", v) == 0);
}

TEST_CASE("an annuity repays the purchase: 100,000 at 6% over 3 years", "[cost][financing]") {
  // 100,000 x 0.06 / (1 - 1.06^-3) = 37,410.98 a year; 3 x 37,410.98 - 100,000 = 12,232.94.
  CHECK(advisor::annuity_payment(100000, 0.06, 3) == Approx(37410.98).margin(0.01));
  CHECK(3 * advisor::annuity_payment(100000, 0.06, 3) - 100000 == Approx(12232.94).margin(0.01));
  CHECK(advisor::annuity_payment(90000, 0, 3) == Approx(30000));  // 0%: the capex in thirds

  advisor::BuyInputs b;
  b.gpus = 8;
  b.servers = 1;
  b.gpu_price_cny = 100000;
  b.platform_price_cny = 200000;  // capex 1,000,000
  b.life_years = 5;
  b.residual_fraction = 0.1;  // residual 100,000
  b.colocation_cny_per_year = 60000;
  b.electricity_cny_per_year = 50000;
  b.network_cny_per_year = 12000;
  b.operations_capex_share = 0.03;
  b.spares_share = 0.02;  // in cash: 352,000 a year, 1,760,000 over 5 years
  b.financing_rate = 0.06;
  b.financing_term_years = 3;
  const auto c = advisor::buy_cost(b);
  const double payment = advisor::annuity_payment(1000000, 0.06, 3);  // 374,109.81
  const double interest = 3 * payment - 1000000;                      // 122,329.44
  REQUIRE(c.line_items.back().name == "financing_interest");
  CHECK(c.line_items.back().yearly_cny == Approx(interest / 5));
  CHECK(c.average_yearly_cny == Approx(352000 + interest / 5));
  CHECK(c.lifetime_cny == Approx(1760000 + interest));
  // Cash: the payments in years 1-3 instead of the purchase in year 1; the residual in year 5.
  REQUIRE(c.yearly_cny.size() == 5);
  CHECK(c.yearly_cny[0] == Approx(172000 + payment));
  CHECK(c.yearly_cny[2] == Approx(172000 + payment));
  CHECK(c.yearly_cny[3] == Approx(172000));
  CHECK(c.yearly_cny[4] == Approx(72000));
  CHECK(c.annuity_cny == Approx(payment));
  CHECK(c.annuity_years == 3);
  // The totals a search reads are the same sums.
  const auto t = advisor::buy_cost_totals(b);
  CHECK(t.lifetime_cny == Approx(c.lifetime_cny));
  CHECK(t.average_yearly_cny == Approx(c.average_yearly_cny));
  // A term longer than the life is repaid within the life.
  b.financing_term_years = 10;
  CHECK(advisor::buy_cost(b).annuity_years == 5);
}

TEST_CASE("VAT through the API: shown inside the totals, or recovered and left out",
          "[cost][vat][api]") {
  const json inclusive = test::advise_json(one_year())["cost"];
  const json& buy = inclusive["options"]["buy"];
  const json& rent = inclusive["options"]["rent"];
  CHECK(buy["vat_deductible"] == false);
  // Rent: 8 x 8,760 x 0.5 x 20 = 700,800, holding 700,800 x 0.06 / 1.06 of VAT.
  CHECK(rent["lifetime_cny"].get<double>() == Approx(700800));
  CHECK(rent["vat_cny"].get<double>() == Approx(700800 * 0.06 / 1.06));
  // Buy: VAT on the capex (2,000,000 at 13%) and on each running line at its rate.
  const double capex = buy["capex_cny"].get<double>();
  CHECK(capex == Approx(2000000));
  // Operations as a share of the capex follows the capex's rate.
  const double goods =
      line(buy, "electricity") + line(buy, "spares_and_failures") + line(buy, "operations");
  const double services = line(buy, "colocation") + line(buy, "network");
  const double expected = capex * 0.13 / 1.13 + goods * 0.13 / 1.13 + services * 0.06 / 1.06;
  CHECK(buy["vat_cny"].get<double>() == Approx(expected));

  // A general VAT payer: every price without its VAT; the same tax, recovered, is left out.
  const json deductible = test::advise_json(one_year({{"vat_deductible", true}}))["cost"];
  const json& dbuy = deductible["options"]["buy"];
  const json& drent = deductible["options"]["rent"];
  CHECK(dbuy["vat_deductible"] == true);
  CHECK(dbuy["capex_cny"].get<double>() == Approx(2000000 / 1.13));
  CHECK(drent["lifetime_cny"].get<double>() == Approx(700800 / 1.06));
  CHECK(drent["vat_cny"].get<double>() == Approx(rent["vat_cny"].get<double>()));
  CHECK(dbuy["vat_cny"].get<double>() == Approx(buy["vat_cny"].get<double>()));
  // One year, no residual: the inclusive total less the ex-VAT one is exactly the VAT.
  CHECK(buy["lifetime_cny"].get<double>() - dbuy["lifetime_cny"].get<double>() ==
        Approx(buy["vat_cny"].get<double>()));
  CHECK(rent["lifetime_cny"].get<double>() - drent["lifetime_cny"].get<double>() ==
        Approx(rent["vat_cny"].get<double>()));
  // The rates are listed with their source.
  bool listed = false;
  for (const auto& d : inclusive["defaults_used"])
    if (d["key"] == "vat.hardware_rate") listed = d["value"].get<double>() == 0.13;
  CHECK(listed);
}

TEST_CASE("financing through the API: the interest is its own line, the cash is the payments",
          "[cost][financing][api]") {
  const json cash = test::advise_json(one_year({{"life_years", 5}}))["cost"]["options"]["buy"];
  CHECK_FALSE(has_line(cash, "financing_interest"));
  CHECK_FALSE(cash.contains("financing_payment_cny"));
  const json financed = test::advise_json(
      one_year({{"life_years", 5}, {"financing_rate", 0.06}, {"financing_term_years", 3}}))["cost"];
  const json& buy = financed["options"]["buy"];
  const double payment = advisor::annuity_payment(2000000, 0.06, 3);
  CHECK(buy["financing_payment_cny"].get<double>() == Approx(payment));
  CHECK(buy["financing_years"] == 3);
  CHECK(line(buy, "financing_interest") == Approx((3 * payment - 2000000) / 5));
  CHECK(buy["lifetime_cny"].get<double>() ==
        Approx(cash["lifetime_cny"].get<double>() + 3 * payment - 2000000));
  // Year 1 pays a payment, not the whole purchase.
  CHECK(buy["yearly_cny"][0].get<double>() ==
        Approx(cash["yearly_cny"][0].get<double>() - 2000000 + payment));
  // A rate alone takes the catalog's term (3 years).
  const json by_default =
      test::advise_json(one_year({{"life_years", 5}, {"financing_rate", 0.06}}))["cost"];
  CHECK(by_default["options"]["buy"]["financing_years"] == 3);
}

TEST_CASE("lead time: delivery, approval and move-in for a purchase, the offer's for a rental",
          "[cost][lead_time]") {
  // H200 is approval-only: 49 days to delivery (prices.json lead_time.purchase_days_by_gpu)
  // plus 14 days of rack move-in at an IDC.
  const json h200 = test::advise_json(test::request(
      "full_finetune", "llama-3.1-8b", {{"hardware", {{"gpu", "h200-sxm-141gb"}, {"count", 8}}}}));
  CHECK(h200["cost"]["options"]["buy"]["lead_time_days"].get<double>() == Approx(63));
  // A new part sold in China: 14 days + 14 days; the request's own figures replace both.
  const json l40s = test::advise_json(
      test::request("lora", "qwen2.5-7b",
                    {{"hardware", {{"gpu", "l40s-48gb"}, {"count", 1}}},
                     {"cost", {{"purchase_lead_time_days", 3}, {"move_in_days", 2}}}}));
  CHECK(l40s["cost"]["options"]["buy"]["lead_time_days"].get<double>() == Approx(5));
  // A marketplace host starts within minutes.
  const json rtx = test::advise_json(
      test::request("lora", "qwen2.5-7b", {{"hardware", {{"gpu", "rtx4090-24gb"}, {"count", 1}}}}));
  CHECK(rtx["cost"]["options"]["rent"]["lead_time_days"].get<double>() == Approx(0));
  // The RTX 4090 is a grey import (30 days); in an IDC the move-in adds 14, in an office none.
  CHECK(rtx["cost"]["options"]["buy"]["lead_time_days"].get<double>() == Approx(44));
  const json office =
      test::advise_json(test::request("lora", "qwen2.5-7b",
                                      {{"hardware", {{"gpu", "rtx4090-24gb"}, {"count", 1}}},
                                       {"power", {{"facility", "office"}}}}));
  CHECK(office["cost"]["options"]["buy"]["lead_time_days"].get<double>() == Approx(30));
}

TEST_CASE("a provider's offer states its own lead time", "[cost][lead_time][provider]") {
  const std::string provider = test::data_file("examples/provider-example.json");
  auto rented = [&](const std::string& gpu) {
    bool ok = false;
    const json req =
        test::request("lora", "qwen2.5-7b", {{"hardware", {{"gpu", gpu}, {"count", 1}}}});
    const json r = json::parse(advisor::advise_with_provider_text(req.dump(), provider, &ok));
    REQUIRE(ok);
    return r["cost"]["options"]["rent"]["lead_time_days"].get<double>();
  };
  CHECK(rented("l40s-48gb") == Approx(1));      // the example's L40S host: 1 day
  CHECK(rented("a800-sxm-80gb") == Approx(3));  // its A800 host: 3 days
}

TEST_CASE("a calendar bound rules out plans whose lead time and run come later",
          "[recommend][lead_time]") {
  json job = test::request("lora", "qwen2.5-7b");
  // Within two days: no purchase arrives in time (a week at least); a rental does.
  job["goal"] = {{"done_within_days", 2}};
  const json two = test::advise_json(job)["recommendation"];
  REQUIRE(two["best"].is_object());
  CHECK(two["best"]["deployment"] != "buy");
  CHECK(two["done_within_days"].get<double>() == 2);
  const double days =
      two["best"]["cost"]["lead_time_days"].get<double>() + two["best"]["hours"].get<double>() / 24;
  CHECK(days <= 2);
  // Within a minute and a half nothing can be done: every GPU says why, in days.
  job["goal"] = {{"done_within_days", 0.001}};
  const json none = test::advise_json(job)["recommendation"];
  CHECK(none["best"].is_null());
  REQUIRE(none["no_plan"].is_object());
  CHECK(none["no_plan"]["params"].contains("nearest_days"));
  bool calendar = false;
  for (const auto& x : none["rejected"]) {
    if (x["reason"]["code"] != "misses_calendar") continue;
    calendar = true;
    CHECK(x["reason"]["params"]["earliest_days"].get<double>() > 0.001);
    CHECK(x["reason"]["params"]["done_within_days"].get<double>() == 0.001);
  }
  CHECK(calendar);
}

TEST_CASE("bad tax, financing and lead-time input is a located error", "[cost][errors]") {
  struct Case {
    json patch;
    const char* path;
    const char* code;
  };
  const Case cases[] = {
      {{{"cost", {{"vat_deductible", "yes"}}}}, "/cost/vat_deductible", "wrong_type"},
      {{{"cost", {{"financing_rate", -0.01}}}}, "/cost/financing_rate", "out_of_range"},
      {{{"cost", {{"financing_rate", 1.5}}}}, "/cost/financing_rate", "out_of_range"},
      {{{"cost", {{"financing_rate", "6%"}}}}, "/cost/financing_rate", "wrong_type"},
      {{{"cost", {{"financing_rate", 0.06}, {"financing_term_years", 2.5}}}},
       "/cost/financing_term_years",
       "not_integer"},
      {{{"cost", {{"financing_rate", 0.06}, {"financing_term_years", 0}}}},
       "/cost/financing_term_years",
       "out_of_range"},
      {{{"cost", {{"financing_term_years", 3}}}}, "/cost/financing_term_years", "inconsistent"},
      {{{"cost", {{"purchase_lead_time_days", -1}}}},
       "/cost/purchase_lead_time_days",
       "out_of_range"},
      {{{"cost", {{"move_in_days", "2 weeks"}}}}, "/cost/move_in_days", "wrong_type"},
      {{{"cost", {{"rental_lead_time_days", 1e6}}}}, "/cost/rental_lead_time_days", "out_of_range"},
      {{{"goal", {{"done_within_days", -3}}}}, "/goal/done_within_days", "out_of_range"},
      {{{"goal", {{"done_within_days", 0}}}}, "/goal/done_within_days", "out_of_range"},
  };
  for (const Case& c : cases) {
    INFO(c.patch.dump());
    const json e = error_of(test::request("lora", "qwen2.5-7b", c.patch));
    CHECK(e["path"] == c.path);
    CHECK(e["code"] == c.code);
  }
}
