// SPDX-License-Identifier: MIT
#include "engine/rental_offers.hpp"

namespace advisor {

RentalTerms rental_terms(const RentalMarket& m, int gpus) {
  RentalTerms t;
  const bool one_host = m.hourly_gpus_per_host == 0 || gpus <= m.hourly_gpus_per_host;
  if (one_host && (m.host_cny_per_gpu_hour || m.host_cny_per_gpu_month)) {
    t.cny_per_gpu_hour = m.host_cny_per_gpu_hour;
    t.cny_per_gpu_month = m.host_cny_per_gpu_month;
    t.billed_gpus = gpus;
    t.offer = RentalOffer::kHost;
    t.lead_time_days = m.host_lead_time_days;
    return t;
  }
  // A cluster rents whole nodes: a job within one node too, where no host is listed.
  if (!m.cluster) return t;
  const ClusterTerms& c = *m.cluster;
  const long long nodes = (gpus + c.gpus_per_node - 1) / c.gpus_per_node;
  if (c.nodes_available && nodes > *c.nodes_available) return t;
  if (nodes > 1 && !c.rdma) return t;  // no RDMA between the nodes: no job across them
  t.cny_per_gpu_month = c.cny_per_gpu_month;
  t.billed_gpus = static_cast<int>(nodes) * c.gpus_per_node;
  t.minimum_months = c.minimum_months;
  t.offer = RentalOffer::kCluster;
  t.lead_time_days = c.lead_time_days;
  return t;
}

std::string_view offer_kind_name(const RentalMarket& m, RentalOffer offer) {
  switch (offer) {
    case RentalOffer::kHost:  // a provider's offer or the request's price: as stated
      // A literal, never a view of the market's string: plans keep the name after it is gone.
      if (m.host_kind == "cloud_gpu") return "cloud_gpu";
      if (m.host_kind == "marketplace_host") return "marketplace_host";
      return m.hourly_gpus_per_host == 0 ? "stated_offer" : "marketplace_host";
    case RentalOffer::kCluster:
      return m.cluster && m.cluster->kind == "cloud" ? "cloud" : "idc_package";
    case RentalOffer::kNone:
      break;
  }
  return "";
}

}  // namespace advisor
