// SPDX-License-Identifier: MIT
// The inputs of the power and cost models for one GPU type, count and site: every default of
// data/prices.json or the request's override of it (recorded with its source), the power and
// rack plan, and each deployment's cost (buy + colocate, rent, reserved) and break-even.
#include "engine/cost_inputs.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <map>

#include "types/checked.hpp"
#include "types/errors.hpp"
#include "types/text.hpp"
#include "engine/layout.hpp"

namespace advisor {

namespace {

std::optional<double> as_double(const std::optional<int>& v) {
  return v ? std::optional<double>(*v) : std::nullopt;
}
std::string cny(double v) { return format_number(std::round(v * 100) / 100) + " CNY"; }

}  // namespace

const SiteDefaults& site_of(const PriceCatalog& prices, const std::string& id) {
  const SiteDefaults* s = prices.find_site(id);
  if (s == nullptr) {
    std::string known;
    for (const SiteDefaults& x : prices.sites) known += (known.empty() ? "" : ", ") + x.id;
    throw InputError("unknown_value", "/cost/site",
                     "/cost/site \"" + id + "\" is not a site in the price catalog; known: " + known);
  }
  return *s;
}

const PlatformDefaults& platform_of(const PriceCatalog& prices, const GpuSpec& gpu, int gpus) {
  if (gpus > 0) {
    auto small = prices.platforms.find(gpu.form_factor + "_small");
    if (small != prices.platforms.end() && gpus <= small->second.gpus_per_server.value)
      return small->second;
  }
  auto it = prices.platforms.find(gpu.form_factor);
  if (it == prices.platforms.end()) {
    throw InputError("catalog_invalid", "prices.json/platforms",
                     "prices.json/platforms has no \"" + gpu.form_factor + "\" platform (for " +
                         gpu.id + ")");
  }
  return it->second;
}

int gpus_per_server(const CostRequest& rq, const PriceCatalog& prices, const GpuSpec& gpu,
                    bool pinned, int gpus) {
  if (pinned && rq.power.gpus_per_server) return *rq.power.gpus_per_server;
  return checked_int_at(
      platform_of(prices, gpu, gpus).gpus_per_server.value,
      [&] { return "prices.json/platforms/" + gpu.form_factor + "/gpus_per_server"; },
      "GPUs per server");
}

namespace {
double demand_utilization(const std::array<double, 12>& monthly, int gpus) {
  double total = 0;
  for (double m : monthly) total += m;
  return total / (gpus * kHoursPerYear);
}
}  // namespace

CostScenario with_count(CostScenario s, int gpus, const CostRequest& rq) {
  s.gpus = gpus;
  if (!rq.cost.utilization && rq.cost.monthly_demand_gpu_hours)
    s.utilization = demand_utilization(*rq.cost.monthly_demand_gpu_hours, gpus);
  return s;
}

CostScenario resolve_scenario(const CostRequest& rq, const PriceCatalog& pc, const GpuSpec& gpu,
                              int gpus, bool pinned, const std::string& site_id, bool record) {
  const PowerSettings& pw = rq.power;
  const CostSettings& cs = rq.cost;
  const PriceOverrides& po = cs.prices;
  const bool own_site = site_id == cs.site;
  CostScenario s;
  s.gpu = &gpu;
  s.gpus = gpus;
  s.site_id = site_id;
  s.facility = pw.facility;
  Recorder rec(record ? &s.defaults_used : nullptr, pc, po.usd_to_cny);
  rec.take(pc.usd_to_cny, po.usd_to_cny, "/cost/prices/usd_to_cny");
  const SiteDefaults& site = site_of(pc, site_id);

  // The server: platform by form factor; server-specific overrides only for the pinned GPU.
  s.form_factor = gpu.form_factor;
  const PlatformDefaults& pf = platform_of(pc, gpu, gpus);
  s.whole_board = pf.whole_board && !(pinned && pw.gpus_per_server);
  rec.take(pf.gpus_per_server, pinned ? as_double(pw.gpus_per_server) : std::nullopt,
           "/power/gpus_per_server");
  s.gpus_per_server = gpus_per_server(rq, pc, gpu, pinned, gpus);
  s.platform_price_cny = rec.take(pf.price_cny, pinned ? po.server_platform_cny : std::nullopt,
                                  "/cost/prices/server_platform_cny");
  if (pinned && pw.host_watts) {
    s.host_fixed_watts = rec.user("power.host_watts", *pw.host_watts, "W per server",
                                  "/power/host_watts");
    s.cooling_conversion_fraction = 0;
  } else {
    // One override replaces the parts and the cooling share: /power/host_watts.
    const std::string host = pinned ? "/power/host_watts" : "";
    s.host_fixed_watts = rec.take(pf.cpus_watts, std::nullopt, host) +
                         rec.take(pf.memory_watts, std::nullopt, host) +
                         rec.take(pf.nics_watts, std::nullopt, host) +
                         rec.take(pf.storage_watts, std::nullopt, host);
    s.cooling_conversion_fraction = rec.take(pf.cooling_conversion_fraction, std::nullopt, host);
  }
  s.server_rack_units = checked_int(
      rec.take(pf.rack_units, pinned ? as_double(pw.server_rack_units) : std::nullopt,
               "/power/server_rack_units"),
      "/power/server_rack_units", "rack units per server");

  // GPU prices: /cost/prices/gpus/<id> for any GPU; the generic keys for the pinned one.
  const auto gpu_override = po.gpus.find(gpu.id);
  const std::string gpu_path = "/cost/prices/gpus/" + gpu.id;
  auto pick = [&](std::optional<double> by_id, const char* id_key,
                  std::optional<double> generic, const char* generic_key,
                  std::string* path) -> std::optional<double> {
    if (by_id) {
      *path = gpu_path + "/" + id_key;
      return by_id;
    }
    if (pinned && generic) {
      *path = std::string("/cost/prices/") + generic_key;
      return generic;
    }
    *path = pinned ? std::string("/cost/prices/") + generic_key : gpu_path + "/" + id_key;
    return std::nullopt;
  };
  const auto gpu_prices = pc.gpus.find(gpu.id);
  {
    std::string path;
    const auto over = pick(gpu_override != po.gpus.end() ? gpu_override->second.purchase_cny
                                                         : std::nullopt,
                           "purchase_cny", po.gpu_purchase_cny, "gpu_purchase_cny", &path);
    if (gpu_prices != pc.gpus.end() && gpu_prices->second.purchase_cny)
      s.gpu_price_cny = rec.take(*gpu_prices->second.purchase_cny, over, path);
    else if (over)
      s.gpu_price_cny = rec.user("gpus." + gpu.id + ".purchase", *over, "CNY per GPU", path);
  }
  {
    std::string path;
    const auto over = pick(gpu_override != po.gpus.end()
                               ? gpu_override->second.rental_cny_per_gpu_hour
                               : std::nullopt,
                           "rental_cny_per_gpu_hour", po.rental_cny_per_gpu_hour,
                           "rental_cny_per_gpu_hour", &path);
    if (gpu_prices != pc.gpus.end() && gpu_prices->second.rental_cny_per_gpu_hour)
      s.rent_cny_per_gpu_hour = rec.take(*gpu_prices->second.rental_cny_per_gpu_hour, over, path);
    else if (over)
      s.rent_cny_per_gpu_hour =
          rec.user("gpus." + gpu.id + ".rental", *over, "CNY per GPU-hour", path);
  }
  if (pinned && po.rental_monthly_cny_per_gpu) {
    s.reserved_cny_per_gpu_month =
        rec.user("rental.monthly_cny_per_gpu", *po.rental_monthly_cny_per_gpu,
                 "CNY per GPU-month", "/cost/prices/rental_monthly_cny_per_gpu");
  } else if (gpu_prices != pc.gpus.end() && gpu_prices->second.rental_cny_per_gpu_month) {
    s.reserved_cny_per_gpu_month =
        rec.take(*gpu_prices->second.rental_cny_per_gpu_month, std::nullopt,
                 pinned ? "/cost/prices/rental_monthly_cny_per_gpu" : "");
  } else if (s.rent_cny_per_gpu_hour &&
             !(gpu_prices != pc.gpus.end() && gpu_prices->second.reserved_only_as_quoted)) {
    const double discount =
        rec.take(pc.at("rental.reserved_discount"), cs.reserved_discount, "/cost/reserved_discount");
    s.reserved_cny_per_gpu_month = *s.rent_cny_per_gpu_hour * kHoursPerMonth * (1 - discount);
  }

  // Power and facility.
  s.training_load_factor = rec.take(pc.at("power.training_load_factor"), pw.training_load_factor,
                                    "/power/training_load_factor");
  s.idle_load_factor =
      rec.take(pc.at("power.idle_load_factor"), pw.idle_load_factor, "/power/idle_load_factor");
  s.pue = rec.take(pc.pue.at(name_of(pw.facility)), pw.pue, "/power/pue");
  s.rack_units_usable = checked_int(
      rec.take(pc.at("power.rack_units_usable"), as_double(pw.rack_units_usable),
               "/power/rack_units_usable"),
      "/power/rack_units_usable", "usable rack units");
  if (pw.office_rack_kw) {
    s.office_rack_kw_low = s.office_rack_kw_high =
        rec.user("power.office_rack_kw", *pw.office_rack_kw, "kW per rack", "/power/office_rack_kw");
  } else {
    s.office_rack_kw_low =
        rec.take(pc.at("power.office_rack_kw_low"), std::nullopt, "/power/office_rack_kw");
    s.office_rack_kw_high =
        rec.take(pc.at("power.office_rack_kw_high"), std::nullopt, "/power/office_rack_kw");
  }
  s.office_racks = pw.office_racks;
  s.rack_kw_pinned = pw.rack_kw;
  s.colocation_pricing = cs.colocation_pricing;
  s.colocation_includes_electricity = cs.colocation_includes_electricity;
  if (s.facility != Facility::kOffice) {
    const double factor = rec.take(site.colocation_factor, std::nullopt);
    for (const auto& [kw, entry] : pc.rack_classes)
      s.rack_classes.emplace_back(kw, rec.value_of(entry) * factor);
    s.rack_price_override = own_site ? po.colocation_cny_per_rack_month : std::nullopt;
    if (s.colocation_pricing == ColocationPricing::kPerKw) {
      const auto over = own_site ? po.colocation_cny_per_kw_month : std::nullopt;
      const double base = rec.take(pc.at("colocation.per_kw_month_cny"), over,
                                   "/cost/prices/colocation_cny_per_kw_month");
      s.colocation_cny_per_kw_month = over ? base : base * factor;
    }
  }

  // Electricity: the site's flat price and the time-of-use structure.
  const double flat =
      rec.take(site.electricity_flat_cny_per_kwh,
               own_site ? po.electricity_flat_cny_per_kwh : std::nullopt,
               "/cost/prices/electricity_flat_cny_per_kwh");
  s.time_of_use = cs.tariff == TariffKind::kTimeOfUse;
  s.tariff.flat_cny_per_kwh = flat;
  if (s.time_of_use) {
    s.tariff.peak_hours = rec.take(pc.at("tariff.peak_hours"), std::nullopt);
    s.tariff.flat_hours = rec.take(pc.at("tariff.flat_hours"), std::nullopt);
    s.tariff.valley_hours = rec.take(pc.at("tariff.valley_hours"), std::nullopt);
    double peak = 0;
    if (own_site && po.electricity_peak_cny_per_kwh) {
      peak = rec.user("tariff.peak_cny_per_kwh", po.electricity_peak_cny_per_kwh.value(),
                      "CNY per kWh", "/cost/prices/electricity_peak_cny_per_kwh");
    } else {
      peak = flat * rec.take(pc.at("tariff.peak_ratio"), std::nullopt,
                             own_site ? "/cost/prices/electricity_peak_cny_per_kwh" : "");
    }
    if (own_site && po.electricity_valley_cny_per_kwh) {
      s.tariff.valley_cny_per_kwh =
          rec.user("tariff.valley_cny_per_kwh", po.electricity_valley_cny_per_kwh.value(),
                   "CNY per kWh", "/cost/prices/electricity_valley_cny_per_kwh");
    } else {
      s.tariff.valley_cny_per_kwh =
          flat * rec.take(pc.at("tariff.valley_ratio"), std::nullopt,
                          own_site ? "/cost/prices/electricity_valley_cny_per_kwh" : "");
    }
    // Named first: argument evaluation order is unspecified, and `rec` records in call order
    // (the native and wasm builds must list defaults identically).
    const double critical_multiplier =
        rec.take(pc.at("tariff.critical_peak_multiplier"), std::nullopt);
    const double critical_hours = rec.take(pc.at("tariff.critical_peak_hours_per_day"), std::nullopt);
    const double critical_days = rec.take(pc.at("tariff.critical_peak_days_per_year"), std::nullopt);
    s.tariff.peak_cny_per_kwh = effective_peak_price(peak, critical_multiplier, critical_hours,
                                                     s.tariff.peak_hours, critical_days);
  } else {
    s.tariff.peak_cny_per_kwh = s.tariff.valley_cny_per_kwh = flat;
  }

  // Network line, rental data transfer, operations, spares, life.
  s.network_line = cs.network_line ? *cs.network_line
                                    : (s.facility == Facility::kOffice ? NetworkLine::kNone
                                                                       : NetworkLine::kBgp);
  if (s.network_line != NetworkLine::kNone) {
    s.network_mbps = rec.take(pc.at("network.mbps"), cs.network_mbps, "/cost/network_mbps");
    s.network_cny_per_mbps_month =
        rec.take(pc.at(s.network_line == NetworkLine::kBgp ? "network.bgp_cny_per_mbps_month"
                                               : "network.dedicated_cny_per_mbps_month"),
                 po.network_cny_per_mbps_month, "/cost/prices/network_cny_per_mbps_month");
  }
  s.egress_tb_per_month = rec.take(pc.at("rental.egress_tb_per_month"), cs.egress_tb_per_month,
                                   "/cost/egress_tb_per_month");
  s.egress_cny_per_tb =
      rec.take(pc.at("rental.egress_cny_per_tb"), po.egress_cny_per_tb, "/cost/prices/egress_cny_per_tb");
  s.operations_by_staff = cs.operations == Operations::kStaff;
  if (s.operations_by_staff) {
    s.staff_fte = rec.take(pc.at("ownership.staff_fte"), cs.staff_fte, "/cost/staff_fte");
    s.staff_cny_per_year = rec.take(pc.at("ownership.staff_cny_per_year"), po.staff_cny_per_year,
                                    "/cost/prices/staff_cny_per_year");
  } else {
    s.operations_capex_share = rec.take(pc.at("ownership.operations_capex_share"),
                                        cs.operations_capex_share, "/cost/operations_capex_share");
  }
  s.spares_share = rec.take(pc.at("ownership.spares_share"), cs.spares_share, "/cost/spares_share");
  s.life_years = checked_int(
      rec.take(pc.at("ownership.life_years"), as_double(cs.life_years), "/cost/life_years"),
      "/cost/life_years", "the life in years", 1);
  s.residual_fraction = rec.take(pc.at("ownership.residual_fraction"), cs.residual_fraction,
                                 "/cost/residual_fraction");

  // Utilisation: given, or implied by the demand profile, or the default.
  if (cs.utilization) {
    s.utilization = rec.take(pc.at("planning.utilization"), cs.utilization, "/cost/utilization");
    s.utilization_source = "request";
  } else if (cs.monthly_demand_gpu_hours) {
    s.utilization = demand_utilization(*cs.monthly_demand_gpu_hours, gpus);
    s.utilization_source = "monthly_demand";
    rec.take(pc.at("planning.utilization"), s.utilization, "/cost/monthly_demand_gpu_hours");
  } else {
    s.utilization = rec.take(pc.at("planning.utilization"), std::nullopt, "/cost/utilization");
    s.utilization_source = "default";
  }
  s.valley_shift_share = rec.take(pc.at("planning.valley_shift_share"), cs.valley_shift_share,
                                  "/cost/valley_shift_share");
  s.owned_max_utilization = rec.take(pc.at("planning.owned_max_utilization"),
                                     cs.owned_max_utilization, "/cost/owned_max_utilization");
  s.seventy_percent_rule = rec.take(pc.at("planning.seventy_percent_rule"), std::nullopt);
  s.seventy_percent_tolerance = rec.take(pc.at("planning.seventy_percent_tolerance"), std::nullopt);
  s.needs_confirmation = rec.flagged();
  return s;
}

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
      const auto price = s.rack_price_override ? s.rack_price_override : class_price(p.racks.rack_kw);
      if (!price) {
        std::string known;
        for (const auto& c : s.rack_classes) known += (known.empty() ? "" : ", ") + format_number(c.first);
        throw InputError("inconsistent", "/power/rack_kw",
                         "/power/rack_kw " + format_number(p.racks.rack_kw) +
                             " kW has no catalog rack price; use a listed class (" + known +
                             " kW) or give /cost/prices/colocation_cny_per_rack_month");
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
          : std::to_string(p.racks.racks_needed) + " rack(s) of " +
                format_number(p.racks.rack_kw) + " kW x " + cny(p.rack_price_cny_per_month) +
                "/month x 12";
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
  return {per_kw ? "racks_per_kw" : "racks_per_rack",
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
      b.electricity_note = {"energy", {param("it_kwh", std::round(e.it_kwh_per_year)), param("pue", s.pue),
                                       param("cny_per_kwh", e.average_cny_per_kwh),
                                       param("time_of_use", s.time_of_use ? 1.0 : 0.0),
                                       param("busy_share", utilization)},
                            b.electricity_basis};
    }
  }
  if (s.network_line != NetworkLine::kNone) {
    b.network_cny_per_year = s.network_mbps * s.network_cny_per_mbps_month * 12;
    if (describe) {
      b.network_basis = std::string(name_of(s.network_line)) + " line " +
                        format_number(s.network_mbps) + " Mbps x " +
                        cny(s.network_cny_per_mbps_month) + "/Mbps-month x 12";
      b.network_note = {"network_line", {param("line", std::string(name_of(s.network_line))),
                                         param("mbps", s.network_mbps),
                                         param("cny_per_mbps_month", s.network_cny_per_mbps_month)},
                        b.network_basis};
    }
  } else if (describe) {
    b.network_basis = "no line";
    b.network_note = {"no_line", {}, b.network_basis};
  }
  b.operations_by_staff = s.operations_by_staff;
  b.operations_capex_share = s.operations_capex_share;
  b.staff_fte = s.staff_fte;
  b.staff_cny_per_year = s.staff_cny_per_year;
  b.spares_share = s.spares_share;
  return b;
}

RentInputs rent_inputs(const CostScenario& s, int gpus, double utilization) {
  RentInputs r;
  r.gpus = gpus;
  r.utilization = utilization;
  r.cny_per_gpu_hour = s.rent_cny_per_gpu_hour.value_or(0);
  r.years = s.life_years;
  r.egress_tb_per_month = s.egress_tb_per_month;
  r.egress_cny_per_tb = s.egress_cny_per_tb;
  return r;
}

}  // namespace

OptionCost buy_option(const CostScenario& s, int gpus, double utilization, EnergyResult* energy,
                      const PowerPlan* plan) {
  const PowerPlan p = plan ? *plan : plan_power(s, gpus);
  const EnergyResult e = energy_for(s, p, utilization);
  if (energy) *energy = e;
  return buy_cost(buy_inputs(s, p, gpus, utilization, e, true));
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
  r.gpus = gpus;
  r.cny_per_gpu_month = s.reserved_cny_per_gpu_month.value_or(0);
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
