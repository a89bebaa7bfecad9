// SPDX-License-Identifier: MIT
#include "plan/plan_risks.hpp"

#include <string>

#include "plan/recommend.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

Risk consumer_risk(const GpuSpec& gpu) {
  Risk r{"consumer",
         "geforce_class",
         {param("gpu", gpu.name), param("class", gpu.product.product_class)},
         gpu.name +
             " is a consumer (GeForce) card, sold for desktops: no data-centre warranty "
             "or support for round-the-clock server duty"};
  if (gpu.product.derived) r.params.push_back(param("derived", flag(true)));
  return r;
}

Risk no_ecc_risk(const GpuSpec& gpu) {
  const bool absent = gpu.product.memory_ecc == "none";
  Risk r{"no_ecc",
         absent ? "ecc_absent" : "ecc_off_by_default",
         {param("gpu", gpu.name), param("memory_ecc", gpu.product.memory_ecc)},
         absent ? gpu.name +
                      " has no memory ECC: a bit flip in GPU memory is neither corrected "
                      "nor reported"
                : gpu.name +
                      "'s memory ECC is off by default: turn it on (nvidia-smi -e 1) at a "
                      "cost in memory and speed this plan does not count"};
  if (gpu.product.derived) r.params.push_back(param("derived", flag(true)));
  return r;
}

Risk end_of_life_risk(const GpuSpec& gpu) {
  return {"end_of_life",
          "no_new_supply",
          {param("gpu", gpu.name)},
          gpu.name + " is end of life: no new supply, so spares and replacements are second-hand"};
}

Risk second_hand_risk(const GpuSpec& gpu, const PriceEntry& price) {
  return {"second_hand",
          "second_hand_price",
          {param("gpu", gpu.name), param("price_cny", price.value)},
          "the purchase price of " + gpu.name +
              " is a second-hand card's (prices.json): unknown hours of use, no manufacturer "
              "warranty"};
}

Risk grey_import_risk(const GpuSpec& gpu) {
  return {"grey_import",
          "licence_required",
          {param("gpu", gpu.name), param("status", gpu.china_availability.status)},
          "buying " + gpu.name + " in mainland China needs a US export licence (" +
              gpu.china_availability.status +
              "): the cards come through grey channels, without warranty or an assured supply"};
}

/// The buying channel's risks of `gpu`.
std::vector<Risk> channel_risks(const GpuSpec& gpu, const Catalog& catalog) {
  std::vector<Risk> out;
  const auto listed = catalog.prices.gpus.find(gpu.id);
  if (listed != catalog.prices.gpus.end() && listed->second.purchase_second_hand &&
      listed->second.purchase_cny)
    out.push_back(second_hand_risk(gpu, *listed->second.purchase_cny));
  if (purchase_status(gpu, catalog.prices) == PurchaseStatus::kGreyImport)
    out.push_back(grey_import_risk(gpu));
  return out;
}

std::string risk_codes(const std::vector<Risk>& risks) {
  std::string out;
  for (const Risk& r : risks)
    if (bars_customer_facing(r)) out += (out.empty() ? "" : ", ") + r.code;
  return out;
}

}  // namespace

std::vector<Risk> part_risks(const GpuSpec& gpu) {
  std::vector<Risk> out;
  if (gpu.product.product_class == "consumer") out.push_back(consumer_risk(gpu));
  if (gpu.product.memory_ecc != "on") out.push_back(no_ecc_risk(gpu));
  if (gpu.product.end_of_life) out.push_back(end_of_life_risk(gpu));
  return out;
}

std::vector<Risk> candidate_risks(const CandidatePlan& plan, const Catalog& catalog) {
  std::vector<Risk> out = part_risks(*plan.gpu);
  if (plan.deployment == Deployment::kBuy)
    for (Risk& r : channel_risks(*plan.gpu, catalog)) out.push_back(std::move(r));
  return out;
}

std::vector<Risk> hardware_risks(const GpuSpec& gpu, const Catalog& catalog) {
  std::vector<Risk> out = part_risks(gpu);
  for (Risk& r : channel_risks(gpu, catalog)) {
    r.params.push_back(param("deployment", std::string(name_of(Deployment::kBuy))));
    out.push_back(std::move(r));
  }
  return out;
}

bool bars_customer_facing(const Risk& risk) {
  return risk.code != "no_ecc" || risk.reason == "ecc_absent";
}

bool bars_customer_facing(const std::vector<Risk>& risks) {
  for (const Risk& r : risks)
    if (bars_customer_facing(r)) return true;
  return false;
}

bool safe_for_customers(const CandidatePlan& plan, const Catalog& catalog) {
  return !bars_customer_facing(candidate_risks(plan, catalog));
}

bool serves_customers(const Request& req) {
  return req.task == Task::kInference && req.inference.customer_facing;
}

Warning customer_facing_warning(const GpuSpec& gpu, int gpus, const std::vector<Risk>& risks,
                                const CandidatePlan* alt) {
  const std::string codes = risk_codes(risks);
  Warning w{"risky_parts_customer_facing",
            "a customer-facing service on " + std::to_string(gpus) + "x " + gpu.name + " (" +
                codes +
                "): such parts fail or corrupt answers without notice and are not "
                "replaced under a data-centre warranty",
            "/inference/customer_facing",
            {param("gpu", gpu.name), param("gpus", gpus), param("risks", codes),
             param("alternative", flag(alt != nullptr))}};
  if (alt != nullptr) {
    w.message += "; the data-centre alternative: " + std::to_string(alt->gpus) + "x " +
                 alt->gpu->name + " at " + format_number(alt->cost_cny) + " CNY " +
                 std::string(alt->cost_basis == "per_month" ? "a month" : "a run");
    w.params.push_back(param("alternative_gpu", alt->gpu->name));
    w.params.push_back(param("alternative_gpus", alt->gpus));
    w.params.push_back(param("alternative_cost_cny", alt->cost_cny));
  } else {
    w.message += "; no plan on other parts meets the goal";
  }
  w.message += ". Set /inference/customer_facing to false for an internal service";
  return w;
}

void mark_risks(Recommendation& r, const Request& req, const Catalog& catalog) {
  auto mark = [&](CandidatePlan& p) { p.risks = candidate_risks(p, catalog); };
  if (r.best) mark(*r.best);
  if (r.nearest) mark(*r.nearest);
  if (r.datacenter_alternative) mark(*r.datacenter_alternative);
  for (RunnerUp& u : r.runners_up) mark(u.plan);
  for (Lever& l : r.levers) mark(l.plan);
  for (CandidatePlan& p : r.pareto) mark(p);
  if (r.best && serves_customers(req) && bars_customer_facing(r.best->risks))
    r.best->warnings.push_back(
        customer_facing_warning(*r.best->gpu, r.best->gpus, r.best->risks,
                                r.datacenter_alternative ? &*r.datacenter_alternative : nullptr));
}

}  // namespace advisor
