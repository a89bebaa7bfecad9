// SPDX-License-Identifier: MIT
// Risk as a visible fact: the risks of the parts a plan uses (second-hand, consumer class, no
// memory ECC, grey import, end of life), built in one place from the catalog's facts
// (gpus.json "product" and "china_availability", prices.json "second_hand"), for every plan
// the recommendation shows and for the pinned hardware; and the serving rule: a customer-facing
// service on such parts is flagged, with the best plan on parts without them next to it.
#pragma once
#include <vector>

#include "types/catalog.hpp"
#include "types/plan.hpp"
#include "types/request.hpp"

namespace advisor {

/// The part's own risks, whatever the deployment: consumer class, no ECC, end of life.
std::vector<Risk> part_risks(const GpuSpec& gpu);
/// A recommendation plan's risks: the part's, and when the plan buys the cards, the channel's
/// (second-hand price, grey import when the part needs a US licence in mainland China).
std::vector<Risk> candidate_risks(const CandidatePlan& plan, const Catalog& catalog);
/// The pinned GPU's risks: the part's, and the channel's with "deployment": "buy" (what buying
/// it carries; the cost section prices buying and renting alike).
std::vector<Risk> hardware_risks(const GpuSpec& gpu, const Catalog& catalog);

/// Whether a risk rules a part out for a customer-facing service: every risk but ECC that is
/// merely off by default (nvidia-smi -e 1 turns it on).
bool bars_customer_facing(const Risk& risk);
bool bars_customer_facing(const std::vector<Risk>& risks);
/// Whether a plan's parts carry no risk that bars a customer-facing service.
bool safe_for_customers(const CandidatePlan& plan, const Catalog& catalog);
/// A serving request for customers (/inference/customer_facing, on by default).
bool serves_customers(const Request& req);

/// The flag on a customer-facing serving plan whose parts bar it, naming the data-centre
/// alternative when there is one.
Warning customer_facing_warning(const GpuSpec& gpu, int gpus, const std::vector<Risk>& risks,
                                const CandidatePlan* alternative);

/// Fills the risks of every plan the recommendation shows (the front too) and, for a
/// customer-facing service whose answer's parts bar it, flags the answer. The alternative is
/// chosen by the caller (recommend.cpp: the same objective over the same plans).
void mark_risks(Recommendation& r, const Request& req, const Catalog& catalog);

}  // namespace advisor
