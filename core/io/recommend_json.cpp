// SPDX-License-Identifier: MIT
#include "io/recommend_json.hpp"

#include <cmath>
#include <cstdint>

#include "types/limits.hpp"

namespace advisor {

namespace {

/// The rental offer a rented plan comes from: its kind, how it bills, the GPUs billed and the
/// shortest term (engine/rental_offers).
void write_offer(JsonWriter& w, const CandidatePlan& p) {
  w.key("offer");
  w.begin_object();
  w.field("kind", p.rental_offer_kind);
  const bool cluster = p.rental_offer_kind == "idc_package" || p.rental_offer_kind == "cloud";
  w.field("billing", p.deployment == Deployment::kRent ? "gpu_hour"
                     : cluster                         ? "node_month"
                                                       : "gpu_month");
  w.field("billed_gpus", p.rental_billed_gpus);
  w.field("minimum_term_months", p.minimum_term_months);
  w.end_object();
}

void reason(JsonWriter& w, const Reason& r) {
  w.begin_object();
  w.field("step", r.step);
  w.field("code", r.code);
  w.key("params");
  write_params(w, r.params);
  w.field("text", r.text);
  w.end_object();
}

void plan(JsonWriter& w, const CandidatePlan& p) {
  w.begin_object();
  w.field("gpu", p.gpu->id);
  w.field("name", p.gpu->name);
  w.field("gpus", p.gpus);
  w.field("servers", p.servers);
  w.key("layout");
  w.begin_object();
  w.field("count", p.layout.count);
  w.field("tp", p.layout.tp);
  w.field("pp", p.layout.pp);
  w.field("dp", p.layout.dp);
  // Only when the request states one (the recommendation never chooses it).
  if (p.layout.shard_group > 0) w.field("shard_group", p.layout.shard_group);
  w.field("ep", p.layout.ep);
  w.field("zero", p.layout.zero);
  w.end_object();
  w.field("deployment", name_of(p.deployment));
  w.field("facility", name_of(p.facility));
  w.field("china_purchasable", p.china_purchasable);
  w.field("purchase_status", name_of(p.purchase_status));
  w.field("hours", p.hours);
  w.field("gpu_hours", p.gpu_hours);
  w.field("mfu", p.mfu);
  // Only when the advisor turned it on (plan/auto_checkpointing); pinned, the plan does the same.
  if (p.full_checkpointing) w.field("full_checkpointing", true);
  w.field("per_user_tokens_per_second", p.per_user_tokens_per_second);
  w.field("time_to_first_token_s", p.time_to_first_token_s);
  if (p.time_to_first_token_p90_s)
    w.field("time_to_first_token_p90_s", p.time_to_first_token_p90_s);
  if (p.output_tokens_per_second) w.field("output_tokens_per_second", p.output_tokens_per_second);
  if (p.replicas > 0) {
    w.field("replicas", p.replicas);
    w.field("users", p.users);
  }
  w.key("cost");
  w.begin_object();
  w.field("cny", p.cost_cny);
  w.field("basis", p.cost_basis);
  w.field("cny_per_gpu_hour", p.rate_cny_per_gpu_hour);
  w.field("per_million_tokens_cny", p.cost_per_million_tokens_cny);
  if (p.cost_per_month_cny) w.field("per_month_cny", *p.cost_per_month_cny);
  if (p.deployment == Deployment::kBuy) {
    w.field("utilization", p.utilization);
    w.field("life_years", p.life_years);
  }
  if (!p.rental_offer_kind.empty()) write_offer(w, p);
  w.field("lead_time_days", p.lead_time_days);
  w.end_object();
  // What the user pays to have the plan (what /goal/budget_cny bounds): the purchase of a
  // bought plan, the cost of a rented run or month.
  w.field("outlay_cny", p.outlay_cny);
  w.field("outlay_basis", p.outlay_basis);
  w.key("per_gpu_bytes");
  w.bytes(p.per_gpu_bytes);
  w.field("server_watts_full_load", p.server_watts_full_load);
  w.field("office_can_host", p.office_can_host);
  w.key("reasons");
  w.begin_array();
  for (const Reason& r : p.reasons) reason(w, r);
  w.end_array();
  w.key("warnings");
  w.begin_array();
  for (const Warning& x : p.warnings) write_warning(w, x);
  w.end_array();
  write_risks(w, p.risks);
  w.end_object();
}

}  // namespace

void write_params(JsonWriter& w, const std::vector<ReasonParam>& params) {
  w.begin_object();
  for (const ReasonParam& p : params) {
    w.key(p.name);
    // A byte count is whole, as everywhere else in the result (the engines compute bands in
    // double; limits::kMaxBytes keeps every byte figure within int64 and exact in a double).
    if (p.number && p.name.size() > 6 && p.name.compare(p.name.size() - 6, 6, "_bytes") == 0 &&
        std::fabs(*p.number) <= limits::kMaxBytes)
      w.value(static_cast<std::int64_t>(std::llround(*p.number)));
    else if (p.number)
      w.value(*p.number);
    else
      w.value(p.text);
  }
  w.end_object();
}

void write_warning(JsonWriter& w, const Warning& x) {
  w.begin_object();
  w.field("code", x.code);
  w.key("params");
  write_params(w, x.params);
  w.field("message", x.message);
  w.field("path", x.path);
  w.end_object();
}

void write_risks(JsonWriter& w, const std::vector<Risk>& risks) {
  w.key("risks");
  w.begin_array();
  for (const Risk& r : risks) {
    w.begin_object();
    w.field("code", r.code);
    w.field("reason", r.reason);
    w.key("params");
    write_params(w, r.params);
    w.field("message", r.message);
    w.end_object();
  }
  w.end_array();
}

void write_note(JsonWriter& w, const Note& n) {
  w.begin_object();
  w.field("code", n.code);
  w.key("params");
  write_params(w, n.params);
  // A coded sentence's English: only where the core still writes one (the assumption notes
  // have none: their words are data/messages assume.<code>).
  if (!n.text.empty()) w.field("text", n.text);
  w.end_object();
}

void write_levers(JsonWriter& w, const std::vector<Lever>& levers) {
  w.key("levers");
  w.begin_array();
  for (const Lever& l : levers) {
    w.begin_object();
    w.field("lever", l.lever);
    w.field("path", l.request_path);
    w.field("value", l.request_value);
    w.field("trade_off", l.trade_off);
    w.field("time_ratio", l.time_ratio);
    w.field("cost_ratio", l.cost_ratio);
    w.key("plan");
    plan(w, l.plan);
    w.end_object();
  }
  w.end_array();
}

std::string levers_to_text(const Plan& plan) {
  JsonWriter w(16 * 1024);
  w.begin_object();
  write_levers(w, plan.recommendation ? plan.recommendation->levers : std::vector<Lever>{});
  w.end_object();
  return w.take();
}

void write_recommendation(JsonWriter& w, const Recommendation& r) {
  w.begin_object();
  w.field("objective", name_of(r.objective));
  w.field("deadline_hours", r.deadline_hours);
  w.field("done_within_days", r.done_within_days);
  w.key("calendar");
  if (r.calendar_hours) {
    w.begin_object();
    w.field("hours", r.calendar_hours);
    w.field("met", r.calendar_met);
    w.end_object();
  } else {
    w.null();
  }
  w.field("budget_cny", r.budget_cny);
  // A cadence prices reserved and owned cards by its runs (null: one run).
  w.field("runs_per_month", r.runs_per_month);
  w.field("buying_policy", name_of(r.buying_policy));
  w.key("best");
  if (r.best)
    plan(w, *r.best);
  else
    w.null();
  w.key("datacenter_alternative");
  if (r.datacenter_alternative)
    plan(w, *r.datacenter_alternative);
  else
    w.null();
  w.key("runners_up");
  w.begin_array();
  for (const RunnerUp& u : r.runners_up) {
    w.begin_object();
    w.field("wins_on", u.wins_on);
    w.key("plan");
    plan(w, u.plan);
    w.key("why_not");
    reason(w, u.why_not);
    w.end_object();
  }
  w.end_array();
  w.key("pareto");
  w.begin_array();
  for (const CandidatePlan& p : r.pareto) {
    // The front as points (full plans are above): enough to draw and to pin.
    w.begin_object();
    w.field("gpu", p.gpu->id);
    w.field("gpus", p.gpus);
    w.field("deployment", name_of(p.deployment));
    w.field("facility", name_of(p.facility));
    w.field("hours", p.hours);
    w.field("per_user_tokens_per_second", p.per_user_tokens_per_second);
    w.field("cost_cny", p.cost_cny);
    write_risks(w, p.risks);
    w.end_object();
  }
  w.end_array();
  write_levers(w, r.levers);
  if (r.levers_later) w.field("levers_later", true);
  w.key("rejected");
  w.begin_array();
  for (const RejectedGpu& x : r.rejected) {
    w.begin_object();
    w.field("gpu", x.gpu);
    w.key("reason");
    reason(w, x.reason);
    w.end_object();
  }
  w.end_array();
  w.key("no_plan");
  if (r.no_plan)
    reason(w, *r.no_plan);
  else
    w.null();
  w.key("nearest");
  if (r.nearest)
    plan(w, *r.nearest);
  else
    w.null();
  w.field("candidates", r.candidates);
  w.end_object();
}

}  // namespace advisor
