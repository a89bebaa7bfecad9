// SPDX-License-Identifier: MIT
// Power, facility and cost for a request: resolves every default and override against the
// catalog's prices (recording where each came from), runs the pure models in engine/power,
// engine/cost and engine/capacity, and fills the plan's power, cost and capacity results.
#include "plan/cost_results.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <utility>

#include "engine/cost_scenario.hpp"
#include "plan/capacity_results.hpp"
#include "plan/validate.hpp"
#include "types/checked.hpp"
#include "types/errors.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

std::string cny(double v) { return format_number(std::round(v * 100) / 100) + " CNY"; }

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

/// A figure the user gave, else the speed model's (when `predicted` applies), with its source:
/// "request" or "speed_model".
std::optional<double> given_or_predicted(const std::optional<double>& given,
                                         const std::optional<double>& predicted,
                                         std::optional<std::string>* source) {
  if (given) {
    *source = "request";
    return given;
  }
  if (predicted) {
    *source = "speed_model";
    return predicted;
  }
  return std::nullopt;
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


PricedOption priced(OptionCost cost) {
  PricedOption p;
  p.cost = std::move(cost);
  return p;
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
    if (s.rent_cny_per_gpu_hour) run.rent = cost_per_run(*run_hours, *s.rent_cny_per_gpu_hour);
    out.cost_per_run_cny = run;
  }
  return out;
}

PowerCostSections plan_power_and_cost(const Request& req, const Catalog& catalog,
                                      const Layout& layout, std::optional<int> fleet_gpus,
                                      const std::optional<TrainingResult>& training,
                                      const std::optional<ServingResult>& serving,
                                      const std::vector<OptionRow>& options,
                                      const CandidatePlan* recommended) {
  const CostRequest& rq = req.cost;
  const PriceCatalog& prices = catalog.prices;
  site_of(prices, rq.cost.site);  // an unknown site is the user's error, located
  PowerCostSections out;
  if (rq.capacity.given) out.capacity = plan_capacity_section(rq, prices, catalog);

  // Which hardware to cost: the pinned GPUs, else the cheapest fitting option.
  const GpuSpec* gpu = nullptr;
  int gpus = 0;
  std::string hardware_reason, hardware_reason_code;
  if (req.hardware) {
    gpu = catalog.find_gpu(req.hardware->gpu);
    gpus = fleet_gpus.value_or(layout.count);
    hardware_reason = fleet_gpus ? "the pinned GPU, at the fleet the target load needs"
                                 : "the pinned hardware (/hardware)";
    hardware_reason_code = fleet_gpus ? "pinned_fleet" : "pinned";
  } else {
    reject_server_overrides_without_hardware(rq);
    double best = 0;
    // The recommended plan's hardware, so the cost panel prices the answer; without one, the
    // fitting option with the lowest lifetime cost.
    if (recommended) {
      gpu = recommended->gpu;
      // A demand profile may need more cards than the job alone.
      gpus = costed_count(req, rq, recommended->gpus, recommended->layout.gpus_per_server);
    }
    for (const OptionRow& o : options) {
      if (recommended) break;
      if (!o.power_cost || !o.power_cost->cheapest) continue;
      const OptionPowerCost& pc = *o.power_cost;
      const double lifetime = *pc.cheapest == "buy"    ? *pc.buy_lifetime_cny
                              : *pc.cheapest == "rent" ? *pc.rent_lifetime_cny
                                                       : *pc.rent_reserved_lifetime_cny;
      if (gpu == nullptr || lifetime < best) {
        gpu = o.judged.gpu;
        gpus = pc.gpus;
        best = lifetime;
      }
    }
    if (gpu == nullptr) {
      out.warnings.push_back(
          {"cost_not_computed",
           "no hardware is pinned and no fitting GPU has a purchase or rental price: pin "
           "/hardware or give prices under /cost/prices/gpus",
           "/hardware", {}});
      return out;
    }
    hardware_reason_code = recommended ? "recommended"
                           : rq.cost.monthly_demand_gpu_hours && !rq.cost.utilization ? "cheapest_for_demand"
                                                                                       : "cheapest_option";
    hardware_reason = recommended ? "no hardware pinned: the recommended plan's GPUs"
                      : rq.cost.monthly_demand_gpu_hours && !rq.cost.utilization
                          ? "no hardware pinned: the fitting GPU option with the lowest lifetime "
                            "cost, at the count that delivers the monthly demand"
                          : "no hardware pinned: the fitting GPU option with the lowest lifetime "
                            "cost (at its minimum count)";
  }

  CostScenario s = resolve_scenario(rq, prices, *gpu, gpus, req.hardware.has_value(), rq.cost.site);
  if (s.utilization > 1) {
    throw InputError("out_of_range", "/cost/monthly_demand_gpu_hours",
                     "/cost/monthly_demand_gpu_hours asks for " +
                         format_number(s.utilization * gpus * kHoursPerYear) +
                         " GPU-hours a year; " + std::to_string(gpus) + " GPUs deliver at most " +
                         format_number(gpus * kHoursPerYear) +
                         " (raise /hardware/count or lower the demand)");
  }
  const double u = s.utilization;
  const PowerPlan p = plan_power(s, gpus);
  if (s.facility != Facility::kOffice) {
    // The rack class and price actually used, for the editable table.
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

  // ---- power
  PowerResult& power = out.power.emplace();
  power.gpu = gpu->id;
  power.gpus = gpus;
  power.gpus_per_server = s.gpus_per_server;
  power.plan = p;
  power.gpu_watts_per_server = gpu->tdp_watts * p.gpus_in_largest_server;
  power.host_watts = p.server_watts_full_load - power.gpu_watts_per_server;
  power.training_load_factor = s.training_load_factor;
  power.it_kw_full_load = p.fleet_watts_full_load / 1000;
  power.it_kw_typical = power.it_kw_full_load * s.training_load_factor;
  power.facility = s.facility;
  power.pue = s.pue;
  power.facility_kw = power.it_kw_full_load * s.pue;
  if (!p.racks.fits) {
    out.warnings.push_back(
        {"server_exceeds_rack",
         "one server draws " + format_number(std::round(p.server_watts_full_load) / 1000) +
             " kW, more than a " + format_number(p.racks.rack_kw) + " kW rack: it takes " +
             std::to_string(p.racks.racks_per_server) + " racks' circuits",
         "/power/rack_kw",
         {param("server_kw", p.server_watts_full_load / 1000), param("rack_kw", p.racks.rack_kw),
          param("racks_per_server", p.racks.racks_per_server)}});
  }
  if (s.facility == Facility::kOffice && !p.office.can_host) {
    out.warnings.push_back(
        {"office_cannot_host",
         office_reason_text(p.office),
         "/power/facility",
         {param("reason", std::string(p.office.reason_code)),
          param("total_kw", p.office.total_watts / 1000), param("rack_kw", p.office.rack_kw_high),
          param("office_racks", p.office.office_racks)}});
  }

  // ---- options
  CostResult& cost = out.cost.emplace();
  cost.gpu = gpu->id;
  cost.gpu_name = gpu->name;
  cost.gpus = gpus;
  cost.pinned = req.hardware.has_value();
  cost.hardware_reason = hardware_reason;
  cost.hardware_reason_code = hardware_reason_code;
  const SiteDefaults& site = site_of(prices, s.site_id);
  cost.site_id = site.id;
  cost.site_name = site.name;
  cost.site_name_zh = site.name_zh;
  cost.utilization = u;
  cost.utilization_source = s.utilization_source;
  cost.life_years = s.life_years;
  EnergyResult energy;
  if (s.gpu_price_cny) {
    PricedOption& b = cost.buy.emplace(priced(buy_option(s, gpus, u, &energy)));
    b.with_capex = true;
    b.servers = p.servers;
    b.gpus = gpus;
  } else {
    const std::string path = req.hardware ? "/cost/prices/gpu_purchase_cny"
                                          : "/cost/prices/gpus/" + gpu->id + "/purchase_cny";
    const auto listed = prices.gpus.find(gpu->id);
    const std::string why = listed != prices.gpus.end() ? listed->second.purchase_not_offered : "";
    cost.missing_prices.push_back(
        {"buy", why.empty() ? "no purchase price for " + gpu->name + " in the catalog"
                            : gpu->name + " is not offered for sale: " + why,
         path, why.empty() ? "no_purchase_price" : "not_offered_for_sale",
         {param("gpu", gpu->id), param("gpu_name", gpu->name), param("why", why)}});
  }
  if (s.reserved_cny_per_gpu_month) {
    PricedOption& r = cost.reserved.emplace(priced(reserved_option(s, gpus)));
    r.cny_per_gpu_month = *s.reserved_cny_per_gpu_month;
    r.gpus = gpus;
  }
  if (s.rent_cny_per_gpu_hour) {
    PricedOption& r = cost.rent.emplace(priced(rent_option(s, gpus, u)));
    r.cny_per_gpu_hour = *s.rent_cny_per_gpu_hour;
    r.gpus = gpus;
  } else {
    const std::string path = req.hardware ? "/cost/prices/rental_cny_per_gpu_hour"
                                          : "/cost/prices/gpus/" + gpu->id + "/rental_cny_per_gpu_hour";
    const auto listed = prices.gpus.find(gpu->id);
    const std::string why = listed != prices.gpus.end() ? listed->second.rental_not_offered : "";
    cost.missing_prices.push_back(
        {"rent", why.empty() ? "no rental price for " + gpu->name + " in the catalog"
                             : gpu->name + " is not offered for rent: " + why,
         path, why.empty() ? "no_rental_price" : "not_offered_for_rent",
         {param("gpu", gpu->id), param("gpu_name", gpu->name), param("why", why)}});
  }

  // ---- hybrid: own the base load, rent the bursts
  // Without a demand profile there are no bursts to rent: a flat demand would only "consolidate"
  // the pinned cards onto fewer, which a job that needs them together cannot do.
  // The months: the request's, else the job history's for this GPU (capacity planning).
  std::optional<std::array<double, 12>> months = rq.cost.monthly_demand_gpu_hours;
  if (!months && out.capacity) {
    months = demand_from_capacity(*out.capacity, gpu->id);
    if (months) out.capacity->demand_for_cost = gpu->id;
  }
  std::array<double, 12> demand{};
  demand.fill(gpus * kHoursPerMonth * u);
  if (months) demand = *months;
  if (!months) {
    cost.missing_prices.push_back({"hybrid", "the hybrid plan needs the demand month by month",
                                   "/cost/monthly_demand_gpu_hours", "hybrid_needs_months", {}});
  } else if (cost.buy && cost.rent) {
    const int per = s.gpus_per_server;
    auto owned_cost = [&](int servers, double owned_hours) {
      const int n = servers * per;
      return buy_totals(s, n, owned_hours / (n * kHoursPerYear)).average_yearly_cny;
    };
    const double egress_yearly = s.egress_tb_per_month * 12 * s.egress_cny_per_tb;
    const HybridPlan h = optimise_hybrid(demand, per, s.owned_max_utilization, owned_cost,
                                         *s.rent_cny_per_gpu_hour, egress_yearly);
    std::vector<LineItem> items;
    double capex = 0, residual = 0;
    const int owned_gpus = h.best.servers * per;
    if (h.best.servers > 0) {
      const OptionCost owned =
          buy_option(s, owned_gpus, h.best.owned_gpu_hours_per_year / (owned_gpus * kHoursPerYear));
      items = owned.line_items;
      capex = owned.capex_cny;
      residual = owned.residual_cny;
    }
    items.push_back({"rented_gpu_hours", h.best.rented_gpu_hours_per_year * *s.rent_cny_per_gpu_hour,
                     format_number(h.best.rented_gpu_hours_per_year) + " GPU-hours a year x " +
                         cny(*s.rent_cny_per_gpu_hour),
                     "rented_hours",
                     {param("gpu_hours", h.best.rented_gpu_hours_per_year),
                      param("cny_per_gpu_hour", *s.rent_cny_per_gpu_hour)}});
    const bool rented = h.best.rented_gpu_hours_per_year > 0;
    items.push_back({"data_transfer", rented ? egress_yearly : 0,
                     rented ? "egress of the rented part" : "nothing rented",
                     rented ? "egress_of_rented_part" : "nothing_rented", {}});
    PricedOption& hybrid =
        cost.hybrid.emplace(priced(finish_option(std::move(items), s.life_years, capex, residual)));
    hybrid.with_capex = true;
    HybridSplit& split = cost.hybrid_split.emplace();
    split.best = h.best;
    split.owned_gpus = owned_gpus;
    const double owned_capacity = owned_gpus * kHoursPerYear;
    if (owned_capacity > 0) split.owned_utilization = h.best.owned_gpu_hours_per_year / owned_capacity;
    split.lifetime_cny = hybrid.cost.lifetime_cny;
    split.owned_max_utilization = s.owned_max_utilization;
    for (std::size_t m = 0; m < 12; ++m) {
      split.monthly.push_back({static_cast<int>(m + 1), demand[m], h.owned_monthly[m],
                               h.rented_monthly[m]});
    }
    const std::size_t stride = std::max<std::size_t>(1, h.candidates.size() / 100);
    for (std::size_t i = 0; i < h.candidates.size(); i += stride)
      split.candidates.push_back(h.candidates[i]);
  } else {
    cost.missing_prices.push_back({"hybrid", "the hybrid plan needs both a purchase and a rental price",
                                   std::nullopt, "hybrid_needs_both_prices", {}});
  }
  {
    double best = 0;
    for (const auto& [name, c] :
         {std::pair<const char*, const std::optional<PricedOption>*>{"buy", &cost.buy},
          {"rent", &cost.rent},
          {"rent_reserved", &cost.reserved},
          {"hybrid", &cost.hybrid}}) {
      if (*c && (!cost.cheapest_option || (*c)->cost.lifetime_cny < best)) {
        cost.cheapest_option = name;
        best = (*c)->cost.lifetime_cny;
      }
    }
  }
  if (months) {
    const double peak = *std::max_element(demand.begin(), demand.end());
    if (peak > gpus * kHoursPerMonth) {
      out.warnings.push_back(
          {"demand_peak_exceeds_cards",
           "the busiest month needs " + format_number(peak) + " GPU-hours; " +
               std::to_string(gpus) + " GPUs deliver " + format_number(gpus * kHoursPerMonth) +
               " a month, so the buy option cannot serve it (see the hybrid plan)",
           rq.cost.monthly_demand_gpu_hours ? "/cost/monthly_demand_gpu_hours" : "/capacity",
           {param("peak_gpu_hours", peak), param("gpus", gpus),
            param("monthly_gpu_hours", gpus * kHoursPerMonth)}});
    }
  }

  // ---- break-even and the 70% rule
  const std::optional<double> be = break_even(s, gpus, &p);
  const bool comparable = cost.buy.has_value() && cost.rent.has_value();
  cost.break_even_utilization = be;
  if (comparable) cost.break_even_year = break_even_year(cost.buy->cost, cost.rent->cost);
  if (!comparable) {
    cost.seventy_percent_rule_note = "needs both a purchase and a rental price";
    cost.seventy_percent_rule = {"needs_both_prices", {}, cost.seventy_percent_rule_note};
  } else if (!be) {
    cost.seventy_percent_rule_holds = false;
    cost.seventy_percent_rule_note =
        "renting is cheaper even at 100% utilisation with these prices: buying never pays, "
        "so the ~70% rule does not hold";
    cost.seventy_percent_rule = {"renting_always_cheaper", {param("rule_share", s.seventy_percent_rule)},
                                 cost.seventy_percent_rule_note};
  } else {
    const bool holds = std::fabs(*be - s.seventy_percent_rule) <= s.seventy_percent_tolerance + 1e-12;
    cost.seventy_percent_rule_holds = holds;
    cost.seventy_percent_rule_note =
        "buying pays from " + format_number(std::round(*be * 1000) / 10) +
        "% utilisation with these prices; the source's ~70% rule " +
        (holds ? "holds (within " : "does not hold (outside ") +
        format_number(s.seventy_percent_rule * 100) + " +/- " +
        format_number(s.seventy_percent_tolerance * 100) + " points)";
    cost.seventy_percent_rule = {holds ? "rule_holds" : "rule_does_not_hold",
                                 {param("break_even_share", std::round(*be * 1000) / 1000),
                                  param("rule_share", s.seventy_percent_rule),
                                  param("tolerance_share", s.seventy_percent_tolerance)},
                                 cost.seventy_percent_rule_note};
  }

  // ---- per GPU-hour, per run, per million tokens
  const double used_hours = gpus * kHoursPerYear * u;
  PerOption& per_hour = cost.cost_per_gpu_hour_cny;
  per_hour["buy"] =
      cost.buy ? cost_per_gpu_hour(cost.buy->cost.average_yearly_cny, used_hours) : std::nullopt;
  per_hour["rent"] = s.rent_cny_per_gpu_hour;
  per_hour["rent_reserved"] =
      cost.reserved ? cost_per_gpu_hour(cost.reserved->cost.average_yearly_cny, used_hours)
                    : std::nullopt;
  double demand_total = 0;
  for (double d : demand) demand_total += d;
  per_hour["hybrid"] =
      cost.hybrid ? cost_per_gpu_hour(cost.hybrid->cost.average_yearly_cny, demand_total)
                  : std::nullopt;

  // The speed model's figures price a run or a token only for the pinned hardware.
  std::optional<double> predicted_hours, predicted_tps;
  if (req.hardware && training && training->perf) predicted_hours = usable(training->perf->gpu_hours);
  if (req.hardware && req.task == Task::kInference && serving && serving->perf)
    predicted_tps = usable(serving->perf->decode_tokens_per_second);
  cost.run_gpu_hours =
      given_or_predicted(rq.cost.run_gpu_hours, predicted_hours, &cost.run_gpu_hours_source);
  if (cost.run_gpu_hours) {
    PerOption& run = cost.cost_per_run_cny.emplace();
    for (const auto& [k, v] : per_hour)
      run[k] = v ? std::optional<double>(cost_per_run(*cost.run_gpu_hours, *v)) : std::nullopt;
  }
  cost.tokens_per_second =
      given_or_predicted(rq.cost.tokens_per_second, predicted_tps, &cost.tokens_per_second_source);
  if (cost.tokens_per_second) {
    PerOption& per_token = cost.cost_per_million_tokens_cny.emplace();
    for (const auto& [k, v] : per_hour) {
      // The hybrid's hours are not all on these cards; price tokens for the pinned fleet only.
      if (k == "hybrid") continue;
      per_token[k] = v ? std::optional<double>(
                             cost_per_million_tokens(*v, gpus, *cost.tokens_per_second))
                       : std::nullopt;
    }
  }

  // The defaults the scenario recorded go to the result now, before the scenario is copied
  // below: they are the bulk of a copy (~40 entries of long strings).
  cost.defaults_used = std::move(s.defaults_used);

  // ---- electricity detail
  if (!cost.buy) energy = energy_for(s, p, u);
  {
    ElectricityResult& e = cost.electricity;
    for (const PeriodUse& x : energy.periods) {
      e.periods.push_back({x, x.period == "peak"   ? s.tariff.peak_hours
                              : x.period == "flat" ? s.tariff.flat_hours
                                                   : s.tariff.valley_hours});
    }
    CostScenario shifted = s;
    shifted.valley_shift_share = 1;
    const EnergyResult best = energy_for(shifted, p, u);
    e.tariff = s.time_of_use ? "time_of_use" : "flat";
    e.prices = s.tariff;
    e.pue = s.pue;
    e.energy = energy;
    e.cny_per_year = s.colocation_includes_electricity ? 0.0 : energy.cny_per_year;
    e.included_in_colocation = s.colocation_includes_electricity;
    e.valley_shift_share = s.valley_shift_share;
    e.valley_shift_max_saving_cny_per_year =
        s.colocation_includes_electricity ? 0.0 : energy.cny_per_year - best.cny_per_year;
  }

  // ---- sites
  const double selected_yearly = cost.buy ? cost.buy->cost.average_yearly_cny : 0;
  for (const SiteDefaults& other : prices.sites) {
    const CostScenario x =
        resolve_scenario(rq, prices, *gpu, gpus, req.hardware.has_value(), other.id, false);
    SiteRow row;
    row.site = other.id;
    row.name = other.name;
    row.name_zh = other.name_zh;
    row.selected = other.id == s.site_id;
    row.electricity_flat_cny_per_kwh = x.tariff.flat_cny_per_kwh;
    row.colocation_factor = other.colocation_factor.value;
    if (x.gpu_price_cny) {
      const PowerPlan xp = plan_power(x, gpus);
      EnergyResult xe;
      const OptionTotals b = buy_totals(x, gpus, u, &xe, &xp);
      row.electricity_cny_per_year = x.colocation_includes_electricity ? 0.0 : xe.cny_per_year;
      row.colocation_cny_per_year = xp.colocation_cny_per_year;
      row.buy_average_yearly_cny = b.average_yearly_cny;
      row.buy_lifetime_cny = b.lifetime_cny;
      row.difference_vs_selected_cny_per_year = b.average_yearly_cny - selected_yearly;
    }
    row.needs_confirmation = other.electricity_flat_cny_per_kwh.needs_confirmation ||
                             other.colocation_factor.needs_confirmation;
    cost.site_comparison.push_back(std::move(row));
  }

  int flagged_count = 0;
  for (const DefaultUsed& d : cost.defaults_used) flagged_count += d.needs_confirmation ? 1 : 0;
  cost.needs_confirmation = flagged_count > 0;
  cost.prices_as_of = prices.as_of;
  if (flagged_count > 0) {
    out.warnings.push_back(
        {"prices_need_confirmation",
         std::to_string(flagged_count) + " cost defaults are examples or low-confidence figures "
                                         "(see cost.defaults_used): confirm them with your providers",
         "/cost/prices", {param("count", flagged_count)}});
  }
  return out;
}

}  // namespace advisor
