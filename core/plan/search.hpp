// SPDX-License-Identifier: MIT
// The plans of one GPU for the recommendation: its counts (training) or its fleet for the load
// (serving), each priced in every deployment and place the request allows (rent by the billing
// unit, reserved by the month, bought in an IDC or the office), with the checkpointing the
// advisor turns on where that gives the job room (plan/auto_checkpointing).
#pragma once
#include <memory>
#include <vector>

#include "engine/comm.hpp"
#include "engine/layout.hpp"
#include "plan/auto_checkpointing.hpp"
#include "plan/search_prices.hpp"
#include "types/catalog.hpp"
#include "types/plan.hpp"
#include "types/request.hpp"

namespace advisor {

/// True when a part is sold new in mainland China without a US licence.
bool china_purchasable(const GpuSpec& gpu);

/// How the part is bought in mainland China: second-hand where the catalog prices a used card
/// (domestic resale: legal whatever the part's export status), new where it is sold without a
/// US licence, else a grey import.
PurchaseStatus purchase_status(const GpuSpec& gpu, const PriceCatalog& prices);

class Search {
 public:
  /// `layouts`: a table of `req` (the one its options were judged with).
  /// `checkpointed`: the job with full checkpointing, for the GPUs it gives room (or nullptr).
  Search(const Request& req, const Catalog& catalog, SearchPrices& prices, LayoutTable& layouts,
         CheckpointedJob* checkpointed = nullptr);

  /// Every plan of one GPU, appended to `out`: serving's fleet, or training's counts without
  /// and (plan/auto_checkpointing) with the full checkpointing that gives the job room. False
  /// when no count fits; `failed` says why a fitting GPU has no plan.
  bool plans(const OptionRow& row, std::vector<CandidatePlan>& out, Reason* failed) const;

  using Places = SearchPrices::Places;

  /// Whether owning a part is priced: the buying policy's statuses only.
  bool buys(PurchaseStatus status) const { return allows(req_.goal.buying_policy, status); }

  /// Every deployment of `gpu` x `count`, appended to `out` (hours/perf filled by the caller's
  /// template `plan`).
  void price(const CandidatePlan& plan, int count, const Places& at,
             std::vector<CandidatePlan>& out) const;

  /// Training plans of one GPU: its minimum count and doublings (training_counts()).
  void training_plans(const OptionRow& row, std::vector<CandidatePlan>& out, Reason* failed) const;

  /// A floor under the cost of every plan training_plans() makes for `gpu` from `min_count`
  /// GPUs: the job's FLOPs at the part's peak (gpu_hours_floor) paid the cheapest way the part
  /// is priced.
  double training_cost_floor(const GpuSpec& gpu, int min_count) const;

  /// The serving plan of one GPU: its fleet for the load.
  void serving_plans(const OptionRow& row, std::vector<CandidatePlan>& out, Reason* failed) const;

 private:
  CandidatePlan base_plan(const GpuSpec& gpu, int count, const Layout& L, const MemoryEstimate& e,
                          const Fabric& f) const;

  const Request& req_;
  const Catalog& catalog_;
  SearchPrices& prices_;       // shared by the recommendation and its levers
  LayoutTable& layouts_;       // memory per layout, shared by every GPU and with judge_options
  double billing_unit_hours_;  // a rental bills whole units of this (prices.json)
  CheckpointedJob* checkpointed_;
  std::unique_ptr<Search> checkpointed_search_;  // prices checkpointed_'s plans
};

}  // namespace advisor
