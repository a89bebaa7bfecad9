// SPDX-License-Identifier: MIT
// The power and cost models for one GPU type, count and site (inputs resolved by
// engine/cost_scenario.cpp): the power and rack plan, and each deployment's cost
// (buy + colocate, rent, reserved) and break-even.
#include "engine/cost_inputs.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>

#include "engine/layout.hpp"
#include "types/checked.hpp"
#include "types/errors.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

std::string cny(double v) { return format_number(std::round(v * 100) / 100) + " CNY"; }

}  // namespace

PowerPlan plan_power(const CostScenario& s, int gpus) {
  PowerPlan p;
  p.gpus = gpus;
  const int per = s.gpus_per_server;
  p.servers = (gpus + per - 1) / per;
  // A baseboard server carries its full board.
  p.gpus_in_largest_server = s.whole_board ? per : std::min(gpus, per);
  ServerPowerInputs server{s.gpu->tdp_watts, p.gpus_in_largest_server, s.host_fixed_watts,
                           s.cooling_conversion_fraction};
  p.server_watts_full_load = server_watts_full_load(server);
  p.server_watts_typical = p.server_watts_full_load * s.training_load_factor;
  p.server_watts_idle = p.server_watts_full_load * s.idle_load_factor;
  p.fleet_watts_full_load =
      fleet_watts_full_load(server, s.whole_board ? p.servers * per : gpus, per);
  p.office = office_verdict(p.server_watts_full_load, p.servers, s.office_rack_kw_low,
                            s.office_rack_kw_high, s.office_racks, s.rack_units_usable,
                            s.server_rack_units);
  auto fit = [&](double kw, const char* path = "/power/rack_kw") {
    return fit_racks(kw, p.server_watts_full_load, s.rack_units_usable, s.server_rack_units,
                     p.servers, path);
  };
  const bool per_kw = s.colocation_pricing == ColocationPricing::kPerKw;
  auto monthly = [&](const RackFit& f, double rack_price) {
    return per_kw ? f.racks_needed * f.rack_kw * s.colocation_cny_per_kw_month
                  : f.racks_needed * rack_price;
  };
  auto class_price = [&](double kw) -> std::optional<double> {
    for (const auto& [k, price] : s.rack_classes)
      if (std::fabs(k - kw) < 1e-9) return price;
    return std::nullopt;
  };
  if (s.facility == Facility::kOffice) {
    p.racks = fit(s.office_rack_kw_high, "/power/office_rack_kw");
    p.rack_choice = "office";
    return p;
  }
  double rack_price = 0;
  if (s.rack_kw_pinned) {
    p.racks = fit(*s.rack_kw_pinned);
    p.rack_choice = "request";
    if (!per_kw) {
      const auto price =
          s.rack_price_override ? s.rack_price_override : class_price(p.racks.rack_kw);
      if (!price) {
        std::string known;
        for (const auto& c : s.rack_classes)
          known += (known.empty() ? "" : ", ") + format_number(c.first);
        report_problem("inconsistent", "/power/rack_kw",
                       "/power/rack_kw " + format_number(p.racks.rack_kw) +
                           " kW has no catalog rack price; use a listed class (" + known +
                           " kW) or give /cost/prices/colocation_cny_per_rack_month");
        return p;  // unpriced racks
      }
      rack_price = *price;
    }
  } else {
    // The rack class with the lowest colocation bill that holds at least one server; if none
    // does, the largest class with circuits bonded per server.
    p.rack_choice = "cheapest_colocation";
    bool found = false;
    for (const auto& [kw, price] : s.rack_classes) {
      const RackFit f = fit(kw);
      if (!f.fits) continue;
      const double m = monthly(f, price);
      if (!found || m < monthly(p.racks, rack_price) - 1e-9) {
        p.racks = f;
        rack_price = price;
        found = true;
      }
    }
    if (!found) {
      p.racks = fit(s.rack_classes.back().first);
      rack_price = s.rack_classes.back().second;
    }
  }
  p.rack_price_cny_per_month = rack_price;
  p.colocation_cny_per_year = monthly(p.racks, rack_price) * 12;
  // A plan that fills part of one rack pays its share of it (by power or by space, whichever
  // it uses more of), as IDCs let small deployments by the U or the kW.
  if (p.racks.fits && p.racks.racks_needed == 1 && p.servers < p.racks.servers_per_rack) {
    const double by_power = p.fleet_watts_full_load / (p.racks.rack_kw * 1000);
    const double by_space = double(p.servers * s.server_rack_units) / s.rack_units_usable;
    p.rack_share = std::min(1.0, std::max(by_power, by_space));
    p.colocation_cny_per_year *= p.rack_share;
  }
  return p;
}

namespace {

std::string colocation_basis(const CostScenario& s, const PowerPlan& p) {
  if (s.facility == Facility::kOffice) return "your own office: no colocation fee";
  std::string basis =
      s.colocation_pricing == ColocationPricing::kPerKw
          ? std::to_string(p.racks.racks_needed) + " rack(s) x " + format_number(p.racks.rack_kw) +
                " kW x " + cny(s.colocation_cny_per_kw_month) + "/kW-month x 12"
          : std::to_string(p.racks.racks_needed) + " rack(s) of " + format_number(p.racks.rack_kw) +
                " kW x " + cny(p.rack_price_cny_per_month) + "/month x 12";
  if (p.rack_share < 1)
    basis += " x " + format_number(std::round(p.rack_share * 1000) / 10) +
             "% (the share of one rack the plan uses, by power or space)";
  if (s.colocation_includes_electricity) basis += "; electricity included";
  return basis;
}

/// The colocation basis as a code with parameters (the same figures as colocation_basis).
Note colocation_note(const CostScenario& s, const PowerPlan& p) {
  if (s.facility == Facility::kOffice) return {"own_office", {}, colocation_basis(s, p)};
  const bool per_kw = s.colocation_pricing == ColocationPricing::kPerKw;
  return {
      per_kw ? "racks_per_kw" : "racks_per_rack",
      {param("racks", p.racks.racks_needed), param("rack_kw", p.racks.rack_kw),
       param("cny_per_month", per_kw ? s.colocation_cny_per_kw_month : p.rack_price_cny_per_month),
       param("rack_share", p.rack_share < 1 ? p.rack_share : 0.0),
       param("electricity_included", s.colocation_includes_electricity ? 1.0 : 0.0)},
      colocation_basis(s, p)};
}

}  // namespace

EnergyResult energy_for(const CostScenario& s, const PowerPlan& p, double utilization,
                        bool with_periods) {
  EnergyInputs e;
  e.busy_watts = p.fleet_watts_full_load * s.training_load_factor;
  e.idle_watts = p.fleet_watts_full_load * s.idle_load_factor;
  e.utilization = utilization;
  e.valley_shift_share = s.valley_shift_share;
  e.pue = s.pue;
  e.tariff = s.tariff;
  e.with_periods = with_periods;
  return yearly_energy(e);
}

namespace {

/// The IDC line's yearly cost and, when `describe`, what it is.
void describe_network(BuyInputs& b, const CostScenario& s, int servers, bool describe) {
  const double mbps = network_line_mbps(s, servers);
  b.network_cny_per_year = mbps * s.network_cny_per_mbps_month * 12;
  if (!describe) return;
  const std::string line(name_of(s.network_line));
  if (mbps > 0) {
    b.network_basis = line + " line " + format_number(mbps) + " Mbps x " +
                      cny(s.network_cny_per_mbps_month) + "/Mbps-month x 12";
    b.network_note = {"network_line",
                      {param("line", line), param("mbps", mbps),
                       param("cny_per_mbps_month", s.network_cny_per_mbps_month)},
                      b.network_basis};
  } else if (s.network_line != NetworkLine::kNone) {
    b.network_basis = "no line of its own: one workstation uses the bandwidth of its rack share";
    b.network_note = {"no_line_workstation", {}, b.network_basis};
  } else {
    b.network_basis = "no line";
    b.network_note = {"no_line", {}, b.network_basis};
  }
}

/// What buying `gpus` of the scenario costs: its power plan `p` and energy `e` (used
/// `utilization` of the time) priced; `describe`: with the line items' bases (the plan's
/// buy option), else the figures alone (searches and summaries read only the totals).
BuyInputs buy_inputs(const CostScenario& s, const PowerPlan& p, int gpus, double utilization,
                     const EnergyResult& e, bool describe) {
  BuyInputs b;
  // Baseboard parts are bought a full board at a time (one H100 SXM is a 4-GPU board).
  b.gpus = s.whole_board ? p.servers * s.gpus_per_server : gpus;
  b.servers = p.servers;
  b.gpu_price_cny = s.gpu_price_cny.value_or(0);
  b.platform_price_cny = s.platform_price_cny;
  b.life_years = s.life_years;
  b.residual_fraction = s.residual_fraction;
  b.colocation_cny_per_year = p.colocation_cny_per_year;
  if (describe) {
    b.colocation_basis = colocation_basis(s, p);
    b.colocation_note = colocation_note(s, p);
  }
  if (s.colocation_includes_electricity) {
    b.electricity_cny_per_year = 0;
    if (describe) {
      b.electricity_basis = "included in the colocation price";
      b.electricity_note = {"included_in_colocation", {}, b.electricity_basis};
    }
  } else {
    b.electricity_cny_per_year = e.cny_per_year;
    if (describe) {
      b.electricity_basis = format_number(std::round(e.it_kwh_per_year)) + " kWh IT x PUE " +
                            format_number(s.pue) + " at " +
                            format_number(std::round(e.average_cny_per_kwh * 10000) / 10000) +
                            " CNY/kWh average (" + (s.time_of_use ? "time-of-use" : "flat") + ", " +
                            format_number(std::round(utilization * 1000) / 10) + "% busy)";
      b.electricity_note = {
          "energy",
          {param("it_kwh", std::round(e.it_kwh_per_year)), param("pue", s.pue),
           param("cny_per_kwh", e.average_cny_per_kwh),
           param("time_of_use", s.time_of_use ? 1.0 : 0.0), param("busy_share", utilization)},
          b.electricity_basis};
    }
  }
  describe_network(b, s, p.servers, describe);
  b.operations_by_staff = s.operations_by_staff;
  b.operations_capex_share = s.operations_capex_share;
  b.staff_fte = s.staff_fte;
  b.staff_cny_per_year = s.staff_cny_per_year;
  b.spares_share = s.spares_share;
  b.financing_rate = s.financing_rate;
  b.financing_term_years = s.financing_term_years;
  return b;
}

RentInputs rent_inputs(const CostScenario& s, int gpus, double utilization) {
  RentInputs r;
  r.gpus = gpus;
  r.utilization = utilization;
  r.cny_per_gpu_hour = rental_terms(s.market, gpus).cny_per_gpu_hour.value_or(0);
  r.years = s.life_years;
  r.egress_tb_per_month = s.egress_tb_per_month;
  r.egress_cny_per_tb = s.egress_cny_per_tb;
  return r;
}

}  // namespace

double owned_lead_time_days(const CostScenario& s) {
  return s.purchase_lead_time_days + (s.facility == Facility::kOffice ? 0 : s.move_in_days);
}

double network_line_mbps(const CostScenario& s, int servers) {
  if (s.network_line == NetworkLine::kNone) return 0;
  if (s.network_mbps_stated) return *s.network_mbps_stated;
  if (servers <= 1 && s.small_platform) return 0;
  return s.network_mbps_per_server * servers;
}

OptionCost buy_option(const CostScenario& s, int gpus, double utilization, EnergyResult* energy,
                      const PowerPlan* plan) {
  const PowerPlan p = plan ? *plan : plan_power(s, gpus);
  const EnergyResult e = energy_for(s, p, utilization);
  if (energy) *energy = e;
  return buy_cost(buy_inputs(s, p, gpus, utilization, e, true));
}

double owned_rate_floor(const CostScenario& s, double utilization) {
  constexpr double kNoFloor = -std::numeric_limits<double>::infinity();
  // buy_inputs() and buy_amounts(): capex = servers x platform + bought GPUs x GPU price, with
  // the hardware share (1 - residual) / life, the operations share (or staff) and the spares
  // share of it a year; colocation, electricity and network are the other items.
  const double gpu_price = s.gpu_price_cny.value_or(0);
  const bool staff = s.operations_by_staff;
  bool in_range = gpu_price >= 0 && s.platform_price_cny >= 0 && s.residual_fraction >= 0 &&
                  s.residual_fraction <= 1 && s.life_years >= 1 && s.spares_share >= 0 &&
                  (staff ? s.staff_fte * s.staff_cny_per_year >= 0 : s.operations_capex_share >= 0);
  // The items the floor leaves out are >= 0 when their prices are.
  in_range = in_range && s.pue >= 0 && s.tariff.peak_cny_per_kwh >= 0 &&
             s.tariff.flat_cny_per_kwh >= 0 && s.tariff.valley_cny_per_kwh >= 0 &&
             network_line_mbps(s, 1) * s.network_cny_per_mbps_month >= 0 &&
             s.colocation_cny_per_kw_month >= 0 && s.rack_price_override.value_or(0) >= 0;
  for (const auto& rack_class : s.rack_classes) in_range = in_range && rack_class.second >= 0;
  if (!in_range) return kNoFloor;
  // No busy hours: cost_per_gpu_hour() prices no ownership at all.
  if (!(utilization > 0)) return std::numeric_limits<double>::infinity();
  const double yearly_share = (1 - s.residual_fraction) / s.life_years +
                              (staff ? 0 : s.operations_capex_share) + s.spares_share;
  return gpu_price * yearly_share / (kHoursPerYear * utilization);
}

OptionTotals buy_totals(const CostScenario& s, int gpus, double utilization, EnergyResult* energy,
                        const PowerPlan* plan) {
  const PowerPlan p = plan ? *plan : plan_power(s, gpus);
  const EnergyResult e = energy_for(s, p, utilization, false);
  if (energy) *energy = e;
  return buy_cost_totals(buy_inputs(s, p, gpus, utilization, e, false));
}

OptionCost rent_option(const CostScenario& s, int gpus, double utilization) {
  return rent_cost(rent_inputs(s, gpus, utilization));
}

OptionTotals rent_totals(const CostScenario& s, int gpus, double utilization) {
  return rent_cost_totals(rent_inputs(s, gpus, utilization));
}

namespace {
ReservedInputs reserved_inputs(const CostScenario& s, int gpus) {
  ReservedInputs r;
  // A cluster bills whole nodes.
  const RentalTerms t = rental_terms(s.market, gpus);
  r.gpus = std::max(gpus, t.billed_gpus);
  r.cny_per_gpu_month = t.cny_per_gpu_month.value_or(0);
  r.years = s.life_years;
  r.egress_tb_per_month = s.egress_tb_per_month;
  r.egress_cny_per_tb = s.egress_cny_per_tb;
  return r;
}
}  // namespace

OptionCost reserved_option(const CostScenario& s, int gpus) {
  return reserved_cost(reserved_inputs(s, gpus));
}

OptionTotals reserved_totals(const CostScenario& s, int gpus) {
  return reserved_cost_totals(reserved_inputs(s, gpus));
}

std::optional<double> break_even(const CostScenario& s, int gpus, const PowerPlan* plan) {
  if (!s.gpu_price_cny || !s.rent_cny_per_gpu_hour) return std::nullopt;
  const PowerPlan power = plan ? *plan : plan_power(s, gpus);
  return break_even_utilization(
      [&](double u) {
        return buy_totals(s, gpus, u, nullptr, &power).lifetime_cny -
               rent_totals(s, gpus, u).lifetime_cny;
      },
      energy_breakpoints(s.tariff));
}

}  // namespace advisor
