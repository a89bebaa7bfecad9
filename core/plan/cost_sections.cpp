// SPDX-License-Identifier: MIT
// The sections of the power and cost results, one builder each (see the header).
#include "plan/cost_sections.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/cost_scenario.hpp"
#include "engine/power_limit.hpp"
#include "plan/capacity_results.hpp"
#include "types/text.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {

std::string cny(double v) { return format_number(std::round(v * 100) / 100) + " CNY"; }

/// A positive finite figure from the speed model, else nothing.
std::optional<double> usable(std::optional<double> v) {
  if (v && std::isfinite(*v) && *v > 0) return v;
  return std::nullopt;
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

/// An option as the result shows it: its cost, the VAT in it, and its lead time.
PricedOption priced(OptionCost cost, const CostScenario& s, double lead_time_days) {
  PricedOption p;
  p.cost = std::move(cost);
  p.vat_cny = option_vat_cny(p.cost, s.vat);
  p.vat_deductible = s.vat.deductible;
  p.lead_time_days = lead_time_days;
  return p;
}

/// No purchase price: the catalog's reason the part is not sold, else none listed.
MissingPrice missing_purchase_price(const Request& req, const PriceCatalog& prices,
                                    const GpuSpec& gpu) {
  const std::string path = req.hardware ? "/cost/prices/gpu_purchase_cny"
                                        : "/cost/prices/gpus/" + gpu.id + "/purchase_cny";
  const auto listed = prices.gpus.find(gpu.id);
  const std::string why = listed != prices.gpus.end() ? listed->second.purchase_not_offered : "";
  return {"buy",
          why.empty() ? "no purchase price for " + gpu.name + " in the catalog"
                      : gpu.name + " is not offered for sale: " + why,
          path,
          why.empty() ? "no_purchase_price" : "not_offered_for_sale",
          {param("gpu", gpu.id), param("gpu_name", gpu.name), param("why", why)}};
}

/// No rental for the count from the multi-node offer that is listed: its nodes are not joined
/// by RDMA, or it has too few of them (engine/rental_offers); nullopt when it is not the cause.
std::optional<MissingPrice> missing_cluster_rental(const GpuSpec& gpu, const CostScenario& s) {
  const RentalMarket& m = s.market;
  const bool host_fits = (m.host_cny_per_gpu_hour || m.host_cny_per_gpu_month) &&
                         (m.hourly_gpus_per_host == 0 || s.gpus <= m.hourly_gpus_per_host);
  if (!m.cluster || host_fits) return std::nullopt;
  const ClusterTerms& c = *m.cluster;
  const long long nodes = (s.gpus + c.gpus_per_node - 1) / c.gpus_per_node;
  const std::string path = "/cost/prices/gpus/" + gpu.id + "/rental_monthly_cny_per_gpu";
  if (nodes > 1 && !c.rdma) {
    return MissingPrice{"rent",
                        std::to_string(s.gpus) + " GPUs span " + std::to_string(nodes) +
                            " nodes: the multi-node offer of " + gpu.name + " joins its nodes by " +
                            c.network + ", without RDMA, so it rents one node of " +
                            std::to_string(c.gpus_per_node) + " at most",
                        path,
                        "rental_cluster_no_rdma",
                        {param("gpu", gpu.id), param("gpu_name", gpu.name), param("gpus", s.gpus),
                         param("nodes", static_cast<double>(nodes)), param("network", c.network),
                         param("gpus_per_node", c.gpus_per_node)}};
  }
  if (c.nodes_available && nodes > *c.nodes_available) {
    return MissingPrice{"rent",
                        std::to_string(s.gpus) + " GPUs need " + std::to_string(nodes) +
                            " nodes: the multi-node offer of " + gpu.name + " has " +
                            std::to_string(*c.nodes_available),
                        path,
                        "rental_cluster_too_few_nodes",
                        {param("gpu", gpu.id), param("gpu_name", gpu.name), param("gpus", s.gpus),
                         param("nodes", static_cast<double>(nodes)),
                         param("nodes_available", static_cast<double>(*c.nodes_available))}};
  }
  return std::nullopt;
}

/// No rental for the count: the multi-node offer cannot carry it, or the hourly offers rent one
/// host and no multi-node offer is listed; else the catalog's reason the part is not rented out.
MissingPrice missing_rental_price(const Request& req, const PriceCatalog& prices,
                                  const GpuSpec& gpu, const CostScenario& s) {
  const RentalMarket& m = s.market;
  if (auto cluster = missing_cluster_rental(gpu, s)) return *cluster;
  if ((m.host_cny_per_gpu_hour || m.host_cny_per_gpu_month) && m.hourly_gpus_per_host > 0 &&
      s.gpus > m.hourly_gpus_per_host) {
    return {"rent",
            std::to_string(s.gpus) + " GPUs span hosts: the hourly offers rent one host of up to " +
                std::to_string(m.hourly_gpus_per_host) + " " + gpu.name +
                " with no RDMA between hosts, and no multi-node offer is listed",
            "/cost/prices/gpus/" + gpu.id + "/rental_monthly_cny_per_gpu",
            "rental_spans_hosts",
            {param("gpu", gpu.id), param("gpu_name", gpu.name), param("gpus", s.gpus),
             param("gpus_per_host", m.hourly_gpus_per_host)}};
  }
  const std::string path = req.hardware
                               ? "/cost/prices/rental_cny_per_gpu_hour"
                               : "/cost/prices/gpus/" + gpu.id + "/rental_cny_per_gpu_hour";
  const auto listed = prices.gpus.find(gpu.id);
  const std::string why = listed != prices.gpus.end() ? listed->second.rental_not_offered : "";
  return {"rent",
          why.empty() ? "no rental price for " + gpu.name + " in the catalog"
                      : gpu.name + " is not offered for rent: " + why,
          path,
          why.empty() ? "no_rental_price" : "not_offered_for_rent",
          {param("gpu", gpu.id), param("gpu_name", gpu.name), param("why", why)}};
}

/// The hybrid's deployment: the owned servers bought for their share of the demand, the rented
/// GPU-hours, and the egress of what is rented.
OptionCost hybrid_option(const HybridPlan& h, const CostScenario& s, double egress_yearly_cny) {
  std::vector<LineItem> items;
  double capex = 0, residual = 0;
  const int owned_gpus = h.best.servers * s.gpus_per_server;
  if (h.best.servers > 0) {
    const OptionCost owned =
        buy_option(s, owned_gpus, h.best.owned_gpu_hours_per_year / (owned_gpus * kHoursPerYear));
    items = owned.line_items;
    capex = owned.capex_cny;
    residual = owned.residual_cny;
  }
  const double rate = *s.market.host_cny_per_gpu_hour;
  items.push_back(
      {"rented_gpu_hours",
       h.best.rented_gpu_hours_per_year * rate,
       format_number(h.best.rented_gpu_hours_per_year) + " GPU-hours a year x " + cny(rate),
       "rented_hours",
       {param("gpu_hours", h.best.rented_gpu_hours_per_year), param("cny_per_gpu_hour", rate)}});
  const bool rented = h.best.rented_gpu_hours_per_year > 0;
  items.push_back({"data_transfer",
                   rented ? egress_yearly_cny : 0,
                   rented ? "egress of the rented part" : "nothing rented",
                   rented ? "egress_of_rented_part" : "nothing_rented",
                   {}});
  return finish_option(std::move(items), s.life_years, capex, residual);
}

/// How the hybrid splits the demand: the best split, month by month, and ~100 of the
/// candidates it was chosen from.
HybridSplit hybrid_split(const HybridPlan& h, const MonthlyGpuHours& demand, const CostScenario& s,
                         double lifetime_cny) {
  HybridSplit split;
  split.best = h.best;
  split.owned_gpus = h.best.servers * s.gpus_per_server;
  const double owned_capacity = split.owned_gpus * kHoursPerYear;
  if (owned_capacity > 0)
    split.owned_utilization = h.best.owned_gpu_hours_per_year / owned_capacity;
  split.lifetime_cny = lifetime_cny;
  split.owned_max_utilization = s.owned_max_utilization;
  for (std::size_t m = 0; m < 12; ++m) {
    split.monthly.push_back(
        {static_cast<int>(m + 1), demand[m], h.owned_monthly[m], h.rented_monthly[m]});
  }
  const std::size_t stride = std::max<std::size_t>(1, h.candidates.size() / 100);
  for (std::size_t i = 0; i < h.candidates.size(); i += stride)
    split.candidates.push_back(h.candidates[i]);
  return split;
}

/// A server that exceeds its rack, and the power limit per GPU that would fit it (a rack too
/// small by space is not helped by one).
Warning server_exceeds_rack(const GpuSpec& gpu, const CostScenario& s, const PowerPlan& p,
                            const PerformanceConstants& k) {
  const double own_tdp = gpu.power_limit ? gpu.power_limit->tdp_watts : gpu.tdp_watts;
  const ServerPowerInputs server{gpu.tdp_watts, p.gpus_in_largest_server, s.host_fixed_watts,
                                 s.cooling_conversion_fraction};
  const std::optional<double> limit =
      p.racks.servers_per_rack_by_space >= 1
          ? power_limit_to_fit(p.racks.rack_kw * 1000, server, own_tdp, k)
          : std::nullopt;
  std::string text = "one server draws " +
                     format_number(std::round(p.server_watts_full_load) / 1000) +
                     " kW, more than a " + format_number(p.racks.rack_kw) + " kW rack: it takes " +
                     std::to_string(p.racks.racks_per_server) + " racks' circuits";
  if (limit)
    text +=
        "; capped at " + format_number(*limit) + " W per GPU (/hardware/power_limit_w) it fits one";
  return {"server_exceeds_rack",
          std::move(text),
          "/power/rack_kw",
          {param("server_kw", p.server_watts_full_load / 1000), param("rack_kw", p.racks.rack_kw),
           param("racks_per_server", p.racks.racks_per_server),
           param("fits_at_limit_w", limit.value_or(0)),
           param("clock_share", limit ? clock_fraction_at_power_limit(*limit, own_tdp, k) : 0.0)}};
}

}  // namespace

PowerResult power_section(const GpuSpec& gpu, int gpus, const CostScenario& s, const PowerPlan& p,
                          const PerformanceConstants& k, std::vector<Warning>& warnings) {
  PowerResult power;
  power.gpu = gpu.id;
  power.gpus = gpus;
  power.gpus_per_server = s.gpus_per_server;
  power.plan = p;
  power.gpu_watts_per_server = gpu.tdp_watts * p.gpus_in_largest_server;
  power.host_watts = p.server_watts_full_load - power.gpu_watts_per_server;
  power.training_load_factor = s.training_load_factor;
  power.it_kw_full_load = p.fleet_watts_full_load / 1000;
  power.it_kw_typical = power.it_kw_full_load * s.training_load_factor;
  power.facility = s.facility;
  power.pue = s.pue;
  power.facility_kw = power.it_kw_full_load * s.pue;
  if (!p.racks.fits) warnings.push_back(server_exceeds_rack(gpu, s, p, k));
  if (s.facility == Facility::kOffice && !p.office.can_host) {
    warnings.push_back(
        {"office_cannot_host",
         office_reason_text(p.office),
         "/power/facility",
         {param("reason", std::string(p.office.reason_code)),
          param("total_kw", p.office.total_watts / 1000), param("rack_kw", p.office.rack_kw_high),
          param("office_racks", p.office.office_racks)}});
  }
  return power;
}

EnergyResult price_deployments(CostResult& cost, const Request& req, const PriceCatalog& prices,
                               const GpuSpec& gpu, int gpus, const CostScenario& s,
                               const PowerPlan& p) {
  const double u = s.utilization;
  EnergyResult energy;
  if (s.gpu_price_cny) {
    PricedOption& b =
        cost.buy.emplace(priced(buy_option(s, gpus, u, &energy), s, owned_lead_time_days(s)));
    b.with_capex = true;
    b.servers = p.servers;
    b.gpus = gpus;
  } else {
    cost.missing_prices.push_back(missing_purchase_price(req, prices, gpu));
  }
  if (s.reserved_cny_per_gpu_month) {
    PricedOption& r =
        cost.reserved.emplace(priced(reserved_option(s, gpus), s, s.rental_lead_time_days));
    r.cny_per_gpu_month = *s.reserved_cny_per_gpu_month;
    r.gpus = std::max(gpus, s.rental_billed_gpus);
    r.offer_kind = offer_kind_name(s.market, s.rental_offer);
    r.minimum_term_months = s.rental_minimum_months;
  }
  if (s.rent_cny_per_gpu_hour) {
    PricedOption& r =
        cost.rent.emplace(priced(rent_option(s, gpus, u), s, s.rental_lead_time_days));
    r.cny_per_gpu_hour = *s.rent_cny_per_gpu_hour;
    r.gpus = gpus;
    r.offer_kind = offer_kind_name(s.market, s.rental_offer);
  } else {
    cost.missing_prices.push_back(missing_rental_price(req, prices, gpu, s));
  }
  return energy;
}

std::optional<MonthlyGpuHours> demand_months(const CostRequest& rq,
                                             std::optional<CapacityResult>& capacity,
                                             const std::string& gpu_id) {
  std::optional<MonthlyGpuHours> months = rq.cost.monthly_demand_gpu_hours;
  if (!months && capacity) {
    months = demand_from_capacity(*capacity, gpu_id);
    if (months) capacity->demand_for_cost = gpu_id;
  }
  return months;
}

void price_hybrid(CostResult& cost, const std::optional<MonthlyGpuHours>& months,
                  const MonthlyGpuHours& demand, const CostScenario& s) {
  // Without a demand profile there are no bursts to rent: a flat demand would only
  // "consolidate" the pinned cards onto fewer, which a job that needs them together cannot do.
  if (!months) {
    cost.missing_prices.push_back({"hybrid",
                                   "the hybrid plan needs the demand month by month",
                                   "/cost/monthly_demand_gpu_hours",
                                   "hybrid_needs_months",
                                   {}});
    return;
  }
  // The bursts are demand beyond the owned cards, rented host by host at the hourly price (a
  // demand profile is many jobs; one wider than a host would need a multi-node offer).
  if (!(cost.buy && s.market.host_cny_per_gpu_hour)) {
    cost.missing_prices.push_back({"hybrid",
                                   "the hybrid plan needs both a purchase and a rental price",
                                   std::nullopt,
                                   "hybrid_needs_both_prices",
                                   {}});
    return;
  }
  const int per = s.gpus_per_server;
  auto owned_cost = [&](int servers, double owned_hours) {
    const int n = servers * per;
    return buy_totals(s, n, owned_hours / (n * kHoursPerYear)).average_yearly_cny;
  };
  const double egress_yearly = s.egress_tb_per_month * 12 * s.egress_cny_per_tb;
  const HybridPlan h = optimise_hybrid(demand, per, s.owned_max_utilization, owned_cost,
                                       *s.market.host_cny_per_gpu_hour, egress_yearly);
  PricedOption& hybrid =
      cost.hybrid.emplace(priced(hybrid_option(h, s, egress_yearly), s, owned_lead_time_days(s)));
  hybrid.with_capex = true;
  cost.hybrid_split = hybrid_split(h, demand, s, hybrid.cost.lifetime_cny);
}

std::optional<std::string> cheapest_deployment(const CostResult& cost) {
  std::optional<std::string> cheapest;
  double best = 0;
  for (const auto& [name, c] :
       {std::pair<const char*, const std::optional<PricedOption>*>{"buy", &cost.buy},
        {"rent", &cost.rent},
        {"rent_reserved", &cost.reserved},
        {"hybrid", &cost.hybrid}}) {
    if (*c && (!cheapest || (*c)->cost.lifetime_cny < best)) {
      cheapest = name;
      best = (*c)->cost.lifetime_cny;
    }
  }
  return cheapest;
}

void warn_demand_peak(std::vector<Warning>& warnings, const MonthlyGpuHours& demand, int gpus,
                      const CostRequest& rq) {
  const double peak = *std::max_element(demand.begin(), demand.end());
  if (peak <= gpus * kHoursPerMonth) return;
  warnings.push_back(
      {"demand_peak_exceeds_cards",
       "the busiest month needs " + format_number(peak) + " GPU-hours; " + std::to_string(gpus) +
           " GPUs deliver " + format_number(gpus * kHoursPerMonth) +
           " a month, so the buy option cannot serve it (see the hybrid plan)",
       rq.cost.monthly_demand_gpu_hours ? "/cost/monthly_demand_gpu_hours" : "/capacity",
       {param("peak_gpu_hours", peak), param("gpus", gpus),
        param("monthly_gpu_hours", gpus * kHoursPerMonth)}});
}

void price_break_even(CostResult& cost, const CostScenario& s, int gpus, const PowerPlan& p) {
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
    cost.seventy_percent_rule = {"renting_always_cheaper",
                                 {param("rule_share", s.seventy_percent_rule)},
                                 cost.seventy_percent_rule_note};
  } else {
    const bool holds =
        std::fabs(*be - s.seventy_percent_rule) <= s.seventy_percent_tolerance + 1e-12;
    cost.seventy_percent_rule_holds = holds;
    cost.seventy_percent_rule_note = "buying pays from " +
                                     format_number(std::round(*be * 1000) / 10) +
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
}

void price_per_unit(CostResult& cost, const Request& req, const CostScenario& s, int gpus,
                    const MonthlyGpuHours& demand, const std::optional<TrainingResult>& training,
                    const std::optional<ServingResult>& serving) {
  const CostRequest& rq = req.cost;
  const double used_hours = gpus * kHoursPerYear * s.utilization;
  PerOption& per_hour = cost.cost_per_gpu_hour_cny;
  per_hour["buy"] =
      cost.buy ? cost_per_gpu_hour(cost.buy->cost.average_yearly_cny, used_hours) : std::nullopt;
  per_hour["rent"] = s.rent_cny_per_gpu_hour;
  per_hour["rent_reserved"] =
      cost.reserved ? cost_per_gpu_hour(cost.reserved->cost.average_yearly_cny, used_hours)
                    : std::nullopt;
  double demand_total = 0;
  for (double d : demand) demand_total += d;
  per_hour["hybrid"] = cost.hybrid
                           ? cost_per_gpu_hour(cost.hybrid->cost.average_yearly_cny, demand_total)
                           : std::nullopt;

  // The speed model's figures price a run or a token only for the pinned hardware.
  std::optional<double> predicted_hours, predicted_tps;
  if (req.hardware && training && training->perf)
    predicted_hours = usable(training->perf->gpu_hours);
  // Tokens are priced at the fleet's output at the load (engine/serving_load): the same figure
  // the recommendation's cost per million tokens divides by, so a plan has one such cost.
  if (req.hardware && req.task == Task::kInference && serving && serving->perf) {
    const bool fleet = serving->fleet && serving->fleet->feasible;
    const InferencePerf& p = fleet ? serving->fleet->perf : *serving->perf;
    const std::int64_t replicas = fleet ? serving->fleet->replicas : p.replicas;
    if (replicas > 0)
      predicted_tps = usable(p.at_load.output_tokens_per_second * static_cast<double>(replicas));
  }
  cost.run_gpu_hours =
      given_or_predicted(rq.cost.run_gpu_hours, predicted_hours, &cost.run_gpu_hours_source);
  if (cost.run_gpu_hours) {
    PerOption& run = cost.cost_per_run_cny.emplace();
    for (const auto& [k, v] : per_hour) {
      // A rented run is billed in whole units (the recommendation's plans price it so too).
      const double gpu_hours = k == "rent" ? billed_gpu_hours(*cost.run_gpu_hours / gpus, gpus,
                                                              s.rental_billing_unit_hours)
                                           : *cost.run_gpu_hours;
      run[k] = v ? std::optional<double>(cost_per_run(gpu_hours, *v)) : std::nullopt;
    }
  }
  cost.tokens_per_second =
      given_or_predicted(rq.cost.tokens_per_second, predicted_tps, &cost.tokens_per_second_source);
  if (cost.tokens_per_second) {
    PerOption& per_token = cost.cost_per_million_tokens_cny.emplace();
    for (const auto& [k, v] : per_hour) {
      // The hybrid's hours are not all on these cards; price tokens for the pinned fleet only.
      if (k == "hybrid") continue;
      per_token[k] =
          v ? std::optional<double>(cost_per_million_tokens(*v, gpus, *cost.tokens_per_second))
            : std::nullopt;
    }
  }
}

ElectricityResult electricity_section(const CostScenario& s, const PowerPlan& p, double u,
                                      const EnergyResult& energy) {
  ElectricityResult e;
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
  return e;
}

std::vector<SiteRow> compare_sites(const Request& req, const PriceCatalog& prices,
                                   const GpuSpec& gpu, int gpus, const CostScenario& s, double u,
                                   double selected_yearly) {
  std::vector<SiteRow> rows;
  for (const SiteDefaults& other : prices.sites) {
    const CostScenario x =
        resolve_scenario(req.cost, prices, gpu, gpus, req.hardware.has_value(), other.id, false);
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
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace advisor
