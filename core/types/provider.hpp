// SPDX-License-Identifier: MIT
// A GPU rental / IDC provider's catalog (data/provider.schema.json): its offers, colocation
// packages and own GPU parts, validated (io/provider_json.cpp) and folded into a Catalog, which
// then carries this block so the result can say "prices from <name>, as of <date>".
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace advisor {

/// One rental offer: a GPU the provider rents out, per GPU-hour and/or per GPU-month (one host,
/// or as stated across hosts joined by RDMA), or whole nodes per node-month for a minimum term
/// (an IDC package or a cloud cluster), as the built-in market states its offers.
struct ProviderOffer {
  std::size_t index = 0;  // position in /offers
  std::string gpu;        // catalog GPU id (built in or one of the provider's additions)
  std::string kind;       // hourly_marketplace | cloud | idc_package
  std::string network;    // between hosts: "none" or a performance.json network id
  bool rdma = false;      // the network joins hosts by RDMA (performance.json networks)
  std::optional<std::int64_t> count_available;  // GPUs the offer can supply; nullopt: not stated
  std::optional<int> gpus_per_node;             // GPUs in one rented node
  std::optional<double> cny_per_gpu_hour;       // on demand
  std::optional<double> cny_per_gpu_month;      // reserved by the month
  std::optional<double> cny_per_node_month;     // whole nodes by the month
  int minimum_term_months = 1;
  std::string source, as_of;  // the offer's own; empty: the catalog's
  std::string region;
  std::string availability;  // in_stock | limited | on_request | sold_out
  std::optional<int> lead_time_days;
  std::string note;
};

/// One colocation package: a rack of a power class at a monthly price.
struct ColocationPackage {
  std::size_t index = 0;  // position in /colocation
  std::string name;
  std::string region;
  double rack_kw = 0;
  double cny_per_month = 0;
};

struct ProviderCatalog {
  std::string name;
  std::string url;
  std::string as_of;     // YYYY-MM-DD
  std::string currency;  // CNY
  std::vector<ProviderOffer> offers;
  std::vector<ColocationPackage> colocation;
  std::vector<std::string> gpus_added;     // ids of the provider's own parts
  std::vector<std::string> gpus_replaced;  // of those, built-in ids whose specs they replace
  /// The offer that prices each GPU (its index in `offers`): the cheapest one not sold out.
  std::map<std::string, std::size_t> hourly_offer, monthly_offer;
  /// The node-month offer that rents each GPU across nodes: one with RDMA first, then the
  /// cheapest per GPU-month (types/prices.hpp ClusterOffer).
  std::map<std::string, std::size_t> cluster_offer;
  /// The package that prices each rack class (kW -> index in `colocation`): the cheapest.
  std::map<double, std::size_t> rack_package;
};

}  // namespace advisor
