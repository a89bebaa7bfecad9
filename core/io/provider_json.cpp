// SPDX-License-Identifier: MIT
#include "io/provider_json.hpp"

#include <algorithm>
#include <cstdio>

#include "io/json_reader.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/perf_settings.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

// Ranges that flag unit mistakes (a monthly price typed as hourly, W typed as kW) without
// excluding a real quote: AutoDL lists an RTX 4090 at 1.98 CNY per GPU-hour and an H800 at
// 10.50 (data/prices.json); 10,000 per GPU-hour or 10,000,000 per GPU-month is no real offer.
constexpr double kMaxCnyPerGpuHour = 10'000;
constexpr double kMaxCnyPerGpuMonth = 10'000'000;
// Rack power classes as prices.json accepts them (power.idc_rack_classes_kw: 0.1-1000 kW).
constexpr double kMinRackKw = 0.1;
constexpr double kMaxRackKw = 1000;
// A rack-month: prices.json's Shenzhen classes are 3,000-10,800 CNY; 10^8 is no rack.
constexpr double kMaxCnyPerRackMonth = 100'000'000;
// GPUs one offer may list (a large Chinese cluster is ~10^5 cards) and per rented node
// (prices.json accepts 1-64 GPUs per server).
constexpr std::int64_t kMaxOfferGpus = 1'000'000;
constexpr std::int64_t kMaxGpusPerNode = 64;
constexpr std::int64_t kMaxLeadTimeDays = 3650;  // ten years: beyond it, no offer
// A node-month: prices.json's 8x H100 node is ~70,000 CNY; 10^8 is no node. A term: prices.json
// accepts 1-120 months for its cluster offers.
constexpr double kMaxCnyPerNodeMonth = 100'000'000;
constexpr std::int64_t kMaxTermMonths = 120;
constexpr const char* kAdditions = "gpus.json/additions";
constexpr const char* kCatalogGpus = "gpus.json/gpus";

/// A text the page shows: bounded, without control characters.
std::string read_text(FieldReader& r, const char* key, std::size_t max_chars, bool required) {
  return required ? r.text(key, max_chars) : r.text(key, max_chars, std::string());
}

bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

std::string read_date(FieldReader& r, const char* key) {
  const std::string p = r.path_of(key);
  const std::string v = r.string(key);
  int y = 0, m = 0, d = 0;
  char tail = 0;
  const bool shaped =
      v.size() == 10 && v[4] == '-' && v[7] == '-' &&
      std::all_of(v.begin(), v.end(), [](char c) { return c == '-' || (c >= '0' && c <= '9'); }) &&
      std::sscanf(v.c_str(), "%4d-%2d-%2d%c", &y, &m, &d, &tail) == 3;
  constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool real = shaped && m >= 1 && m <= 12 && d >= 1 && d <= kDays[m - 1] &&
                    !(m == 2 && d == 29 && !leap(y));
  ADVISOR_REQUIRE(real, "bad_date", p, p + " must be a date YYYY-MM-DD, got " + in_quotes(v));
  return v;
}

/// The list `key` of the document (an array, at most `max` items); empty when absent.
const JsonValue* read_list(FieldReader& r, const char* key, std::size_t max) {
  const JsonValue* list = r.raw(key);
  const std::string p = r.path_of(key);
  if (list == nullptr || list->is_null()) return nullptr;
  ADVISOR_REQUIRE(list->is_array(), "wrong_type", p, p + " must be an array");
  ADVISOR_REQUIRE(
      list->size() <= max, "limit_exceeded", p,
      p + " has " + std::to_string(list->size()) + " entries; the limit is " + std::to_string(max));
  return list;
}

/// The offer's kind and network between hosts: a marketplace host joins no two hosts, and an
/// IDC package is sold by the node-month.
void read_offer_kind(FieldReader& r, ProviderOffer& o, const Catalog& catalog) {
  o.kind = r.choice("kind", {"hourly_marketplace", "cloud", "idc_package"},
                    std::string("hourly_marketplace"));
  o.network = r.choice("network",
                       {"none", kNetworkIds[0], kNetworkIds[1], kNetworkIds[2], kNetworkIds[3],
                        kNetworkIds[4], kNetworkIds[5]},
                       std::string("none"));
  const NetworkKind* net = catalog.performance.find_network(o.network);
  o.rdma = net != nullptr && net->rdma;
  const std::string at = r.path_of("network");
  ADVISOR_REQUIRE_OR_RETURN(
      o.kind != "hourly_marketplace" || o.network == "none", "inconsistent", at,
      at + " must be \"none\" for an hourly_marketplace offer: a marketplace rents "
           "one host's GPUs and joins no two hosts (state kind cloud or idc_package "
           "for GPUs across hosts)");
}

/// Its prices: per GPU-hour or GPU-month, or whole nodes per node-month for a minimum term.
void read_offer_prices(FieldReader& r, ProviderOffer& o, const std::string& path) {
  o.cny_per_gpu_hour = r.nullable_number("price_cny_per_gpu_hour", 0, kMaxCnyPerGpuHour, true);
  o.cny_per_gpu_month = r.nullable_number("price_cny_per_gpu_month", 0, kMaxCnyPerGpuMonth, true);
  o.cny_per_node_month =
      r.nullable_number("price_cny_per_node_month", 0, kMaxCnyPerNodeMonth, true);
  ADVISOR_REQUIRE_OR_RETURN(o.cny_per_gpu_hour || o.cny_per_gpu_month || o.cny_per_node_month,
                            "missing_field", r.path_of("price_cny_per_gpu_hour"),
                            path +
                                " needs price_cny_per_gpu_hour, price_cny_per_gpu_month or "
                                "price_cny_per_node_month (CNY)");
  const std::string node = r.path_of("price_cny_per_node_month");
  if (o.cny_per_node_month) {
    ADVISOR_REQUIRE_OR_RETURN(
        o.kind != "hourly_marketplace", "inconsistent", node,
        node +
            ": a node-month price is an IDC package's or a cloud cluster's: state "
            "kind idc_package or cloud");
    ADVISOR_REQUIRE_OR_RETURN(o.gpus_per_node.has_value(), "missing_field",
                              r.path_of("gpus_per_node"),
                              r.path_of("gpus_per_node") + " is required with a node-month price");
    ADVISOR_REQUIRE_OR_RETURN(
        !o.cny_per_gpu_hour && !o.cny_per_gpu_month, "inconsistent", node,
        node +
            ": an offer is billed per node-month or per GPU, not both (list the "
            "per-GPU prices as another offer)");
  } else {
    ADVISOR_REQUIRE_OR_RETURN(o.kind != "idc_package", "missing_field", node,
                              node + " is required: an IDC package is sold per node-month");
  }
  if (auto m = r.nullable_integer("minimum_term_months", 1, kMaxTermMonths))
    o.minimum_term_months = static_cast<int>(*m);
  if (o.cny_per_node_month && o.count_available) {
    const std::string n = r.path_of("count_available");
    ADVISOR_REQUIRE_OR_RETURN(*o.count_available >= *o.gpus_per_node, "inconsistent", n,
                              n + " (" + std::to_string(*o.count_available) +
                                  " GPUs) is less than one node of gpus_per_node (" +
                                  std::to_string(*o.gpus_per_node) + ")");
  }
}

ProviderOffer read_offer(const JsonValue& j, const std::string& path, std::size_t index,
                         const Catalog& catalog) {
  FieldReader r(j, path);
  ProviderOffer o;
  o.index = index;
  o.gpu = r.string("gpu");
  ADVISOR_REQUIRE(catalog.find_gpu(o.gpu) != nullptr, "unknown_gpu", r.path_of("gpu"),
                  r.path_of("gpu") + " " + in_quotes(o.gpu) +
                      " is not a GPU of the catalog: use an id of data/gpus.json or add the "
                      "part under /gpus");
  read_offer_kind(r, o, catalog);
  o.count_available = r.nullable_integer("count_available", 1, kMaxOfferGpus);
  if (auto n = r.nullable_integer("gpus_per_node", 1, kMaxGpusPerNode))
    o.gpus_per_node = static_cast<int>(*n);
  read_offer_prices(r, o, path);
  o.region = read_text(r, "region", limits::kMaxProviderLabelChars, false);
  o.availability = r.choice("availability", {"in_stock", "limited", "on_request", "sold_out"},
                            std::string("in_stock"));
  if (auto d = r.nullable_integer("lead_time_days", 0, kMaxLeadTimeDays))
    o.lead_time_days = static_cast<int>(*d);
  o.note = read_text(r, "note", limits::kMaxProviderNoteChars, false);
  o.source = read_text(r, "source", limits::kMaxProviderUrlChars, false);
  if (r.has("as_of")) o.as_of = read_date(r, "as_of");
  r.reject_unknown();
  return o;
}

ColocationPackage read_package(const JsonValue& j, const std::string& path, std::size_t index) {
  FieldReader r(j, path);
  ColocationPackage c;
  c.index = index;
  c.name = read_text(r, "name", limits::kMaxProviderLabelChars, false);
  c.region = read_text(r, "region", limits::kMaxProviderLabelChars, false);
  c.rack_kw = r.number("rack_kw", kMinRackKw, kMaxRackKw);
  c.cny_per_month = r.number("price_cny_per_month", 0, kMaxCnyPerRackMonth, {}, true);
  read_text(r, "note", limits::kMaxProviderNoteChars, false);
  r.reject_unknown();
  return c;
}

/// The built-in catalog (or `base`) with the document's GPUs as additions; problems of the
/// additions reader ("gpus.json/additions/0/name") are located in the document ("/gpus/0/name").
Catalog base_catalog(const JsonValue* gpus, const std::string& as_of, CatalogTexts texts) {
  if (gpus == nullptr || gpus->empty()) return parse_catalog(texts);
  ADVISOR_REQUIRE(texts.gpus.empty(), "catalog_invalid", "/gpus",
                  "/gpus: a provider's own GPUs cannot be combined with a replaced gpus.json");
  JsonValue additions = JsonValue::object();
  additions.set("schema", 1);
  additions.set("as_of", as_of);
  additions.set("additions", *gpus);
  texts.gpus = additions.dump();
  std::optional<InputError> problem;
  Catalog c = in_own_scope([&] { return parse_catalog(texts); }, problem);
  if (!problem) return c;
  const std::string from = problem->path().rfind(kAdditions, 0) == 0 ? kAdditions : "";
  if (from.empty()) {  // not in the additions: as it was
    record_problem(std::move(*problem));
    return c;
  }
  auto relocate = [&](std::string s) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + 5))
      s.replace(at, from.size(), "/gpus");
    return s;
  };
  report_problem(problem->code() == "catalog_invalid" ? "duplicate" : problem->code(),
                 relocate(problem->path()), relocate(problem->what()));
  return c;
}

PriceEntry offer_entry(const ProviderCatalog& p, const ProviderOffer& o, double value,
                       const char* unit, const std::string& key) {
  PriceEntry e;
  e.key = key;
  e.value = value;
  e.unit = unit;
  e.basis = p.name + " offer /offers/" + std::to_string(o.index) + " (" + o.kind +
            (o.network == "none" ? "" : ", " + o.network) +
            (o.region.empty() ? "" : ", " + o.region) + ", " + o.availability + ")";
  e.source = p.name + " " + (!o.source.empty() ? o.source : p.url);
  if (o.source.empty() && p.url.empty()) e.source = p.name;
  e.as_of = o.as_of.empty() ? p.as_of : o.as_of;
  return e;
}

/// The offers that price each GPU: the cheapest per GPU-hour and per GPU-month, and the
/// node-month offer (one joined by RDMA first, then the cheapest per GPU-month); none sold out.
void choose_offers(ProviderCatalog& p) {
  auto per_gpu = [](const ProviderOffer& x) { return *x.cny_per_node_month / *x.gpus_per_node; };
  for (const ProviderOffer& o : p.offers) {
    if (o.availability == "sold_out") continue;
    auto cheaper = [&](std::map<std::string, std::size_t>& by_gpu,
                       std::optional<double> ProviderOffer::*price) {
      if (!(o.*price)) return;
      auto it = by_gpu.find(o.gpu);
      if (it == by_gpu.end() || *(o.*price) < *(p.offers[it->second].*price))
        by_gpu[o.gpu] = o.index;
    };
    cheaper(p.hourly_offer, &ProviderOffer::cny_per_gpu_hour);
    cheaper(p.monthly_offer, &ProviderOffer::cny_per_gpu_month);
    if (!o.cny_per_node_month) continue;
    auto it = p.cluster_offer.find(o.gpu);
    const ProviderOffer* held = it == p.cluster_offer.end() ? nullptr : &p.offers[it->second];
    if (held == nullptr || (o.rdma && !held->rdma) ||
        (o.rdma == held->rdma && per_gpu(o) < per_gpu(*held)))
      p.cluster_offer[o.gpu] = o.index;
  }
}

/// A per-GPU offer's rentals: one host's GPUs (its gpus_per_node, else the market's
/// rental.hourly_gpus_per_host), or as stated where its hosts are joined by RDMA (0).
void set_host(GpuPrices& g, const ProviderOffer& o, const PriceCatalog& pc) {
  g.rental_gpus_per_host =
      o.rdma
          ? 0
          : o.gpus_per_node.value_or(static_cast<int>(pc.at("rental.hourly_gpus_per_host").value));
  g.rental_host_kind = o.kind == "hourly_marketplace" ? "marketplace_host" : "cloud_gpu";
  g.rental_lead_time_days = o.lead_time_days;
}

/// The node-month offers become the market's cluster offers (engine/rental_offers).
void fold_cluster_offers(Catalog& c, const ProviderCatalog& p) {
  c.prices.cluster_offers.clear();  // the provider's offers replace the built-in market
  for (const auto& [id, index] : p.cluster_offer) {
    const ProviderOffer& o = p.offers[index];
    ClusterOffer k;
    k.kind = o.kind;
    k.gpus_per_node = *o.gpus_per_node;
    k.network = o.network;
    k.rdma = o.rdma;
    k.lead_time_days = o.lead_time_days;
    const std::string key = "cluster_offers." + id + ".";
    k.cny_per_node_month =
        offer_entry(p, o, *o.cny_per_node_month, "CNY per node-month", key + "cny_per_node_month");
    k.minimum_term_months =
        offer_entry(p, o, o.minimum_term_months, "months", key + "minimum_term_months");
    if (o.count_available) k.nodes_available = *o.count_available / *o.gpus_per_node;
    c.prices.cluster_offers[id] = k;
    c.prices.gpus[id].rental_not_offered.clear();
  }
}

/// Rentals become the provider's offers (and only them); packages become the rack classes.
void fold_into(Catalog& c, ProviderCatalog& p) {
  for (const GpuSpec& g : c.gpus) c.prices.gpus.try_emplace(g.id);
  choose_offers(p);
  for (auto& [id, g] : c.prices.gpus) {
    g.rental_stated = true;
    g.rental_cny_per_gpu_hour.reset();
    g.rental_cny_per_gpu_month.reset();
    g.reserved_only_as_quoted = true;
    g.rental_not_offered = "not offered by " + p.name + " (" + p.as_of + ")";
    if (auto m = p.monthly_offer.find(id); m != p.monthly_offer.end()) {
      const ProviderOffer& o = p.offers[m->second];
      g.rental_cny_per_gpu_month = offer_entry(p, o, *o.cny_per_gpu_month, "CNY per GPU-month",
                                               "gpus." + id + ".rental_monthly");
      g.reserved_gpus_available = o.count_available;
      g.rental_not_offered.clear();
      set_host(g, o, c.prices);
    }
    // The hourly offer's host, where there is one, limits the GPU's per-GPU rentals.
    if (auto h = p.hourly_offer.find(id); h != p.hourly_offer.end()) {
      const ProviderOffer& o = p.offers[h->second];
      g.rental_cny_per_gpu_hour =
          offer_entry(p, o, *o.cny_per_gpu_hour, "CNY per GPU-hour", "gpus." + id + ".rental");
      g.rental_gpus_available = o.count_available;
      g.rental_not_offered.clear();
      set_host(g, o, c.prices);
    }
  }
  fold_cluster_offers(c, p);
  if (p.colocation.empty()) return;
  for (const ColocationPackage& k : p.colocation) {
    auto it = p.rack_package.find(k.rack_kw);
    if (it == p.rack_package.end() || k.cny_per_month < p.colocation[it->second].cny_per_month)
      p.rack_package[k.rack_kw] = k.index;
  }
  c.prices.rack_classes.clear();
  for (const auto& [kw, index] : p.rack_package) {  // ascending kW, as the cost model expects
    const ColocationPackage& k = p.colocation[index];
    PriceEntry e;
    e.key = "colocation.per_rack_month_cny." + format_number(kw);
    e.value = k.cny_per_month;
    e.unit = "CNY per rack-month";
    e.basis = p.name + " package /colocation/" + std::to_string(index) +
              (k.name.empty() ? "" : ", " + k.name) + (k.region.empty() ? "" : ", " + k.region);
    e.source = p.url.empty() ? p.name : p.name + " " + p.url;
    e.as_of = p.as_of;
    c.prices.rack_classes.emplace_back(kw, e);
  }
  c.prices.rack_classes_entry.source = p.name;
  c.prices.rack_classes_entry.as_of = p.as_of;
  c.prices.rack_classes_entry.basis =
      "the rack power classes of " + p.name + "'s colocation packages";
  c.prices.rack_classes_entry.needs_confirmation = false;
  // The packages are priced where the provider sells them: no site factor scales them.
  for (SiteDefaults& s : c.prices.sites) {
    s.colocation_factor.value = 1;
    s.colocation_factor.basis = p.name + "'s colocation packages apply as priced";
    s.colocation_factor.source = p.name;
    s.colocation_factor.as_of = p.as_of;
    s.colocation_factor.needs_confirmation = false;
  }
}

/// catalog_with_provider's reading: the document into `p`, and the catalog its offers are
/// folded into (not yet). After a problem, what was read so far.
Catalog read_provider(const std::string& provider_text, const CatalogTexts& base,
                      ProviderCatalog& p) {
  const JsonValue doc = parse_json_text(provider_text, "", limits::kMaxProviderBytes);
  FieldReader r(doc, "");
  r.integer("schema", 1, 1);
  p.name = read_text(r, "name", limits::kMaxProviderNameChars, true);
  p.url = read_text(r, "url", limits::kMaxProviderUrlChars, false);
  ADVISOR_REQUIRE(
      p.url.empty() || p.url.rfind("https://", 0) == 0 || p.url.rfind("http://", 0) == 0,
      "out_of_range", "/url", "/url must be an http:// or https:// address");
  p.as_of = read_date(r, "as_of");
  p.currency = r.choice("currency", {"CNY"});
  read_text(r, "note", limits::kMaxProviderNoteChars, false);
  const JsonValue* offers = read_list(r, "offers", limits::kMaxProviderOffers);
  const JsonValue* packages = read_list(r, "colocation", limits::kMaxProviderPackages);
  const JsonValue* gpus = read_list(r, "gpus", limits::kMaxCatalogGpus);
  ADVISOR_REQUIRE(offers != nullptr, "missing_field", "/offers",
                  "/offers is required (an array; empty when the provider rents out no GPUs)");
  ADVISOR_REQUIRE(
      !offers->empty() || (packages != nullptr && !packages->empty()), "missing_field", "/offers",
      "/offers is empty and there are no /colocation packages: the document offers nothing");
  r.reject_unknown();
  if (problem_reported()) return {};  // before parsing the whole catalog for nothing

  Catalog c = base_catalog(gpus, p.as_of, base);
  if (problem_reported()) return c;  // a part of /gpus may lack its id
  if (gpus != nullptr)
    for (const JsonValue& g : gpus->elements()) p.gpus_added.push_back(g.find("id")->string());
  p.gpus_replaced = c.gpus_replaced;
  for (std::size_t i = 0; i < offers->size(); ++i)
    p.offers.push_back(read_offer((*offers)[i], "/offers/" + std::to_string(i), i, c));
  if (packages != nullptr)
    for (std::size_t i = 0; i < packages->size(); ++i)
      p.colocation.push_back(read_package((*packages)[i], "/colocation/" + std::to_string(i), i));
  return c;
}

}  // namespace

Catalog catalog_with_provider(const std::string& provider_text, const CatalogTexts& base) {
  ProviderCatalog p;
  Catalog c = read_provider(provider_text, base, p);
  // Folding indexes the offers and divides by their node sizes: whole offers only.
  if (!problem_reported()) fold_into(c, p);
  c.provider = std::move(p);  // after a problem too: the catalog always names its provider
  return c;
}

namespace {

void write_identity(JsonWriter& w, const ProviderCatalog& p) {
  w.field("name", p.name);
  if (p.url.empty())
    w.null_field("url");
  else
    w.field("url", p.url);
  w.field("as_of", p.as_of);
  w.field("currency", p.currency);
}

void write_offer(JsonWriter& w, const ProviderOffer& o, const char* deployment) {
  w.begin_object();
  w.field("offer", o.index);
  w.field("gpu", o.gpu);
  w.field("deployment", deployment);
  w.field("kind", o.kind);
  w.field("network", o.network);
  w.field("price_cny_per_gpu_hour", o.cny_per_gpu_hour);
  w.field("price_cny_per_gpu_month", o.cny_per_gpu_month);
  w.field("price_cny_per_node_month", o.cny_per_node_month);
  w.field("minimum_term_months", o.minimum_term_months);
  w.field("count_available", o.count_available);
  w.field("gpus_per_node", o.gpus_per_node);
  w.field("region", o.region);
  w.field("availability", o.availability);
  w.field("lead_time_days", o.lead_time_days);
  w.field("source", o.source);
  w.field("as_of", o.as_of);
  w.end_object();
}

/// The provider's own parts: "gpus_added", and "gpus_replaced" for those that replace a
/// built-in part's specs (the page's banner says so).
void write_own_gpus(JsonWriter& w, const ProviderCatalog& p) {
  w.key("gpus_added");
  w.begin_array();
  for (const std::string& id : p.gpus_added) w.value(id);
  w.end_array();
  w.key("gpus_replaced");
  w.begin_array();
  for (const std::string& id : p.gpus_replaced) w.value(id);
  w.end_array();
}

void write_package(JsonWriter& w, const ColocationPackage& k) {
  w.begin_object();
  w.field("package", k.index);
  w.field("name", k.name);
  w.field("region", k.region);
  w.field("rack_kw", k.rack_kw);
  w.field("price_cny_per_month", k.cny_per_month);
  w.end_object();
}

}  // namespace

void write_provider(JsonWriter& w, const ProviderCatalog& p, const Plan& plan) {
  w.begin_object();
  write_identity(w, p);
  w.field("rentals", "offers_only");
  w.key("offers_used");
  w.begin_array();
  for (const auto& [gpu, index] : p.hourly_offer) write_offer(w, p.offers[index], "rent");
  for (const auto& [gpu, index] : p.monthly_offer) write_offer(w, p.offers[index], "rent_reserved");
  for (const auto& [gpu, index] : p.cluster_offer) write_offer(w, p.offers[index], "rent_reserved");
  w.end_array();
  w.key("colocation_used");
  w.begin_array();
  for (const auto& [kw, index] : p.rack_package) write_package(w, p.colocation[index]);
  w.end_array();
  write_own_gpus(w, p);
  // The offer behind the recommended plan, when it is rented (at the offer's price: a price
  // the request gives itself is the user's, not the provider's).
  std::optional<std::size_t> offer;
  if (plan.recommendation && plan.recommendation->best) {
    const CandidatePlan& best = *plan.recommendation->best;
    if (best.deployment == Deployment::kRent) {
      auto it = p.hourly_offer.find(best.gpu->id);
      if (it != p.hourly_offer.end() &&
          best.rate_cny_per_gpu_hour == p.offers[it->second].cny_per_gpu_hour)
        offer = it->second;
    } else if (best.deployment == Deployment::kReserved) {
      const bool cluster =
          best.rental_offer_kind == "idc_package" || best.rental_offer_kind == "cloud";
      const auto& by_gpu = cluster ? p.cluster_offer : p.monthly_offer;
      auto it = by_gpu.find(best.gpu->id);
      if (it != by_gpu.end()) offer = it->second;
    }
  }
  w.field("recommended_offer", offer);
  // The package that prices result.power's racks (an IDC plan under the provider's packages).
  std::optional<std::size_t> package;
  if (plan.power && plan.power->facility != Facility::kOffice &&
      plan.power->plan.rack_choice != "office") {
    auto it = p.rack_package.find(plan.power->plan.racks.rack_kw);
    if (it != p.rack_package.end()) package = it->second;
  }
  w.field("power_package", package);
  w.end_object();
}

std::string provider_summary_text(const ProviderCatalog& p) {
  JsonWriter w;
  w.begin_object();
  w.key("provider");
  w.begin_object();
  write_identity(w, p);
  w.field("offers", p.offers.size());
  w.field("colocation", p.colocation.size());
  write_own_gpus(w, p);
  w.end_object();
  w.end_object();
  return w.take();
}

}  // namespace advisor
