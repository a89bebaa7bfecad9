// SPDX-License-Identifier: MIT
// Power, facility, cost and capacity: hand-computed cases for every formula, properties, the
// price catalog, and located errors (docs/cost.md).
#include <catch2/catch.hpp>
#include <cmath>

#include "api.hpp"
#include "engine/capacity.hpp"
#include "engine/cost.hpp"
#include "engine/power.hpp"
#include "helpers.hpp"
#include "io/cost_settings_json.hpp"
#include "io/prices_json.hpp"
#include "plan/cost_results.hpp"
#include "types/cost_settings.hpp"
#include "types/errors.hpp"
#include "types/prices.hpp"

namespace {

using nlohmann::json;

json advise(const json& j) {
  bool ok = false;
  auto out = json::parse(advisor::advise_text(j.dump(), &ok));
  INFO(out.dump().substr(0, 2000));
  REQUIRE(ok);
  return out;
}

json error_of(const json& j) {
  bool ok = true;
  const auto out = json::parse(advisor::advise_text(j.dump(), &ok));
  CHECK_FALSE(ok);
  REQUIRE(out.contains("error"));
  return out["error"];
}

/// 8x H100 SXM, fine-tuning Llama-3.1-8B, plus `patch`.
json h100_request(const json& patch = json::object()) {
  json j = test::request("full_finetune", "llama-3.1-8b",
                         {{"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 8}}}});
  j.merge_patch(patch);
  return j;
}

/// Every price and factor set so the arithmetic is easy (see "one server, one year").
json simple_prices(int life_years, double rent_per_hour = 20) {
  return {{"power",
           {{"host_watts", 2400},
            {"training_load_factor", 1.0},
            {"idle_load_factor", 0.25},
            {"pue", 1.5},
            {"rack_kw", 10}}},
          {"cost",
           {{"life_years", life_years},
            {"residual_fraction", 0},
            {"utilization", 0.5},
            {"tariff", "flat"},
            {"network_line", "bgp"},
            {"network_mbps", 100},
            {"operations_capex_share", 0.03},
            {"spares_share", 0.02},
            {"reserved_discount", 0.3},
            {"egress_tb_per_month", 0},
            {"prices",
             {{"gpu_purchase_cny", 200000},
              {"server_platform_cny", 400000},
              {"rental_cny_per_gpu_hour", rent_per_hour},
              {"electricity_flat_cny_per_kwh", 1.0},
              {"colocation_cny_per_rack_month", 5000},
              {"network_cny_per_mbps_month", 50}}}}}};
}

double line(const json& option, const std::string& name) {
  for (const auto& i : option["line_items"])
    if (i["name"] == name) return i["yearly_cny"].get<double>();
  FAIL("no line item " << name);
  return 0;
}

const json& find_default(const json& cost, const std::string& key) {
  for (const auto& d : cost["defaults_used"])
    if (d["key"] == key) return d;
  FAIL("no default " << key);
  return cost;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Power

TEST_CASE("server power: GPUs x TDP x (1 + cooling share) + host parts", "[cost][power]") {
  // 8 x 700 W x 1.5 + 1,800 W = 8,400 + 1,800 = 10,200 W: the DGX H100 maximum.
  CHECK(advisor::server_watts_full_load({700, 8, 1800, 0.5}) == Approx(10200));
  // The same calibration lands near the other DGX figures: A100 8 x 400 x 1.5 + 1,800 = 6,600 W
  // (published 6.5 kW), B200 8 x 1,000 x 1.5 + 1,800 = 13,800 W (published 14.3 kW).
  CHECK(advisor::server_watts_full_load({400, 8, 1800, 0.5}) == Approx(6600));
  CHECK(advisor::server_watts_full_load({1000, 8, 1800, 0.5}) == Approx(13800));
  // 8 x L40S in a PCIe server: 8 x 350 x 1.25 + 1,150 = 3,500 + 1,150 = 4,650 W.
  CHECK(advisor::server_watts_full_load({350, 8, 1150, 0.25}) == Approx(4650));
  // 10 H100s, 8 a server: 10,200 + (2 x 700 x 1.5 + 1,800 = 3,900) = 14,100 W.
  CHECK(advisor::fleet_watts_full_load({700, 0, 1800, 0.5}, 10, 8) == Approx(14100));
}

TEST_CASE("racks: servers per rack by power and by space", "[cost][power]") {
  // 12 kW / 10.2 kW = 1 by power; 38U / 8U = 4 by space: 1 a rack, 3 racks for 3 servers.
  auto f = advisor::fit_racks(12, 10200, 38, 8, 3);
  CHECK(f.servers_per_rack_by_power == 1);
  CHECK(f.servers_per_rack_by_space == 4);
  CHECK(f.servers_per_rack == 1);
  CHECK(f.racks_needed == 3);
  CHECK(f.fits);
  // 20 kW / 4.65 kW = 4.3 -> 4; 38U / 4U = 9: 4 a rack, ceil(10 / 4) = 3 racks.
  f = advisor::fit_racks(20, 4650, 38, 4, 10);
  CHECK(f.servers_per_rack == 4);
  CHECK(f.racks_needed == 3);
  // Space binds: 2 kW servers of 8U in a 20 kW rack: 10 by power, 4 by space.
  f = advisor::fit_racks(20, 2000, 38, 8, 5);
  CHECK(f.servers_per_rack == 4);
  CHECK(f.racks_needed == 2);
  // Exactly full: 4 x 2.5 kW in 10 kW.
  CHECK(advisor::fit_racks(10, 2500, 38, 4, 4).racks_needed == 1);
  // A 12 kW server does not fit a 10 kW rack: ceil(1.2) = 2 racks' circuits per server.
  f = advisor::fit_racks(10, 12000, 38, 8, 3);
  CHECK_FALSE(f.fits);
  CHECK(f.racks_per_server == 2);
  CHECK(f.racks_needed == 6);
}

TEST_CASE("office verdict against the source's 3-4 kW racks", "[cost][power]") {
  auto v = advisor::office_verdict(10200, 1, 3, 4, 1, 38, 8);
  CHECK_FALSE(v.can_host);
  CHECK(v.level == "no");
  CHECK(v.reason_code == "server_exceeds_office_rack");
  CHECK(advisor::office_reason_text(v).find("10.2 kW") != std::string::npos);
  CHECK(advisor::office_reason_text(v).find("IDC") != std::string::npos);
  v = advisor::office_verdict(2850, 1, 3, 4, 1, 38, 8);  // one H100 in its server
  CHECK(v.can_host);
  CHECK(v.level == "yes");
  v = advisor::office_verdict(3500, 1, 3, 4, 1, 38, 4);  // fits only at 4 kW
  CHECK(v.can_host);
  CHECK(v.level == "marginal");
  // Two 1.8 kW servers: at 3 kW one a rack (2 racks > 1); at 4 kW both in one.
  v = advisor::office_verdict(1800, 2, 3, 4, 1, 38, 4);
  CHECK(v.level == "marginal");
  v = advisor::office_verdict(1800, 3, 3, 4, 1, 38, 4);  // 5.4 kW: 2 racks at 4 kW, have 1
  CHECK(v.level == "no");
  CHECK(advisor::office_verdict(1800, 3, 3, 4, 2, 38, 4).level == "marginal");
}

// ---------------------------------------------------------------------------------------------
// Electricity

TEST_CASE("time-of-use energy, hand-computed", "[cost][energy]") {
  advisor::EnergyInputs in;
  in.busy_watts = 1000;
  in.idle_watts = 0;
  in.utilization = 0.5;
  in.pue = 1;
  in.tariff = {2.0, 1.0, 0.5, 7, 9, 8};  // peak, flat, valley prices; 7/9/8 hours
  // Spread evenly: 12 busy hours = 3.5 peak + 4.5 flat + 4 valley a day.
  // kWh a year: 1,277.5 / 1,642.5 / 1,460 -> 1,277.5 x 2 + 1,642.5 x 1 + 1,460 x 0.5 = 4,927.5.
  auto e = advisor::yearly_energy(in);
  CHECK(e.it_kwh_per_year == Approx(4380));
  CHECK(e.cny_per_year == Approx(4927.5));
  CHECK(e.periods[0].busy_hours_per_day == Approx(3.5));
  // Cheapest hours first: 8 valley + 4 flat: 2,920 x 0.5 + 1,460 x 1 = 2,920.
  in.valley_shift_share = 1;
  e = advisor::yearly_energy(in);
  CHECK(e.cny_per_year == Approx(2920));
  // Idle 100 W in the 7 peak and 5 flat idle hours: 255.5 x 2 + 182.5 x 1 = 693.5 more,
  // and PUE 1.5 scales all of it: (2,920 + 693.5) x 1.5 = 5,420.25.
  in.idle_watts = 100;
  in.pue = 1.5;
  e = advisor::yearly_energy(in);
  CHECK(e.cny_per_year == Approx(5420.25));
  CHECK(e.facility_kwh_per_year == Approx((4380 + 255.5 + 182.5) * 1.5));
  // Half shifted: the mean of the two schedules (energy is linear in the schedule).
  in.idle_watts = 0;
  in.pue = 1;
  in.valley_shift_share = 0.5;
  CHECK(advisor::yearly_energy(in).cny_per_year == Approx((4927.5 + 2920) / 2));
}

TEST_CASE("critical peak averaged into the peak price", "[cost][energy]") {
  // 1.19 x (1 + 0.25 x 3/7 x 92/365) = 1.19 x 1.027006 = 1.222137.
  CHECK(advisor::effective_peak_price(1.19, 1.25, 3, 7, 92) ==
        Approx(1.19 * (1 + 0.25 * 3.0 / 7 * 92.0 / 365)));
  CHECK(advisor::effective_peak_price(1.19, 1.25, 3, 7, 92) == Approx(1.2221369863));
  const auto points = advisor::energy_breakpoints({1.19, 0.7, 0.266, 7, 9, 8});
  REQUIRE(points.size() == 4);
  CHECK(points[1] == Approx(8.0 / 24));
  CHECK(points[2] == Approx(17.0 / 24));
}

// ---------------------------------------------------------------------------------------------
// Options

TEST_CASE("buy: capex, straight-line hardware, running costs, cash by year", "[cost][buy]") {
  advisor::BuyInputs b;
  b.gpus = 8;
  b.servers = 1;
  b.gpu_price_cny = 100000;
  b.platform_price_cny = 200000;  // capex = 200,000 + 8 x 100,000 = 1,000,000
  b.life_years = 5;
  b.residual_fraction = 0.1;  // residual 100,000
  b.colocation_cny_per_year = 60000;
  b.electricity_cny_per_year = 50000;
  b.network_cny_per_year = 12000;
  b.operations_capex_share = 0.03;  // 30,000
  b.spares_share = 0.02;            // 20,000
  const auto c = advisor::buy_cost(b);
  CHECK(c.capex_cny == Approx(1000000));
  CHECK(c.residual_cny == Approx(100000));
  // hardware (1,000,000 - 100,000) / 5 = 180,000; total a year 180,000 + 60,000 + 50,000 +
  // 12,000 + 30,000 + 20,000 = 352,000; lifetime 1,760,000.
  CHECK(c.line_items[0].name == "hardware");
  CHECK(c.line_items[0].yearly_cny == Approx(180000));
  CHECK(c.average_yearly_cny == Approx(352000));
  CHECK(c.lifetime_cny == Approx(1760000));
  // Cash: year 1 pays the purchase (1,000,000 + 172,000 running), year 5 gets the residual.
  REQUIRE(c.yearly_cny.size() == 5);
  CHECK(c.yearly_cny[0] == Approx(1172000));
  CHECK(c.yearly_cny[1] == Approx(172000));
  CHECK(c.yearly_cny[4] == Approx(72000));
  CHECK(c.cumulative_cny[3] == Approx(1688000));
  CHECK(c.cumulative_cny[4] == Approx(1760000));
  // Operations by staff: 0.5 FTE x 300,000 = 150,000 a year instead of 30,000.
  b.operations_by_staff = true;
  b.staff_fte = 0.5;
  b.staff_cny_per_year = 300000;
  CHECK(advisor::buy_cost(b).average_yearly_cny == Approx(352000 - 30000 + 150000));
  // One-year life: everything lands in year 1: 1,000,000 + 172,000 - 100,000 = 1,072,000.
  b.operations_by_staff = false;
  b.life_years = 1;
  const auto one = advisor::buy_cost(b);
  REQUIRE(one.yearly_cny.size() == 1);
  CHECK(one.yearly_cny[0] == Approx(1072000));
  CHECK(one.lifetime_cny == Approx(1072000));
}

TEST_CASE("rent: only hours used are paid, reserved pays every month", "[cost][rent]") {
  advisor::RentInputs r;
  r.gpus = 8;
  r.utilization = 0.5;
  r.cny_per_gpu_hour = 20;
  r.years = 5;
  r.egress_tb_per_month = 2;
  r.egress_cny_per_tb = 800;
  const auto c = advisor::rent_cost(r);
  // 8 x 8,760 x 0.5 = 35,040 GPU-hours x 20 = 700,800; egress 2 x 12 x 800 = 19,200.
  CHECK(c.line_items[0].yearly_cny == Approx(700800));
  CHECK(c.line_items[1].yearly_cny == Approx(19200));
  CHECK(c.average_yearly_cny == Approx(720000));
  CHECK(c.lifetime_cny == Approx(3600000));
  advisor::ReservedInputs v;
  v.gpus = 8;
  v.cny_per_gpu_month = 10000;
  v.years = 5;
  // 8 x 12 x 10,000 = 960,000 a year whatever the use.
  CHECK(advisor::reserved_cost(v).average_yearly_cny == Approx(960000));
}

TEST_CASE("break-even utilisation is solved, not assumed", "[cost][break-even]") {
  // buy = 1,000,000 + 100,000 u, rent = 2,000,000 u -> u = 1,000,000 / 1,900,000.
  auto f = [](double u) { return 1000000 + 100000 * u - 2000000 * u; };
  CHECK(*advisor::break_even_utilization(f, {0, 1}) == Approx(1.0 / 1.9));
  // Piecewise: the same root found whatever the breakpoints.
  CHECK(*advisor::break_even_utilization(f, {0, 1.0 / 3, 17.0 / 24, 1}) == Approx(1.0 / 1.9));
  // Renting cheaper even at 100%: never.
  CHECK_FALSE(advisor::break_even_utilization([](double u) { return 1 - 0.5 * u; }, {0, 1}));
  // Buying cheaper even idle: 0.
  CHECK(*advisor::break_even_utilization([](double u) { return -1 - u; }, {0, 1}) == 0);
  // Year: cumulative buy at or below cumulative rent.
  advisor::OptionCost buy, rent;
  buy.cumulative_cny = {1000, 1100, 1200};
  rent.cumulative_cny = {500, 1000, 1500};
  CHECK(*advisor::break_even_year(buy, rent) == 3);
}

TEST_CASE("per run and per million tokens", "[cost][run]") {
  // 1,000 GPU-hours at 20 CNY = 20,000 CNY.
  CHECK(advisor::cost_per_run(1000, 20) == Approx(20000));
  // 8 GPUs at 20 CNY/h serving 1,000 tokens/s: 160 CNY an hour / 3.6M tokens = 44.44 per M.
  CHECK(advisor::cost_per_million_tokens(20, 8, 1000) == Approx(160.0 / 3.6));
  CHECK(*advisor::cost_per_gpu_hour(35040 * 65.0, 35040) == Approx(65));
  CHECK_FALSE(advisor::cost_per_gpu_hour(1000, 0));
}

TEST_CASE("hybrid: own the base load, rent the bursts", "[cost][hybrid]") {
  // 11 months of 2,000 GPU-hours and one of 10,000. A server of 8 cards delivers 8 x 730 =
  // 5,840 a month. Owning costs 300,000 a server-year; renting 20 CNY/h (+1,000 if any).
  std::array<double, 12> demand;
  demand.fill(2000);
  demand[6] = 10000;
  auto owned = [](int servers, double) { return servers * 300000.0; };
  const auto h = advisor::optimise_hybrid(demand, 8, 1.0, owned, 20, 1000);
  REQUIRE(h.candidates.size() == 3);  // 0, 1, 2 servers (2 cover the 10,000 peak)
  // 0: 32,000 h rented x 20 + 1,000 = 641,000.
  CHECK(h.candidates[0].average_yearly_cny == Approx(641000));
  // 1: owned 11 x 2,000 + 5,840 = 27,840; rented 4,160 x 20 + 1,000 = 84,200; + 300,000.
  CHECK(h.candidates[1].owned_gpu_hours_per_year == Approx(27840));
  CHECK(h.candidates[1].average_yearly_cny == Approx(384200));
  // 2: all owned, nothing rented: 600,000.
  CHECK(h.candidates[2].average_yearly_cny == Approx(600000));
  CHECK(h.best.servers == 1);
  CHECK(h.rented_monthly[6] == Approx(4160));
  CHECK(h.owned_monthly[0] == Approx(2000));
}

TEST_CASE("hybrid search over many servers finds the exhaustive optimum", "[cost][hybrid]") {
  // A seasonal profile needing up to ~1,000 servers; racks add steps every 3 servers.
  std::array<double, 12> demand;
  for (int m = 0; m < 12; ++m) demand[m] = 5840.0 * (300 + 60 * m + (m == 11 ? 300 : 0));
  auto owned = [](int servers, double hours) {
    return servers * 150000.0 + ((servers + 2) / 3) * 20000.0 + hours * 2;
  };
  const auto h = advisor::optimise_hybrid(demand, 8, 1.0, owned, 20, 0);
  CHECK(h.candidates.size() < 300);
  double best = 1e300;
  int best_k = -1;
  for (int k = 0; k <= 1260; ++k) {
    double owned_hours = 0, rented = 0;
    for (double d : demand) {
      owned_hours += std::min(d, k * 5840.0);
      rented += d - std::min(d, k * 5840.0);
    }
    const double cost = (k > 0 ? owned(k, owned_hours) : 0) + rented * 20;
    if (cost < best) {
      best = cost;
      best_k = k;
    }
  }
  CHECK(h.best.servers == best_k);
  CHECK(h.best.average_yearly_cny == Approx(best));
}

// ---------------------------------------------------------------------------------------------
// Capacity

TEST_CASE("capacity from dated job history", "[cost][capacity]") {
  bool dated = false;
  const auto rows = advisor::parse_jobs_csv(
      "job,gpu_type,gpus,hours,month\n"
      "a,A100,8,100,2026-07\n"
      "b,A100,4,50,2026-08\n"
      "c,H100,8,200,2026-09\n"
      "d,A100,2,10,2026-09\n",
      "/capacity/jobs_csv", &dated);
  CHECK(dated);
  advisor::CapacityInputs in;
  in.jobs = rows;
  const auto plan = advisor::plan_capacity(in);
  CHECK(plan.months == 3);
  REQUIRE(plan.by_type.size() == 2);
  const auto& a100 = plan.by_type[0];
  // A100: Jul 800, Aug 200, Sep 20 = 1,020 -> 340 a month; x 1.3 / 730 = 0.61 -> 1 card by
  // the hours, the busiest month 800 x 1.3 / 730 = 1.42 -> 2; but job "a" runs on 8 at once.
  CHECK(a100.gpu_hours_total == Approx(1020));
  CHECK(a100.average_monthly_gpu_hours == Approx(340));
  CHECK(a100.widest_job_gpus == 8);
  CHECK(a100.cards_needed == 8);
  CHECK(a100.cards_needed_for_peak == 8);
  REQUIRE(a100.monthly.size() == 3);
  CHECK(a100.monthly[0].month == "2026-07");
  CHECK(a100.monthly[2].gpu_hours == Approx(20));
  // H100: 1,600 in September only -> 533.3 a month -> 0.95 -> 1 card; peak 2.85 -> 3; the
  // 8-GPU job needs 8.
  CHECK(plan.by_type[1].cards_needed == 8);
  CHECK(plan.by_type[1].cards_needed_for_peak == 8);
}

TEST_CASE("capacity without dates uses the 3-month window", "[cost][capacity]") {
  advisor::CapacityInputs in;
  in.jobs = {{"x", "L40S", 1, 2190, "", ""}};  // 2,190 GPU-hours in 3 months = 730 a month
  auto t = advisor::plan_capacity(in).by_type[0];
  CHECK(t.average_monthly_gpu_hours == Approx(730));
  CHECK(t.cards_needed == 2);  // 730 x 1.3 / 730 = 1.3 -> 2 cards
  CHECK(t.expected_utilization == Approx(0.5));
  in.buffer = 0;
  CHECK(advisor::plan_capacity(in).by_type[0].cards_needed == 1);  // exactly 1.0 is 1 card
  in.buffer = 0.3;
  in.target_utilization = 0.8;  // 1.3 / 0.8 = 1.625 -> 2
  CHECK(advisor::plan_capacity(in).by_type[0].cards_needed == 2);
  // The same hours as one 3-GPU job need 3 cards at once.
  in.jobs = {{"x", "L40S", 3, 730, "", ""}};
  CHECK(advisor::plan_capacity(in).by_type[0].cards_needed == 3);
  CHECK(advisor::months_between("2025-11", "2026-02") == 4);
}

TEST_CASE("capacity through the API, CSV or rows", "[cost][capacity]") {
  json capacity = {{"jobs_csv", "job\tgpu_type\tgpus\thours\nsft\th100-sxm-80gb\t8\t273.75\n"}};
  const auto r = advise(h100_request({{"capacity", capacity}}));
  const auto& c = r["capacity"];
  CHECK(c["months"] == 3);
  CHECK(c["dated"] == false);
  // 8 x 273.75 = 2,190 GPU-hours in 3 months = 730 a month -> 2 cards with the 30% buffer,
  // but the job runs on 8 at once.
  CHECK(c["by_gpu_type"][0]["cards_needed"] == 8);
  CHECK(c["by_gpu_type"][0]["catalog_gpu"] == "h100-sxm-80gb");
  json job = {
      {"job", "a"}, {"gpu_type", "A100"}, {"gpus", 8}, {"hours", 100}, {"date", "2026-07-14"}};
  capacity = {{"jobs", json::array({job})}, {"buffer", 0}};
  const auto rows = advise(h100_request({{"capacity", capacity}}));
  CHECK(rows["capacity"]["first_month"] == "2026-07");
  CHECK(rows["capacity"]["by_gpu_type"][0]["cards_needed"] == 8);  // 800 / 730 -> 2; 8 at once
  CHECK(rows["capacity"]["by_gpu_type"][0]["gpu_type"] == "a100-sxm-80gb");  // "A100" matched
}

// ---------------------------------------------------------------------------------------------
// End to end, hand-computed

TEST_CASE("one server, one year, known prices: exact yuan", "[cost][api]") {
  const auto r = advise(h100_request(simple_prices(1)));
  const auto& p = r["power"];
  // 8 x 700 W + 2,400 W host (the override replaces parts and the cooling share) = 8,000 W.
  CHECK(p["server_watts_full_load"].get<double>() == Approx(8000));
  CHECK(p["servers"] == 1);
  CHECK(p["rack_kw"].get<double>() == Approx(10));
  CHECK(p["racks_needed"] == 1);
  CHECK(p["facility_kw"].get<double>() == Approx(12));  // 8 kW x PUE 1.5
  CHECK(p["office_verdict"]["can_host"] == false);
  const auto& c = r["cost"];
  const auto& buy = c["options"]["buy"];
  // capex 400,000 + 8 x 200,000 = 2,000,000, all in year 1 (life 1, no residual).
  CHECK(buy["capex_cny"].get<double>() == Approx(2000000));
  CHECK(line(buy, "hardware") == Approx(2000000));
  CHECK(line(buy, "colocation") == Approx(60000));  // 1 rack x 5,000 x 12
  // Busy 8 kW x 4,380 h = 35,040 kWh; idle 2 kW x 4,380 h = 8,760 kWh;
  // 43,800 kWh x PUE 1.5 x 1.0 CNY = 65,700.
  CHECK(line(buy, "electricity") == Approx(65700));
  CHECK(line(buy, "network") == Approx(60000));              // 100 Mbps x 50 x 12
  CHECK(line(buy, "operations") == Approx(60000));           // 3% of 2,000,000
  CHECK(line(buy, "spares_and_failures") == Approx(40000));  // 2%
  CHECK(buy["lifetime_cny"].get<double>() == Approx(2285700));
  CHECK(buy["yearly_cny"][0].get<double>() == Approx(2285700));
  // Rent: 8 x 8,760 x 0.5 x 20 = 700,800; reserved 20 x 730 x 0.7 x 8 x 12 = 981,120.
  CHECK(c["options"]["rent"]["lifetime_cny"].get<double>() == Approx(700800));
  CHECK(c["options"]["rent_reserved"]["lifetime_cny"].get<double>() == Approx(981120));
  CHECK(c["cheapest_option"] == "rent");
  // In one year buying never pays: buy(u) = 2,246,280 + 78,840 u > rent(u) = 1,401,600 u.
  CHECK(c["break_even_utilization"].is_null());
  CHECK(c["seventy_percent_rule_holds"] == false);
  // Per GPU-hour used: 2,285,700 / 35,040 = 65.23 (buy), 20 (rent).
  CHECK(c["cost_per_gpu_hour_cny"]["buy"].get<double>() == Approx(2285700.0 / 35040));
  CHECK(c["cost_per_gpu_hour_cny"]["rent"].get<double>() == Approx(20));
  CHECK(c["utilization_source"] == "request");
  CHECK(find_default(c, "ownership.life_years")["overridden"] == true);
  CHECK(find_default(c, "ownership.life_years")["override_path"] == "/cost/life_years");
}

TEST_CASE("break-even over five years, and where the 70% rule holds", "[cost][api]") {
  // A year: hardware 400,000 + colocation 60,000 + network 60,000 + operations 60,000 +
  // spares 40,000 + idle-floor energy 2 kW x 8,760 h x 1.5 = 26,280 -> 646,280 fixed; energy
  // rises 6 kW x 8,760 x 1.5 = 78,840 per unit of utilisation. Rent rises 8 x 8,760 x 20 =
  // 1,401,600. Break-even u = 646,280 / (1,401,600 - 78,840) = 0.4886.
  auto r = advise(h100_request(simple_prices(5)));
  auto& c = r["cost"];
  CHECK(c["break_even_utilization"].get<double>() == Approx(646280.0 / 1322760));
  CHECK(c["seventy_percent_rule_holds"] == false);
  CHECK(c["seventy_percent_rule_note"].get<std::string>().find("48.9%") != std::string::npos);
  // At 14.3 CNY/h renting rises 8 x 8,760 x 14.3 = 1,002,144 -> u = 646,280 / 923,304 = 0.70.
  r = advise(h100_request(simple_prices(5, 14.3)));
  CHECK(r["cost"]["break_even_utilization"].get<double>() == Approx(646280.0 / 923304));
  CHECK(r["cost"]["seventy_percent_rule_holds"] == true);
  // At 5 CNY/h renting (350,400 a year at 100%) is cheaper even fully used: never.
  r = advise(h100_request(simple_prices(5, 5)));
  CHECK(r["cost"]["break_even_utilization"].is_null());
  CHECK(r["cost"]["seventy_percent_rule_holds"] == false);
  // The buy and rent lines cross where the break-even says: at u* they cost the same.
  json at = simple_prices(5);
  at["cost"]["utilization"] = 646280.0 / 1322760;
  r = advise(h100_request(at));
  CHECK(r["cost"]["options"]["buy"]["lifetime_cny"].get<double>() ==
        Approx(r["cost"]["options"]["rent"]["lifetime_cny"].get<double>()));
}

TEST_CASE("cost per run and per million tokens through the API", "[cost][api]") {
  json patch = simple_prices(1);
  patch["cost"]["run_gpu_hours"] = 1000;
  patch["cost"]["tokens_per_second"] = 1000;
  const auto c = advise(h100_request(patch))["cost"];
  CHECK(c["run_gpu_hours_source"] == "request");
  CHECK(c["cost_per_run_cny"]["rent"].get<double>() == Approx(20000));
  CHECK(c["cost_per_run_cny"]["buy"].get<double>() == Approx(1000 * 2285700.0 / 35040));
  CHECK(c["cost_per_million_tokens_cny"]["rent"].get<double>() == Approx(160.0 / 3.6));
  // Without run_gpu_hours the speed model's training GPU-hours price the run when it has them.
  const auto s = advise(h100_request(simple_prices(1)))["cost"];
  if (!s["run_gpu_hours"].is_null()) CHECK(s["run_gpu_hours_source"] == "speed_model");
}

TEST_CASE("hybrid split through the API", "[cost][api][hybrid]") {
  json patch = simple_prices(5);
  json demand = json::array();
  for (int m = 0; m < 12; ++m) demand.push_back(m == 6 ? 5840 : 2920);  // 4 cards, 8 in July
  patch["cost"].erase("utilization");
  patch["cost"]["monthly_demand_gpu_hours"] = demand;
  const auto r = advise(h100_request(patch));
  const auto& c = r["cost"];
  // Utilisation implied by the profile: (11 x 2,920 + 5,840) / (8 x 8,760) = 0.5417.
  CHECK(c["utilization_source"] == "monthly_demand");
  CHECK(c["utilization"].get<double>() == Approx((11 * 2920.0 + 5840) / (8 * 8760)));
  const auto& split = c["hybrid_split"];
  const double owned = split["owned_gpu_hours_per_year"].get<double>();
  const double rented = split["rented_gpu_hours_per_year"].get<double>();
  CHECK(owned + rented == Approx(11 * 2920.0 + 5840));
  // The chosen split is the cheapest candidate.
  for (const auto& k : split["candidates"])
    CHECK(split["average_yearly_cny"].get<double>() <=
          k["average_yearly_cny"].get<double>() + 1e-6);
  // The hybrid option is never dearer than pure rent for the same demand (0 servers is a
  // candidate).
  CHECK(c["options"]["hybrid"]["lifetime_cny"].get<double>() <=
        c["options"]["rent"]["lifetime_cny"].get<double>() + 1e-6);
}

// ---------------------------------------------------------------------------------------------
// Properties

TEST_CASE("property: higher utilisation never lowers rental cost", "[cost][property]") {
  double last = -1;
  for (int i = 0; i <= 20; ++i) {
    advisor::RentInputs r;
    r.gpus = 8;
    r.utilization = i / 20.0;
    r.cny_per_gpu_hour = 24.779;
    r.egress_tb_per_month = 1;
    r.egress_cny_per_tb = 800;
    const double cost = advisor::rent_cost(r).lifetime_cny;
    CHECK(cost >= last);
    last = cost;
  }
  // Through the API with the catalog defaults, for two GPUs.
  for (const char* gpu : {"h100-sxm-80gb", "l40s-48gb"}) {
    last = -1;
    for (double u : {0.0, 0.2, 0.5, 0.7, 0.9, 1.0}) {
      json j = test::request(
          "lora", "llama-3.1-8b",
          {{"hardware", {{"gpu", gpu}, {"count", 8}}}, {"cost", {{"utilization", u}}}});
      const double cost = advise(j)["cost"]["options"]["rent"]["lifetime_cny"].get<double>();
      CHECK(cost >= last);
      last = cost;
    }
  }
}

TEST_CASE("property: a longer life never raises yearly capex", "[cost][property]") {
  for (double residual : {0.0, 0.1, 0.3}) {
    double last = 1e300;
    for (int life = 1; life <= 10; ++life) {
      advisor::BuyInputs b;
      b.gpus = 8;
      b.servers = 1;
      b.gpu_price_cny = 287500;
      b.platform_price_cny = 400000;
      b.life_years = life;
      b.residual_fraction = residual;
      const double capex_per_year = advisor::buy_cost(b).line_items[0].yearly_cny;
      CHECK(capex_per_year <= last);
      last = capex_per_year;
    }
  }
  double last = 1e300;
  for (int life = 1; life <= 8; ++life) {
    const auto r = advise(h100_request({{"cost", {{"life_years", life}}}}));
    const double v = line(r["cost"]["options"]["buy"], "hardware");
    CHECK(v <= last);
    last = v;
  }
}

TEST_CASE("property: cost = sum of line items = sum of the years", "[cost][property]") {
  for (const char* gpu : {"h100-sxm-80gb", "l40s-48gb", "rtx4090-24gb", "h20-96gb"}) {
    for (const char* site : {"shenzhen", "dongguan", "shaoguan"}) {
      INFO(gpu << " at " << site);
      json j = test::request("lora", "llama-3.1-8b",
                             {{"hardware", {{"gpu", gpu}, {"count", 16}}},
                              {"cost", {{"site", site}, {"valley_shift_share", 0.5}}}});
      const auto c = advise(j)["cost"];
      const int years = c["life_years"].get<int>();
      for (const char* option : {"buy", "rent", "rent_reserved", "hybrid"}) {
        const auto& o = c["options"][option];
        if (o.is_null()) continue;
        INFO(option);
        double items = 0, cash = 0;
        for (const auto& i : o["line_items"]) items += i["yearly_cny"].get<double>();
        for (const auto& y : o["yearly_cny"]) cash += y.get<double>();
        CHECK(items == Approx(o["average_yearly_cny"].get<double>()));
        CHECK(items * years == Approx(o["lifetime_cny"].get<double>()));
        CHECK(cash == Approx(o["lifetime_cny"].get<double>()));
        CHECK(o["cumulative_cny"].back().get<double>() == Approx(o["lifetime_cny"].get<double>()));
      }
    }
  }
}

TEST_CASE("property: doubling electricity changes only the energy line", "[cost][property]") {
  for (const char* tariff : {"time_of_use", "flat"}) {
    INFO(tariff);
    auto run = [&](double price) {
      return advise(h100_request(
          {{"cost", {{"tariff", tariff}, {"prices", {{"electricity_flat_cny_per_kwh", price}}}}}}));
    };
    const auto a = run(0.7)["cost"]["options"];
    const auto b = run(1.4)["cost"]["options"];
    for (const auto& item : a["buy"]["line_items"]) {
      const std::string name = item["name"];
      INFO(name);
      const double before = item["yearly_cny"].get<double>();
      const double after = line(b["buy"], name);
      if (name == "electricity") {
        CHECK(after == Approx(2 * before));
      } else {
        CHECK(after == Approx(before));
      }
    }
    CHECK(b["rent"]["lifetime_cny"] == a["rent"]["lifetime_cny"]);
  }
}

TEST_CASE("property: moving training to valley hours only lowers the bill", "[cost][property]") {
  double last = 1e300;
  for (double s : {0.0, 0.25, 0.5, 1.0}) {
    const auto c = advise(h100_request({{"cost", {{"valley_shift_share", s}}}}))["cost"];
    const double e = c["electricity"]["cny_per_year"].get<double>();
    CHECK(e <= last + 1e-9);
    last = e;
  }
  // At 100% utilisation nothing can move.
  const auto full = advise(h100_request({{"cost", {{"utilization", 1.0}}}}))["cost"];
  CHECK(full["electricity"]["valley_shift_max_saving_cny_per_year"].get<double>() ==
        Approx(0).margin(1e-6));
}

// ---------------------------------------------------------------------------------------------
// Defaults, sites, hardware choice

TEST_CASE("prices.json covers the catalog and dates every entry", "[cost][data]") {
  const auto& prices = advisor::builtin_catalog().prices;
  for (const auto& g : advisor::builtin_catalog().gpus) {
    INFO(g.id);
    CHECK(prices.gpus.count(g.id) == 1);
  }
  for (const auto& [id, p] : prices.gpus) {
    INFO(id);
    CHECK(advisor::builtin_catalog().find_gpu(id) != nullptr);
    for (const auto* e : {p.purchase_cny ? &*p.purchase_cny : nullptr,
                          p.rental_cny_per_gpu_hour ? &*p.rental_cny_per_gpu_hour : nullptr}) {
      if (e == nullptr) continue;
      CHECK_FALSE(e->source.empty());
      CHECK_FALSE(e->as_of.empty());
      if (e->source.find("example") != std::string::npos) CHECK(e->needs_confirmation);
    }
  }
  // What the reference could not source is flagged: Shenzhen tariffs and colocation prices.
  CHECK(prices.find_site("shenzhen")->electricity_flat_cny_per_kwh.needs_confirmation);
  for (const auto& [kw, e] : prices.rack_classes) CHECK(e.needs_confirmation);
  CHECK(prices.usd_to_cny.needs_confirmation);
  // What it did source is not: the Guangdong TOU ratios, the source's 5-year life.
  CHECK_FALSE(prices.at("tariff.peak_ratio").needs_confirmation);
  CHECK(prices.at("tariff.peak_ratio").value == 1.7);
  CHECK_FALSE(prices.at("ownership.life_years").needs_confirmation);
  CHECK(prices.at("planning.capacity_buffer").value == 0.3);
}

TEST_CASE("defaults_used lists sources, dates, flags and overrides", "[cost][data]") {
  auto c = advise(h100_request())["cost"];
  CHECK(c["currency"] == "CNY");
  CHECK(c["needs_confirmation"] == true);
  const auto& flat = find_default(c, "sites.shenzhen.electricity_flat_cny_per_kwh");
  CHECK(flat["needs_confirmation"] == true);
  CHECK(flat["overridden"] == false);
  CHECK(flat["override_path"] == "/cost/prices/electricity_flat_cny_per_kwh");
  for (const auto& d : c["defaults_used"]) {
    INFO(d.dump());
    CHECK_FALSE(d["source"].get<std::string>().empty());
    CHECK_FALSE(d["as_of"].get<std::string>().empty());
  }
  // Rentals are Chinese CNY listings (AutoDL: H800-80G 10.50 CNY/h is the H100's proxy, flagged).
  const auto& rent = find_default(c, "gpus.h100-sxm-80gb.rental");
  CHECK(rent["value"].get<double>() == Approx(10.5));
  CHECK(rent["needs_confirmation"] == true);
  // A USD list price is converted at the dated rate and flagged with it; confirming the rate
  // converts again and clears the flag (the A100's purchase estimate is in USD).
  auto a100 = h100_request({{"hardware", {{"gpu", "a100-sxm-80gb"}}}});
  c = advise(a100)["cost"];
  CHECK(find_default(c, "gpus.a100-sxm-80gb.purchase")["value"].get<double>() ==
        Approx(11500 * 7.1));
  a100.merge_patch({{"cost", {{"prices", {{"usd_to_cny", 7.0}}}}}});
  c = advise(a100)["cost"];
  CHECK(find_default(c, "gpus.a100-sxm-80gb.purchase")["value"].get<double>() ==
        Approx(11500 * 7.0));
  CHECK(find_default(c, "exchange_rates.USD")["overridden"] == true);
  // Per-GPU prices by id, as an IDC's own price list would give them.
  c = advise(h100_request(
      {{"cost",
        {{"prices",
          {{"gpus", {{"h100-sxm-80gb", {{"rental_cny_per_gpu_hour", 15}}}}}}}}}}))["cost"];
  CHECK(c["options"]["rent"]["cny_per_gpu_hour"].get<double>() == Approx(15));
  CHECK(find_default(c, "gpus.h100-sxm-80gb.rental")["override_path"] ==
        "/cost/prices/gpus/h100-sxm-80gb/rental_cny_per_gpu_hour");
}

TEST_CASE("sites: Shenzhen vs Dongguan, Huizhou and Shaoguan, with the data note",
          "[cost][sites]") {
  const auto c = advise(h100_request())["cost"];
  CHECK(c["options"]["hybrid"].is_null());  // no monthly profile, no bursts to rent
  const auto& sites = c["site_comparison"];
  REQUIRE(sites.size() == 4);
  CHECK(sites[0]["site"] == "shenzhen");
  CHECK(sites[0]["selected"] == true);
  CHECK(sites[0]["difference_vs_selected_cny_per_year"].get<double>() == Approx(0).margin(1e-6));
  for (std::size_t i = 1; i < sites.size(); ++i) {
    INFO(sites[i]["site"]);
    // Cheaper power and space outside Shenzhen (the source's claim, example figures).
    CHECK(sites[i]["electricity_cny_per_year"].get<double>() <
          sites[0]["electricity_cny_per_year"].get<double>());
    CHECK(sites[i]["difference_vs_selected_cny_per_year"].get<double>() < 0);
  }
  // Shaoguan is 0.134 CNY/kWh below the Pearl River Delta (Dongguan) price.
  CHECK(sites[3]["electricity_flat_cny_per_kwh"].get<double>() ==
        Approx(sites[1]["electricity_flat_cny_per_kwh"].get<double>() - 0.134));
  CHECK(c["site_note"]["data_zh"].get<std::string>().find("专线") != std::string::npos);
  CHECK(c["site_note"]["siting_zh"].get<std::string>().find("东莞") != std::string::npos);
  // Choosing a site moves the electricity and colocation lines.
  const auto d = advise(h100_request({{"cost", {{"site", "dongguan"}}}}))["cost"];
  CHECK(d["site"]["id"] == "dongguan");
  CHECK(line(d["options"]["buy"], "electricity") < line(c["options"]["buy"], "electricity"));
}

TEST_CASE("office hosting and facility types", "[cost][power]") {
  // One RTX 4090 in a 4-card workstation (prices.json pcie_small), not an 8-slot chassis:
  // 450 x 1.15 + 450 (CPU 350 + memory 50 + NIC 25 + storage 25) = 967.5 W fits a 3 kW rack.
  auto r = advise(test::request("qlora", "llama-3.1-8b",
                                {{"hardware", {{"gpu", "rtx4090-24gb"}, {"count", 1}}},
                                 {"power", {{"facility", "office"}}}}));
  CHECK(r["power"]["server_watts_full_load"].get<double>() == Approx(967.5));
  CHECK(r["power"]["gpus_per_server"] == 4);
  CHECK(r["power"]["office_verdict"]["can_host"] == true);
  CHECK(r["power"]["pue"].get<double>() == Approx(2.0));
  CHECK(line(r["cost"]["options"]["buy"], "colocation") == 0);
  CHECK(line(r["cost"]["options"]["buy"], "network") == 0);  // the office's own line
  // 8 x H100 in an office: no, with a warning that says why.
  r = advise(h100_request({{"power", {{"facility", "office"}}}}));
  CHECK(r["power"]["office_verdict"]["can_host"] == false);
  bool warned = false;
  for (const auto& w : r["warnings"]) warned |= w["code"] == "office_cannot_host";
  CHECK(warned);
  // Hub-node PUE is the policy's 1.25.
  r = advise(h100_request({{"power", {{"facility", "hub_node"}}}}));
  CHECK(r["power"]["pue"].get<double>() == Approx(1.25));
  // Per-kW colocation: 1 rack x 12 kW x 600 CNY x 12 months = 86,400 (Shenzhen).
  r = advise(h100_request({{"cost", {{"colocation_pricing", "per_kw"}}}}));
  CHECK(r["power"]["rack_kw"].get<double>() == Approx(12));
  CHECK(line(r["cost"]["options"]["buy"], "colocation") == Approx(86400));
}

TEST_CASE("without pinned hardware the recommended plan is costed", "[cost][api]") {
  const auto r = advise(test::request("lora", "llama-3.1-8b"));
  const auto& c = r["cost"];
  REQUIRE(c.is_object());
  CHECK(c["hardware"]["pinned"] == false);
  // The cost and power panels price the answer, not another GPU.
  REQUIRE(r["recommendation"]["best"].is_object());
  CHECK(c["hardware"]["gpu"] == r["recommendation"]["best"]["gpu"]);
  CHECK(c["hardware"]["count"] == r["recommendation"]["best"]["gpus"]);
  CHECK(r["power"]["gpu"] == c["hardware"]["gpu"]);
}

TEST_CASE("without pinned hardware a demand profile sets the count", "[cost][api]") {
  json demand = json::array();
  for (int m = 0; m < 12; ++m) demand.push_back(m < 6 ? 20000 : 40000);  // 360,000 a year
  const auto r = advise(
      test::request("lora", "llama-3.1-8b", {{"cost", {{"monthly_demand_gpu_hours", demand}}}}));
  const auto& c = r["cost"];
  REQUIRE(c.is_object());
  // 360,000 / 8,760 = 41.1 -> at least 42 cards, so utilisation stays at or below 100%.
  CHECK(c["hardware"]["count"].get<int>() >= 42);
  CHECK(c["utilization"].get<double>() <= 1.0);
  CHECK(c["hybrid_split"].is_object());
  // A monthly rental price replaces the one derived from the hourly price and the discount.
  const auto m = advise(
      h100_request({{"cost", {{"prices", {{"rental_monthly_cny_per_gpu", 9000}}}}}}))["cost"];
  CHECK(m["options"]["rent_reserved"]["average_yearly_cny"].get<double>() == Approx(8 * 12 * 9000));
}

TEST_CASE("per-option power and cost fields", "[cost][api]") {
  const auto r = advise(h100_request());
  for (const auto& o : r["options"]) {
    INFO(o["gpu"]);
    if (o["min_layout"].is_null()) {
      CHECK(o["cost"].is_null());
      continue;
    }
    CHECK(o["power"]["server_watts_full_load"].get<double>() > 0);
    CHECK(o["power"]["racks_needed"].get<int>() >= 1);
    CHECK(o["cost"].contains("break_even_utilization"));
  }
}

// ---------------------------------------------------------------------------------------------
// Located errors

TEST_CASE("bad cost input is a located error, never clamped", "[cost][errors]") {
  struct Case {
    json patch;
    const char* path;
    const char* code;
  };
  const Case cases[] = {
      {{{"cost", {{"prices", {{"gpu_purchase_cny", -1}}}}}},
       "/cost/prices/gpu_purchase_cny",
       "out_of_range"},
      {{{"cost", {{"prices", {{"electricity_flat_cny_per_kwh", -0.5}}}}}},
       "/cost/prices/electricity_flat_cny_per_kwh",
       "out_of_range"},
      {{{"cost", {{"prices", {{"gpus", {{"l40s-48gb", {{"purchase_cny", -5}}}}}}}}}},
       "/cost/prices/gpus/l40s-48gb/purchase_cny",
       "out_of_range"},
      {{{"cost", {{"life_years", 0}}}}, "/cost/life_years", "out_of_range"},
      {{{"cost", {{"life_years", 2.5}}}}, "/cost/life_years", "not_integer"},
      {{{"cost", {{"utilization", 1.2}}}}, "/cost/utilization", "out_of_range"},
      {{{"cost", {{"utilization", -0.1}}}}, "/cost/utilization", "out_of_range"},
      {{{"cost", {{"utilization", "70%"}}}}, "/cost/utilization", "wrong_type"},
      {{{"cost", {{"valley_shift_share", 1.5}}}}, "/cost/valley_shift_share", "out_of_range"},
      {{{"cost", {{"site", "guangzhou"}}}}, "/cost/site", "unknown_value"},
      {{{"cost", {{"tariff", "peak"}}}}, "/cost/tariff", "unknown_value"},
      {{{"cost", {{"prices", {{"gpu_price", 1}}}}}}, "/cost/prices/gpu_price", "unknown_field"},
      {{{"cost", {{"prices", {{"gpus", {{"h100", {{"purchase_cny", 1}}}}}}}}}},
       "/cost/prices/gpus/h100",
       "unknown_gpu"},
      {{{"cost", {{"monthly_demand_gpu_hours", {1, 2, 3}}}}},
       "/cost/monthly_demand_gpu_hours",
       "wrong_type"},
      {{{"cost", {{"monthly_demand_gpu_hours", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -12}}}}},
       "/cost/monthly_demand_gpu_hours/11",
       "out_of_range"},
      {{{"cost", {{"monthly_demand_gpu_hours", {1e6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}}}}},
       "/cost/monthly_demand_gpu_hours",
       "out_of_range"},  // 8 GPUs cannot deliver 1M a year
      {{{"cost", {{"prices", {{"colocation_cny_per_rack_month", 5000}}}}}},
       "/cost/prices/colocation_cny_per_rack_month",
       "inconsistent"},
      {{{"cost", {{"staff_fte", 1}}}}, "/cost/staff_fte", "inconsistent"},
      {{{"power", {{"pue", 0.9}}}}, "/power/pue", "out_of_range"},
      {{{"power", {{"facility", "garage"}}}}, "/power/facility", "unknown_value"},
      {{{"power", {{"rack_kw", 9}}}}, "/power/rack_kw", "inconsistent"},  // no 9 kW class price
      {{{"power", {{"rack_kw", 0}}}}, "/power/rack_kw", "out_of_range"},
      {{{"power", {{"training_load_factor", 1.5}}}}, "/power/training_load_factor", "out_of_range"},
      {{{"power", {{"watts", 1}}}}, "/power/watts", "unknown_field"},
      {{{"cost", 5}}, "/cost", "wrong_type"},
  };
  for (const auto& c : cases) {
    INFO(c.patch.dump());
    const auto e = error_of(h100_request(c.patch));
    CHECK(e["path"] == c.path);
    CHECK(e["code"] == c.code);
    CHECK(e["message"].get<std::string>().find(c.path) != std::string::npos);
  }
  // Server-specific overrides need pinned hardware.
  const auto e = error_of(test::request("lora", "llama-3.1-8b",
                                        {{"cost", {{"prices", {{"gpu_purchase_cny", 1000}}}}}}));
  CHECK(e["path"] == "/cost/prices/gpu_purchase_cny");
  CHECK(e["code"] == "inconsistent");
}

TEST_CASE("bad job history is a located error naming row and column", "[cost][errors][capacity]") {
  struct Case {
    const char* csv;
    const char* path;
    const char* code;
  };
  const Case cases[] = {
      {"job,gpu_type,gpus\na,A100,8\n", "/capacity/jobs_csv/row 1/hours", "missing_column"},
      {"job,gpus,hours\na,8,10\n", "/capacity/jobs_csv/row 1/gpu_type", "missing_column"},
      {"job,gpu_type,gpus,hours\na,A100,8,10\nb,A100,8,ten\n", "/capacity/jobs_csv/row 3/hours",
       "wrong_type"},
      {"job,gpu_type,gpus,hours\na,A100,eight,10\n", "/capacity/jobs_csv/row 2/gpus", "wrong_type"},
      {"job,gpu_type,gpus,hours\na,A100,8,nan\n", "/capacity/jobs_csv/row 2/hours", "wrong_type"},
      {"job,gpu_type,gpus,hours\na,A100,8,\n", "/capacity/jobs_csv/row 2/hours", "missing_field"},
      {"job,gpu_type,gpus,hours\na,A100,2.5,10\n", "/capacity/jobs_csv/row 2/gpus", "not_integer"},
      {"job,gpu_type,gpus,hours\na,A100,8,-3\n", "/capacity/jobs_csv/row 2/hours", "out_of_range"},
      {"job,gpu_type,gpus,hours\na,A100,8\n", "/capacity/jobs_csv/row 2", "bad_csv"},
      {"job,gpu_type,gpus,hours\n\na,,8,10\n", "/capacity/jobs_csv/row 3/gpu_type",
       "missing_field"},
      {"job,gpu_type,gpus,hours,month\na,A100,8,10,July\n", "/capacity/jobs_csv/row 2/month",
       "bad_date"},
      {"job,gpu_type,gpus,hours,date\na,A100,8,10,2026-13-01\n", "/capacity/jobs_csv/row 2/date",
       "bad_date"},
      {"job,gpu_type,gpus,hours\n", "/capacity/jobs_csv", "missing_field"},
      {"", "/capacity/jobs_csv", "missing_field"},
      {"job,gpu_type,gpus,hours\n\"a,A100,8,10\n", "/capacity/jobs_csv/row 2", "bad_csv"},
  };
  for (const auto& c : cases) {
    INFO(c.csv);
    const auto e = error_of(h100_request({{"capacity", {{"jobs_csv", c.csv}}}}));
    CHECK(e["path"] == c.path);
    CHECK(e["code"] == c.code);
    CHECK(e["message"].get<std::string>().find(c.path) != std::string::npos);
  }
  // Rows as JSON: paths are JSON pointers.
  json good = {{"job", "a"}, {"gpu_type", "A100"}, {"gpus", 8}, {"hours", 1}};
  json bad = {{"job", "b"}, {"gpu_type", "A100"}, {"gpus", "8"}, {"hours", 1}};
  json rows = {{"jobs", json::array({good, bad})}};
  auto e = error_of(h100_request({{"capacity", rows}}));
  CHECK(e["path"] == "/capacity/jobs/1/gpus");
  CHECK(e["code"] == "wrong_type");
  e = error_of(h100_request(
      {{"capacity", {{"jobs_csv", "job,gpu_type,gpus,hours\na,A,1,1\n"}, {"buffer", -0.1}}}}));
  CHECK(e["path"] == "/capacity/buffer");
  e = error_of(h100_request({{"capacity", {{"buffer", 0.2}}}}));
  CHECK(e["path"] == "/capacity/jobs_csv");
}

TEST_CASE("a bad price catalog names the file and field", "[cost][errors][data]") {
  json doc = json::parse(test::data_file("prices.json"));
  doc["gpus"]["h100-sxm-80gb"]["purchase"]["value"] = -1;
  try {
    test::throwing([&] { return advisor::parse_price_catalog(doc.dump()); });
    FAIL("accepted a negative price");
  } catch (const advisor::InputError& e) {
    CHECK(e.path() == "prices.json/gpus/h100-sxm-80gb/purchase/value");
  }
  doc = json::parse(test::data_file("prices.json"));
  doc["tariff"]["valley_hours"]["value"] = 9;  // 7 + 9 + 9 = 25 hours
  CHECK_THROWS_AS(test::throwing([&] { return advisor::parse_price_catalog(doc.dump()); }),
                  advisor::InputError);
  doc = json::parse(test::data_file("prices.json"));
  doc["sites"][0]["electricity_flat_cny_per_kwh"].erase("source");
  try {
    test::throwing([&] { return advisor::parse_price_catalog(doc.dump()); });
    FAIL("accepted an entry without a source");
  } catch (const advisor::InputError& e) {
    CHECK(e.path() == "prices.json/sites/0/electricity_flat_cny_per_kwh/source");
  }
}

TEST_CASE(
    "capacity planning plans: names matched to the catalog, job widths, whole servers, "
    "a buy/rent decision and the hybrid's months",
    "[cost][capacity]") {
  nlohmann::json request = test::request("pretrain", "llama-2-13b");
  request["hardware"] = {{"gpu", "a800-sxm-80gb"}, {"count", 64}};
  request["capacity"] = {
      {"jobs_csv",
       "job,gpu_type,gpus,hours,month\npt,A800,64,300,2026-01\n"
       "ft,H800 80G,8,100,2026-02\nft2,4090D,4,300,2026-03\nx,a800 80g,20,50,2026-03\n"}};
  bool ok = false;
  const auto out = nlohmann::json::parse(advisor::advise_text(request.dump(), &ok));
  REQUIRE(ok);
  const auto& types = out["capacity"]["by_gpu_type"];
  REQUIRE(types.size() == 3);  // "A800" and "a800 80g" are one part
  CHECK(types[0]["gpu_type"] == "a800-sxm-80gb");
  CHECK(types[0]["names"].size() == 2);
  CHECK(types[0]["cards_needed"].get<int>() >= 64);     // the 64-GPU job needs 64 cards at once
  CHECK(types[0]["cards_to_buy"].get<int>() % 8 == 0);  // whole 8-GPU servers
  CHECK(types[1]["gpu_type"] == "h800-sxm-80gb");
  CHECK(types[2]["gpu_type"] == "rtx4090d-24gb");
  CHECK(types[2]["cards_to_buy"] == 4);  // inside one server: no rounding
  CHECK(types[0]["cheapest"].is_string());
  CHECK(out["capacity"]["demand_for_cost"] == "a800-sxm-80gb");
  CHECK(out["cost"]["hybrid_split"]["monthly"][0]["demand_gpu_hours"].get<double>() > 0);
  // An unknown name is a located error naming the close matches.
  request["capacity"] = {{"jobs_csv", "job,gpu_type,gpus,hours\na,H1OO,1,1\n"}};
  const auto bad = nlohmann::json::parse(advisor::advise_text(request.dump(), &ok));
  CHECK_FALSE(ok);
  CHECK(bad["error"]["code"] == "unknown_gpu");
  CHECK(bad["error"]["path"] == "/capacity/jobs_csv/row 2/gpu_type");
  CHECK(bad["error"]["message"].get<std::string>().find("h100") != std::string::npos);
}
