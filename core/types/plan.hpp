// SPDX-License-Identifier: MIT
// The plan: every engine's typed result for one request, assembled by plan/plan.cpp and written
// to JSON by io/plan_json.cpp alone. Engines hand figures forward through these fields (training
// GPU-hours -> cost per run, decode tokens/s -> cost per million tokens, the layout -> power);
// nothing reads back a JSON value the core produced. `std::nullopt` is written as JSON null.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/capacity.hpp"
#include "engine/cost.hpp"
#include "engine/cost_inputs.hpp"
#include "engine/layout.hpp"
#include "engine/memory.hpp"
#include "engine/serving.hpp"
#include "engine/training.hpp"
#include "types/catalog.hpp"
#include "types/model.hpp"
#include "types/note.hpp"
#include "types/request.hpp"

namespace advisor {

/// One entry of result.warnings: a code with its named figures (each language renders it),
/// an English sentence (the fallback) and the request field it concerns.
struct Warning {
  std::string code;
  std::string message;
  std::string path;
  std::vector<ReasonParam> params;
};

/// A risk of the parts a plan uses (plan/plan_risks): second_hand | no_ecc | consumer |
/// grey_import | end_of_life, why (`reason`, a code) with its named figures, and the English
/// sentence. Shown as a badge on every plan that uses such parts.
struct Risk {
  std::string code;
  std::string reason;
  std::vector<ReasonParam> params;
  std::string message;
};

// ------------------------------------------------------------------ model and memory

struct ModelResult {
  ModelArch arch;
  std::string input;  // preset | fields | hf_config
  ParamCounts params;
  double trainable_params = 0;
  std::optional<double> published_total_b;
};

/// The plan's memory per GPU under one software stack (plan/stack_range).
struct StackMemory {
  std::string stack_id;
  std::string stack_name;
  double per_gpu_bytes = 0;
};

struct MemoryResult {
  MemoryEstimate estimate;         // the most loaded GPU, with its assumption lines
  Layout layout;                   // the layout the estimate is for
  std::optional<std::string> gpu;  // the pinned GPU id
  std::optional<bool> fits;        // null when no GPU is pinned
  std::optional<double> gpu_memory_bytes;
  std::optional<double> headroom_bytes;
  // No stack named (training): the plan's memory under each common stack, lightest first.
  std::vector<StackMemory> across_stacks;
};

// ------------------------------------------------------------------ speed

/// One point of the training scaling curve (a count on one kind of link).
struct ScalingPoint {
  int gpus = 0;
  std::string link;  // nvlink | nvlink_bridge | pcie
  bool fits = false;
  int tp = 1, pp = 1, dp = 1;
  std::optional<double> hours, tokens_per_second, mfu;
};

struct ConcurrencyPoint {
  std::int64_t concurrency = 0;
  double decode_tokens_per_second = 0;
  double per_user_tokens_per_second = 0;
  bool fits = false;
};

/// result.training. `perf` is null when no hardware is pinned (speed is then per option).
struct TrainingResult {
  std::optional<TrainingPerf> perf;
  double tokens = 0;                        // the run's token budget
  std::optional<std::string> gpu;           // the GPU the figures and the curve are for
  std::optional<double> storage_read_gbps;  // the planned storage, GB/s (request)
  std::vector<Note> assumptions;
  std::vector<ScalingPoint> scaling_curve;
};

/// GPUs of one type that serve the load: replicas of one replica layout (plan/fleet).
struct ServingFleetPlan {
  bool feasible = false;
  Layout replica;      // one replica's layout
  InferencePerf perf;  // one replica at the request's concurrency
  std::int64_t replicas = 0;
  std::int64_t users_per_replica = 0;
  std::int64_t gpus = 0;  // replicas x replica.count
  std::string note;       // why no fleet serves the load (when not feasible)
  // its code: no_kv_room | target_speed_unreachable | fleet_too_large | stack_not_on_platform
  std::string note_code;
};

/// result.inference. `perf` is null when no hardware is pinned.
struct ServingResult {
  std::optional<InferencePerf> perf;
  std::optional<ServingFleetPlan> fleet;  // for a target load
  std::optional<std::string> gpu;
  double gpu_memory_utilization = 0;
  std::vector<Note> assumptions;
  std::vector<ConcurrencyPoint> concurrency_curve;
};

struct IntraNodeLink {
  std::string kind;  // nvswitch | mesh | nvlink_bridge | pcie_p2p | pcie_host
  std::string description;
  int gpus = 0;
  double busbw_gbps = 0;               // GB/s
  double link_gbps_per_direction = 0;  // GB/s
};

struct InterNodeLink {
  std::string kind;
  std::string name;
  double gbit_per_s_per_gpu = 0;  // line rate, Gbit/s (a shared NIC: its share per GPU)
  double busbw_gbps = 0;          // GB/s
  bool used = false;
  bool chosen_by_advisor = false;
  bool rdma = true;                             // false: TCP sockets
  std::optional<double> gbit_per_s_per_server;  // a NIC the server's GPUs share
  std::optional<std::string> server_class;      // chosen_by_advisor: the class it is sold with
};

/// result.interconnect (pinned hardware only; all null otherwise).
struct InterconnectResult {
  std::string gpu;
  std::optional<double> allreduce_bus_bandwidth_gbps;  // the faster of the two below
  // The same all-reduce by algorithm, as NCCL_ALGO pins it in nccl-tests: the ring (and tree)
  // over the links, and NVLink SHARP in the switch (absent where the fabric has none).
  std::optional<double> allreduce_ring_busbw_gbps;
  std::optional<double> allreduce_nvls_busbw_gbps;
  IntraNodeLink intra_node;
  InterNodeLink inter_node;
  std::optional<double> data_parallel_busbw_gbps;
  std::optional<double> tensor_parallel_busbw_gbps;
  int gpus_per_node = 0;
  /// All-reduce bus bandwidth over all GPUs of the layout by message size (bytes, GB/s), as
  /// nccl-tests reports it: small messages are latency-bound.
  std::vector<std::pair<double, double>> allreduce_curve;
};

// ------------------------------------------------------------------ power and cost

/// result.power: the fleet the cost is for.
struct PowerResult {
  std::string gpu;
  int gpus = 0;
  int gpus_per_server = 0;
  PowerPlan plan;
  double gpu_watts_per_server = 0;
  double host_watts = 0;
  double training_load_factor = 0;
  double it_kw_full_load = 0;
  double it_kw_typical = 0;
  Facility facility = Facility::kIdc;
  double pue = 0;
  double facility_kw = 0;
};

/// One costed deployment (buy, rent, reserved, hybrid) with the figures it is quoted in.
struct PricedOption {
  OptionCost cost;
  bool with_capex = false;  // buy and hybrid: capex and residual
  std::optional<int> gpus;
  std::optional<int> servers;               // buy
  std::optional<double> cny_per_gpu_hour;   // rent
  std::optional<double> cny_per_gpu_month;  // reserved
  std::string_view offer_kind;              // rented: engine/rental_offers offer_kind_name()
  std::optional<int> minimum_term_months;   // reserved: the offer's shortest term
  // VAT in the lifetime cash (engine/vat option_vat_cny): inside the totals, or recovered and
  // left out of them when deductible.
  double vat_cny = 0;
  bool vat_deductible = false;
  double lead_time_days = 0;  // order to running GPUs (purchase and move-in, or the offer)
};

struct MissingPrice {
  std::string option;
  std::string reason;
  std::optional<std::string> override_path;
  std::string code;  // no_purchase_price | not_offered_for_sale | no_rental_price |
                     // not_offered_for_rent | hybrid_needs_months | hybrid_needs_both_prices
  std::vector<ReasonParam> params;
};

struct HybridMonth {
  int month = 0;
  double demand_gpu_hours = 0, owned_gpu_hours = 0, rented_gpu_hours = 0;
};

struct HybridSplit {
  HybridCandidate best;
  int owned_gpus = 0;
  std::optional<double> owned_utilization;
  double lifetime_cny = 0;
  double owned_max_utilization = 0;
  std::vector<HybridMonth> monthly;
  std::vector<HybridCandidate> candidates;  // sampled, at most ~100
};

struct ElectricityPeriod {
  PeriodUse use;
  double hours_per_day = 0;
};

struct ElectricityResult {
  std::string tariff;  // time_of_use | flat
  Tariff prices;
  double pue = 0;
  EnergyResult energy;
  double cny_per_year = 0;
  bool included_in_colocation = false;
  double valley_shift_share = 0;
  double valley_shift_max_saving_cny_per_year = 0;
  std::vector<ElectricityPeriod> periods;
};

struct SiteRow {
  std::string site, name, name_zh;
  bool selected = false;
  double electricity_flat_cny_per_kwh = 0;
  double colocation_factor = 0;
  std::optional<double> electricity_cny_per_year, colocation_cny_per_year, buy_average_yearly_cny,
      buy_lifetime_cny, difference_vs_selected_cny_per_year;
  bool needs_confirmation = false;
};

/// Figures per deployment name (buy | rent | rent_reserved | hybrid); null where not priced.
using PerOption = std::map<std::string, std::optional<double>>;

/// result.cost.
struct CostResult {
  std::string gpu, gpu_name;
  int gpus = 0;
  bool pinned = false;
  std::string hardware_reason;
  std::string hardware_reason_code;  // pinned | pinned_fleet | recommended | cheapest_for_demand |
                                     // cheapest_option
  // How and where the plan has its cards: pinned (/hardware/deployment, /hardware/facility) or
  // the recommended plan's; nothing when neither says.
  std::optional<Deployment> deployment;
  std::optional<Facility> facility;
  std::string site_id, site_name, site_name_zh;
  double utilization = 0;
  std::string utilization_source;
  int life_years = 0;
  std::optional<PricedOption> buy, rent, reserved, hybrid;
  std::vector<MissingPrice> missing_prices;
  std::optional<std::string> cheapest_option;
  std::optional<double> break_even_utilization;
  std::optional<int> break_even_year;
  std::optional<bool> seventy_percent_rule_holds;
  std::string seventy_percent_rule_note;
  Note seventy_percent_rule;  // the note as a code with parameters
  PerOption cost_per_gpu_hour_cny;
  std::optional<double> run_gpu_hours;
  std::optional<std::string> run_gpu_hours_source;  // request | speed_model
  std::optional<PerOption> cost_per_run_cny;
  std::optional<double> tokens_per_second;
  std::optional<std::string> tokens_per_second_source;
  std::optional<PerOption> cost_per_million_tokens_cny;
  ElectricityResult electricity;
  std::vector<SiteRow> site_comparison;
  std::optional<HybridSplit> hybrid_split;
  std::vector<DefaultUsed> defaults_used;
  bool needs_confirmation = false;
  std::string prices_as_of;
};

struct CapacityTypeRow {
  CapacityByType type;  // gpu_type is the catalog id the history's names match
  std::optional<std::string> catalog_gpu;
  std::vector<std::string> names;         // how the history wrote it ("A800", "a800 80g")
  std::vector<std::string> alternatives;  // other catalog parts those names fit equally well
  int gpus_per_server = 1;
  int cards_to_buy = 0;  // the cards needed, in whole servers beyond one
  int servers = 0;
  // Serving the average month with these cards, per month: rent the GPU-hours on demand,
  // reserve the cards, or own them (amortised at the utilisation the history implies).
  std::optional<double> rent_cny_per_month, reserved_cny_per_month, buy_cny_per_month;
  std::optional<std::string> cheapest;
};

/// result.capacity.
struct CapacityResult {
  std::optional<std::string> demand_for_cost;  // the catalog GPU whose months price the hybrid
  std::size_t jobs = 0;
  CapacityPlan plan;
  CapacityInputs inputs;  // months, hours per month, target utilisation and buffer used
  std::vector<CapacityTypeRow> by_gpu_type;
  std::vector<DefaultUsed> defaults_used;
};

// ------------------------------------------------------------------ options

/// Compact power and cost of one option at its costed count.
struct OptionPowerCost {
  double server_watts_full_load = 0;
  int servers = 0;
  int racks_needed = 0;
  double rack_kw = 0;
  bool office_can_host = false;
  int gpus = 0;
  std::optional<double> buy_lifetime_cny, rent_lifetime_cny, rent_reserved_lifetime_cny;
  std::optional<std::string> cheapest;
  std::optional<double> break_even_utilization;
  bool over_capacity = false;
  struct Run {
    double gpu_hours = 0;
    std::optional<double> buy, rent;
  };
  std::optional<Run> cost_per_run_cny;
  bool needs_confirmation = false;
};

/// One row of result.options: a catalog GPU judged for the job.
struct OptionRow {
  GpuOption judged;
  std::optional<double> allreduce_bus_bandwidth_gbps;
  std::string intra_node_link;             // set when the option has a layout
  std::optional<TrainingPerf> training;    // training tasks, when the option fits
  std::optional<InferencePerf> inference;  // inference, when the option fits
  std::optional<ServingFleetPlan> fleet;   // inference: the fleet for the load
  bool fleet_for_target = false;           // the load is /inference/target_users
  std::optional<OptionPowerCost> power_cost;
  // Judged with the full activation checkpointing the search gives this GPU (without it the
  // job has no room on the card, or does not fit): the recommendation's judgement of it.
  bool full_checkpointing = false;
};

// ------------------------------------------------------------------ the recommendation

/// One step of why a plan was chosen or rejected, in the source's order: memory, interconnect,
/// compute, power, cost (and availability, deadline, budget for the filters).
struct Reason {
  std::string step;
  std::string code;
  std::vector<ReasonParam> params;
  std::string text;  // the English sentence (a fallback for the page's own tables)
};

/// A complete answer for the job: hardware, layout, deployment, place, time and this job's cost.
struct CandidatePlan {
  const GpuSpec* gpu = nullptr;
  int gpus = 0;
  int servers = 0;
  Layout layout;
  Deployment deployment = Deployment::kRent;
  Facility facility = Facility::kIdc;  // where bought hardware runs (rent: the provider's)
  bool china_purchasable = false;      // bought new or resold in mainland China (no grey import)
  PurchaseStatus purchase_status = PurchaseStatus::kNew;  // how the part is bought there
  // Training: one run.
  std::optional<double> hours, gpu_hours, mfu;
  // Serving: the fleet at the load (engine/serving_load): each user's streaming speed, the
  // first token at the median and the tail, and the fleet's sustained output.
  std::optional<double> per_user_tokens_per_second, time_to_first_token_s,
      time_to_first_token_p90_s;
  std::optional<double> output_tokens_per_second;
  std::int64_t replicas = 0;
  std::int64_t users = 0;
  // This job's cost: per run (training) or per month (serving), and what it is.
  double cost_cny = 0;
  // Names from fixed lists (literals): views keep a plan cheap to copy and move, which a
  // search does thousands of times per advise().
  std::string_view cost_basis;  // per_run | per_month
  std::optional<double> cost_per_million_tokens_cny;
  // Training at a cadence (/training/runs_per_month): the per-run cost x the runs of a month.
  std::optional<double> cost_per_month_cny;
  // What the user pays to have the plan, compared with /goal/budget_cny: a bought plan's
  // purchase (cards, servers), a rental's cost (the run, or the month when serving).
  double outlay_cny = 0;
  std::string_view outlay_basis;  // purchase | per_run | per_month
  double utilization = 0;         // buy: the share of hours the owned cards are busy (amortisation)
  int life_years = 0;
  std::optional<double> rate_cny_per_gpu_hour;  // the effective price per GPU-hour
  // Rented: the offer (engine/rental_offers offer_kind_name), the GPUs it bills (a cluster's
  // whole nodes) and its shortest term in months (0 for an hourly rental).
  std::string_view rental_offer_kind;
  int rental_billed_gpus = 0;
  int minimum_term_months = 0;
  // Calendar days from order to running GPUs: a purchase's delivery, approval and move-in, or
  // the rental offer's start (/goal/done_within_days rules out a plan too late).
  double lead_time_days = 0;
  double per_gpu_bytes = 0, gpu_memory_bytes = 0;
  std::string_view link;  // the link inside a server (engine/comm intra_link_name)
  IntraLink intra = IntraLink::kPcieP2p;
  std::optional<double> allreduce_busbw_gbps;
  // The network between servers (views of the performance constants): what a plan across
  // servers talks over, and whether the advisor assumed it from the server class.
  std::string_view network_name, server_class;
  bool network_rdma = true, network_assumed = false;
  double band_high_bytes = 0;  // the top of the memory estimate's error band, per GPU
  // Fits with room (engine/layout roomy()): within room_fraction of the card, band on the card.
  bool roomy = true;
  double room_fraction = 1;  // assumptions.json planning_room_fraction (training)
  // Training with activation checkpointing the request left to the advisor: turned on because
  // the job fits with room (or on fewer GPUs) with it (plan/auto_checkpointing).
  bool full_checkpointing = false;
  double exposed_communication_share = 0;  // training: of each step
  double tokens = 0;                       // training: the run's token budget
  double server_watts_full_load = 0;
  bool office_can_host = false;
  std::vector<Reason> reasons;    // filled for the plans the result shows
  std::vector<Warning> warnings;  // likewise: every warning the plan earns (plan/plan_warnings)
  std::vector<Risk> risks;        // every plan the result shows, the front too (plan/plan_risks)
};

struct RunnerUp {
  std::string wins_on;  // cheapest | fastest | china_purchasable | office
  CandidatePlan plan;
  Reason why_not;  // why the recommended plan was preferred
};

struct RejectedGpu {
  std::string gpu;
  Reason reason;  // the first check it failed
};

/// A memory lever that lets a cheaper plan fit, with what it costs.
struct Lever {
  std::string lever;  // activation_checkpointing | micro_batch_1 | optimizer_8bit | lora | qlora |
                      // int8_weights | int4_weights | fp8_kv_cache
  std::string request_path;  // the input to change
  std::string request_value;
  std::string trade_off;  // code: more_compute | smaller_gemms | optimizer_precision |
                          // fewer_trainable_parameters | quantised_base | quantised_weights |
                          // quantised_kv
  CandidatePlan plan;
  // Against the plan without the lever (when there is one): time x this (training hours, or
  // seconds per token per user), cost x this.
  std::optional<double> time_ratio, cost_ratio;
};

struct Recommendation {
  Objective objective = Objective::kCheapest;  // resolved (never auto)
  std::optional<double> deadline_hours, budget_cny;
  std::optional<double> done_within_days;  // the request's calendar bound (/goal)
  std::optional<double> runs_per_month;  // training: the job's cadence, when the request gives one
  BuyingPolicy buying_policy = BuyingPolicy::kNewAndResale;
  std::optional<CandidatePlan> best;
  std::vector<RunnerUp> runners_up;
  std::vector<CandidatePlan> pareto;  // time vs cost, fastest first
  std::vector<Lever> levers;
  bool levers_later = false;  // not computed: a later call gives them (plan/plan.hpp PlanPart)
  std::vector<RejectedGpu> rejected;
  std::optional<Reason> no_plan;  // why nothing qualifies, naming the nearest plan
  std::optional<CandidatePlan> nearest;
  /// Serving for customers on risky parts: the best plan (same objective) on parts without
  /// those risks, shown next to the answer (plan/plan_risks).
  std::optional<CandidatePlan> datacenter_alternative;
  int candidates = 0;  // plans evaluated
  /// "Cheapest" without a deadline is the cheapest within a calendar bound for the task
  /// (prices.json planning.calendar_hours_*): its hours, and whether a plan met it (when none
  /// did, the cheapest plan of all is the answer).
  std::optional<double> calendar_hours;
  bool calendar_met = true;
};

// ------------------------------------------------------------------ the plan

/// The value the plan used for an input the request may leave blank (request pointer -> value):
/// the page shows it as the placeholder of that input.
struct ResolvedInput {
  std::string path;
  std::optional<double> number;
  std::optional<std::string> text;
  std::optional<bool> flag;
};

/// Which plan the sections describe when nothing is pinned: the recommended one.
struct DescribedPlan {
  std::string gpu;
  int gpus = 0;
};

struct Plan {
  Task task = Task::kFullFinetune;
  ModelResult model;
  MemoryResult memory;
  std::optional<TrainingResult> training;
  std::optional<ServingResult> inference;
  std::optional<InterconnectResult> interconnect;
  std::optional<PowerResult> power;
  std::optional<CostResult> cost;
  std::optional<CapacityResult> capacity;
  std::vector<OptionRow> options;
  std::vector<Warning> warnings;
  std::vector<Risk> risks;  // the pinned GPU's (buying it: second-hand, grey import too)
  std::vector<ResolvedInput> resolved_inputs;
  std::optional<Recommendation> recommendation;
  // Nothing pinned: the memory, speed and interconnect sections are the recommended plan's.
  std::optional<DescribedPlan> described;
  std::string gpus_as_of, models_as_of;
};

}  // namespace advisor
