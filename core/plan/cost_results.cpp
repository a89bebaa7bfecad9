// SPDX-License-Identifier: MIT
// Power, facility and cost for a request: resolves every default and override against the
// catalog's prices (recording where each came from), runs the pure models in engine/power,
// engine/cost and engine/capacity, and fills the plan's power, cost and capacity results.
#include "plan/cost_results.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <iterator>
#include <utility>

#include "engine/cost_scenario.hpp"
#include "plan/capacity_results.hpp"
#include "plan/cost_sections.hpp"
#include "plan/validate.hpp"
#include "types/checked.hpp"
#include "types/errors.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

/// A positive finite figure from the speed model, else nothing.
std::optional<double> usable(std::optional<double> v) {
  if (v && std::isfinite(*v) && *v > 0) return v;
  return std::nullopt;
}

/// Lifetimes of the options a scenario can price, for ranking and the per-option summary.
struct Summary {
  std::optional<double> buy, rent, reserved;
  std::optional<double> buy_average_yearly;  // the bought option's average cost per year
  std::optional<double> break_even;
  std::string cheapest;
  double cheapest_lifetime = 0;
  bool needs_confirmation = false;
  bool over_capacity = false;
};

/// `power` is plan_power(s, s.gpus).
Summary summarise(const CostScenario& s, const PowerPlan& power) {
  Summary m;
  m.needs_confirmation = s.needs_confirmation;
  if (s.utilization > 1) {
    m.over_capacity = true;
    return m;
  }
  if (s.gpu_price_cny) {
    const OptionTotals buy = buy_totals(s, s.gpus, s.utilization, nullptr, &power);
    m.buy = buy.lifetime_cny;
    m.buy_average_yearly = buy.average_yearly_cny;
  }
  if (s.rent_cny_per_gpu_hour) m.rent = rent_totals(s, s.gpus, s.utilization).lifetime_cny;
  if (s.reserved_cny_per_gpu_month) m.reserved = reserved_totals(s, s.gpus).lifetime_cny;
  m.break_even = break_even(s, s.gpus, &power);
  for (const auto& [name, v] : {std::pair<const char*, std::optional<double>>{"buy", m.buy},
                                {"rent", m.rent},
                                {"rent_reserved", m.reserved}}) {
    if (v && (m.cheapest.empty() || *v < m.cheapest_lifetime)) {
      m.cheapest = name;
      m.cheapest_lifetime = *v;
    }
  }
  return m;
}

/// The GPU count to cost for an unpinned option: its minimum count, raised (to the next count
/// the parallelism allows) until it can deliver the yearly demand profile when one is given.
int costed_count(const Request& req, const CostRequest& rq, int min_count, int per_server) {
  if (req.hardware || !rq.cost.monthly_demand_gpu_hours || rq.cost.utilization) return min_count;
  double total = 0;
  for (double m : *rq.cost.monthly_demand_gpu_hours) total += m;
  const int need = checked_int(std::ceil(total / kHoursPerYear - 1e-9),
                               "/cost/monthly_demand_gpu_hours", "the GPUs the demand needs");
  int n = std::max(min_count, need);
  while (n < kMaxGpuCount && !layout_for_count(req, n, per_server)) ++n;
  return n;
}

/// The hardware the cost section prices, and why.
struct CostedHardware {
  const GpuSpec* gpu = nullptr;  // none: no hardware pinned and no fitting option priced
  int gpus = 0;
  std::string reason, reason_code;
  std::optional<Deployment> deployment;  // the plan's, when pinned or recommended
  std::optional<Facility> facility;
};

/// The pinned GPU, at the fleet a serving target needs when there is one, else the layout's.
CostedHardware pinned_hardware(const Request& req, const Catalog& catalog, const Layout& layout,
                               std::optional<int> fleet_gpus) {
  CostedHardware hw;
  hw.gpu = catalog.find_gpu(req.hardware->gpu);
  hw.gpus = fleet_gpus.value_or(layout.count);
  hw.reason = fleet_gpus ? "the pinned GPU, at the fleet the target load needs"
                         : "the pinned hardware (/hardware)";
  hw.reason_code = fleet_gpus ? "pinned_fleet" : "pinned";
  hw.deployment = req.hardware->deployment;
  hw.facility = req.hardware->facility;
  return hw;
}

/// Without pinned hardware: the recommended plan's hardware, so the cost panel prices the
/// answer; without one, the fitting option with the lowest lifetime cost.
CostedHardware unpinned_hardware(const Request& req, const std::vector<OptionRow>& options,
                                 const CandidatePlan* recommended) {
  const CostRequest& rq = req.cost;
  reject_server_overrides_without_hardware(rq);
  CostedHardware hw;
  if (recommended) {
    hw.gpu = recommended->gpu;
    // A demand profile may need more cards than the job alone.
    hw.gpus = costed_count(req, rq, recommended->gpus, recommended->layout.gpus_per_server);
    hw.deployment = recommended->deployment;
    hw.facility = recommended->facility;
  } else {
    double best = 0;
    for (const OptionRow& o : options) {
      if (!o.power_cost || !o.power_cost->cheapest) continue;
      const OptionPowerCost& pc = *o.power_cost;
      const double lifetime = *pc.cheapest == "buy"    ? *pc.buy_lifetime_cny
                              : *pc.cheapest == "rent" ? *pc.rent_lifetime_cny
                                                       : *pc.rent_reserved_lifetime_cny;
      if (hw.gpu == nullptr || lifetime < best) {
        hw.gpu = o.judged.gpu;
        hw.gpus = pc.gpus;
        best = lifetime;
      }
    }
  }
  if (hw.gpu == nullptr) return hw;
  const bool for_demand = rq.cost.monthly_demand_gpu_hours && !rq.cost.utilization;
  hw.reason_code = recommended  ? "recommended"
                   : for_demand ? "cheapest_for_demand"
                                : "cheapest_option";
  hw.reason = recommended  ? "no hardware pinned: the recommended plan's GPUs"
              : for_demand ? "no hardware pinned: the fitting GPU option with the lowest lifetime "
                             "cost, at the count that delivers the monthly demand"
                           : "no hardware pinned: the fitting GPU option with the lowest lifetime "
                             "cost (at its minimum count)";
  return hw;
}

/// Every default or override for `gpus` of `gpu` at the request's site. A demand profile that
/// the cards cannot deliver is the user's error, located.
CostScenario costed_scenario(const Request& req, const PriceCatalog& prices, const GpuSpec& gpu,
                             int gpus) {
  const CostRequest& rq = req.cost;
  CostScenario s = resolve_scenario(rq, prices, gpu, gpus, req.hardware.has_value(), rq.cost.site);
  if (s.utilization > 1) {
    report_problem("out_of_range", "/cost/monthly_demand_gpu_hours",
                   "/cost/monthly_demand_gpu_hours asks for " +
                       format_number(s.utilization * gpus * kHoursPerYear) + " GPU-hours a year; " +
                       std::to_string(gpus) + " GPUs deliver at most " +
                       format_number(gpus * kHoursPerYear) +
                       " (raise /hardware/count or lower the demand)");
  }
  return s;
}

/// The rack class and price the power plan `p` used in a data centre, for the editable table.
void record_rack_class(CostScenario& s, const PriceCatalog& prices, const CostRequest& rq,
                       const PowerPlan& p) {
  Recorder rec(&s.defaults_used, prices, rq.cost.prices.usd_to_cny);
  if (s.colocation_pricing == ColocationPricing::kPerRack) {
    bool recorded = false;
    for (const auto& [kw, entry] : prices.rack_classes) {
      if (std::fabs(kw - p.racks.rack_kw) < 1e-9) {
        rec.take(entry, s.rack_price_override, "/cost/prices/colocation_cny_per_rack_month");
        recorded = true;
      }
    }
    if (!recorded && s.rack_price_override) {
      rec.user("colocation.per_rack_month_cny", *s.rack_price_override, "CNY per rack-month",
               "/cost/prices/colocation_cny_per_rack_month");
    }
  }
  // A per-rack price is the price of one rack class: overriding it needs the class pinned.
  for (DefaultUsed& d : s.defaults_used)
    if (d.override_path == "/cost/prices/colocation_cny_per_rack_month")
      d.override_requires = {"/power/rack_kw"};
  PriceEntry used = prices.rack_classes_entry;
  used.value = p.racks.rack_kw;
  used.unit = "kW per rack (the class used)";
  rec.take(used, s.rack_kw_pinned, "/power/rack_kw");
}

/// The head of result.cost: what is costed and why, where, at what utilisation, for how long.
void describe_costed(CostResult& cost, const Request& req, const PriceCatalog& prices,
                     const CostedHardware& hw, const CostScenario& s) {
  cost.gpu = hw.gpu->id;
  cost.gpu_name = hw.gpu->name;
  cost.gpus = hw.gpus;
  cost.pinned = req.hardware.has_value();
  cost.hardware_reason = hw.reason;
  cost.hardware_reason_code = hw.reason_code;
  cost.deployment = hw.deployment;
  cost.facility = hw.facility;
  const SiteDefaults& site = site_of(prices, s.site_id);
  cost.site_id = site.id;
  cost.site_name = site.name;
  cost.site_name_zh = site.name_zh;
  cost.utilization = s.utilization;
  cost.utilization_source = s.utilization_source;
  cost.life_years = s.life_years;
}

/// The request with its bought cards where the recommended plan (unpinned) puts them: its
/// cost section prices that plan, in the office when the plan is there. Nothing to change
/// otherwise.
std::optional<Request> placed_as_costed(const Request& req, const CostedHardware& hw) {
  if (req.hardware || hw.deployment != Deployment::kBuy || !hw.facility ||
      *hw.facility == req.cost.power.facility)
    return std::nullopt;
  Request placed = req;
  placed.cost.power.facility = *hw.facility;
  if (*hw.facility == Facility::kOffice) placed.cost.power.rack_kw.reset();
  return placed;
}

/// A pinned deployment the costed GPU has no price for, or a pinned office that cannot host
/// its servers, is the user's error, located: never priced another way.
void check_pinned_plan(const Request& req, const CostResult& cost, const PowerPlan& p) {
  if (!req.hardware) return;
  const Hardware& h = *req.hardware;
  ADVISOR_REQUIRE_OR_RETURN(
      h.facility != Facility::kOffice || p.office.can_host, "unsupported", "/hardware/facility",
      "/hardware/facility \"office\": " + std::to_string(p.servers) + " server(s) of " +
          format_number(p.server_watts_full_load) + " W at full load exceed the office's racks (" +
          format_number(p.office.rack_kw_high) + " kW each); use \"idc\" or fewer GPUs");
  if (!h.deployment) return;
  const std::optional<PricedOption>& priced = *h.deployment == Deployment::kBuy    ? cost.buy
                                              : *h.deployment == Deployment::kRent ? cost.rent
                                                                                   : cost.reserved;
  if (priced) return;
  std::string why = "no price";
  for (const MissingPrice& m : cost.missing_prices)
    if (m.option == name_of(*h.deployment)) why = m.reason;
  report_problem("unsupported", "/hardware/deployment",
                 "/hardware/deployment " + in_quotes(name_of(*h.deployment)) + ": " + why);
}

/// A pinned count that is not whole baseboards of a part sold on them: bought, the boards come
/// whole. Refused when the pin says buy; said when it leaves the deployment open and a purchase
/// is priced.
void check_whole_boards(const Request& req, const CostScenario& s, const CostResult& cost,
                        std::vector<Warning>& warnings) {
  const int per = s.gpus_per_server;
  if (!req.hardware || !s.whole_board || per <= 0 || cost.gpus % per == 0) return;
  const int bought = (cost.gpus + per - 1) / per * per;
  const std::string board = std::to_string(per) + "-GPU baseboards";
  ADVISOR_REQUIRE_OR_RETURN(
      req.hardware->deployment != Deployment::kBuy, "inconsistent", "/hardware/count",
      "/hardware/count " + std::to_string(cost.gpus) + ": " + s.gpu->name + " is sold on " + board +
          ", so a purchase is " + std::to_string(bought) + " GPUs; pin /hardware/count " +
          std::to_string(bought) + ", or rent " + std::to_string(cost.gpus));
  if (!cost.buy) return;
  warnings.push_back({"whole_board_purchase",
                      s.gpu->name + " is sold on " + board + ": buying " +
                          std::to_string(cost.gpus) + " means buying " + std::to_string(bought) +
                          " (the buy option's price and power); renting is priced for " +
                          std::to_string(cost.gpus),
                      "/hardware/count",
                      {param("gpu", s.gpu->name), param("gpus", cost.gpus),
                       param("gpus_bought", bought), param("board_gpus", per)}});
}

/// Whether any default the cost used is an example or low-confidence: then a warning asks to
/// confirm them.
void flag_unconfirmed_prices(CostResult& cost, const PriceCatalog& prices,
                             std::vector<Warning>& warnings) {
  int flagged_count = 0;
  for (const DefaultUsed& d : cost.defaults_used) flagged_count += d.needs_confirmation ? 1 : 0;
  cost.needs_confirmation = flagged_count > 0;
  cost.prices_as_of = prices.as_of;
  if (flagged_count > 0) {
    warnings.push_back({"prices_need_confirmation",
                        std::to_string(flagged_count) +
                            " cost defaults are examples or low-confidence figures "
                            "(see cost.defaults_used): confirm them with your providers",
                        "/cost/prices",
                        {param("count", flagged_count)}});
  }
}

}  // namespace

OptionPowerCost option_power_cost(const Request& req, const Catalog& catalog, const GpuSpec& gpu,
                                  int gpus, std::optional<double> option_gpu_hours,
                                  SearchPrices& prices) {
  const CostRequest& rq = req.cost;
  gpus = costed_count(req, rq, gpus, gpus_per_server(req, catalog, gpu));
  // The request's own scenario (its site and facility), resolved once per GPU and platform.
  const CostScenario s = prices.at(gpu, gpus, false);
  const PowerPlan p = plan_power(s, gpus);
  const Summary m = summarise(s, p);
  OptionPowerCost out;
  out.server_watts_full_load = p.server_watts_full_load;
  out.servers = p.servers;
  out.racks_needed = p.racks.racks_needed;
  out.rack_kw = p.racks.rack_kw;
  out.office_can_host = p.office.can_host;
  out.gpus = gpus;
  out.buy_lifetime_cny = m.buy;
  out.rent_lifetime_cny = m.rent;
  out.rent_reserved_lifetime_cny = m.reserved;
  if (!m.cheapest.empty()) out.cheapest = m.cheapest;
  out.break_even_utilization = m.break_even;
  out.over_capacity = m.over_capacity;
  out.needs_confirmation = m.needs_confirmation;
  // A run priced with this option's own training GPU-hours (speed model), else the user's.
  std::optional<double> run_hours = rq.cost.run_gpu_hours;
  if (!run_hours) run_hours = usable(option_gpu_hours);
  if (run_hours && !m.over_capacity) {
    const double used = gpus * kHoursPerYear * s.utilization;
    OptionPowerCost::Run run;
    run.gpu_hours = *run_hours;
    if (m.buy_average_yearly) {
      const std::optional<double> buy_hour = cost_per_gpu_hour(*m.buy_average_yearly, used);
      if (buy_hour) run.buy = cost_per_run(*run_hours, *buy_hour);
    }
    // Rented, the run is billed in whole billing units, as the recommendation bills it.
    if (s.rent_cny_per_gpu_hour)
      run.rent =
          cost_per_run(billed_gpu_hours(*run_hours / gpus, gpus, s.rental_billing_unit_hours),
                       *s.rent_cny_per_gpu_hour);
    out.cost_per_run_cny = run;
  }
  return out;
}

namespace {

/// A job cadence is the year's demand on the costed cards: its runs' GPU-hours each month, unless
/// the request states a utilisation or a demand; so the cost section's utilisation of owned
/// cards is the recommendation's (plan/recommend.cpp prices a cadence's plans the same way).
std::optional<Request> with_cadence_demand(const Request& req,
                                           const std::optional<TrainingResult>& training,
                                           const CandidatePlan* recommended) {
  const CostSettings& c = req.cost.cost;
  if (!is_training(req.task) || !req.training.runs_per_month || c.utilization ||
      c.monthly_demand_gpu_hours)
    return std::nullopt;
  std::optional<double> run_gpu_hours;
  int gpus = 0;
  if (req.hardware && training && training->perf) {
    run_gpu_hours = training->perf->gpu_hours;
    gpus = req.hardware->count;
  } else if (!req.hardware && recommended) {
    run_gpu_hours = recommended->gpu_hours;
    gpus = recommended->gpus;
  }
  if (!run_gpu_hours || !(*run_gpu_hours > 0)) return std::nullopt;
  // Runs that overflow the month cannot share one set of cards (the search rents them).
  const double monthly = *req.training.runs_per_month * *run_gpu_hours;
  if (monthly > gpus * kHoursPerMonth) return std::nullopt;
  Request out = req;
  std::array<double, 12> months{};
  months.fill(monthly);
  out.cost.cost.monthly_demand_gpu_hours = months;
  return out;
}

}  // namespace

PowerCostSections plan_power_and_cost(const Request& request, const Catalog& catalog,
                                      const Layout& layout, std::optional<int> fleet_gpus,
                                      const std::optional<TrainingResult>& training,
                                      const std::optional<ServingResult>& serving,
                                      const std::vector<OptionRow>& options,
                                      const CandidatePlan* recommended) {
  const PriceCatalog& prices = catalog.prices;
  site_of(prices, request.cost.cost.site);  // an unknown site is the user's error, located
  PowerCostSections out;
  if (problem_reported()) return out;
  if (request.cost.capacity.given)
    out.capacity = plan_capacity_section(request.cost, prices, catalog);

  // Which hardware to cost: the pinned GPUs, else the recommended or cheapest fitting option.
  const CostedHardware hw = request.hardware ? pinned_hardware(request, catalog, layout, fleet_gpus)
                                             : unpinned_hardware(request, options, recommended);
  if (hw.gpu == nullptr) {
    out.warnings.push_back(
        {"cost_not_computed",
         "no hardware is pinned and no fitting GPU has a purchase or rental price: pin "
         "/hardware or give prices under /cost/prices/gpus",
         "/hardware",
         {}});
    return out;
  }
  const std::optional<Request> cadenced = with_cadence_demand(request, training, recommended);
  const Request& asked = cadenced ? *cadenced : request;
  const std::optional<Request> placed = placed_as_costed(asked, hw);
  const Request& req = placed ? *placed : asked;
  const CostRequest& rq = req.cost;
  const GpuSpec& gpu = *hw.gpu;
  const int gpus = hw.gpus;
  CostScenario s = costed_scenario(req, prices, gpu, gpus);
  const double u = s.utilization;
  const PowerPlan p = plan_power(s, gpus);
  if (s.facility != Facility::kOffice) record_rack_class(s, prices, rq, p);

  out.power = power_section(gpu, gpus, s, p, catalog.performance, out.warnings);
  CostResult& cost = out.cost.emplace();
  describe_costed(cost, req, prices, hw, s);
  EnergyResult energy = price_deployments(cost, req, prices, gpu, gpus, s, p);
  check_pinned_plan(req, cost, p);
  check_whole_boards(req, s, cost, out.warnings);
  // The year's demand: month by month when known, else the cards at the utilisation.
  const std::optional<MonthlyGpuHours> months = demand_months(rq, out.capacity, gpu.id);
  MonthlyGpuHours demand{};
  demand.fill(gpus * kHoursPerMonth * u);
  if (months) demand = *months;
  price_hybrid(cost, months, demand, s);
  cost.cheapest_option = cheapest_deployment(cost);
  if (months) warn_demand_peak(out.warnings, demand, gpus, rq);
  price_break_even(cost, s, gpus, p);
  price_per_unit(cost, req, s, gpus, demand, training, serving);

  // The defaults the scenario recorded go to the result now, before the scenario is copied
  // (electricity_section): they are the bulk of a copy (~40 entries of long strings).
  cost.defaults_used = std::move(s.defaults_used);
  if (!cost.buy) energy = energy_for(s, p, u);
  cost.electricity = electricity_section(s, p, u, energy);
  cost.site_comparison =
      compare_sites(req, prices, gpu, gpus, s, u, cost.buy ? cost.buy->cost.average_yearly_cny : 0);
  flag_unconfirmed_prices(cost, prices, out.warnings);
  return out;
}

}  // namespace advisor
