// SPDX-License-Identifier: MIT
// Power, facility and cost for a request: resolves every default and override against
// data/prices.json (recording where each came from), runs the pure models in power.cpp,
// cost.cpp and capacity.cpp, and writes the result's "power", "cost" and "capacity" sections.
#include "cost_api.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <map>

#include "errors.hpp"
#include "json_reader.hpp"
#include "options.hpp"

namespace advisor {

namespace {

using nlohmann::json;

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
std::optional<double> as_double(const std::optional<int>& v) {
  return v ? std::optional<double>(*v) : std::nullopt;
}
std::string cny(double v) { return format_number(std::round(v * 100) / 100) + " CNY"; }

/// Takes each default (or the request's override of it) and records it for defaults_used.
class Recorder {
 public:
  /// `out` may be null: values only, plus the flag of whether any used default is unconfirmed.
  Recorder(std::vector<DefaultUsed>* out, const PriceCatalog& prices,
           const std::optional<double>& usd_override)
      : out_(out), prices_(prices), usd_override_(usd_override) {}

  bool flagged() const { return flagged_; }

  double usd_to_cny() const { return usd_override_ ? *usd_override_ : prices_.usd_to_cny.value; }

  double take(const PriceEntry& e, const std::optional<double>& override,
              const std::string& override_path = "") {
    if (out_ == nullptr) {
      if (override) return *override;
      flagged_ = flagged_ || e.needs_confirmation ||
                 (e.original_currency == "USD" && !usd_override_ &&
                  prices_.usd_to_cny.needs_confirmation);
      return value_of(e);
    }
    DefaultUsed d;
    d.key = e.key;
    d.unit = e.unit;
    d.basis = e.basis;
    d.as_of = e.as_of;
    d.override_path = override_path;
    if (override) {
      d.value = *override;
      d.overridden = true;
      d.source = "your input (default " + format_number(value_of(e)) + ", " + e.source + ")";
      d.needs_confirmation = false;
    } else {
      d.value = value_of(e);
      d.source = e.source;
      d.needs_confirmation = e.needs_confirmation;
      if (e.original_currency == "USD") {
        d.basis += " (USD " + format_number(e.original_value) + " x " +
                   format_number(usd_to_cny()) + " CNY/USD)";
        // A converted price is only as certain as the rate it was converted with.
        d.needs_confirmation =
            d.needs_confirmation || (!usd_override_ && prices_.usd_to_cny.needs_confirmation);
      }
    }
    add(d);
    return d.value;
  }

  /// A value the request gave where the catalog has none.
  double user(const std::string& key, double value, const std::string& unit,
              const std::string& path) {
    if (out_ == nullptr) return value;
    DefaultUsed d;
    d.key = key;
    d.value = value;
    d.unit = unit;
    d.basis = "no catalog default";
    d.source = "your input";
    d.overridden = true;
    d.override_path = path;
    add(d);
    return value;
  }

  double value_of(const PriceEntry& e) const {
    return e.original_currency == "USD" ? e.original_value * usd_to_cny() : e.value;
  }

 private:
  void add(const DefaultUsed& d) {
    flagged_ = flagged_ || d.needs_confirmation;
    for (const DefaultUsed& x : *out_)
      if (x.key == d.key) return;
    out_->push_back(d);
  }
  std::vector<DefaultUsed>* out_;
  bool flagged_ = false;
  const PriceCatalog& prices_;
  std::optional<double> usd_override_;
};

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

}  // namespace

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
  auto pit = pc.platforms.find(gpu.form_factor);
  if (pit == pc.platforms.end()) {
    throw InputError("catalog_invalid", "prices.json/platforms",
                     "prices.json/platforms has no \"" + gpu.form_factor + "\" platform (for " +
                         gpu.id + ")");
  }
  const PlatformDefaults& pf = pit->second;
  s.gpus_per_server = static_cast<int>(
      rec.take(pf.gpus_per_server, pinned ? as_double(pw.gpus_per_server) : std::nullopt,
               "/power/gpus_per_server"));
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
  s.server_rack_units = static_cast<int>(
      rec.take(pf.rack_units, pinned ? as_double(pw.server_rack_units) : std::nullopt,
               "/power/server_rack_units"));

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
  } else if (s.rent_cny_per_gpu_hour) {
    const double discount =
        rec.take(pc.at("rental.reserved_discount"), cs.reserved_discount, "/cost/reserved_discount");
    s.reserved_cny_per_gpu_month = *s.rent_cny_per_gpu_hour * kHoursPerMonth * (1 - discount);
  }

  // Power and facility.
  s.training_load_factor = rec.take(pc.at("power.training_load_factor"), pw.training_load_factor,
                                    "/power/training_load_factor");
  s.idle_load_factor =
      rec.take(pc.at("power.idle_load_factor"), pw.idle_load_factor, "/power/idle_load_factor");
  s.pue = rec.take(pc.pue.at(pw.facility), pw.pue, "/power/pue");
  s.rack_units_usable = static_cast<int>(rec.take(
      pc.at("power.rack_units_usable"), as_double(pw.rack_units_usable), "/power/rack_units_usable"));
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
  if (s.facility != "office") {
    const double factor = rec.take(site.colocation_factor, std::nullopt);
    for (const auto& [kw, entry] : pc.rack_classes)
      s.rack_classes.emplace_back(kw, rec.value_of(entry) * factor);
    s.rack_price_override = own_site ? po.colocation_cny_per_rack_month : std::nullopt;
    if (s.colocation_pricing == "per_kw") {
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
  s.time_of_use = cs.tariff == "time_of_use";
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
  s.network_line = cs.network_line ? *cs.network_line : (s.facility == "office" ? "none" : "bgp");
  if (s.network_line != "none") {
    s.network_mbps = rec.take(pc.at("network.mbps"), cs.network_mbps, "/cost/network_mbps");
    s.network_cny_per_mbps_month =
        rec.take(pc.at(s.network_line == "bgp" ? "network.bgp_cny_per_mbps_month"
                                               : "network.dedicated_cny_per_mbps_month"),
                 po.network_cny_per_mbps_month, "/cost/prices/network_cny_per_mbps_month");
  }
  s.egress_tb_per_month = rec.take(pc.at("rental.egress_tb_per_month"), cs.egress_tb_per_month,
                                   "/cost/egress_tb_per_month");
  s.egress_cny_per_tb =
      rec.take(pc.at("rental.egress_cny_per_tb"), po.egress_cny_per_tb, "/cost/prices/egress_cny_per_tb");
  s.operations_by_staff = cs.operations == "staff";
  if (s.operations_by_staff) {
    s.staff_fte = rec.take(pc.at("ownership.staff_fte"), cs.staff_fte, "/cost/staff_fte");
    s.staff_cny_per_year = rec.take(pc.at("ownership.staff_cny_per_year"), po.staff_cny_per_year,
                                    "/cost/prices/staff_cny_per_year");
  } else {
    s.operations_capex_share = rec.take(pc.at("ownership.operations_capex_share"),
                                        cs.operations_capex_share, "/cost/operations_capex_share");
  }
  s.spares_share = rec.take(pc.at("ownership.spares_share"), cs.spares_share, "/cost/spares_share");
  s.life_years = static_cast<int>(
      rec.take(pc.at("ownership.life_years"), as_double(cs.life_years), "/cost/life_years"));
  s.residual_fraction = rec.take(pc.at("ownership.residual_fraction"), cs.residual_fraction,
                                 "/cost/residual_fraction");

  // Utilisation: given, or implied by the demand profile, or the default.
  if (cs.utilization) {
    s.utilization = rec.take(pc.at("planning.utilization"), cs.utilization, "/cost/utilization");
    s.utilization_source = "request";
  } else if (cs.monthly_demand_gpu_hours) {
    double total = 0;
    for (double m : *cs.monthly_demand_gpu_hours) total += m;
    s.utilization = total / (gpus * kHoursPerYear);
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
  p.gpus_in_largest_server = std::min(gpus, per);
  ServerPowerInputs server{s.gpu->tdp_watts, p.gpus_in_largest_server, s.host_fixed_watts,
                           s.cooling_conversion_fraction};
  p.server_watts_full_load = server_watts_full_load(server);
  p.server_watts_typical = p.server_watts_full_load * s.training_load_factor;
  p.server_watts_idle = p.server_watts_full_load * s.idle_load_factor;
  p.fleet_watts_full_load = fleet_watts_full_load(server, gpus, per);
  p.office = office_verdict(p.server_watts_full_load, p.servers, s.office_rack_kw_low,
                            s.office_rack_kw_high, s.office_racks, s.rack_units_usable,
                            s.server_rack_units);
  auto fit = [&](double kw) {
    return fit_racks(kw, p.server_watts_full_load, s.rack_units_usable, s.server_rack_units,
                     p.servers);
  };
  const bool per_kw = s.colocation_pricing == "per_kw";
  auto monthly = [&](const RackFit& f, double rack_price) {
    return per_kw ? f.racks_needed * f.rack_kw * s.colocation_cny_per_kw_month
                  : f.racks_needed * rack_price;
  };
  auto class_price = [&](double kw) -> std::optional<double> {
    for (const auto& [k, price] : s.rack_classes)
      if (std::fabs(k - kw) < 1e-9) return price;
    return std::nullopt;
  };
  if (s.facility == "office") {
    p.racks = fit(s.office_rack_kw_high);
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
  return p;
}

namespace {

std::string colocation_basis(const CostScenario& s, const PowerPlan& p) {
  if (s.facility == "office") return "your own office: no colocation fee";
  std::string basis =
      s.colocation_pricing == "per_kw"
          ? std::to_string(p.racks.racks_needed) + " rack(s) x " + format_number(p.racks.rack_kw) +
                " kW x " + cny(s.colocation_cny_per_kw_month) + "/kW-month x 12"
          : std::to_string(p.racks.racks_needed) + " rack(s) of " +
                format_number(p.racks.rack_kw) + " kW x " + cny(p.rack_price_cny_per_month) +
                "/month x 12";
  if (s.colocation_includes_electricity) basis += "; electricity included";
  return basis;
}

EnergyResult energy_for(const CostScenario& s, const PowerPlan& p, double utilization) {
  EnergyInputs e;
  e.busy_watts = p.fleet_watts_full_load * s.training_load_factor;
  e.idle_watts = p.fleet_watts_full_load * s.idle_load_factor;
  e.utilization = utilization;
  e.valley_shift_share = s.valley_shift_share;
  e.pue = s.pue;
  e.tariff = s.tariff;
  return yearly_energy(e);
}

}  // namespace

OptionCost buy_option(const CostScenario& s, int gpus, double utilization, EnergyResult* energy,
                      bool describe, const PowerPlan* plan) {
  const PowerPlan p = plan ? *plan : plan_power(s, gpus);
  const EnergyResult e = energy_for(s, p, utilization);
  if (energy) *energy = e;
  BuyInputs b;
  b.gpus = gpus;
  b.servers = p.servers;
  b.gpu_price_cny = s.gpu_price_cny.value_or(0);
  b.platform_price_cny = s.platform_price_cny;
  b.life_years = s.life_years;
  b.residual_fraction = s.residual_fraction;
  b.describe = describe;
  b.colocation_cny_per_year = p.colocation_cny_per_year;
  if (describe) b.colocation_basis = colocation_basis(s, p);
  if (s.colocation_includes_electricity) {
    b.electricity_cny_per_year = 0;
    if (describe) b.electricity_basis = "included in the colocation price";
  } else {
    b.electricity_cny_per_year = e.cny_per_year;
    if (describe)
      b.electricity_basis = format_number(std::round(e.it_kwh_per_year)) + " kWh IT x PUE " +
                          format_number(s.pue) + " at " +
                          format_number(std::round(e.average_cny_per_kwh * 10000) / 10000) +
                          " CNY/kWh average (" + (s.time_of_use ? "time-of-use" : "flat") +
                          ", " + format_number(std::round(utilization * 1000) / 10) + "% busy)";
  }
  if (s.network_line != "none") {
    b.network_cny_per_year = s.network_mbps * s.network_cny_per_mbps_month * 12;
    if (describe)
      b.network_basis = s.network_line + " line " + format_number(s.network_mbps) + " Mbps x " +
                      cny(s.network_cny_per_mbps_month) + "/Mbps-month x 12";
  } else if (describe) {
    b.network_basis = "no line";
  }
  b.operations_by_staff = s.operations_by_staff;
  b.operations_capex_share = s.operations_capex_share;
  b.staff_fte = s.staff_fte;
  b.staff_cny_per_year = s.staff_cny_per_year;
  b.spares_share = s.spares_share;
  return buy_cost(b);
}

namespace {

OptionCost rent_option(const CostScenario& s, int gpus, double utilization, bool describe = true) {
  RentInputs r;
  r.describe = describe;
  r.gpus = gpus;
  r.utilization = utilization;
  r.cny_per_gpu_hour = s.rent_cny_per_gpu_hour.value_or(0);
  r.years = s.life_years;
  r.egress_tb_per_month = s.egress_tb_per_month;
  r.egress_cny_per_tb = s.egress_cny_per_tb;
  return rent_cost(r);
}

OptionCost reserved_option(const CostScenario& s, int gpus) {
  ReservedInputs r;
  r.gpus = gpus;
  r.cny_per_gpu_month = s.reserved_cny_per_gpu_month.value_or(0);
  r.years = s.life_years;
  r.egress_tb_per_month = s.egress_tb_per_month;
  r.egress_cny_per_tb = s.egress_cny_per_tb;
  return reserved_cost(r);
}

std::optional<double> break_even(const CostScenario& s, int gpus) {
  if (!s.gpu_price_cny || !s.rent_cny_per_gpu_hour) return std::nullopt;
  const PowerPlan plan = plan_power(s, gpus);
  return break_even_utilization(
      [&](double u) {
        return buy_option(s, gpus, u, nullptr, false, &plan).lifetime_cny -
               rent_option(s, gpus, u, false).lifetime_cny;
      },
      energy_breakpoints(s.tariff));
}

json option_json(const OptionCost& c) {
  json items = json::array();
  for (const LineItem& i : c.line_items)
    items.push_back({{"name", i.name}, {"yearly_cny", i.yearly_cny}, {"basis", i.basis}});
  return {{"yearly_cny", c.yearly_cny},
          {"cumulative_cny", c.cumulative_cny},
          {"lifetime_cny", c.lifetime_cny},
          {"average_yearly_cny", c.average_yearly_cny},
          {"line_items", items}};
}

json defaults_json(const std::vector<DefaultUsed>& used) {
  json out = json::array();
  for (const DefaultUsed& d : used) {
    out.push_back({{"key", d.key},
                   {"value", d.value},
                   {"unit", d.unit},
                   {"basis", d.basis},
                   {"source", d.source},
                   {"as_of", d.as_of},
                   {"needs_confirmation", d.needs_confirmation},
                   {"overridden", d.overridden},
                   {"override_path", d.override_path.empty() ? json(nullptr) : json(d.override_path)}});
  }
  return out;
}

std::optional<double> number_at(const json& j, const char* section, const char* key) {
  if (!j.is_object() || !j.contains(section) || !j[section].is_object()) return std::nullopt;
  const json& s = j[section];
  if (!s.contains(key) || !s[key].is_number()) return std::nullopt;
  const double v = s[key].get<double>();
  if (!std::isfinite(v) || v <= 0) return std::nullopt;
  return v;
}

/// Lifetimes of the options a scenario can price, for ranking and the per-option summary.
struct Summary {
  std::optional<double> buy, rent, reserved;
  std::optional<double> break_even;
  std::string cheapest;
  double cheapest_lifetime = 0;
  bool needs_confirmation = false;
  bool over_capacity = false;
};

Summary summarise(const CostScenario& s) {
  Summary m;
  m.needs_confirmation = s.needs_confirmation;
  if (s.utilization > 1) {
    m.over_capacity = true;
    return m;
  }
  if (s.gpu_price_cny) m.buy = buy_option(s, s.gpus, s.utilization, nullptr, false).lifetime_cny;
  if (s.rent_cny_per_gpu_hour)
    m.rent = rent_option(s, s.gpus, s.utilization, false).lifetime_cny;
  if (s.reserved_cny_per_gpu_month) m.reserved = reserved_option(s, s.gpus).lifetime_cny;
  m.break_even = break_even(s, s.gpus);
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

/// A figure the user gave, else the speed model's (when `predicted_applies`), with its source:
/// "request" or "speed_model".
std::optional<double> given_or_predicted(const std::optional<double>& given, bool predicted_applies,
                                         const json& result, const char* section, const char* key,
                                         std::string* source) {
  if (given) {
    *source = "request";
    return given;
  }
  if (predicted_applies) {
    if (auto v = number_at(result, section, key)) {
      *source = "speed_model";
      return v;
    }
  }
  return std::nullopt;
}

/// The GPU count to cost for an unpinned option: its minimum count, raised (to the next count
/// the parallelism allows) until it can deliver the yearly demand profile when one is given.
int costed_count(const Request& req, const CostRequest& rq, int min_count) {
  if (req.hardware || !rq.cost.monthly_demand_gpu_hours || rq.cost.utilization) return min_count;
  double total = 0;
  for (double m : *rq.cost.monthly_demand_gpu_hours) total += m;
  const int need = static_cast<int>(std::ceil(total / kHoursPerYear - 1e-9));
  int n = std::max(min_count, need);
  while (n < kMaxGpuCount && !layout_for_count(req, n)) ++n;
  return n;
}

const char* const kServerSpecific[][2] = {
    {"/cost/prices/gpu_purchase_cny", "gpu_purchase_cny"},
    {"/cost/prices/rental_cny_per_gpu_hour", "rental_cny_per_gpu_hour"},
    {"/cost/prices/rental_monthly_cny_per_gpu", "rental_monthly_cny_per_gpu"},
    {"/cost/prices/server_platform_cny", "server_platform_cny"},
    {"/power/gpus_per_server", "gpus_per_server"},
    {"/power/host_watts", "host_watts"},
    {"/power/server_rack_units", "server_rack_units"},
};

void reject_server_overrides_without_hardware(const CostRequest& rq) {
  const PriceOverrides& p = rq.cost.prices;
  const bool given[] = {p.gpu_purchase_cny.has_value(),    p.rental_cny_per_gpu_hour.has_value(),
                        p.rental_monthly_cny_per_gpu.has_value(),
                        p.server_platform_cny.has_value(), rq.power.gpus_per_server.has_value(),
                        rq.power.host_watts.has_value(),   rq.power.server_rack_units.has_value()};
  for (std::size_t i = 0; i < std::size(given); ++i) {
    if (given[i]) {
      const std::string path = kServerSpecific[i][0];
      throw InputError("inconsistent", path,
                       path + " describes the pinned server: set /hardware/gpu (or, for GPU "
                              "prices, use /cost/prices/gpus/<id>)");
    }
  }
}

json capacity_json(const CostRequest& rq, const PriceCatalog& pc, const Catalog& catalog) {
  const CapacitySettings& c = rq.capacity;
  std::vector<DefaultUsed> used;
  Recorder rec(&used, pc, std::nullopt);
  CapacityInputs in;
  in.jobs = c.jobs;
  in.months = c.dated ? 0
                      : static_cast<int>(rec.take(pc.at("planning.capacity_months"),
                                                  as_double(c.months), "/capacity/months"));
  in.target_utilization = rec.take(pc.at("planning.capacity_target_utilization"),
                                   c.target_utilization, "/capacity/target_utilization");
  in.buffer = rec.take(pc.at("planning.capacity_buffer"), c.buffer, "/capacity/buffer");
  const CapacityPlan plan = plan_capacity(in);
  json types = json::array();
  for (const CapacityByType& t : plan.by_type) {
    // Match the type to a catalog GPU by id or display name (case-insensitive), if it is one.
    json match = nullptr;
    auto lower = [](std::string s) {
      for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return s;
    };
    for (const GpuSpec& g : catalog.gpus)
      if (lower(g.id) == lower(t.gpu_type) || lower(g.name) == lower(t.gpu_type)) match = g.id;
    json monthly = json::array();
    for (const MonthHours& m : t.monthly)
      monthly.push_back({{"month", m.month}, {"gpu_hours", m.gpu_hours}});
    types.push_back({{"gpu_type", t.gpu_type},
                     {"catalog_gpu", match},
                     {"gpu_hours_total", t.gpu_hours_total},
                     {"monthly_gpu_hours", monthly},
                     {"average_monthly_gpu_hours", t.average_monthly_gpu_hours},
                     {"peak_monthly_gpu_hours", plan.dated ? json(t.peak_monthly_gpu_hours) : json(nullptr)},
                     {"cards_needed", t.cards_needed},
                     {"cards_needed_for_peak_month", plan.dated ? json(t.cards_needed_for_peak) : json(nullptr)},
                     {"expected_utilization", t.expected_utilization}});
  }
  return {{"jobs", c.jobs.size()},
          {"months", plan.months},
          {"dated", plan.dated},
          {"first_month", plan.dated ? json(plan.first_month) : json(nullptr)},
          {"last_month", plan.dated ? json(plan.last_month) : json(nullptr)},
          {"hours_per_month", in.hours_per_month},
          {"target_utilization", in.target_utilization},
          {"buffer", in.buffer},
          {"formula", "cards = ceil(monthly GPU-hours x (1 + buffer) / (730 h x target_utilization))"},
          {"gpu_hours_total", plan.gpu_hours_total},
          {"by_gpu_type", types},
          {"defaults_used", defaults_json(used)}};
}


}  // namespace

json option_power_cost(const Request& req, const CostRequest& rq, const GpuSpec& gpu, int gpus,
                       const PriceCatalog& prices, const json& option) {
  const bool pinned = req.hardware && req.hardware->gpu == gpu.id;
  gpus = costed_count(req, rq, gpus);
  const CostScenario s = resolve_scenario(rq, prices, gpu, gpus, pinned, rq.cost.site, false);
  const PowerPlan p = plan_power(s, gpus);
  const Summary m = summarise(s);
  // A run priced with this option's own training GPU-hours (speed model), else the user's.
  std::optional<double> run_hours = rq.cost.run_gpu_hours;
  if (!run_hours) run_hours = number_at(option, "training", "gpu_hours");
  json run = nullptr;
  if (run_hours && !m.over_capacity) {
    const double used = gpus * kHoursPerYear * s.utilization;
    std::optional<double> buy_hour;
    if (s.gpu_price_cny)
      buy_hour = cost_per_gpu_hour(
          buy_option(s, gpus, s.utilization, nullptr, false).average_yearly_cny, used);
    run = {{"gpu_hours", *run_hours},
           {"buy", buy_hour ? json(cost_per_run(*run_hours, *buy_hour)) : json(nullptr)},
           {"rent", s.rent_cny_per_gpu_hour ? json(cost_per_run(*run_hours, *s.rent_cny_per_gpu_hour))
                                            : json(nullptr)}};
  }
  return {{"power",
           {{"server_watts_full_load", p.server_watts_full_load},
            {"servers", p.servers},
            {"racks_needed", p.racks.racks_needed},
            {"rack_kw", p.racks.rack_kw},
            {"office_can_host", p.office.can_host}}},
          {"cost",
           {{"gpus", gpus},
            {"buy_lifetime_cny", opt(m.buy)},
            {"rent_lifetime_cny", opt(m.rent)},
            {"rent_reserved_lifetime_cny", opt(m.reserved)},
            {"cheapest", m.cheapest.empty() ? json(nullptr) : json(m.cheapest)},
            {"break_even_utilization", opt(m.break_even)},
            {"over_capacity", m.over_capacity},
            {"cost_per_run_cny", run},
            {"needs_confirmation", m.needs_confirmation}}}};
}

json power_cost_result(const Request& req, const CostRequest& rq, const json& result,
                       const Catalog& catalog, const PriceCatalog& prices,
                       const std::vector<GpuOption>& judged_options) {
  site_of(prices, rq.cost.site);  // an unknown site is the user's error, located
  json out = {{"power", nullptr}, {"cost", nullptr}, {"capacity", nullptr},
              {"warnings", json::array()}};
  if (rq.capacity.given) out["capacity"] = capacity_json(rq, prices, catalog);

  // Which hardware to cost: the pinned GPUs, else the cheapest fitting option.
  const GpuSpec* gpu = nullptr;
  int gpus = 0;
  std::string hardware_reason;
  if (req.hardware) {
    gpu = catalog.find_gpu(req.hardware->gpu);
    gpus = req.hardware->count;
    if (result.contains("memory") && result["memory"].contains("layout") &&
        result["memory"]["layout"].contains("count") &&
        result["memory"]["layout"]["count"].is_number_integer())
      gpus = result["memory"]["layout"]["count"].get<int>();
    hardware_reason = "the pinned hardware (/hardware)";
  } else {
    reject_server_overrides_without_hardware(rq);
    double best = 0;
    for (const GpuOption& o : judged_options) {
      if (!o.min_layout) continue;
      const int count = costed_count(req, rq, o.min_layout->count);
      const CostScenario s =
          resolve_scenario(rq, prices, *o.gpu, count, false, rq.cost.site, false);
      const Summary m = summarise(s);
      if (m.cheapest.empty()) continue;
      if (gpu == nullptr || m.cheapest_lifetime < best) {
        gpu = o.gpu;
        gpus = count;
        best = m.cheapest_lifetime;
      }
    }
    if (gpu == nullptr) {
      out["warnings"].push_back(warning_json(
          "cost_not_computed",
          "no hardware is pinned and no fitting GPU has a purchase or rental price: pin "
          "/hardware or give prices under /cost/prices/gpus",
          "/hardware"));
      return out;
    }
    hardware_reason = rq.cost.monthly_demand_gpu_hours && !rq.cost.utilization
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
  if (s.facility != "office") {
    // The rack class and price actually used, for the editable table.
    Recorder rec(&s.defaults_used, prices, rq.cost.prices.usd_to_cny);
    if (s.colocation_pricing == "per_rack") {
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
    PriceEntry used = prices.rack_classes_entry;
    used.value = p.racks.rack_kw;
    used.unit = "kW per rack (the class used)";
    rec.take(used, s.rack_kw_pinned, "/power/rack_kw");
  }

  // ---- power
  const double it_kw = p.fleet_watts_full_load / 1000;
  json power = {
      {"gpu", gpu->id},
      {"gpus", gpus},
      {"gpus_per_server", s.gpus_per_server},
      {"servers", p.servers},
      {"gpu_watts_per_server", gpu->tdp_watts * p.gpus_in_largest_server},
      {"host_watts", p.server_watts_full_load - gpu->tdp_watts * p.gpus_in_largest_server},
      {"server_watts_full_load", p.server_watts_full_load},
      {"server_watts_typical", p.server_watts_typical},
      {"server_watts_idle", p.server_watts_idle},
      {"training_load_factor", s.training_load_factor},
      {"it_kw_full_load", it_kw},
      {"it_kw_typical", it_kw * s.training_load_factor},
      {"facility", s.facility},
      {"pue", s.pue},
      {"facility_kw", it_kw * s.pue},
      {"rack_kw", p.racks.rack_kw},
      {"rack_choice", p.rack_choice},
      {"servers_per_rack", p.racks.servers_per_rack},
      {"servers_per_rack_by_power", p.racks.servers_per_rack_by_power},
      {"servers_per_rack_by_space", p.racks.servers_per_rack_by_space},
      {"racks_needed", p.racks.racks_needed},
      {"rack_fits", p.racks.fits},
      {"racks_per_server", p.racks.racks_per_server},
      {"office_verdict",
       {{"can_host", p.office.can_host}, {"level", p.office.level}, {"reason", p.office.reason}}},
      {"sizing", "full_load"}};
  if (!p.racks.fits) {
    out["warnings"].push_back(warning_json(
        "server_exceeds_rack",
        "one server draws " + format_number(std::round(p.server_watts_full_load) / 1000) +
            " kW, more than a " + format_number(p.racks.rack_kw) + " kW rack: it takes " +
            std::to_string(p.racks.racks_per_server) + " racks' circuits",
        "/power/rack_kw"));
  }
  if (s.facility == "office" && !p.office.can_host) {
    out["warnings"].push_back(warning_json("office_cannot_host", p.office.reason, "/power/facility"));
  }
  out["power"] = power;

  // ---- options
  json cost;
  cost["currency"] = "CNY";
  cost["hardware"] = {{"gpu", gpu->id},
                      {"name", gpu->name},
                      {"count", gpus},
                      {"pinned", req.hardware.has_value()},
                      {"reason", hardware_reason}};
  const SiteDefaults& site = site_of(prices, s.site_id);
  cost["site"] = {{"id", site.id}, {"name", site.name}, {"name_zh", site.name_zh}};
  cost["utilization"] = u;
  cost["utilization_source"] = s.utilization_source;
  cost["life_years"] = s.life_years;
  json missing = json::array();
  json options = {{"buy", nullptr}, {"rent", nullptr}, {"rent_reserved", nullptr},
                  {"hybrid", nullptr}};
  std::optional<OptionCost> buy, rent, reserved, hybrid;
  EnergyResult energy;
  if (s.gpu_price_cny) {
    buy = buy_option(s, gpus, u, &energy);
    json j = option_json(*buy);
    j["capex_cny"] = buy->capex_cny;
    j["residual_cny"] = buy->residual_cny;
    j["servers"] = p.servers;
    j["gpus"] = gpus;
    options["buy"] = j;
  } else {
    const std::string path = req.hardware ? "/cost/prices/gpu_purchase_cny"
                                          : "/cost/prices/gpus/" + gpu->id + "/purchase_cny";
    missing.push_back({{"option", "buy"},
                       {"reason", "no purchase price for " + gpu->name + " in the catalog"},
                       {"override_path", path}});
  }
  if (s.reserved_cny_per_gpu_month) {
    reserved = reserved_option(s, gpus);
    json v = option_json(*reserved);
    v["cny_per_gpu_month"] = *s.reserved_cny_per_gpu_month;
    v["gpus"] = gpus;
    options["rent_reserved"] = v;
  }
  if (s.rent_cny_per_gpu_hour) {
    rent = rent_option(s, gpus, u);
    json r = option_json(*rent);
    r["cny_per_gpu_hour"] = *s.rent_cny_per_gpu_hour;
    r["gpus"] = gpus;
    options["rent"] = r;
  } else {
    const std::string path = req.hardware ? "/cost/prices/rental_cny_per_gpu_hour"
                                          : "/cost/prices/gpus/" + gpu->id + "/rental_cny_per_gpu_hour";
    missing.push_back({{"option", "rent"},
                       {"reason", "no rental price for " + gpu->name + " in the catalog"},
                       {"override_path", path}});
  }

  // ---- hybrid: own the base load, rent the bursts
  // Without a demand profile there are no bursts to rent: a flat demand would only "consolidate"
  // the pinned cards onto fewer, which a job that needs them together cannot do.
  std::array<double, 12> demand{};
  demand.fill(gpus * kHoursPerMonth * u);
  if (rq.cost.monthly_demand_gpu_hours) demand = *rq.cost.monthly_demand_gpu_hours;
  json hybrid_split = nullptr;
  if (!rq.cost.monthly_demand_gpu_hours) {
    missing.push_back({{"option", "hybrid"},
                       {"reason", "the hybrid plan needs the demand month by month"},
                       {"override_path", "/cost/monthly_demand_gpu_hours"}});
  } else if (buy && rent) {
    const int per = s.gpus_per_server;
    auto owned_cost = [&](int servers, double owned_hours) {
      const int n = servers * per;
      return buy_option(s, n, owned_hours / (n * kHoursPerYear), nullptr, false)
          .average_yearly_cny;
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
                         cny(*s.rent_cny_per_gpu_hour)});
    items.push_back({"data_transfer", h.best.rented_gpu_hours_per_year > 0 ? egress_yearly : 0,
                     h.best.rented_gpu_hours_per_year > 0 ? "egress of the rented part"
                                                          : "nothing rented"});
    hybrid = finish_option(std::move(items), s.life_years, capex, residual);
    json hj = option_json(*hybrid);
    hj["capex_cny"] = capex;
    hj["residual_cny"] = residual;
    options["hybrid"] = hj;
    json monthly = json::array();
    for (std::size_t m = 0; m < 12; ++m) {
      monthly.push_back({{"month", m + 1},
                         {"demand_gpu_hours", demand[m]},
                         {"owned_gpu_hours", h.owned_monthly[m]},
                         {"rented_gpu_hours", h.rented_monthly[m]}});
    }
    json candidates = json::array();
    const std::size_t stride = std::max<std::size_t>(1, h.candidates.size() / 100);
    for (std::size_t i = 0; i < h.candidates.size(); i += stride)
      candidates.push_back({{"owned_servers", h.candidates[i].servers},
                            {"average_yearly_cny", h.candidates[i].average_yearly_cny}});
    const double owned_capacity = owned_gpus * kHoursPerYear;
    hybrid_split = {{"owned_servers", h.best.servers},
                    {"owned_gpus", owned_gpus},
                    {"owned_gpu_hours_per_year", h.best.owned_gpu_hours_per_year},
                    {"rented_gpu_hours_per_year", h.best.rented_gpu_hours_per_year},
                    {"owned_utilization", owned_capacity > 0
                                              ? json(h.best.owned_gpu_hours_per_year / owned_capacity)
                                              : json(nullptr)},
                    {"owned_average_yearly_cny", h.best.owned_average_yearly_cny},
                    {"rented_average_yearly_cny", h.best.rented_average_yearly_cny},
                    {"average_yearly_cny", h.best.average_yearly_cny},
                    {"lifetime_cny", hybrid->lifetime_cny},
                    {"owned_max_utilization", s.owned_max_utilization},
                    {"monthly", monthly},
                    {"candidates", candidates}};
  } else {
    missing.push_back({{"option", "hybrid"},
                       {"reason", "the hybrid plan needs both a purchase and a rental price"},
                       {"override_path", nullptr}});
  }
  cost["options"] = options;
  cost["missing_prices"] = missing;
  {
    std::string cheapest;
    double best = 0;
    for (const auto& [name, c] : {std::pair<const char*, const std::optional<OptionCost>*>{"buy", &buy},
                                  {"rent", &rent},
                                  {"rent_reserved", &reserved},
                                  {"hybrid", &hybrid}}) {
      if (*c && (cheapest.empty() || (*c)->lifetime_cny < best)) {
        cheapest = name;
        best = (*c)->lifetime_cny;
      }
    }
    cost["cheapest_option"] = cheapest.empty() ? json(nullptr) : json(cheapest);
  }
  if (rq.cost.monthly_demand_gpu_hours) {
    const double peak = *std::max_element(demand.begin(), demand.end());
    if (peak > gpus * kHoursPerMonth) {
      out["warnings"].push_back(warning_json(
          "demand_peak_exceeds_cards",
          "the busiest month needs " + format_number(peak) + " GPU-hours; " +
              std::to_string(gpus) + " GPUs deliver " + format_number(gpus * kHoursPerMonth) +
              " a month, so the buy option cannot serve it (see the hybrid plan)",
          "/cost/monthly_demand_gpu_hours"));
    }
  }

  // ---- break-even and the 70% rule
  const std::optional<double> be = break_even(s, gpus);
  const bool comparable = buy.has_value() && rent.has_value();
  cost["break_even_utilization"] = opt(be);
  const std::optional<int> be_year = comparable ? break_even_year(*buy, *rent) : std::nullopt;
  cost["break_even_year"] = be_year ? json(*be_year) : json(nullptr);
  json rule_holds = nullptr;
  std::string note;
  if (!comparable) {
    note = "needs both a purchase and a rental price";
  } else if (!be) {
    rule_holds = false;
    note = "renting is cheaper even at 100% utilisation with these prices: buying never pays, "
           "so the ~70% rule does not hold";
  } else {
    const bool holds = std::fabs(*be - s.seventy_percent_rule) <= s.seventy_percent_tolerance + 1e-12;
    rule_holds = holds;
    note = "buying pays from " + format_number(std::round(*be * 1000) / 10) +
           "% utilisation with these prices; the source's ~70% rule " +
           (holds ? "holds (within " : "does not hold (outside ") +
           format_number(s.seventy_percent_rule * 100) + " +/- " +
           format_number(s.seventy_percent_tolerance * 100) + " points)";
  }
  cost["seventy_percent_rule_holds"] = rule_holds;
  cost["seventy_percent_rule_note"] = note;

  // ---- per GPU-hour, per run, per million tokens
  const double used_hours = gpus * kHoursPerYear * u;
  std::map<std::string, std::optional<double>> per_hour;
  per_hour["buy"] = buy ? cost_per_gpu_hour(buy->average_yearly_cny, used_hours) : std::nullopt;
  per_hour["rent"] = s.rent_cny_per_gpu_hour;
  per_hour["rent_reserved"] =
      reserved ? cost_per_gpu_hour(reserved->average_yearly_cny, used_hours) : std::nullopt;
  double demand_total = 0;
  for (double d : demand) demand_total += d;
  per_hour["hybrid"] =
      hybrid ? cost_per_gpu_hour(hybrid->average_yearly_cny, demand_total) : std::nullopt;
  json per_hour_json = json::object();
  for (const auto& [k, v] : per_hour) per_hour_json[k] = opt(v);
  cost["cost_per_gpu_hour_cny"] = per_hour_json;

  std::string run_source;
  const std::optional<double> run_hours = given_or_predicted(
      rq.cost.run_gpu_hours, req.hardware.has_value(), result, "training", "gpu_hours",
      &run_source);
  cost["run_gpu_hours"] = opt(run_hours);
  cost["run_gpu_hours_source"] = run_hours ? json(run_source) : json(nullptr);
  if (run_hours) {
    json j = json::object();
    for (const auto& [k, v] : per_hour) j[k] = v ? json(cost_per_run(*run_hours, *v)) : json(nullptr);
    cost["cost_per_run_cny"] = j;
  } else {
    cost["cost_per_run_cny"] = nullptr;
  }

  std::string tps_source;
  const std::optional<double> tps = given_or_predicted(
      rq.cost.tokens_per_second, req.hardware && req.task == Task::kInference, result,
      "inference", "decode_tokens_per_second", &tps_source);
  cost["tokens_per_second"] = opt(tps);
  cost["tokens_per_second_source"] = tps ? json(tps_source) : json(nullptr);
  if (tps) {
    json j = json::object();
    for (const auto& [k, v] : per_hour) {
      // The hybrid's hours are not all on these cards; price tokens for the pinned fleet only.
      if (k == "hybrid") continue;
      j[k] = v ? json(cost_per_million_tokens(*v, gpus, *tps)) : json(nullptr);
    }
    cost["cost_per_million_tokens_cny"] = j;
  } else {
    cost["cost_per_million_tokens_cny"] = nullptr;
  }

  // ---- electricity detail
  if (!buy) energy = energy_for(s, p, u);
  {
    json periods = json::array();
    for (const PeriodUse& x : energy.periods) {
      periods.push_back({{"period", x.period},
                         {"hours_per_day", x.period == "peak"   ? s.tariff.peak_hours
                                           : x.period == "flat" ? s.tariff.flat_hours
                                                                : s.tariff.valley_hours},
                         {"cny_per_kwh", x.price_cny_per_kwh},
                         {"busy_hours_per_day", x.busy_hours_per_day},
                         {"facility_kwh_per_year", x.facility_kwh_per_year},
                         {"cny_per_year", x.cny_per_year}});
    }
    CostScenario shifted = s;
    shifted.valley_shift_share = 1;
    const EnergyResult best = energy_for(shifted, p, u);
    cost["electricity"] = {
        {"tariff", s.time_of_use ? "time_of_use" : "flat"},
        {"flat_cny_per_kwh", s.tariff.flat_cny_per_kwh},
        {"peak_cny_per_kwh_effective", s.tariff.peak_cny_per_kwh},
        {"valley_cny_per_kwh", s.tariff.valley_cny_per_kwh},
        {"pue", s.pue},
        {"it_kwh_per_year", energy.it_kwh_per_year},
        {"facility_kwh_per_year", energy.facility_kwh_per_year},
        {"cny_per_year", s.colocation_includes_electricity ? 0.0 : energy.cny_per_year},
        {"average_cny_per_kwh", energy.average_cny_per_kwh},
        {"included_in_colocation", s.colocation_includes_electricity},
        {"valley_shift_share", s.valley_shift_share},
        {"valley_shift_max_saving_cny_per_year",
         s.colocation_includes_electricity ? 0.0 : energy.cny_per_year - best.cny_per_year},
        {"periods", periods}};
  }

  // ---- sites
  json sites = json::array();
  double selected_yearly = buy ? buy->average_yearly_cny : 0;
  for (const SiteDefaults& other : prices.sites) {
    const CostScenario x =
        resolve_scenario(rq, prices, *gpu, gpus, req.hardware.has_value(), other.id, false);
    json row = {{"site", other.id},
                {"name", other.name},
                {"name_zh", other.name_zh},
                {"selected", other.id == s.site_id},
                {"electricity_flat_cny_per_kwh", x.tariff.flat_cny_per_kwh},
                {"colocation_factor", other.colocation_factor.value}};
    bool flagged = other.electricity_flat_cny_per_kwh.needs_confirmation ||
                   other.colocation_factor.needs_confirmation;
    if (x.gpu_price_cny) {
      const PowerPlan xp = plan_power(x, gpus);
      EnergyResult xe;
      const OptionCost b = buy_option(x, gpus, u, &xe, false);
      row["electricity_cny_per_year"] = x.colocation_includes_electricity ? 0.0 : xe.cny_per_year;
      row["colocation_cny_per_year"] = xp.colocation_cny_per_year;
      row["buy_average_yearly_cny"] = b.average_yearly_cny;
      row["buy_lifetime_cny"] = b.lifetime_cny;
      row["difference_vs_selected_cny_per_year"] = b.average_yearly_cny - selected_yearly;
    } else {
      row["electricity_cny_per_year"] = nullptr;
      row["colocation_cny_per_year"] = nullptr;
      row["buy_average_yearly_cny"] = nullptr;
      row["buy_lifetime_cny"] = nullptr;
      row["difference_vs_selected_cny_per_year"] = nullptr;
    }
    row["needs_confirmation"] = flagged;
    sites.push_back(row);
  }
  cost["site_comparison"] = sites;
  cost["site_note"] = {{"siting_zh", prices.siting_note_zh},
                       {"siting_en", prices.siting_note_en},
                       {"data_zh", prices.data_note_zh},
                       {"data_en", prices.data_note_en},
                       {"source", prices.notes_source}};

  cost["hybrid_split"] = hybrid_split;
  cost["defaults_used"] = defaults_json(s.defaults_used);
  bool flagged = false;
  int flagged_count = 0;
  for (const DefaultUsed& d : s.defaults_used) {
    flagged |= d.needs_confirmation;
    flagged_count += d.needs_confirmation ? 1 : 0;
  }
  cost["needs_confirmation"] = flagged;
  cost["prices_as_of"] = prices.as_of;
  if (flagged) {
    out["warnings"].push_back(warning_json(
        "prices_need_confirmation",
        std::to_string(flagged_count) + " cost defaults are examples or low-confidence figures "
                                        "(see cost.defaults_used): confirm them with your providers",
        "/cost/prices"));
  }
  out["cost"] = cost;
  return out;
}

json power_and_cost_json(const Request& request, const CostRequest& cost_request,
                         const json& result, const Catalog& catalog,
                         const std::vector<GpuOption>& judged_options) {
  return power_cost_result(request, cost_request, result, catalog, builtin_prices(),
                           judged_options);
}

json option_power_and_cost_json(const Request& request, const CostRequest& cost_request,
                                const GpuSpec& gpu, int gpus, const json& option) {
  return option_power_cost(request, cost_request, gpu, gpus, builtin_prices(), option);
}

}  // namespace advisor
