// SPDX-License-Identifier: MIT
#include "plan/recommend.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string_view>

#include "engine/comm.hpp"
#include "engine/cost_inputs.hpp"
#include "plan/auto_checkpointing.hpp"
#include "plan/fleet.hpp"
#include "plan/levers.hpp"
#include "plan/plan_risks.hpp"
#include "plan/plan_warnings.hpp"
#include "plan/recommend_reasons.hpp"
#include "plan/search.hpp"
#include "plan/search_prices.hpp"
#include "plan/stack_range.hpp"
#include "plan/training_counts.hpp"

namespace advisor {

namespace {

// A lever is offered when its best plan costs this much less than the plan without it, or
// needs fewer GPUs.
constexpr double kLeverSaving = 0.05;

Objective resolve_objective(const GoalSettings& g) {
  if (g.objective != Objective::kAuto) return g.objective;
  if (g.deadline_hours) return Objective::kCheapestWithinDeadline;
  if (g.budget_cny) return Objective::kFastestWithinBudget;
  return Objective::kCheapest;
}

/// Training: hours; serving: seconds per token per user (lower is faster).
double time_of(const CandidatePlan& p) {
  if (p.hours) return *p.hours;
  return p.per_user_tokens_per_second ? 1 / *p.per_user_tokens_per_second : 0;
}

// Costs this close count as equal when ranking the cheapest plans: then fewer GPUs win (easier
// to get and to run: a perfectly scaling job costs the same on 1 or 64 rented GPUs), then time.
constexpr double kSameCost = 0.02;

/// A figure as it is ranked: its mantissa rounded to 40 bits (about 12 significant digits), so
/// that the last bits, where the native and the wasm builds' libm differ, never reorder plans.
/// frexp, round and ldexp are exact in IEEE arithmetic: every build ranks alike, and cheaply.
double ranked(double v) {
  int exponent = 0;
  const double mantissa = std::frexp(v, &exponent);
  constexpr double kScale = 1099511627776.0;  // 2^40
  return std::ldexp(std::round(mantissa * kScale) / kScale, exponent);
}

/// Plans that rank equal are ordered by GPU id, count, deployment and place (not by the
/// catalog's order, which a provider's data may change).
bool identity_before(const CandidatePlan& a, const CandidatePlan& b) {
  if (a.gpu->id != b.gpu->id) return a.gpu->id < b.gpu->id;
  if (a.gpus != b.gpus) return a.gpus < b.gpus;
  if (a.deployment != b.deployment) return a.deployment < b.deployment;
  return a.facility < b.facility;
}

/// A plan with its time and cost as ranked: ranked() once per plan, not per comparison.
struct Ranked {
  const CandidatePlan* plan = nullptr;
  double time = 0, cost = 0;
};

Ranked as_ranked(const CandidatePlan& p) { return {&p, ranked(time_of(p)), ranked(p.cost_cny)}; }

/// True when `a` ranks before `b` for the objective.
bool better(const Ranked& a, const Ranked& b, Objective objective) {
  const bool fastest =
      objective == Objective::kFastest || objective == Objective::kFastestWithinBudget;
  if (fastest) {
    if (a.time != b.time) return a.time < b.time;
    if (a.cost != b.cost) return a.cost < b.cost;
    return identity_before(*a.plan, *b.plan);
  }
  if (std::fabs(a.cost - b.cost) > kSameCost * std::min(a.cost, b.cost)) return a.cost < b.cost;
  if (a.plan->gpus != b.plan->gpus) return a.plan->gpus < b.plan->gpus;
  if (a.time != b.time) return a.time < b.time;
  return identity_before(*a.plan, *b.plan);
}

// A cost floor and the plans' costs are worked out by different sums and products (~1e-15
// apart at worst): the floor is lowered by this before it is compared.
constexpr double kFloorMargin = 1e-9;

/// True when no plan costing `floor` or more ranks before `incumbent` under a cost-first
/// objective: better() puts a plan more than kSameCost dearer after it, whatever its GPUs and
/// time. A floor of +infinity: no plan at all.
bool cannot_beat_on_cost(double floor, const Ranked& incumbent) {
  if (floor == std::numeric_limits<double>::infinity()) return true;
  if (!(floor > 0) || !std::isfinite(floor)) return false;
  const double cost = ranked(floor * (1 - kFloorMargin));
  return cost > incumbent.cost && cost - incumbent.cost > kSameCost * incumbent.cost;
}

/// A budget bounds what the user would pay for the plan (its outlay: a purchase, a run or a
/// month), not the job's amortised share of owning the cards.
bool meets_goal(const CandidatePlan& p, const GoalSettings& g) {
  if (g.deadline_hours && p.hours && *p.hours > *g.deadline_hours) return false;
  if (g.budget_cny && p.outlay_cny > *g.budget_cny) return false;
  if (g.done_within_days && calendar_days(p) > *g.done_within_days) return false;
  return true;
}

/// Plans on the time-vs-cost front: none is both faster and cheaper. Fastest first; equal plans
/// (H100 and H800 SXM often are) in identity order, so the front depends neither on the
/// catalog's order nor on the platform.
std::vector<CandidatePlan> pareto_front(std::vector<Ranked> plans) {
  std::sort(plans.begin(), plans.end(), [](const Ranked& a, const Ranked& b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.cost != b.cost) return a.cost < b.cost;
    return identity_before(*a.plan, *b.plan);
  });
  std::vector<CandidatePlan> front;
  double front_cost = 0;  // the last plan's, as ranked
  for (const Ranked& p : plans) {
    if (front.empty() || p.cost < front_cost) {
      front.push_back(*p.plan);
      front_cost = p.cost;
    }
  }
  return front;
}

/// best_of()'s filter that keeps every plan.
bool keep_any(const CandidatePlan&) { return true; }

template <typename Keep>
const CandidatePlan* best_of(const std::vector<Ranked>& plans, Objective objective, Keep keep) {
  const Ranked* best = nullptr;
  for (const Ranked& p : plans)
    if (keep(*p.plan) && (!best || better(p, *best, objective))) best = &p;
  return best ? best->plan : nullptr;
}

/// Keeps the best plan of a scan: each feasible plan in the search's order replaces it when
/// better() (best_of() over the same plans picks the same one).
class BestPlan {
 public:
  explicit BestPlan(const Request& req)
      : goal_(req.goal), objective_(resolve_objective(req.goal)) {}

  void consider(const std::vector<CandidatePlan>& plans) {
    for (const CandidatePlan& p : plans) {
      if (!meets_goal(p, goal_)) continue;
      const Ranked candidate = as_ranked(p);
      if (best_ && !better(candidate, ranked_, objective_)) continue;
      best_ = p;
      ranked_ = {&*best_, candidate.time, candidate.cost};
    }
  }
  /// Whether a cost floor can rule GPUs out: there is a best plan so far, ranked by cost first.
  bool can_rule_out() const {
    return best_ &&
           (objective_ == Objective::kCheapest || objective_ == Objective::kCheapestWithinDeadline);
  }
  /// Whether a GPU whose plans all cost `floor` or more can be left out (can_rule_out()): it
  /// cannot replace the best plan so far, so the scan goes on from the same plan either way.
  bool beats_every_plan_from(double floor) const { return cannot_beat_on_cost(floor, ranked_); }
  std::optional<CandidatePlan>& plan() { return best_; }

 private:
  const GoalSettings& goal_;
  Objective objective_;
  std::optional<CandidatePlan> best_;
  Ranked ranked_;
};

/// The plan recommend_with() would name best for `req` over `gpus` (a lever's what-if reads
/// nothing else): the same plans in the same order through the same comparisons, without the
/// front, the runners-up, the rejections and the reasons. A training GPU is judged and searched
/// only when its cost floor (Search::training_cost_floor) could still beat the best plan so far.
std::optional<CandidatePlan> best_plan(const Request& req, const Catalog& catalog,
                                       const std::vector<const GpuSpec*>& gpus,
                                       SearchPrices& prices, LayoutTable& layouts) {
  const Search search(req, catalog, prices, layouts);
  BestPlan best(req);
  std::vector<CandidatePlan> plans;  // one GPU's, reused
  Reason failed;
  if (!is_training(req.task)) {
    for (const OptionRow& row : judge_options(req, catalog, gpus, layouts)) {
      if (!row.judged.min_layout) continue;
      plans.clear();
      search.serving_plans(row, plans, &failed);
      best.consider(plans);
    }
    return std::move(best.plan());
  }
  OptionJudge judge(req, catalog, layouts);
  for (const GpuSpec* gpu : gpus) {
    // Any count is at least 1: the floor needs no judging.
    if (best.can_rule_out() && best.beats_every_plan_from(search.training_cost_floor(*gpu, 1)))
      continue;
    OptionRow row;
    row.judged = judge.judge(*gpu);
    if (!row.judged.min_layout) continue;
    plans.clear();
    search.training_plans(row, plans, &failed);
    best.consider(plans);
  }
  return std::move(best.plan());
}

namespace {

/// The calendar bound of a training request that asks for the cheapest plan and gives no
/// deadline: the task's (prices.json planning), so "cheapest" never means "in two years". A
/// stated calendar (/goal/done_within_days) is the bound instead.
std::optional<double> default_calendar_hours(const Request& req, const PriceCatalog& prices) {
  if (!is_training(req.task) || req.goal.deadline_hours || req.goal.done_within_days ||
      resolve_objective(req.goal) != Objective::kCheapest)
    return std::nullopt;
  const char* key = req.task == Task::kPretrain       ? "planning.calendar_hours_pretrain"
                    : req.task == Task::kFullFinetune ? "planning.calendar_hours_full_finetune"
                                                      : "planning.calendar_hours_adapter";
  return prices.at(key).value;
}

Recommendation recommend_within(const Request& req, const Catalog& catalog,
                                const std::vector<OptionRow>& options, bool with_levers,
                                SearchPrices& prices, LayoutTable& layouts,
                                CheckpointedJob* checkpointed);

}  // namespace

Recommendation recommend_with(const Request& req, const Catalog& catalog,
                              const std::vector<OptionRow>& options, bool with_levers,
                              SearchPrices& prices, LayoutTable& layouts, CheckpointedJob* given) {
  std::optional<CheckpointedJob> checkpointed;
  if (std::optional<Request> with = given ? std::nullopt : with_full_checkpointing(req))
    checkpointed.emplace(std::move(*with), catalog);
  CheckpointedJob* ck = given ? given : checkpointed ? &*checkpointed : nullptr;
  const std::optional<double> calendar = default_calendar_hours(req, catalog.prices);
  if (!calendar) return recommend_within(req, catalog, options, with_levers, prices, layouts, ck);
  // The cheapest plan that finishes within the task's calendar; when none does, the cheapest of
  // all (the card says the bound was not met).
  Request bounded = req;
  bounded.goal.deadline_hours = calendar;
  Recommendation r = recommend_within(bounded, catalog, options, with_levers, prices, layouts, ck);
  if (!r.best) r = recommend_within(req, catalog, options, with_levers, prices, layouts, ck);
  r.objective = Objective::kCheapest;
  r.deadline_hours.reset();
  r.calendar_hours = calendar;
  r.calendar_met = r.best && r.best->hours && *r.best->hours <= *calendar;
  return r;
}

namespace {

/// Every plan of every option, in the options' order; a GPU without a plan, or whose plans all
/// miss the deadline or the budget, goes to r.rejected with the first check it failed.
std::vector<CandidatePlan> search_all(const Request& req, const Catalog& catalog,
                                      const std::vector<OptionRow>& options, const Search& search,
                                      Recommendation& r) {
  std::vector<CandidatePlan> all;
  // Room for one count per GPU in each deployment (rent, reserved, bought in an IDC or the
  // office), times the counts a training search prices per GPU (training_counts: the minimum
  // and the doublings that pay, 2-3 for most jobs; the default request's 38 GPUs give 309
  // plans). Regrowing moves every plan so far (~340 bytes each).
  constexpr std::size_t kDeployments = 4;
  constexpr std::size_t kTypicalTrainingCounts = 3;
  all.reserve(options.size() * kDeployments * (is_training(req.task) ? kTypicalTrainingCounts : 1));
  for (const OptionRow& row : options) {
    const GpuSpec& gpu = *row.judged.gpu;
    const std::size_t before = all.size();
    Reason failed;
    if (!search.plans(row, all, &failed)) {
      r.rejected.push_back(
          {gpu.id, reason_memory_rejected(row.judged.reason, row.judged.reason_code,
                                          row.judged.reason_gpus)});
      continue;
    }
    if (all.size() == before) {
      if (failed.code.empty())
        failed = reason_not_offered(gpu, catalog.prices, req.goal.buying_policy);
      r.rejected.push_back({gpu.id, failed});
      continue;
    }
    bool any = false;
    const CandidatePlan* fastest = nullptr;
    const CandidatePlan* least_outlay = nullptr;
    const CandidatePlan* earliest = nullptr;
    for (std::size_t i = before; i < all.size(); ++i) {
      any = any || meets_goal(all[i], req.goal);
      if (!fastest || time_of(all[i]) < time_of(*fastest)) fastest = &all[i];
      if (!earliest || calendar_days(all[i]) < calendar_days(*earliest)) earliest = &all[i];
      if (!least_outlay || all[i].outlay_cny < least_outlay->outlay_cny) least_outlay = &all[i];
    }
    if (!any)
      r.rejected.push_back(
          {gpu.id, reason_goal_missed(*fastest, *earliest, *least_outlay, req.goal)});
  }
  return all;
}

/// r.best among the plans that meet the goal; when none does, r.nearest (the least over the
/// deadline and the budget) and why there is no plan.
void choose_best(const Request& req, const std::vector<CandidatePlan>& all,
                 const std::vector<Ranked>& feasible, Recommendation& r) {
  if (const CandidatePlan* best = best_of(feasible, r.objective, keep_any)) {
    r.best = *best;
    return;
  }
  if (all.empty()) {
    r.no_plan = reason_nothing_fits();
    return;
  }
  const CandidatePlan* nearest = nullptr;
  double gap = 0;
  for (const CandidatePlan& p : all) {
    double g = 0;
    if (req.goal.deadline_hours && p.hours) g = std::max(g, *p.hours / *req.goal.deadline_hours);
    if (req.goal.budget_cny) g = std::max(g, p.outlay_cny / *req.goal.budget_cny);
    if (req.goal.done_within_days && *req.goal.done_within_days > 0)
      g = std::max(g, calendar_days(p) / *req.goal.done_within_days);
    if (!nearest || g < gap) {
      nearest = &p;
      gap = g;
    }
  }
  r.nearest = *nearest;
  r.no_plan = reason_no_plan(*nearest, req.goal);
}

/// The runners-up that each win on something the best plan does not (cheapest, fastest,
/// China-purchasable, the office), and for a customer-facing service on risky parts the best
/// plan on parts without those risks.
void add_alternatives(const Request& req, const Catalog& catalog,
                      const std::vector<Ranked>& feasible, Recommendation& r) {
  const CandidatePlan& best = *r.best;
  auto same = [](const CandidatePlan& a, const CandidatePlan& b) {
    return a.gpu == b.gpu && a.gpus == b.gpus && a.deployment == b.deployment &&
           a.facility == b.facility;
  };
  auto runner = [&](const char* wins_on, Objective by, auto keep) {
    const CandidatePlan* p = best_of(feasible, by, keep);
    if (!p || same(*p, best)) return;
    for (const RunnerUp& u : r.runners_up)
      if (same(u.plan, *p)) return;
    r.runners_up.push_back({wins_on, *p, reason_why_not(*p, best, wins_on)});
  };
  runner("cheapest", Objective::kCheapest, keep_any);
  runner("fastest", Objective::kFastest, keep_any);
  if (!best.china_purchasable)
    runner("china_purchasable", r.objective,
           [](const CandidatePlan& p) { return p.china_purchasable; });
  if (best.facility != Facility::kOffice)
    runner("office", r.objective,
           [](const CandidatePlan& p) { return p.facility == Facility::kOffice; });
  auto safe = [&](const CandidatePlan& p) { return safe_for_customers(p, catalog); };
  if (serves_customers(req) && !safe(best))
    if (const CandidatePlan* alt = best_of(feasible, r.objective, safe))
      r.datacenter_alternative = *alt;
}

/// The cards a lever may move the job to: every card when nothing qualified, else those whose
/// cheapest way to have one (rented, or owned where the search buys) is below the best plan's
/// rate per GPU-hour.
std::vector<const GpuSpec*> cheaper_cards(const Catalog& catalog, const Search& search,
                                          SearchPrices& prices, const CandidatePlan* base) {
  std::vector<const GpuSpec*> cheaper;
  for (const GpuSpec& g : catalog.gpus) {
    if (!base || !base->rate_cny_per_gpu_hour) {
      cheaper.push_back(&g);
      continue;
    }
    const CostScenario s = prices.at(g, 1, false);
    std::optional<double> rate = s.rent_cny_per_gpu_hour;
    if (s.gpu_price_cny && search.buys(purchase_status(g, catalog.prices))) {
      const std::optional<double> own = cost_per_gpu_hour(
          buy_totals(s, 1, s.utilization).average_yearly_cny, kHoursPerYear * s.utilization);
      if (own && (!rate || *own < *rate)) rate = own;
    }
    if (rate && *rate < *base->rate_cny_per_gpu_hour) cheaper.push_back(&g);
  }
  return cheaper;
}

/// Each memory lever (plan/levers) whose changed job is priced on cheaper cards at a saving of
/// kLeverSaving or more, or on fewer GPUs.
void add_levers(const Request& req, const Catalog& catalog, const Search& search,
                SearchPrices& prices, Recommendation& r) {
  const CandidatePlan* base = r.best ? &*r.best : nullptr;
  const std::vector<const GpuSpec*> cheaper = cheaper_cards(catalog, search, prices, base);
  if (cheaper.empty()) return;
  for (const LeverChange& change : kLevers) {
    Request changed = req;
    if (!change.apply(changed)) continue;
    LayoutTable changed_layouts(changed, catalog.memory);
    const std::optional<CandidatePlan> alt =
        best_plan(changed, catalog, cheaper, prices, changed_layouts);
    if (!alt) continue;
    const bool better =
        !base || alt->cost_cny < base->cost_cny * (1 - kLeverSaving) || alt->gpus < base->gpus;
    if (!better) continue;
    Lever lever{change.lever, change.path, change.value, change.trade_off, *alt, {}, {}};
    if (base) {
      if (time_of(*base) > 0) lever.time_ratio = time_of(*alt) / time_of(*base);
      if (base->cost_cny > 0) lever.cost_ratio = alt->cost_cny / base->cost_cny;
    }
    r.levers.push_back(std::move(lever));
  }
}

/// The plan's memory under the task's common stacks (no stack named), with the checkpointing it
/// runs (plan/stack_range).
std::vector<StackMemory> plan_across_stacks(const CandidatePlan& p, const Request& req,
                                            const Catalog& catalog) {
  if (!req.other_stacks) return {};
  if (!p.full_checkpointing)
    return memory_across_stacks(req, p.layout, p.per_gpu_bytes, p.gpu, catalog.memory);
  Request checkpointed = req;
  checkpointed.training.activation_checkpointing = Checkpointing::kFull;
  return memory_across_stacks(checkpointed, p.layout, p.per_gpu_bytes, p.gpu, catalog.memory);
}

/// Reasons, warnings and risks for every plan the result shows.
void explain_shown(const Request& req, const Catalog& catalog, Recommendation& r) {
  // `job`: the request the plan answers (a lever's changes the request's).
  auto shown = [&](CandidatePlan& p, const Request& job) {
    p.reasons = explain(p, req);
    p.warnings = candidate_warnings(p, req, plan_across_stacks(p, job, catalog));
  };
  if (r.best) shown(*r.best, req);
  if (r.datacenter_alternative) shown(*r.datacenter_alternative, req);
  if (r.nearest) shown(*r.nearest, req);
  for (RunnerUp& u : r.runners_up) shown(u.plan, req);
  for (Lever& l : r.levers) {
    Request changed = req;
    for (const LeverChange& c : kLevers)
      if (l.lever == c.lever) c.apply(changed);
    shown(l.plan, changed);
  }
  mark_risks(r, req, catalog);
}

Recommendation recommend_within(const Request& req, const Catalog& catalog,
                                const std::vector<OptionRow>& options, bool with_levers,
                                SearchPrices& prices, LayoutTable& layouts,
                                CheckpointedJob* checkpointed) {
  Recommendation r;
  r.objective = resolve_objective(req.goal);
  r.deadline_hours = req.goal.deadline_hours;
  r.done_within_days = req.goal.done_within_days;
  r.budget_cny = req.goal.budget_cny;
  if (is_training(req.task)) r.runs_per_month = req.training.runs_per_month;
  r.buying_policy = req.goal.buying_policy;
  const Search search(req, catalog, prices, layouts, checkpointed);
  const std::vector<CandidatePlan> all = search_all(req, catalog, options, search, r);
  r.candidates = static_cast<int>(all.size());
  std::vector<Ranked> feasible;  // the plans that meet the goal, in the search's order
  feasible.reserve(all.size());
  for (const CandidatePlan& p : all)
    if (meets_goal(p, req.goal)) feasible.push_back(as_ranked(p));
  choose_best(req, all, feasible, r);
  r.pareto = pareto_front(feasible);
  if (r.best) add_alternatives(req, catalog, feasible, r);
  if (with_levers) add_levers(req, catalog, search, prices, r);
  explain_shown(req, catalog, r);
  return r;
}

}  // namespace

}  // namespace

Recommendation recommend(const Request& req, const Catalog& catalog,
                         const std::vector<OptionRow>& options, SearchPrices& prices,
                         LayoutTable& layouts, bool with_levers, CheckpointedJob* checkpointed) {
  return recommend_with(req, catalog, options, with_levers, prices, layouts, checkpointed);
}

}  // namespace advisor
