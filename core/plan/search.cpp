// SPDX-License-Identifier: MIT
#include "plan/search.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string_view>

#include "engine/cost.hpp"
#include "engine/cost_scenario.hpp"
#include "engine/training.hpp"
#include "plan/fleet.hpp"
#include "plan/recommend_reasons.hpp"
#include "plan/training_counts.hpp"
#include "types/units.hpp"

namespace advisor {

bool china_purchasable(const GpuSpec& gpu) { return sold_new_in_china(gpu); }

PurchaseStatus purchase_status(const GpuSpec& gpu, const PriceCatalog& prices) {
  const auto listed = prices.gpus.find(gpu.id);
  if (listed != prices.gpus.end() && listed->second.purchase_cny &&
      listed->second.purchase_second_hand)
    return PurchaseStatus::kSecondHand;
  return china_purchasable(gpu) ? PurchaseStatus::kNew : PurchaseStatus::kGreyImport;
}

Search::Search(const Request& req, const Catalog& catalog, SearchPrices& prices,
               LayoutTable& layouts, CheckpointedJob* checkpointed)
    : req_(req),
      catalog_(catalog),
      prices_(prices),
      layouts_(layouts),
      billing_unit_hours_(catalog.prices.at("rental.billing_unit_hours").value),
      checkpointed_(checkpointed) {
  if (checkpointed)
    checkpointed_search_ =
        std::make_unique<Search>(checkpointed->request(), catalog, prices, checkpointed->layouts());
}

bool Search::plans(const OptionRow& row, std::vector<CandidatePlan>& out, Reason* failed) const {
  if (!req_.stack.runs_on(row.judged.gpu->software_stack)) {
    *failed = reason_stack_unsupported(*row.judged.gpu, req_.stack);
    return true;  // it fits; the stack cannot run there
  }
  if (!is_training(req_.task)) {
    if (row.judged.min_layout) serving_plans(row, out, failed);
    return row.judged.min_layout.has_value();
  }
  const OptionRow* with = nullptr;
  CheckpointingUse use = CheckpointingUse::kPlain;
  if (checkpointed_ && checkpointing_may_help(row.judged)) {
    with = &checkpointed_->row(*row.judged.gpu);
    use = checkpointing_use(row.judged, with->judged);
  }
  if (use == CheckpointingUse::kPlain && !row.judged.min_layout) return false;
  if (use != CheckpointingUse::kCheckpointed) training_plans(row, out, failed);
  if (use != CheckpointingUse::kPlain) {
    const std::size_t from = out.size();
    checkpointed_search_->training_plans(*with, out, failed);
    for (std::size_t i = from; i < out.size(); ++i) out[i].full_checkpointing = true;
  }
  return true;
}

namespace {
/// A rented plan names the offer it comes from.
void name_offer(CandidatePlan& c, const CountPrices& q, int minimum_term_months) {
  c.rental_offer_kind = q.rental_offer_kind;
  c.lead_time_days = q.rental_lead_time_days;
  c.rental_billed_gpus = q.rental_billed_gpus;
  c.minimum_term_months = minimum_term_months;
}
}  // namespace

void Search::price(const CandidatePlan& plan, int count, const Places& at,
                   std::vector<CandidatePlan>& out) const {
  const bool training = is_training(req_.task);
  const CountPrices& q = prices_.prices(at, count, training, buys(plan.purchase_status));
  auto add = [&](Deployment d, Facility facility, double cost, std::optional<double> rate) {
    if (req_.hardware && req_.hardware->excludes(d, facility)) return false;
    CandidatePlan& c = out.emplace_back(plan);
    c.servers = q.servers;
    c.server_watts_full_load = q.server_watts_full_load;
    c.office_can_host = q.office_can_host;
    c.life_years = q.life_years;
    c.deployment = d;
    c.facility = facility;
    c.cost_cny = cost;
    // A rental's outlay is its cost (the run, or the month); a purchase's is set below.
    c.outlay_cny = cost;
    c.outlay_basis = c.cost_basis;
    c.rate_cny_per_gpu_hour = rate;
    c.utilization = d == Deployment::kBuy ? q.busy : 1;
    if (training && req_.training.runs_per_month)
      c.cost_per_month_cny = cost * *req_.training.runs_per_month;
    // A month's cost over the month's output at the load: the one cost per million tokens of
    // this plan (the cost section's for the same plan is the same function and figures).
    if (!training && c.output_tokens_per_second && *c.output_tokens_per_second > 0)
      c.cost_per_million_tokens_cny = cost_per_million_tokens(cost / (kHoursPerMonth * c.gpus),
                                                              c.gpus, *c.output_tokens_per_second);
    return true;
  };
  const double gpu_hours = training ? plan.gpu_hours.value_or(0) : count * kHoursPerMonth;
  if (q.rent_cny_per_gpu_hour) {
    // A run is billed in whole billing units (at least one): wide and short plans pay for it.
    const double billed =
        training ? billed_gpu_hours(plan.hours.value_or(0), count, billing_unit_hours_) : gpu_hours;
    if (add(Deployment::kRent, Facility::kIdc, billed * *q.rent_cny_per_gpu_hour,
            q.rent_cny_per_gpu_hour))
      name_offer(out.back(), q, 0);
  }
  // A cadence: reserved or owned cards are busy only for its runs, which share their month;
  // a count whose runs do not fit in a month cannot keep the cadence on one set of cards.
  const std::optional<double> runs = training ? req_.training.runs_per_month : std::nullopt;
  const double month_busy = runs ? *runs * plan.hours.value_or(0) / kHoursPerMonth : 0;
  if (runs && month_busy > 1) return;
  if (q.reserved_cny_per_gpu_month) {
    // Reserved cards are paid by the whole month for as long as the job needs them.
    // An offer's minimum term is paid even when the run is shorter.
    const double term = q.rental_minimum_months;
    const double months =
        runs ? 1 / *runs
             : (training ? std::max(term, std::ceil(plan.hours.value_or(0) / kHoursPerMonth)) : 1);
    const double cost = q.rental_billed_gpus * months * *q.reserved_cny_per_gpu_month;
    if (add(Deployment::kReserved, Facility::kIdc, cost,
            gpu_hours > 0 ? std::optional<double>(cost / gpu_hours) : std::nullopt))
      name_offer(out.back(), q, q.rental_minimum_months);
  }
  // Bought: the job's amortised share of owning the cards (with a cadence: a month of owning
  // them, busy for its runs, over its runs).
  for (const CountPrices::Owned& o : q.owned) {
    double cost = training ? gpu_hours * o.cny_per_gpu_hour : o.average_yearly_cny / 12;
    if (runs) cost = prices_.owned_yearly_cny(at, count, o.facility, month_busy) / 12 / *runs;
    const double rate = runs && gpu_hours > 0 ? cost / gpu_hours : o.cny_per_gpu_hour;
    if (!add(Deployment::kBuy, o.facility, cost, rate)) continue;
    if (runs) out.back().utilization = month_busy;
    out.back().outlay_cny = o.purchase_cny;
    out.back().outlay_basis = "purchase";
    out.back().lead_time_days = o.lead_time_days;
  }
}

void Search::training_plans(const OptionRow& row, std::vector<CandidatePlan>& out,
                            Reason* failed) const {
  const GpuSpec& gpu = *row.judged.gpu;
  const int n = row.judged.min_layout->count;
  const TrainingCounts counts = training_counts(req_, catalog_, gpu, n, layouts_);
  if (counts.stop == TrainingCounts::Stop::kUnavailable) {
    *failed = reason_unavailable(counts.unavailable_reason);
    return;
  }
  Places at = prices_.places(gpu, n);
  for (const TrainingCounts::Step& s : counts.steps) {
    const TrainingPerf& t = s.perf;
    CandidatePlan base = base_plan(gpu, s.count, s.layout, s.memory, counts.fabric);
    base.hours = t.hours;
    base.gpu_hours = t.gpu_hours;
    base.mfu = t.mfu;
    base.tokens = t.tokens;
    base.exposed_communication_share =
        t.step_time_s > 0 ? t.exposed_communication_s / t.step_time_s : 0;
    // A count past the small platform (4-card workstation, 4-GPU board) needs the full one.
    if (s.count > at.idc->gpus_per_server && at.count <= at.idc->gpus_per_server)
      at = prices_.places(gpu, s.count);
    price(base, s.count, at, out);
  }
}

double Search::training_cost_floor(const GpuSpec& gpu, int min_count) const {
  const PerformanceConstants& k = catalog_.performance;
  const double gpu_hours = gpu_hours_floor(req_, gpu, k, layouts_.job(k),
                                           gpu_fractions(gpu, k, req_.training.precision));
  return prices_.training_cost_floor(gpu, min_count, gpu_hours,
                                     buys(purchase_status(gpu, catalog_.prices)));
}

void Search::serving_plans(const OptionRow& row, std::vector<CandidatePlan>& out,
                           Reason* failed) const {
  const GpuSpec& gpu = *row.judged.gpu;
  if (!row.fleet || !row.fleet->feasible) {
    *failed = reason_unavailable(row.fleet ? row.fleet->note : std::string(),
                                 row.fleet ? row.fleet->note_code : std::string());
    return;
  }
  const ServingFleetPlan& fleet = *row.fleet;
  const int count = static_cast<int>(fleet.gpus);
  const MemoryEstimate e = estimate_memory(req_, fleet.replica, catalog_.memory, false);
  const Fabric f =
      make_fabric(gpu, req_.cluster, catalog_.performance, fleet.replica.gpus_per_server);
  CandidatePlan base = base_plan(gpu, count, fleet.replica, e, f);
  base.replicas = fleet.replicas;
  base.users = users_to_serve(req_);
  // The figures at the load (prompts and all), not one user's on an idle replica.
  const ServingAtLoad& load = fleet.perf.at_load;
  base.per_user_tokens_per_second = load.per_user_tokens_per_second;
  base.time_to_first_token_s = load.time_to_first_token_s;
  base.time_to_first_token_p90_s = load.time_to_first_token_p90_s;
  base.output_tokens_per_second =
      load.output_tokens_per_second * static_cast<double>(fleet.replicas);
  price(base, count, prices_.places(gpu, count), out);
}

CandidatePlan Search::base_plan(const GpuSpec& gpu, int count, const Layout& L,
                                const MemoryEstimate& e, const Fabric& f) const {
  CandidatePlan c;
  c.gpu = &gpu;
  c.gpus = count;
  c.layout = L;
  c.purchase_status = purchase_status(gpu, catalog_.prices);
  c.china_purchasable = c.purchase_status != PurchaseStatus::kGreyImport;
  c.per_gpu_bytes = e.total();
  c.gpu_memory_bytes = gpu.memory_bytes();
  c.link = intra_link_name(f.intra);
  c.intra = f.intra;
  c.network_name = f.network_name;
  c.server_class = f.server_class;
  c.network_rdma = f.network_rdma;
  c.network_assumed = f.network_auto;
  c.band_high_bytes = e.band_high;
  c.roomy = layouts_.roomy(e, gpu);
  if (is_training(req_.task)) c.room_fraction = catalog_.memory.planning_room_fraction;
  if (L.count > 1)
    c.allreduce_busbw_gbps =
        group_busbw(f, L.count, std::min(L.count, f.gpus_per_node), catalog_.performance);
  c.cost_basis = is_training(req_.task) ? "per_run" : "per_month";
  return c;
}

}  // namespace advisor
