// SPDX-License-Identifier: MIT
#include "plan/recommend_reasons.hpp"

#include <cmath>

#include "plan/search.hpp"
#include "types/text.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {

ReasonParam num(const char* name, double v) { return {name, v, {}}; }
ReasonParam txt(const char* name, std::string v) { return {name, std::nullopt, std::move(v)}; }

std::string cny(double v) { return "CNY " + format_with("%.0f", std::round(v)); }
std::string gib(double bytes) { return format_with("%.1f GiB", bytes / kBytesPerGib); }
std::string hours(double h) { return h < 10 ? format_with("%.1f h", h) : format_with("%.0f h", h); }

std::string cost_text(const CandidatePlan& p) {
  return cny(p.cost_cny) + (p.cost_basis == "per_run" ? " per run" : " per month");
}

/// What the budget was compared with, in English: "the purchase", "the run", "a month".
std::string outlay_text(const CandidatePlan& p) {
  const std::string_view b = p.outlay_basis;
  return cny(p.outlay_cny) + (b == "purchase"  ? " to buy the cards and servers"
                              : b == "per_run" ? " for the run"
                                               : " a month");
}

std::string layout_text(const Layout& L) {
  std::string s = "TP " + std::to_string(L.tp) + ", PP " + std::to_string(L.pp) + ", DP " +
                  std::to_string(L.dp);
  if (L.cp > 1) s += ", CP " + std::to_string(L.cp);
  if (L.ep > 1) s += ", EP " + std::to_string(L.ep);
  if (L.zero > 0) s += ", ZeRO-" + std::to_string(L.zero);
  if (L.shard_group > 0) s += ", HSDP group " + std::to_string(L.shard_group);
  return s;
}

}  // namespace

namespace {

/// How the plan fits in memory (and the checkpointing the advisor turned on for it).
void memory_reason(const CandidatePlan& p, std::vector<Reason>& out) {
  const Layout& L = p.layout;
  // Checkpointing the advisor turned on is part of how the plan fits: said in the same line.
  out.push_back(
      {"memory",
       p.full_checkpointing ? "fits_per_gpu_checkpointed" : "fits_per_gpu",
       {num("per_gpu_bytes", p.per_gpu_bytes), num("gpu_memory_bytes", p.gpu_memory_bytes),
        num("tp", L.tp), num("pp", L.pp), num("dp", L.dp)},
       gib(p.per_gpu_bytes) + " per GPU of " + gib(p.gpu_memory_bytes) + " (" + layout_text(L) +
           ")" +
           (p.full_checkpointing
                ? " with full activation checkpointing, which the request left to the advisor: "
                  "without it the job has no room on this count"
                : "")});
  if (L.cp > 1) out.back().params.push_back(num("cp", L.cp));  // only when stated
  if (L.ep > 1) out.back().params.push_back(num("ep", L.ep));  // MoE experts split
  if (L.shard_group > 0) out.back().params.push_back(num("shard_group", L.shard_group));
  if (L.zero > 0) out.back().params.push_back(num("zero", L.zero));  // training only
}

/// The links between its GPUs and what communication adds to a step.
void interconnect_reason(const CandidatePlan& p, std::vector<Reason>& out) {
  if (p.gpus == 1) {
    out.push_back({"interconnect", "single_gpu", {}, "one GPU: no GPU-to-GPU traffic"});
  } else {
    Reason r{"interconnect", "link", {txt("link", std::string(p.link))}, ""};
    r.text = "inside a server: " + std::string(p.link);
    if (p.allreduce_busbw_gbps) {
      r.params.push_back(num("allreduce_busbw_gbps", *p.allreduce_busbw_gbps));
      r.text += ", all-reduce " + format_with("%.0f", *p.allreduce_busbw_gbps) + " GB/s";
    }
    if (p.hours) {
      r.params.push_back(num("exposed_communication_share", p.exposed_communication_share));
      r.text += "; communication adds " +
                format_with("%.0f%%", 100 * p.exposed_communication_share) + " to each step";
    }
    out.push_back(std::move(r));
  }
}

/// The run's time (training) or each user's speed at the load (serving).
void compute_reason(const CandidatePlan& p, std::vector<Reason>& out) {
  const Layout& L = p.layout;
  if (p.hours) {
    out.push_back({"compute",
                   "run_time",
                   {num("hours", *p.hours), num("tokens", p.tokens), num("mfu", p.mfu.value_or(0))},
                   hours(*p.hours) + " for " + format_with("%.3g", p.tokens) + " tokens at " +
                       format_with("%.0f%%", 100 * p.mfu.value_or(0)) + " MFU"});
  } else {
    out.push_back({"compute",
                   "serving_speed",
                   {num("users", static_cast<double>(p.users)),
                    num("replicas", static_cast<double>(p.replicas)),
                    num("per_user_tokens_per_second", p.per_user_tokens_per_second.value_or(0)),
                    num("time_to_first_token_s", p.time_to_first_token_s.value_or(0)),
                    num("time_to_first_token_p90_s", p.time_to_first_token_p90_s.value_or(0))},
                   std::to_string(p.users) + " users on " + std::to_string(p.replicas) +
                       " replica(s) of " + std::to_string(L.count) + " GPU(s), all at once: " +
                       format_with("%.0f", p.per_user_tokens_per_second.value_or(0)) +
                       " tokens/s each, first token in " +
                       format_with("%.2f s", p.time_to_first_token_s.value_or(0)) + " (p90 " +
                       format_with("%.2f s", p.time_to_first_token_p90_s.value_or(0)) + ")"});
  }
}

/// The servers' power and where they run.
void power_reason(const CandidatePlan& p, std::vector<Reason>& out) {
  const double kw = p.server_watts_full_load / 1000;
  out.push_back(
      {"power",
       p.facility == Facility::kOffice ? "office" : "idc_rack",
       {num("servers", p.servers), num("server_kw", kw), txt("facility", name_of(p.facility))},
       std::to_string(p.servers) + " server(s) of " + format_with("%.1f kW", kw) + " at full load" +
           (p.deployment != Deployment::kBuy  ? ": the provider hosts them"
            : p.facility == Facility::kOffice ? ": fits your office rack"
            : p.office_can_host               ? ": in an IDC rack (an office could also host it)"
                                              : ": needs an IDC rack")});
}

/// What the plan costs, and on what basis.
void cost_reason(const CandidatePlan& p, std::vector<Reason>& out) {
  Reason cost{"cost",
              std::string(name_of(p.deployment)) + "_" + std::string(p.cost_basis),
              {num("cost_cny", p.cost_cny), txt("basis", std::string(p.cost_basis))},
              ""};
  if (p.rate_cny_per_gpu_hour)
    cost.params.push_back(num("cny_per_gpu_hour", *p.rate_cny_per_gpu_hour));
  if (p.deployment == Deployment::kBuy) {
    cost.params.push_back(num("utilization", p.utilization));
    cost.params.push_back(num("life_years", p.life_years));
    cost.text = "buy: " + cost_text(p) + ", the job's share of owning the cards (" +
                format_with("%.0f%%", 100 * p.utilization) + " busy over " +
                std::to_string(p.life_years) + " years)";
  } else if (p.deployment == Deployment::kRent) {
    cost.text = "rent on demand: " + cost_text(p) +
                (p.gpu_hours ? " (" + format_with("%.0f", *p.gpu_hours) + " GPU-hours x " +
                                   cny(p.rate_cny_per_gpu_hour.value_or(0)) + ")"
                             : "");
  } else {
    cost.text = "reserve by the month: " + cost_text(p);
  }
  if (p.cost_per_million_tokens_cny) {
    cost.params.push_back(num("cost_per_million_tokens_cny", *p.cost_per_million_tokens_cny));
    cost.text += "; " + format_with("%.2f", *p.cost_per_million_tokens_cny) +
                 " CNY per million tokens at the target load";
  }
  out.push_back(std::move(cost));
}

/// The outlay against a stated budget.
void budget_reason(const CandidatePlan& p, const Request& req, std::vector<Reason>& out) {
  if (req.goal.budget_cny) {
    // The budget bounds the outlay: say which one, so "within CNY 50" is never read as buying.
    const double budget = *req.goal.budget_cny;
    const bool within = p.outlay_cny <= budget;
    out.push_back({"cost",
                   within ? "within_budget" : "outlay_over_budget",
                   {num("outlay_cny", p.outlay_cny),
                    txt("outlay_basis", std::string(p.outlay_basis)), num("budget_cny", budget)},
                   "budget: " + outlay_text(p) + (within ? ", within " : ", over ") + cny(budget)});
  }
}

}  // namespace

std::vector<Reason> explain(const CandidatePlan& p, const Request& req) {
  std::vector<Reason> out;
  memory_reason(p, out);
  interconnect_reason(p, out);
  compute_reason(p, out);
  power_reason(p, out);
  cost_reason(p, out);
  budget_reason(p, req, out);
  return out;
}

Reason reason_why_not(const CandidatePlan& runner, const CandidatePlan& best,
                      const std::string& wins_on) {
  const double dcost = runner.cost_cny - best.cost_cny;
  const bool training = runner.hours.has_value();
  const double dtime = training ? *runner.hours - best.hours.value_or(0) : 0;
  Reason r{"cost", "", {num("cost_difference_cny", dcost)}, ""};
  if (training) r.params.push_back(num("hours_difference", dtime));
  if (dcost > 0) {
    r.code = "costs_more";
    r.text = "costs " + cny(dcost) + " more" +
             (best.cost_basis == "per_run" ? " per run" : " per month");
    if (training && dtime < 0) r.text += " to finish " + hours(-dtime) + " sooner";
  } else if (training && dtime > 0) {
    r.step = "compute";
    r.code = "slower";
    r.text = "takes " + hours(dtime) + " longer" +
             (dcost < 0 ? " to save " + cny(-dcost) : std::string());
  } else {
    r.code = wins_on == "office" ? "office_instead_of_idc" : "same_cost_and_time";
    r.text = "an equal alternative";
  }
  return r;
}

Reason reason_memory_rejected(const std::string& why, const std::string& why_code, int gpus) {
  Reason r{"memory", "does_not_fit", {txt("why", why)}, why.empty() ? "does not fit" : why};
  if (!why_code.empty()) r.params.push_back(txt("why_code", why_code));
  if (gpus > 0) r.params.push_back(param("gpus", gpus));
  return r;
}

Reason reason_unavailable(const std::string& why, const std::string& why_code) {
  std::vector<ReasonParam> params{txt("why", why)};
  if (!why_code.empty()) params.push_back(txt("why_code", why_code));
  return {"compute", "not_supported", std::move(params),
          why.empty() ? "the speed model cannot run this job on it" : why};
}

Reason reason_no_price(const GpuSpec& gpu, PurchaseStatus status, BuyingPolicy policy) {
  if (!allows(policy, status)) {
    return {"cost",
            "not_sold_in_china",
            {txt("status", gpu.china_availability.status), txt("purchase_status", name_of(status)),
             txt("policy", name_of(policy))},
            std::string("bought ") + name_of(status) + " in mainland China (" +
                gpu.china_availability.status + "), which the buying policy " + name_of(policy) +
                " excludes, and no rental price: widen /goal/buying_policy or give a price"};
  }
  return {"cost", "no_price", {}, "no purchase or rental price in the catalog"};
}

Reason reason_not_offered(const GpuSpec& gpu, const PriceCatalog& prices, BuyingPolicy policy) {
  const auto listed = prices.gpus.find(gpu.id);
  if (listed != prices.gpus.end()) {
    const GpuPrices& g = listed->second;
    const auto cap = g.rental_gpus_available ? g.rental_gpus_available : g.reserved_gpus_available;
    if (cap && (g.rental_cny_per_gpu_hour || g.rental_cny_per_gpu_month)) {
      return {"cost",
              "not_enough_offered",
              {num("available", static_cast<double>(*cap))},
              "the provider offers " + std::to_string(*cap) +
                  " of these GPUs, fewer than a plan needs"};
    }
  }
  return reason_no_price(gpu, purchase_status(gpu, prices), policy);
}

double calendar_days(const CandidatePlan& plan) {
  return plan.lead_time_days + plan.hours.value_or(0) / kHoursPerDay;
}

Reason reason_goal_missed(const CandidatePlan& fastest, const CandidatePlan& earliest,
                          const CandidatePlan& least_outlay, const GoalSettings& goal) {
  if (goal.deadline_hours && fastest.hours && *fastest.hours > *goal.deadline_hours) {
    return {"compute",
            "misses_deadline",
            {num("fastest_hours", *fastest.hours), num("deadline_hours", *goal.deadline_hours),
             num("gpus", fastest.gpus)},
            "even " + std::to_string(fastest.gpus) + " GPUs take " + hours(*fastest.hours) +
                ", past the " + hours(*goal.deadline_hours) + " deadline"};
  }
  if (goal.done_within_days && calendar_days(earliest) > *goal.done_within_days) {
    return {"compute",
            "misses_calendar",
            {num("earliest_days", calendar_days(earliest)),
             num("lead_time_days", earliest.lead_time_days), num("gpus", earliest.gpus),
             txt("deployment", std::string(name_of(earliest.deployment))),
             num("done_within_days", *goal.done_within_days)},
            "the soonest plan (" + std::to_string(earliest.gpus) + " GPU(s), " +
                std::string(name_of(earliest.deployment)) + ") is done in " +
                format_number(std::round(calendar_days(earliest) * 10) / 10) + " days (" +
                format_number(earliest.lead_time_days) + " of them lead time), past the " +
                format_number(*goal.done_within_days) + " days asked"};
  }
  const double budget = goal.budget_cny.value_or(0);
  if (goal.budget_cny && least_outlay.outlay_cny > budget) {
    return {"cost",
            "over_budget",
            {num("outlay_cny", least_outlay.outlay_cny),
             txt("outlay_basis", std::string(least_outlay.outlay_basis)),
             num("gpus", least_outlay.gpus),
             txt("deployment", std::string(name_of(least_outlay.deployment))),
             num("budget_cny", budget)},
            "the least any plan needs is " + outlay_text(least_outlay) + " (" +
                std::to_string(least_outlay.gpus) + " GPU(s), " +
                std::string(name_of(least_outlay.deployment)) + "), over the budget of " +
                cny(budget)};
  }
  // Each alone is reachable: the plans within the budget miss the deadline.
  return {"cost",
          "deadline_and_budget",
          {num("deadline_hours", goal.deadline_hours.value_or(0)), num("budget_cny", budget)},
          "no plan both finishes within " + hours(goal.deadline_hours.value_or(0)) +
              " and stays within the budget of " + cny(budget)};
}

Reason reason_no_plan(const CandidatePlan& nearest, const GoalSettings& goal) {
  Reason r{"cost",
           "no_plan_meets_goal",
           {txt("nearest_gpu", nearest.gpu->id), num("nearest_gpus", nearest.gpus),
            num("nearest_cost_cny", nearest.cost_cny)},
           ""};
  if (nearest.hours) r.params.push_back(num("nearest_hours", *nearest.hours));
  if (goal.done_within_days) r.params.push_back(num("nearest_days", calendar_days(nearest)));
  if (goal.budget_cny) {
    r.params.push_back(num("nearest_outlay_cny", nearest.outlay_cny));
    r.params.push_back(txt("nearest_outlay_basis", std::string(nearest.outlay_basis)));
  }
  r.text = "no plan meets the goal";
  if (goal.deadline_hours) r.text += " (deadline " + hours(*goal.deadline_hours) + ")";
  if (goal.budget_cny) r.text += " (budget " + cny(*goal.budget_cny) + ")";
  if (goal.done_within_days)
    r.text += " (done within " + format_number(*goal.done_within_days) + " days)";
  r.text += "; the nearest is " + std::to_string(nearest.gpus) + "x " + nearest.gpu->name + ": " +
            (nearest.hours ? hours(*nearest.hours) + ", " : std::string()) + cost_text(nearest);
  if (goal.budget_cny) r.text += " (" + outlay_text(nearest) + ")";
  return r;
}

Reason reason_nothing_fits() {
  return {"memory",
          "no_gpu_fits",
          {},
          "no GPU in the catalog can run this job with a price: see the rejected list"};
}

Reason reason_stack_unsupported(const GpuSpec& gpu, const StackProfile& stack) {
  return {"compute",
          "stack_not_on_platform",
          {txt("gpu", gpu.name), txt("stack", stack.id), txt("platform", gpu.software_stack)},
          stack.name + " has no " + gpu.software_stack + " backend, so it cannot run on " +
              gpu.name + ": name a stack that does in /stack, or choose another GPU"};
}

}  // namespace advisor
