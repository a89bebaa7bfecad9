// SPDX-License-Identifier: MIT
// What a count of GPUs can rent from the market's offers. Hourly marketplaces rent one host's
// GPUs to one container, with no RDMA between hosts: a job on more GPUs than a host holds is
// rented only from a multi-node offer (an IDC package or a cloud cluster) sold per node-month
// for a minimum term, on its own network (docs/cost.md "Rental offers").
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace advisor {

/// The offer a rental comes from: none, one marketplace host, or a multi-node cluster.
enum class RentalOffer { kNone, kHost, kCluster };

/// A multi-node offer as the cost model reads it (types/prices.hpp ClusterOffer).
struct ClusterTerms {
  std::string kind;     // idc_package | cloud
  std::string network;  // performance.json network id
  int gpus_per_node = 8;
  double cny_per_gpu_month = 0;  // the node-month price over its GPUs
  int minimum_months = 1;
  std::optional<long long> nodes_available;
  bool rdma = true;           // false: a job across nodes cannot run on it (one node only)
  double lead_time_days = 0;  // contract to running nodes
};

/// The rentals listed for one part.
struct RentalMarket {
  std::optional<double> host_cny_per_gpu_hour;   // on demand, within one host
  std::optional<double> host_cny_per_gpu_month;  // the same host by the month
  int hourly_gpus_per_host = 0;                  // 0: the offer is not limited to one host
  std::string host_kind;           // the host offer's kind name; empty: derived from the host limit
  double host_lead_time_days = 0;  // payment to a running container
  std::optional<ClusterTerms> cluster;
};

/// What `gpus` GPUs can rent.
struct RentalTerms {
  std::optional<double> cny_per_gpu_hour, cny_per_gpu_month;
  int billed_gpus = 0;  // a cluster bills whole nodes
  int minimum_months = 1;
  RentalOffer offer = RentalOffer::kNone;
  double lead_time_days = 0;  // the offer's, in calendar days
};

RentalTerms rental_terms(const RentalMarket& market, int gpus);

/// The API name of an offer kind: "marketplace_host", "cloud_gpu" (a provider's cloud priced per
/// GPU), "stated_offer" (the request's price, or a provider's), "idc_package" or "cloud" (whole
/// nodes per node-month; "" for none).
std::string_view offer_kind_name(const RentalMarket& market, RentalOffer offer);

}  // namespace advisor
