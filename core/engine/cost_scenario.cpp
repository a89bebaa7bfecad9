// SPDX-License-Identifier: MIT
// A cost scenario resolved from the request and the price catalog: every default of
// data/prices.json or the request's override of it (recorded with its source) for one GPU
// type, count and site. The GPU's part (platform, prices) apart from the rest, so that a search
// resolves the site once and each GPU's part alone (with_gpu()).
#include "engine/cost_scenario.hpp"

#include <cmath>
#include <string>
#include <string_view>

#include "types/checked.hpp"
#include "types/errors.hpp"
#include "types/text.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {

std::optional<double> as_double(const std::optional<int>& v) {
  return v ? std::optional<double>(*v) : std::nullopt;
}

}  // namespace

namespace {
// Statuses of data/gpus.json whose parts are sold new in mainland China without a US licence.
// Views, not C strings: comparing one with a std::string checks the length before any byte
// (every plan of a search asks).
constexpr std::string_view kSoldNewStatuses[] = {"domestic", "china-specific",
                                                 "not-known-restricted"};
}  // namespace

bool sold_new_in_china(const GpuSpec& gpu) {
  for (std::string_view status : kSoldNewStatuses)
    if (gpu.china_availability.status == status) return true;
  return false;
}

const SiteDefaults& site_of(const PriceCatalog& prices, const std::string& id) {
  const SiteDefaults* s = prices.find_site(id);
  if (s == nullptr) {
    std::string known;
    for (const SiteDefaults& x : prices.sites) known += (known.empty() ? "" : ", ") + x.id;
    report_problem("unknown_value", "/cost/site",
                   "/cost/site \"" + id + "\" is not a site in the price catalog; known: " + known);
    static const SiteDefaults kNoSite;  // prices of 0, for the rest of the step
    return kNoSite;
  }
  return *s;
}

namespace {

constexpr std::string_view kSmallPlatformSuffix = "_small";  // "<form factor>_small"
constexpr double kAroundTheClock = 1.0;  // a serving fleet's share of busy hours

/// The platform `form_factor` + `suffix`, or null. A price catalog lists a handful of
/// platforms: a scan that compares lengths first costs less than the map's string compares
/// and builds no key (a search asks ~800 times per advise()).
const PlatformDefaults* find_platform(const PriceCatalog& prices, std::string_view form_factor,
                                      std::string_view suffix = {}) {
  for (const auto& [id, platform] : prices.platforms) {
    const std::string_view key = id;
    if (key.size() == form_factor.size() + suffix.size() && key.starts_with(form_factor) &&
        key.ends_with(suffix))
      return &platform;
  }
  return nullptr;
}

}  // namespace

const PlatformDefaults& platform_of(const PriceCatalog& prices, const GpuSpec& gpu, int gpus) {
  if (gpus > 0) {
    const PlatformDefaults* small = find_platform(prices, gpu.form_factor, kSmallPlatformSuffix);
    if (small != nullptr && gpus <= small->gpus_per_server.value) return *small;
  }
  const PlatformDefaults* full = find_platform(prices, gpu.form_factor);
  if (full == nullptr) {
    report_problem(
        "catalog_invalid", "prices.json/platforms",
        "prices.json/platforms has no \"" + gpu.form_factor + "\" platform (for " + gpu.id + ")");
    // For the rest of the step: one GPU and one rack unit per server, the least prices.json
    // allows (callers divide by them), and nothing else.
    static const PlatformDefaults kNoPlatform = [] {
      PlatformDefaults d;
      d.gpus_per_server.value = 1;
      d.rack_units.value = 1;
      return d;
    }();
    return kNoPlatform;
  }
  return *full;
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
void apply_rental_terms(CostScenario& s);

double demand_utilization(const std::array<double, 12>& monthly, int gpus) {
  double total = 0;
  for (double m : monthly) total += m;
  return total / (gpus * kHoursPerYear);
}
}  // namespace

// The utilisation at `gpus` without copying the scenario (with_count() sets it from here).
double utilization_at(const CostScenario& s, int gpus, const CostRequest& rq) {
  if (!rq.cost.utilization && rq.cost.monthly_demand_gpu_hours)
    return demand_utilization(*rq.cost.monthly_demand_gpu_hours, gpus);
  return s.utilization;
}

CostScenario with_count(CostScenario s, int gpus, const CostRequest& rq) {
  s.utilization = utilization_at(s, gpus, rq);
  s.gpus = gpus;
  apply_rental_terms(s);
  return s;
}

namespace {

/// The limits of the part's rentals: one marketplace host's GPUs (a provider's offer, or a
/// price the request states, is taken as stated), and the multi-node offer, recorded where a
/// count needs it.
void resolve_rental_limits(RentalMarket& m, Recorder& rec, const PriceCatalog& pc,
                           const GpuSpec& gpu, int gpus, bool quoted, bool stated) {
  const PriceEntry& per_host = pc.at("rental.hourly_gpus_per_host");
  const auto listed = pc.gpus.find(gpu.id);
  // A provider's offer states its host (or its RDMA across hosts); the request's price is a
  // quote for this job: taken as stated.
  const std::optional<int> offer_host =
      listed != pc.gpus.end() ? listed->second.rental_gpus_per_host : std::nullopt;
  m.hourly_gpus_per_host = quoted ? 0 : offer_host.value_or(stated ? 0 : per_host.value);
  if (!quoted && listed != pc.gpus.end()) m.host_kind = listed->second.rental_host_kind;
  const bool beyond_host = m.hourly_gpus_per_host > 0 && gpus > m.hourly_gpus_per_host;
  if (beyond_host && !offer_host && (m.host_cny_per_gpu_hour || m.host_cny_per_gpu_month))
    rec.take(per_host, std::nullopt);
  const auto offer = pc.cluster_offers.find(gpu.id);
  if (offer == pc.cluster_offers.end()) return;
  const ClusterOffer& o = offer->second;
  ClusterTerms& c = m.cluster.emplace();
  c.kind = o.kind;
  c.network = o.network;
  c.gpus_per_node = o.gpus_per_node;
  c.nodes_available = o.nodes_available;
  c.rdma = o.rdma;
  // Recorded (and confirmed) only for the counts the cluster rents.
  const bool used = (m.hourly_gpus_per_host > 0 && gpus > m.hourly_gpus_per_host) ||
                    !(m.host_cny_per_gpu_hour || m.host_cny_per_gpu_month);
  auto value = [&](const PriceEntry& e) {
    return used ? rec.take(e, std::nullopt) : rec.value_of(e);
  };
  c.cny_per_gpu_month = value(o.cny_per_node_month) / o.gpus_per_node;
  c.minimum_months = static_cast<int>(value(o.minimum_term_months));
}

/// What the scenario's count rents from the market (engine/rental_offers).
void apply_rental_terms(CostScenario& s) {
  const RentalTerms t = rental_terms(s.market, s.gpus);
  s.rent_cny_per_gpu_hour = t.cny_per_gpu_hour;
  s.reserved_cny_per_gpu_month = t.cny_per_gpu_month;
  s.rental_billed_gpus = t.billed_gpus;
  s.rental_minimum_months = t.minimum_months;
  s.rental_offer = t.offer;
  s.rental_lead_time_days = t.lead_time_days;
}

/// The part's lead times: its purchase (its own, an approval-only part's, else its status's),
/// and each rental offer's start (a provider's as it states, else the catalog's).
void resolve_lead_times(CostScenario& s, Recorder& rec, const CostRequest& rq,
                        const PriceCatalog& pc, const GpuSpec& gpu) {
  const CostSettings& cs = rq.cost;
  if (s.gpu_price_cny) {
    const auto own = pc.purchase_lead_time_by_gpu.find(gpu.id);
    const char* key = s.gpu_second_hand        ? "lead_time.purchase_second_hand_days"
                      : sold_new_in_china(gpu) ? "lead_time.purchase_new_days"
                                               : "lead_time.purchase_grey_import_days";
    s.purchase_lead_time_days =
        rec.take(own != pc.purchase_lead_time_by_gpu.end() ? own->second : pc.at(key),
                 cs.purchase_lead_time_days, "/cost/purchase_lead_time_days");
  }
  RentalMarket& m = s.market;
  const auto listed = pc.gpus.find(gpu.id);
  const std::optional<int> stated =
      listed != pc.gpus.end() ? listed->second.rental_lead_time_days : std::nullopt;
  if (m.host_cny_per_gpu_hour || m.host_cny_per_gpu_month) {
    m.host_lead_time_days = stated && !cs.rental_lead_time_days
                                ? *stated
                                : rec.take(pc.at("lead_time.rental_host_days"),
                                           cs.rental_lead_time_days, "/cost/rental_lead_time_days");
  }
  if (m.cluster) {
    const auto offer = pc.cluster_offers.find(gpu.id);
    const std::optional<int> quoted = offer->second.lead_time_days;
    m.cluster->lead_time_days = cs.rental_lead_time_days ? *cs.rental_lead_time_days
                                : quoted                 ? *quoted
                                         : rec.value_of(pc.at("lead_time.rental_cluster_days"));
  }
}

/// The part of a scenario that depends on the GPU: its server platform (by form factor;
/// server-specific overrides only for the pinned GPU) and its own prices.
void resolve_gpu_part(CostScenario& s, Recorder& rec, const CostRequest& rq, const PriceCatalog& pc,
                      const GpuSpec& gpu, int gpus, bool pinned) {
  const PowerSettings& pw = rq.power;
  const CostSettings& cs = rq.cost;
  const PriceOverrides& po = cs.prices;
  s.gpu = &gpu;
  s.gpus = gpus;
  s.form_factor = gpu.form_factor;
  const PlatformDefaults& pf = platform_of(pc, gpu, gpus);
  s.small_platform = &pf != &platform_of(pc, gpu);
  s.whole_board = pf.whole_board && !(pinned && pw.gpus_per_server);
  rec.take(pf.gpus_per_server, pinned ? as_double(pw.gpus_per_server) : std::nullopt,
           "/power/gpus_per_server");
  s.gpus_per_server = gpus_per_server(rq, pc, gpu, pinned, gpus);
  s.platform_price_cny = rec.take(pf.price_cny, pinned ? po.server_platform_cny : std::nullopt,
                                  "/cost/prices/server_platform_cny");
  if (pinned && pw.host_watts) {
    s.host_fixed_watts =
        rec.user("power.host_watts", *pw.host_watts, "W per server", "/power/host_watts");
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
  s.server_rack_units =
      checked_int(rec.take(pf.rack_units, pinned ? as_double(pw.server_rack_units) : std::nullopt,
                           "/power/server_rack_units"),
                  "/power/server_rack_units", "rack units per server");

  // GPU prices: /cost/prices/gpus/<id> for any GPU; the generic keys for the pinned one.
  const auto gpu_override = po.gpus.find(gpu.id);
  // Where the request overrides each price: only a recorded default shows it (a search's
  // scenarios record nothing, and ~40 GPUs would build four paths each).
  const bool record = rec.recording();
  const std::string gpu_path = record ? "/cost/prices/gpus/" + gpu.id : std::string();
  auto pick = [&](std::optional<double> by_id, const char* id_key, std::optional<double> generic,
                  const char* generic_key, std::string* path) -> std::optional<double> {
    const bool generic_applies = by_id ? false : pinned;
    if (record) {
      *path =
          generic_applies ? std::string("/cost/prices/") + generic_key : gpu_path + "/" + id_key;
    }
    if (by_id) return by_id;
    return generic_applies ? generic : std::nullopt;
  };
  const auto gpu_prices = pc.gpus.find(gpu.id);
  RentalMarket& m = s.market;
  bool quoted = false;  // the request states the rental price: a quote for this job
  {
    std::string path;
    const auto over =
        pick(gpu_override != po.gpus.end() ? gpu_override->second.purchase_cny : std::nullopt,
             "purchase_cny", po.gpu_purchase_cny, "gpu_purchase_cny", &path);
    if (gpu_prices != pc.gpus.end() && gpu_prices->second.purchase_cny) {
      s.gpu_price_cny = rec.take(*gpu_prices->second.purchase_cny, over, path);
      s.gpu_second_hand = !over && gpu_prices->second.purchase_second_hand;
    } else if (over)
      s.gpu_price_cny = rec.user("gpus." + gpu.id + ".purchase", *over, "CNY per GPU", path);
  }
  {
    std::string path;
    const auto over = pick(
        gpu_override != po.gpus.end() ? gpu_override->second.rental_cny_per_gpu_hour : std::nullopt,
        "rental_cny_per_gpu_hour", po.rental_cny_per_gpu_hour, "rental_cny_per_gpu_hour", &path);
    quoted = over.has_value();
    if (gpu_prices != pc.gpus.end() && gpu_prices->second.rental_cny_per_gpu_hour)
      m.host_cny_per_gpu_hour = rec.take(*gpu_prices->second.rental_cny_per_gpu_hour, over, path);
    else if (over)
      m.host_cny_per_gpu_hour =
          rec.user("gpus." + gpu.id + ".rental", *over, "CNY per GPU-hour", path);
  }
  if (pinned && po.rental_monthly_cny_per_gpu) {
    quoted = true;
    m.host_cny_per_gpu_month =
        rec.user("rental.monthly_cny_per_gpu", *po.rental_monthly_cny_per_gpu, "CNY per GPU-month",
                 "/cost/prices/rental_monthly_cny_per_gpu");
  } else if (gpu_prices != pc.gpus.end() && gpu_prices->second.rental_cny_per_gpu_month) {
    m.host_cny_per_gpu_month = rec.take(*gpu_prices->second.rental_cny_per_gpu_month, std::nullopt,
                                        pinned ? "/cost/prices/rental_monthly_cny_per_gpu" : "");
  } else if (m.host_cny_per_gpu_hour &&
             !(gpu_prices != pc.gpus.end() && gpu_prices->second.reserved_only_as_quoted)) {
    const double discount = rec.take(pc.at("rental.reserved_discount"), cs.reserved_discount,
                                     "/cost/reserved_discount");
    m.host_cny_per_gpu_month = *m.host_cny_per_gpu_hour * kHoursPerMonth * (1 - discount);
  }
  const bool stated = quoted || (gpu_prices != pc.gpus.end() && gpu_prices->second.rental_stated);
  resolve_rental_limits(m, rec, pc, gpu, gpus, quoted, stated);
  resolve_lead_times(s, rec, rq, pc, gpu);
}

/// The rates of VAT (prices.json vat) and whether the buyer deducts it.
void resolve_vat(CostScenario& s, Recorder& rec, const CostRequest& rq, const PriceCatalog& pc) {
  s.vat.hardware_rate = rec.take(pc.at("vat.hardware_rate"), std::nullopt);
  s.vat.electricity_rate = rec.take(pc.at("vat.electricity_rate"), std::nullopt);
  s.vat.services_rate = rec.take(pc.at("vat.services_rate"), std::nullopt);
  s.vat.deductible = rq.cost.vat_deductible;
}

/// A deductible buyer's GPU part without its VAT: the card and the server (goods), the rentals
/// (services). The prices were resolved VAT-inclusive.
void exclude_gpu_part_vat(CostScenario& s) {
  if (!s.vat.deductible) return;
  const double goods = s.vat.hardware_rate, services = s.vat.services_rate;
  if (s.gpu_price_cny) s.gpu_price_cny = without_vat(*s.gpu_price_cny, goods);
  s.platform_price_cny = without_vat(s.platform_price_cny, goods);
  RentalMarket& m = s.market;
  if (m.host_cny_per_gpu_hour)
    m.host_cny_per_gpu_hour = without_vat(*m.host_cny_per_gpu_hour, services);
  if (m.host_cny_per_gpu_month)
    m.host_cny_per_gpu_month = without_vat(*m.host_cny_per_gpu_month, services);
  if (m.cluster) m.cluster->cny_per_gpu_month = without_vat(m.cluster->cny_per_gpu_month, services);
}

/// A deductible buyer's site part without its VAT: electricity (a good), colocation, the line
/// and data transfer (services). Staff wages carry no VAT.
void exclude_site_part_vat(CostScenario& s) {
  if (!s.vat.deductible) return;
  const double power = s.vat.electricity_rate, services = s.vat.services_rate;
  s.tariff.peak_cny_per_kwh = without_vat(s.tariff.peak_cny_per_kwh, power);
  s.tariff.flat_cny_per_kwh = without_vat(s.tariff.flat_cny_per_kwh, power);
  s.tariff.valley_cny_per_kwh = without_vat(s.tariff.valley_cny_per_kwh, power);
  for (auto& rack_class : s.rack_classes)
    rack_class.second = without_vat(rack_class.second, services);
  if (s.rack_price_override) s.rack_price_override = without_vat(*s.rack_price_override, services);
  s.colocation_cny_per_kw_month = without_vat(s.colocation_cny_per_kw_month, services);
  s.network_cny_per_mbps_month = without_vat(s.network_cny_per_mbps_month, services);
  s.egress_cny_per_tb = without_vat(s.egress_cny_per_tb, services);
}

/// Financing: the request's rate and term (the catalog's term when only a rate is given).
void resolve_financing(CostScenario& s, Recorder& rec, const CostRequest& rq,
                       const PriceCatalog& pc) {
  const CostSettings& cs = rq.cost;
  if (!cs.financing_rate) return;
  s.financing_rate = rec.user("ownership.financing_rate", *cs.financing_rate, "fraction per year",
                              "/cost/financing_rate");
  s.financing_term_years =
      checked_int(rec.take(pc.at("ownership.financing_term_years"),
                           as_double(cs.financing_term_years), "/cost/financing_term_years"),
                  "/cost/financing_term_years", "the financing term in years", 1);
}

/// Life, resale and spares: a second-hand card's shorter remaining life, lower resale and
/// higher failure allowance, unless the request states them.
void resolve_ownership_terms(CostScenario& s, Recorder& rec, const CostRequest& rq,
                             const PriceCatalog& pc) {
  const CostSettings& cs = rq.cost;
  const bool used = s.gpu_second_hand;
  s.spares_share =
      rec.take(pc.at(used ? "ownership.second_hand_spares_share" : "ownership.spares_share"),
               cs.spares_share, "/cost/spares_share");
  s.life_years = checked_int(
      rec.take(pc.at(used ? "ownership.second_hand_life_years" : "ownership.life_years"),
               as_double(cs.life_years), "/cost/life_years"),
      "/cost/life_years", "the life in years", 1);
  s.residual_fraction = rec.take(
      pc.at(used ? "ownership.second_hand_residual_fraction" : "ownership.residual_fraction"),
      cs.residual_fraction, "/cost/residual_fraction");
}

/// The rest, the same for every GPU: the site, the facility, the tariff and the ownership.
/// Electricity: the site's flat price (the request's at its own site) and the time-of-use
/// structure.
void resolve_tariff(CostScenario& s, Recorder& rec, const CostRequest& rq, const PriceCatalog& pc,
                    const SiteDefaults& site) {
  const CostSettings& cs = rq.cost;
  const PriceOverrides& po = cs.prices;
  const bool own_site = s.site_id == cs.site;
  const double flat = rec.take(site.electricity_flat_cny_per_kwh,
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
    const double critical_hours =
        rec.take(pc.at("tariff.critical_peak_hours_per_day"), std::nullopt);
    const double critical_days =
        rec.take(pc.at("tariff.critical_peak_days_per_year"), std::nullopt);
    s.tariff.peak_cny_per_kwh = effective_peak_price(peak, critical_multiplier, critical_hours,
                                                     s.tariff.peak_hours, critical_days);
  } else {
    s.tariff.peak_cny_per_kwh = s.tariff.valley_cny_per_kwh = flat;
  }
}

/// The running costs besides power: the network line, rented data transfer, operations,
/// spares, life and the utilisation.
void resolve_running_costs(CostScenario& s, Recorder& rec, const CostRequest& rq,
                           const PriceCatalog& pc, int gpus) {
  const CostSettings& cs = rq.cost;
  const PriceOverrides& po = cs.prices;
  s.network_line = cs.network_line
                       ? *cs.network_line
                       : (s.facility == Facility::kOffice ? NetworkLine::kNone : NetworkLine::kBgp);
  if (s.network_line != NetworkLine::kNone) {
    if (cs.network_mbps)
      s.network_mbps_stated =
          rec.user("network.mbps", *cs.network_mbps, "Mbps", "/cost/network_mbps");
    else
      s.network_mbps_per_server =
          rec.take(pc.at("network.mbps_per_server"), std::nullopt, "/cost/network_mbps");
    s.network_cny_per_mbps_month = rec.take(
        pc.at(s.network_line == NetworkLine::kBgp ? "network.bgp_cny_per_mbps_month"
                                                  : "network.dedicated_cny_per_mbps_month"),
        po.network_cny_per_mbps_month, "/cost/prices/network_cny_per_mbps_month");
  }
  s.rental_billing_unit_hours = rec.take(pc.at("rental.billing_unit_hours"), std::nullopt);
  s.egress_tb_per_month = rec.take(pc.at("rental.egress_tb_per_month"), cs.egress_tb_per_month,
                                   "/cost/egress_tb_per_month");
  s.egress_cny_per_tb = rec.take(pc.at("rental.egress_cny_per_tb"), po.egress_cny_per_tb,
                                 "/cost/prices/egress_cny_per_tb");
  s.operations_by_staff = cs.operations == Operations::kStaff;
  if (s.operations_by_staff) {
    s.staff_fte = rec.take(pc.at("ownership.staff_fte"), cs.staff_fte, "/cost/staff_fte");
    s.staff_cny_per_year = rec.take(pc.at("ownership.staff_cny_per_year"), po.staff_cny_per_year,
                                    "/cost/prices/staff_cny_per_year");
  } else {
    s.operations_capex_share = rec.take(pc.at("ownership.operations_capex_share"),
                                        cs.operations_capex_share, "/cost/operations_capex_share");
  }
  resolve_ownership_terms(s, rec, rq, pc);
  resolve_financing(s, rec, rq, pc);

  // Utilisation: given, or implied by the demand profile, or the default.
  if (cs.utilization) {
    s.utilization = rec.take(pc.at("planning.utilization"), cs.utilization, "/cost/utilization");
    s.utilization_source = "request";
  } else if (cs.monthly_demand_gpu_hours) {
    s.utilization = demand_utilization(*cs.monthly_demand_gpu_hours, gpus);
    s.utilization_source = "monthly_demand";
    rec.take(pc.at("planning.utilization"), s.utilization, "/cost/monthly_demand_gpu_hours");
  } else if (rq.around_the_clock) {
    s.utilization = kAroundTheClock;
    s.utilization_source = "serving";
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
}

void resolve_site_part(CostScenario& s, Recorder& rec, const CostRequest& rq,
                       const PriceCatalog& pc, const SiteDefaults& site, int gpus) {
  const PowerSettings& pw = rq.power;
  const CostSettings& cs = rq.cost;
  const PriceOverrides& po = cs.prices;
  const bool own_site = s.site_id == cs.site;

  // Power and facility.
  s.training_load_factor = rec.take(pc.at("power.training_load_factor"), pw.training_load_factor,
                                    "/power/training_load_factor");
  s.idle_load_factor =
      rec.take(pc.at("power.idle_load_factor"), pw.idle_load_factor, "/power/idle_load_factor");
  s.pue = rec.take(pc.pue.at(name_of(pw.facility)), pw.pue, "/power/pue");
  s.rack_units_usable =
      checked_int(rec.take(pc.at("power.rack_units_usable"), as_double(pw.rack_units_usable),
                           "/power/rack_units_usable"),
                  "/power/rack_units_usable", "usable rack units");
  if (pw.office_rack_kw) {
    s.office_rack_kw_low = s.office_rack_kw_high = rec.user(
        "power.office_rack_kw", *pw.office_rack_kw, "kW per rack", "/power/office_rack_kw");
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
  if (s.facility != Facility::kOffice)
    s.move_in_days =
        rec.take(pc.at("lead_time.rack_move_in_days"), cs.move_in_days, "/cost/move_in_days");
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
  resolve_tariff(s, rec, rq, pc, site);
  resolve_running_costs(s, rec, rq, pc, gpus);
}

}  // namespace

CostScenario resolve_scenario(const CostRequest& rq, const PriceCatalog& pc, const GpuSpec& gpu,
                              int gpus, bool pinned, const std::string& site_id, bool record) {
  const PriceOverrides& po = rq.cost.prices;
  CostScenario s;
  s.site_id = site_id;
  s.facility = rq.power.facility;
  // Two recorders into one list, called in the order the list reads: the GPU's part apart, so
  // that with_gpu() can tell whether the rest alone needs confirming.
  std::vector<DefaultUsed>* out = record ? &s.defaults_used : nullptr;
  Recorder rec(out, pc, po.usd_to_cny);
  Recorder gpu_rec(out, pc, po.usd_to_cny);
  rec.take(pc.usd_to_cny, po.usd_to_cny, "/cost/prices/usd_to_cny");
  const SiteDefaults& site = site_of(pc, site_id);
  resolve_vat(s, rec, rq, pc);
  resolve_gpu_part(s, gpu_rec, rq, pc, gpu, gpus, pinned);
  exclude_gpu_part_vat(s);
  resolve_site_part(s, rec, rq, pc, site, gpus);
  exclude_site_part_vat(s);
  apply_rental_terms(s);
  s.site_needs_confirmation = rec.flagged();
  s.needs_confirmation = rec.flagged() || gpu_rec.flagged();
  return s;
}

CostScenario with_gpu(const CostScenario& other, const CostRequest& rq, const PriceCatalog& pc,
                      const GpuSpec& gpu, int gpus, bool pinned) {
  CostScenario s = other;
  // The GPU's prices are set only where it has them.
  s.gpu_price_cny.reset();
  s.gpu_second_hand = false;
  s.market = {};
  Recorder gpu_rec(nullptr, pc, rq.cost.prices.usd_to_cny);
  resolve_gpu_part(s, gpu_rec, rq, pc, gpu, gpus, pinned);
  exclude_gpu_part_vat(s);
  // Ownership terms follow the part (a used card's shorter life).
  if (s.gpu_second_hand != other.gpu_second_hand) resolve_ownership_terms(s, gpu_rec, rq, pc);
  s.needs_confirmation = s.site_needs_confirmation || gpu_rec.flagged();
  return with_count(std::move(s), gpus, rq);
}

}  // namespace advisor
