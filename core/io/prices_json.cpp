// SPDX-License-Identifier: MIT
#include "io/prices_json.hpp"

#include <algorithm>
#include <cmath>

#include "io/catalog_json.hpp"
#include "io/json_reader.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/perf_settings.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

constexpr const char* kFile = "prices.json";
constexpr double kMaxMoney = 1e12;

std::string dotted(const std::string& path) {
  // "prices.json/sites/shenzhen/x" -> "sites.shenzhen.x"
  std::string key = path.substr(std::string(kFile).size() + 1);
  std::replace(key.begin(), key.end(), '/', '.');
  return key;
}

class EntryParser {
 public:
  explicit EntryParser(const PriceEntry* usd) : usd_(usd) {}

  /// Reads {"value", "unit", "basis", "source", "as_of", "needs_confirmation"[, "currency"]}.
  /// `second_hand`: where a GPU's purchase says whether the price is a used card's.
  PriceEntry read(const JsonValue& j, const std::string& path, double min, double max,
                  bool integer = false, bool* second_hand = nullptr) const {
    FieldReader r(j, path);
    PriceEntry e;
    if (second_hand != nullptr) *second_hand = r.boolean("second_hand", false);
    e.key = dotted(path);
    e.value = r.number("value", min, max);
    if (integer) {
      if (std::floor(e.value) != e.value)
        return report_problem("not_integer", r.path_of("value"),
                              r.path_of("value") + " must be a whole number");
    }
    const std::string currency = r.choice("currency", {"CNY", "USD"}, std::string("CNY"));
    e.unit = r.string("unit");
    e.basis = r.string("basis");
    e.source = r.string("source");
    e.as_of = r.string("as_of");
    e.needs_confirmation = r.boolean("needs_confirmation");
    r.reject_unknown();
    if (e.source.empty())
      return report_problem("catalog_invalid", r.path_of("source"),
                            r.path_of("source") + " must name a source (or say it is an example)");
    if (e.as_of.empty())
      return report_problem("catalog_invalid", r.path_of("as_of"),
                            r.path_of("as_of") + " must give a date");
    if (currency == "USD") {
      if (usd_ == nullptr)
        return report_problem("catalog_invalid", r.path_of("currency"),
                              r.path_of("currency") + ": USD needs exchange_rates.USD");
      // `value` is converted at the catalog's rate; a request may set another rate, so the
      // USD figure is kept (see cost_api.cpp) and needs_confirmation stays the entry's own.
      if (e.unit.rfind("USD ", 0) != 0)
        return report_problem("catalog_invalid", r.path_of("unit"),
                              r.path_of("unit") + " must start with \"USD \" for a USD price");
      e.original_currency = "USD";
      e.original_value = e.value;
      e.value *= usd_->value;
      e.unit = "CNY " + e.unit.substr(4);
    }
    return e;
  }

 private:
  const PriceEntry* usd_;
};

/// The member `key` of `parent` (required); when absent, reports it and gives an empty object.
const JsonValue& member(const JsonValue& parent, const std::string& path, const char* key) {
  FieldReader r(parent, path);
  const JsonValue* j = r.raw(key);
  if (j == nullptr) {
    report_problem("missing_field", path + "/" + key, path + "/" + key + " is required");
    static const JsonValue kEmpty = JsonValue::object();
    return kEmpty;
  }
  return *j;
}

/// The catalog's USD rate: exchange_rates.USD, in CNY per USD.
PriceEntry read_exchange_rates(const JsonValue& doc, const EntryParser& plain) {
  const std::string p = kFile;
  const JsonValue& rates = member(doc, p, "exchange_rates");
  FieldReader r(rates, p + "/exchange_rates");
  PriceEntry usd_to_cny = plain.read(member(rates, r.path(), "USD"), r.path_of("USD"), 0.01, 1000);
  r.raw("USD");
  r.reject_unknown();
  return usd_to_cny;
}

/// {"not_offered": reason, "source", "as_of"}: the part is not sold (or rented) in this
/// market, which the cost says instead of "no price".
std::string read_not_offered(const JsonValue& j, const std::string& at) {
  FieldReader n(j, at);
  std::string text = n.string("not_offered");
  if (text.empty())
    return report_problem("catalog_invalid", n.path_of("not_offered"),
                          n.path_of("not_offered") + " must say why the part is not offered");
  text += " (" + n.string("source") + ", " + n.string("as_of") + ")";
  n.reject_unknown();
  return text;
}

/// gpus: purchase and on-demand rental per GPU id (null = not known).
void read_gpu_prices(const JsonValue& doc, const EntryParser& money, PriceCatalog& c) {
  const std::string gp = std::string(kFile) + "/gpus";
  const JsonValue& gpus = member(doc, kFile, "gpus");
  ADVISOR_REQUIRE_OR_RETURN(gpus.is_object(), "wrong_type", gp,
                            gp + " must be an object keyed by GPU id");
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const std::string path = gp + "/" + pointer_token(gpus.key(i));
    FieldReader g(gpus[i], path);
    GpuPrices prices;
    if (const JsonValue* j = g.raw("purchase")) {
      if (j->is_object() && j->contains("not_offered"))
        prices.purchase_not_offered = read_not_offered(*j, g.path_of("purchase"));
      else
        prices.purchase_cny = money.read(*j, g.path_of("purchase"), 0, kMaxMoney, false,
                                         &prices.purchase_second_hand);
    }
    if (const JsonValue* j = g.raw("rental")) {
      if (j->is_object() && j->contains("not_offered"))
        prices.rental_not_offered = read_not_offered(*j, g.path_of("rental"));
      else
        prices.rental_cny_per_gpu_hour = money.read(*j, g.path_of("rental"), 0, 1e6);
    }
    g.reject_unknown();
    c.gpus[gpus.key(i)] = prices;
  }
}

/// One server platform: its price, GPUs, rack units and the host's power draw.
PlatformDefaults read_platform(const JsonValue& j, const std::string& path,
                               const EntryParser& plain, const EntryParser& money) {
  FieldReader f(j, path);
  PlatformDefaults d;
  d.price_cny = money.read(member(j, path, "price_cny"), f.path_of("price_cny"), 0, kMaxMoney);
  d.gpus_per_server =
      plain.read(member(j, path, "gpus_per_server"), f.path_of("gpus_per_server"), 1, 64, true);
  d.rack_units = plain.read(member(j, path, "rack_units"), f.path_of("rack_units"), 1, 60, true);
  d.cpus_watts = plain.read(member(j, path, "cpus_watts"), f.path_of("cpus_watts"), 0, 1e5);
  d.memory_watts = plain.read(member(j, path, "memory_watts"), f.path_of("memory_watts"), 0, 1e5);
  d.nics_watts = plain.read(member(j, path, "nics_watts"), f.path_of("nics_watts"), 0, 1e5);
  d.storage_watts =
      plain.read(member(j, path, "storage_watts"), f.path_of("storage_watts"), 0, 1e5);
  d.cooling_conversion_fraction = plain.read(member(j, path, "cooling_conversion_fraction"),
                                             f.path_of("cooling_conversion_fraction"), 0, 5);
  d.whole_board = f.boolean("whole_board", false);
  for (const char* k : {"price_cny", "gpus_per_server", "rack_units", "cpus_watts", "memory_watts",
                        "nics_watts", "storage_watts", "cooling_conversion_fraction"})
    f.raw(k);
  f.reject_unknown();
  return d;
}

/// platforms: server platforms by GPU form factor (the "_small" ones optional).
void read_platforms(const JsonValue& doc, const EntryParser& plain, const EntryParser& money,
                    PriceCatalog& c) {
  const std::string pp = std::string(kFile) + "/platforms";
  const JsonValue& platforms = member(doc, kFile, "platforms");
  FieldReader all(platforms, pp);
  for (const char* form :
       {"sxm", "pcie", "oam", "module", "sxm_small", "pcie_small", "oam_small", "module_small"}) {
    const bool optional = std::string_view(form).find("_small") != std::string_view::npos;
    if (optional && !all.has(form)) {
      all.raw(form);
      continue;
    }
    c.platforms[form] = read_platform(member(platforms, pp, form), all.path_of(form), plain, money);
    all.raw(form);
  }
  all.reject_unknown();
}

/// A scalar entry's key and range.
struct EntryRange {
  const char* key;
  double min, max;
  bool integer;
};

/// A section of scalar entries {key: entry} with per-key ranges, into c.scalars. Returns the
/// section's reader: the caller reads the rest of it and rejects unknown keys.
FieldReader read_scalar_section(const JsonValue& doc, const char* name,
                                std::initializer_list<EntryRange> ranges, const EntryParser& parser,
                                PriceCatalog& c) {
  const std::string sp = std::string(kFile) + "/" + name;
  const JsonValue& s = member(doc, kFile, name);
  FieldReader r(s, sp);
  for (const EntryRange& range : ranges) {
    const PriceEntry e = parser.read(member(s, sp, range.key), r.path_of(range.key), range.min,
                                     range.max, range.integer);
    r.raw(range.key);
    c.scalars[e.key] = e;
  }
  return r;
}

/// power.idc_rack_classes_kw: an entry whose value is a list of rack classes in kW, each
/// larger than the one before. Returns the list.
std::vector<double> read_rack_classes(const JsonValue& power, const FieldReader& r,
                                      PriceCatalog& c) {
  const JsonValue& classes = member(power, r.path(), "idc_rack_classes_kw");
  const std::string cp = r.path_of("idc_rack_classes_kw");
  FieldReader cr(classes, cp);
  const JsonValue* list = cr.raw("value");
  ADVISOR_REQUIRE(list != nullptr && list->is_array() && !list->empty(), "catalog_invalid",
                  cr.path_of("value"), cr.path_of("value") + " must be a non-empty list of kW");
  c.rack_classes_entry.key = dotted(cp);
  c.rack_classes_entry.unit = cr.string("unit");
  c.rack_classes_entry.basis = cr.string("basis");
  c.rack_classes_entry.source = cr.string("source");
  c.rack_classes_entry.as_of = cr.string("as_of");
  c.rack_classes_entry.needs_confirmation = cr.boolean("needs_confirmation");
  cr.reject_unknown();
  std::vector<double> kws;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string ip = cr.path_of("value") + "/" + std::to_string(i);
    const JsonValue& v = (*list)[i];
    ADVISOR_REQUIRE(
        v.is_number() && std::isfinite(v.number()) && v.number() >= 0.1 && v.number() <= 1000,
        "catalog_invalid", ip, ip + " must be a rack power in kW (0.1-1000)");
    ADVISOR_REQUIRE(kws.empty() || v.number() > kws.back(), "catalog_invalid", ip,
                    ip + " must be larger than the class before it");
    kws.push_back(v.number());
  }
  return kws;
}

/// power: load factors, the office's rack, rack units, and the data centre's rack classes
/// (returned, in kW).
std::vector<double> read_power(const JsonValue& doc, const EntryParser& plain, PriceCatalog& c) {
  FieldReader r = read_scalar_section(doc, "power",
                                      {{"training_load_factor", 0, 1, false},
                                       {"idle_load_factor", 0, 1, false},
                                       {"office_rack_kw_low", 0.1, 1000, false},
                                       {"office_rack_kw_high", 0.1, 1000, false},
                                       {"rack_units_usable", 1, 100, true}},
                                      plain, c);
  // member(): "power" may be absent now (reported): then an empty object.
  std::vector<double> kws = read_rack_classes(member(doc, kFile, "power"), r, c);
  r.raw("idc_rack_classes_kw");
  r.reject_unknown();
  ADVISOR_REQUIRE(c.at("power.office_rack_kw_high").value >= c.at("power.office_rack_kw_low").value,
                  "catalog_invalid", r.path_of("office_rack_kw_high"),
                  r.path_of("office_rack_kw_high") + " must be >= office_rack_kw_low");
  return kws;
}

/// colocation: one monthly price per rack class of `rack_kws`, plus a per-kW price.
void read_colocation(const JsonValue& doc, const EntryParser& money,
                     const std::vector<double>& rack_kws, PriceCatalog& c) {
  const std::string colp = std::string(kFile) + "/colocation";
  const JsonValue& col = member(doc, kFile, "colocation");
  FieldReader cl(col, colp);
  const JsonValue& per_rack = member(col, colp, "per_rack_month_cny");
  FieldReader pr(per_rack, cl.path_of("per_rack_month_cny"));
  for (double kw : rack_kws) {
    const std::string k = format_number(kw);
    const JsonValue* j = pr.raw(k.c_str());
    ADVISOR_REQUIRE_OR_RETURN(
        j != nullptr, "catalog_invalid", pr.path_of(k.c_str()),
        pr.path_of(k.c_str()) + " is required: every rack class needs a monthly price");
    c.rack_classes.emplace_back(kw, money.read(*j, pr.path_of(k.c_str()), 0, kMaxMoney));
  }
  pr.reject_unknown();
  const PriceEntry per_kw =
      money.read(member(col, colp, "per_kw_month_cny"), cl.path_of("per_kw_month_cny"), 0, 1e7);
  c.scalars[per_kw.key] = per_kw;
  cl.raw("per_rack_month_cny");
  cl.raw("per_kw_month_cny");
  cl.reject_unknown();
}

/// pue: the power usage effectiveness of each facility type.
void read_pue(const JsonValue& doc, const EntryParser& plain, PriceCatalog& c) {
  const std::string pp = std::string(kFile) + "/pue";
  const JsonValue& pue = member(doc, kFile, "pue");
  FieldReader r(pue, pp);
  for (const char* type : {"office", "idc", "idc_new", "hub_node"}) {
    c.pue[type] = plain.read(member(pue, pp, type), r.path_of(type), 1, 5);
    r.raw(type);
  }
  r.reject_unknown();
}

/// tariff: time-of-use ratios and hours; the periods cover the day, the critical peak lies
/// within the peak.
void read_tariff(const JsonValue& doc, const EntryParser& plain, PriceCatalog& c) {
  FieldReader r = read_scalar_section(doc, "tariff",
                                      {{"peak_ratio", 0, 10, false},
                                       {"valley_ratio", 0, 10, false},
                                       {"peak_hours", 0, 24, false},
                                       {"flat_hours", 0, 24, false},
                                       {"valley_hours", 0, 24, false},
                                       {"critical_peak_multiplier", 1, 10, false},
                                       {"critical_peak_hours_per_day", 0, 24, false},
                                       {"critical_peak_days_per_year", 0, 366, false}},
                                      plain, c);
  r.reject_unknown();
  const double hours = c.at("tariff.peak_hours").value + c.at("tariff.flat_hours").value +
                       c.at("tariff.valley_hours").value;
  ADVISOR_REQUIRE_OR_RETURN(
      std::fabs(hours - 24) < 1e-9, "catalog_invalid", r.path_of("valley_hours"),
      "prices.json/tariff: peak, flat and valley hours must add up to 24, got " +
          format_number(hours));
  ADVISOR_REQUIRE_OR_RETURN(
      c.at("tariff.critical_peak_hours_per_day").value <= c.at("tariff.peak_hours").value,
      "catalog_invalid", r.path_of("critical_peak_hours_per_day"),
      r.path_of("critical_peak_hours_per_day") + " must be within the peak hours");
}

/// One site of sites: its names, electricity price and colocation factor (ids are unique).
SiteDefaults read_site(const JsonValue& site, const std::string& path, const EntryParser& plain,
                       const EntryParser& money, const PriceCatalog& c) {
  FieldReader s(site, path);
  SiteDefaults d;
  d.id = s.string("id");
  ADVISOR_REQUIRE(c.find_site(d.id) == nullptr, "catalog_invalid", s.path_of("id"),
                  s.path_of("id") + " repeats the site \"" + d.id + "\"");
  d.name = s.string("name");
  d.name_zh = s.string("name_zh");
  // Entry keys name the site, not its position: "sites.shenzhen.electricity_flat_cny_per_kwh".
  d.electricity_flat_cny_per_kwh = money.read(member(site, path, "electricity_flat_cny_per_kwh"),
                                              s.path_of("electricity_flat_cny_per_kwh"), 0, 100);
  d.electricity_flat_cny_per_kwh.key = "sites." + d.id + ".electricity_flat_cny_per_kwh";
  d.colocation_factor =
      plain.read(member(site, path, "colocation_factor"), s.path_of("colocation_factor"), 0, 100);
  d.colocation_factor.key = "sites." + d.id + ".colocation_factor";
  s.raw("electricity_flat_cny_per_kwh");
  s.raw("colocation_factor");
  s.reject_unknown();
  return d;
}

/// sites: a non-empty list, the first the reference site.
void read_sites(const JsonValue& doc, const EntryParser& plain, const EntryParser& money,
                PriceCatalog& c) {
  const std::string sp = std::string(kFile) + "/sites";
  const JsonValue& sites = member(doc, kFile, "sites");
  ADVISOR_REQUIRE_OR_RETURN(
      sites.is_array() && !sites.empty(), "catalog_invalid", sp,
      sp + " must be a non-empty list of sites (the first is the reference site)");
  for (std::size_t i = 0; i < sites.size(); ++i)
    c.sites.push_back(read_site(sites[i], sp + "/" + std::to_string(i), plain, money, c));
}

/// site_notes: the siting and data notes, in Chinese and English.
void read_site_notes(const JsonValue& doc, PriceCatalog& c) {
  const std::string np = std::string(kFile) + "/site_notes";
  FieldReader r(member(doc, kFile, "site_notes"), np);
  c.siting_note_zh = r.string("siting_zh");
  c.siting_note_en = r.string("siting_en");
  c.data_note_zh = r.string("data_zh");
  c.data_note_en = r.string("data_en");
  c.notes_source = r.string("source");
  r.reject_unknown();
}

/// lead_time: scalar entries in days, and a part's own purchase lead time by GPU id.
void read_lead_times(const JsonValue& doc, const EntryParser& plain, PriceCatalog& c) {
  constexpr double kMaxDays = 3650;  // ten years
  FieldReader r = read_scalar_section(doc, "lead_time",
                                      {{"purchase_new_days", 0, kMaxDays, false},
                                       {"purchase_second_hand_days", 0, kMaxDays, false},
                                       {"purchase_grey_import_days", 0, kMaxDays, false},
                                       {"rack_move_in_days", 0, kMaxDays, false},
                                       {"rental_host_days", 0, kMaxDays, false},
                                       {"rental_cluster_days", 0, kMaxDays, false}},
                                      plain, c);
  if (const JsonValue* parts = r.object("purchase_days_by_gpu")) {
    const std::string pp = r.path_of("purchase_days_by_gpu");
    for (std::size_t i = 0; i < parts->size(); ++i) {
      const std::string& id = parts->key(i);
      c.purchase_lead_time_by_gpu[id] =
          plain.read((*parts)[i], pp + "/" + pointer_token(id), 0, kMaxDays, false);
    }
  }
  r.reject_unknown();
}

/// network, rental, ownership and planning: scalar entries alone.
void read_cost_scalars(const JsonValue& doc, const EntryParser& plain, const EntryParser& money,
                       PriceCatalog& c) {
  read_scalar_section(doc, "network",
                      {{"bgp_cny_per_mbps_month", 0, 1e7, false},
                       {"dedicated_cny_per_mbps_month", 0, 1e7, false},
                       {"mbps_per_server", 0, 1e7, false}},
                      money, c)
      .reject_unknown();
  constexpr double kMinBillingUnitHours = 1.0 / 3600, kMaxBillingUnitHours = 744;  // 1 s .. 1 month
  read_scalar_section(doc, "rental",
                      {{"billing_unit_hours", kMinBillingUnitHours, kMaxBillingUnitHours, false},
                       {"reserved_discount", 0, 0.99, false},
                       {"egress_cny_per_tb", 0, 1e7, false},
                       {"egress_tb_per_month", 0, 1e9, false},
                       {"hourly_gpus_per_host", 1, 64, true}},
                      money, c)
      .reject_unknown();
  read_scalar_section(doc, "ownership",
                      {{"life_years", 1, 30, true},
                       {"residual_fraction", 0, 0.99, false},
                       {"operations_capex_share", 0, 1, false},
                       {"staff_cny_per_year", 0, kMaxMoney, false},
                       {"staff_fte", 0, 1e4, false},
                       {"spares_share", 0, 1, false},
                       {"second_hand_life_years", 1, 30, true},
                       {"second_hand_residual_fraction", 0, 0.99, false},
                       {"second_hand_spares_share", 0, 1, false},
                       {"financing_term_years", 1, 30, true}},
                      money, c)
      .reject_unknown();
  read_scalar_section(doc, "vat",
                      {{"hardware_rate", 0, 1, false},
                       {"electricity_rate", 0, 1, false},
                       {"services_rate", 0, 1, false}},
                      plain, c)
      .reject_unknown();
  read_lead_times(doc, plain, c);
  constexpr double kMaxCalendarHours = 87600;  // ten years
  read_scalar_section(doc, "planning",
                      {{"calendar_hours_pretrain", 1, kMaxCalendarHours, false},
                       {"calendar_hours_full_finetune", 1, kMaxCalendarHours, false},
                       {"calendar_hours_adapter", 1, kMaxCalendarHours, false},
                       {"utilization", 0, 1, false},
                       {"valley_shift_share", 0, 1, false},
                       {"owned_max_utilization", 0.01, 1, false},
                       {"seventy_percent_rule", 0.01, 0.99, false},
                       {"seventy_percent_tolerance", 0, 1, false},
                       {"capacity_buffer", 0, 10, false},
                       {"capacity_target_utilization", 0.01, 1, false},
                       {"capacity_months", 1, 120, true}},
                      plain, c)
      .reject_unknown();
}

/// One offer of cluster_offers: a multi-node rental per node-month for one GPU id.
ClusterOffer read_cluster_offer(const JsonValue& j, const std::string& path,
                                const EntryParser& plain, const EntryParser& money) {
  FieldReader r(j, path);
  ClusterOffer o;
  o.kind = r.choice("kind", {"idc_package", "cloud"});
  o.gpus_per_node = static_cast<int>(r.integer("gpus_per_node", 1, 64));
  o.network = r.choice("network", {kNetworkIds[0], kNetworkIds[1], kNetworkIds[2], kNetworkIds[3],
                                   kNetworkIds[4], kNetworkIds[5]});
  o.cny_per_node_month = money.read(member(j, path, "cny_per_node_month"),
                                    r.path_of("cny_per_node_month"), 0, kMaxMoney);
  constexpr double kMaxTermMonths = 120;
  o.minimum_term_months = plain.read(member(j, path, "minimum_term_months"),
                                     r.path_of("minimum_term_months"), 1, kMaxTermMonths, true);
  constexpr std::int64_t kMaxNodes = 100'000;
  o.nodes_available = r.nullable_integer("nodes_available", 1, kMaxNodes);
  r.raw("cny_per_node_month");
  r.raw("minimum_term_months");
  r.reject_unknown();
  return o;
}

/// cluster_offers (optional): {GPU id: offer}.
void read_cluster_offers(const JsonValue& doc, const EntryParser& plain, const EntryParser& money,
                         PriceCatalog& c) {
  const std::string op = std::string(kFile) + "/cluster_offers";
  const JsonValue* offers = doc.find("cluster_offers");
  if (offers == nullptr) return;
  ADVISOR_REQUIRE_OR_RETURN(offers->is_object(), "wrong_type", op,
                            op + " must be an object keyed by GPU id");
  for (std::size_t i = 0; i < offers->size(); ++i)
    c.cluster_offers[offers->key(i)] =
        read_cluster_offer((*offers)[i], op + "/" + pointer_token(offers->key(i)), plain, money);
}

}  // namespace

PriceCatalog parse_price_catalog(const std::string& text) {
  const JsonValue doc = parse_json_text(text, kFile, limits::kMaxCatalogFileBytes);
  FieldReader root(doc, kFile);
  PriceCatalog c;
  root.integer("schema", 1, 1);
  c.as_of = root.string("as_of");
  c.currency = root.choice("currency", {"CNY"});
  root.string("note", std::string());

  // Money entries may be in USD: they convert at the catalog's rate, read first.
  const EntryParser plain(nullptr);
  c.usd_to_cny = read_exchange_rates(doc, plain);
  const EntryParser money(&c.usd_to_cny);
  read_gpu_prices(doc, money, c);
  read_platforms(doc, plain, money, c);
  const std::vector<double> rack_kws = read_power(doc, plain, c);
  read_colocation(doc, money, rack_kws, c);
  read_pue(doc, plain, c);
  read_tariff(doc, plain, c);
  read_sites(doc, plain, money, c);
  read_site_notes(doc, c);
  read_cost_scalars(doc, plain, money, c);
  read_cluster_offers(doc, plain, money, c);
  for (const char* k : {"exchange_rates", "gpus", "platforms", "power", "colocation", "pue",
                        "tariff", "sites", "site_notes", "network", "rental", "ownership", "vat",
                        "lead_time", "planning", "cluster_offers"})
    root.raw(k);
  root.reject_unknown();
  return c;
}

}  // namespace advisor
