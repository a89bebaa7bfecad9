// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace advisor {

/// One editable default from data/prices.json: a value with its unit, what it is, where it
/// comes from and when. USD values are converted to CNY at load (`value` is then in CNY and
/// `original_*` keep what the file said).
struct PriceEntry {
  std::string
      key;  // dotted path in prices.json, e.g. "sites.shenzhen.electricity_flat_cny_per_kwh"
  double value = 0;
  std::string unit;
  std::string basis;
  std::string source;
  std::string as_of;
  bool needs_confirmation = false;
  std::string original_currency;  // "USD" when converted, else ""
  double original_value = 0;
};

/// A server platform (everything but the GPUs). By form factor ("sxm", "pcie", ...), and
/// "<form>_small" for plans that fit one smaller server (a 4-card workstation, a 4-GPU board).
struct PlatformDefaults {
  PriceEntry price_cny, gpus_per_server, rack_units, cpus_watts, memory_watts, nics_watts,
      storage_watts, cooling_conversion_fraction;
  bool whole_board = false;  // the GPUs ship on a baseboard: a server is bought full
};

struct SiteDefaults {
  std::string id, name, name_zh;
  PriceEntry electricity_flat_cny_per_kwh, colocation_factor;
};

struct GpuPrices {
  std::optional<PriceEntry> purchase_cny;  // per GPU
  bool purchase_second_hand = false;       // the purchase price is a used card's ("second_hand")
  std::optional<PriceEntry> rental_cny_per_gpu_hour;  // on demand
  // Why the part cannot be bought or rented in the catalog's market ("" when it can, or when
  // the price is merely unknown): {"not_offered": reason, "source", "as_of"} in prices.json.
  std::string purchase_not_offered;
  std::string rental_not_offered;
  // A provider catalog's offers (types/provider.hpp): a quoted monthly price for reserved
  // rentals (else it is derived from the hourly one at rental.reserved_discount, unless
  // `reserved_only_as_quoted`), and the GPUs each offer can supply (nullopt: not limited).
  std::optional<PriceEntry> rental_cny_per_gpu_month;
  bool reserved_only_as_quoted = false;
  std::optional<std::int64_t> rental_gpus_available, reserved_gpus_available;
  // A provider's offer delivers the GPUs it states as one rental; the built-in market's hourly
  // offers are one marketplace host each (rental.hourly_gpus_per_host).
  bool rental_stated = false;
  // A provider's per-GPU offer: the GPUs of one host it rents (0: as stated, across hosts
  // joined by RDMA; nullopt: the market's rental.hourly_gpus_per_host) and its offer kind
  // (engine/rental_offers offer_kind_name; empty: derived).
  std::optional<int> rental_gpus_per_host;
  std::string rental_host_kind;
  std::optional<int> rental_lead_time_days;  // a provider's offer: days to a running rental
};

/// A multi-node rental sold per node-month (an IDC package or a cloud's cluster): whole nodes of
/// `gpus_per_node` joined by `network` (a performance.json network id), for a minimum term.
/// Hourly marketplaces rent single hosts with no RDMA between them: a job on more GPUs than one
/// host holds is rented only from an offer like this (engine/rental_offers).
struct ClusterOffer {
  std::string kind;  // idc_package | cloud
  int gpus_per_node = 8;
  std::string network;  // performance.json networks id, e.g. "ib_ndr400"
  PriceEntry cny_per_node_month, minimum_term_months;
  std::optional<std::int64_t> nodes_available;  // nullopt: a quota on request
  bool rdma = true;  // the network joins nodes by RDMA: else it rents one node only
  std::optional<int> lead_time_days;  // a provider's offer: days to running nodes
};

/// A price older than this many months before the catalog's date is shown as such: market
/// prices of GPUs move by tens of percent in half a year (the market issue's rule).
constexpr int kStalePriceMonths = 6;

/// Whether the date `as_of` lies more than `months` whole months before `reference` (both
/// "YYYY[-MM[-DD]]"; a year alone is read as its December; false when either is undated).
bool older_than(std::string_view as_of, std::string_view reference, int months);

/// Hashes a key by its characters, so a lookup by string_view builds no string.
struct KeyHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
};

/// data/prices.json, validated. Lookups of required keys never fail after parsing.
struct PriceCatalog {
  std::string as_of;
  std::string currency;  // "CNY"
  PriceEntry usd_to_cny;
  std::map<std::string, GpuPrices> gpus;
  std::map<std::string, PlatformDefaults> platforms;  // sxm | pcie | oam | module
  std::vector<SiteDefaults> sites;
  std::map<std::string, ClusterOffer> cluster_offers;       // by GPU id
  std::vector<std::pair<double, PriceEntry>> rack_classes;  // kW, price per rack-month (ascending)
  PriceEntry rack_classes_entry;                            // source of the class list
  std::map<std::string, PriceEntry> pue;                    // office | idc | idc_new | hub_node
  // A part's own purchase lead time in days (an approval-only part), by GPU id.
  std::map<std::string, PriceEntry> purchase_lead_time_by_gpu;
  // every other entry, by dotted key (hashed: the cost model reads ~30 per plan priced)
  std::unordered_map<std::string, PriceEntry, KeyHash, std::equal_to<>> scalars;
  std::string siting_note_zh, siting_note_en, data_note_zh, data_note_en, notes_source;

  // A scalar; if absent, reports catalog_invalid and gives an entry of value 0.
  const PriceEntry& at(std::string_view key) const;
  const SiteDefaults* find_site(const std::string& id) const;
};

}  // namespace advisor
