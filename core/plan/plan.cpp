// SPDX-License-Identifier: MIT
#include "plan/plan.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/model.hpp"
#include "plan/auto_checkpointing.hpp"
#include "plan/cost_results.hpp"
#include "plan/fleet.hpp"
#include "plan/plan_risks.hpp"
#include "plan/plan_warnings.hpp"
#include "plan/recommend.hpp"
#include "plan/speed_results.hpp"
#include "plan/stack_range.hpp"
#include "plan/training_counts.hpp"
#include "plan/validate.hpp"
#include "types/errors.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

constexpr double kBillion = 1e9;
// Published and derived parameter counts differ by rounding and by small tensors (norms,
// biases); beyond this the architecture fields are probably wrong.
constexpr double kParamMismatchWarning = 0.05;

ModelResult model_result(const Request& req) {
  ModelResult m;
  m.arch = req.model;
  m.input = req.model_source;
  m.params = count_params(req.model);
  m.trainable_params = trainable_params(req);
  if (req.model.params_total_b_published > 0)
    m.published_total_b = req.model.params_total_b_published;
  return m;
}

/// The count a pretraining run without /hardware/count runs on, and why.
struct ChosenCount {
  int gpus = 1;
  int min_gpus = 1;
  TrainingCounts::Stop stop = TrainingCounts::Stop::kSearchLimit;
  std::int64_t global_batch = 0;  // the job's global batch, sequences (global_batch_for)
  int micro_batch = 1;
  bool deadline = false;       // the goal states one: doublings while they cut the run by 10%
  double min_efficiency = 0;   // else every doubling keeps this scaling efficiency
  double next_efficiency = 0;  // kept below: the efficiency of the doubling not taken
  // Nothing fits without checkpointing and the request did not say: full activation
  // checkpointing on, as pretraining recipes at that size run (torchtitan's 70B and 405B
  // configs: activation_checkpoint mode "full").
  bool full_checkpointing = false;
};

const char* stop_name(TrainingCounts::Stop stop) {
  switch (stop) {
    case TrainingCounts::Stop::kGlobalBatch:
      return "global_batch";
    case TrainingCounts::Stop::kSmallSaving:
      return "small_saving";
    case TrainingCounts::Stop::kSearchLimit:
      return "search_limit";
    case TrainingCounts::Stop::kLowEfficiency:
      return "low_efficiency";
    case TrainingCounts::Stop::kUnavailable:
      return "unavailable";
  }
  return "?";
}

/// The count of `counts` a team without a deadline runs: the last before the first doubling
/// whose scaling efficiency (GPU-hours before it over GPU-hours after it) is below
/// `c.min_efficiency`. A doubling that buys little time for many more GPU-hours is not taken.
void keep_efficient_count(const TrainingCounts& counts, ChosenCount& c) {
  const std::vector<TrainingCounts::Step>& steps = counts.steps;
  for (std::size_t i = 1; i < steps.size(); ++i) {
    const double efficiency = steps[i - 1].perf.gpu_hours / steps[i].perf.gpu_hours;
    if (efficiency < c.min_efficiency) {
      c.gpus = steps[i - 1].count;
      c.stop = TrainingCounts::Stop::kLowEfficiency;
      c.next_efficiency = efficiency;
      return;
    }
  }
}

/// Pretraining on /hardware/gpu with /hardware/count absent: the count a pretraining team runs.
/// The recommendation's count search on that GPU (training_counts: the minimum count that fits,
/// doublings while data parallel x micro-batch stays within the global batch and a doubling still
/// cuts the run by 10%, up to the search limit): with a deadline in the goal its last count, else
/// the last one every doubling to which keeps the assumed scaling efficiency. Nothing fitting up
/// to the limit is a located error (there is no count to show). Other tasks, or a given count:
/// nothing to choose.
std::optional<ChosenCount> choose_pretraining_count(const Request& req, const Catalog& catalog) {
  if (!req.hardware || req.hardware->count_given || req.task != Task::kPretrain)
    return std::nullopt;
  const GpuSpec& gpu = *catalog.find_gpu(req.hardware->gpu);
  // The layouts judged for the minimum are the search's first (training_counts).
  LayoutTable plain_layouts(req, catalog.memory);
  GpuOption o = evaluate_options(req, catalog, {&gpu}, plain_layouts).front();
  Request checkpointed;
  std::optional<LayoutTable> checkpointed_layouts;
  bool full_checkpointing = false;
  if (!o.min_layout && !req.training.checkpointing_stated &&
      req.training.activation_checkpointing != Checkpointing::kFull) {
    checkpointed = req;
    checkpointed.training.activation_checkpointing = Checkpointing::kFull;
    checkpointed_layouts.emplace(checkpointed, catalog.memory);
    GpuOption with = evaluate_options(checkpointed, catalog, {&gpu}, *checkpointed_layouts).front();
    if (with.min_layout) {
      o = std::move(with);
      full_checkpointing = true;
    }
  }
  const Request& job = full_checkpointing ? checkpointed : req;
  ADVISOR_REQUIRE(o.min_layout, "inconsistent", "/hardware/count",
                  "/hardware/count is not given, so the advisor looks for the count a "
                  "pretraining team would run on " +
                      gpu.name + ", but no count fits: " + o.reason +
                      "; give /hardware/count to see the memory at that count");
  ChosenCount c;
  c.full_checkpointing = full_checkpointing;
  c.min_gpus = o.min_layout->count;
  c.gpus = c.min_gpus;
  c.micro_batch = static_cast<int>(job.training.micro_batch_size);
  c.global_batch = global_batch_for(job, Layout{}, catalog.performance, nullptr);
  LayoutTable& layouts = full_checkpointing ? *checkpointed_layouts : plain_layouts;
  const TrainingCounts counts = training_counts(job, catalog, gpu, c.min_gpus, layouts);
  c.stop = counts.stop;
  if (!counts.steps.empty()) c.gpus = counts.steps.back().count;
  c.deadline = req.goal.deadline_hours || req.goal.done_within_days;
  c.min_efficiency = catalog.memory.pretrain_count_min_scaling_efficiency;
  if (!c.deadline) keep_efficient_count(counts, c);
  return c;
}

/// `L`: the plan's layout on the chosen count.
Note count_chosen_note(const ChosenCount& c, const GpuSpec& gpu, const Layout& L) {
  std::vector<ReasonParam> params{param("gpus", c.gpus),
                                  param("gpu", gpu.name),
                                  param("min_gpus", c.min_gpus),
                                  param("stop", stop_name(c.stop)),
                                  param("global_batch", static_cast<double>(c.global_batch)),
                                  param("micro_batch", c.micro_batch),
                                  param("dp", L.dp),
                                  param("tp", L.tp),
                                  param("pp", L.pp),
                                  param("full_checkpointing", flag(c.full_checkpointing)),
                                  param("deadline", flag(c.deadline)),
                                  param("min_efficiency", c.min_efficiency)};
  if (c.next_efficiency > 0) params.push_back(param("next_efficiency", c.next_efficiency));
  if (L.cp > 1) params.push_back(param("cp", L.cp));  // the request's context parallelism
  return {"hardware_count_chosen", std::move(params)};
}

/// Why the pinned plan runs with full activation checkpointing the request did not state.
Note checkpointing_chosen_note(const Request& req, const Catalog& catalog) {
  const GpuSpec& gpu = *catalog.find_gpu(req.hardware->gpu);
  const double room = catalog.memory.planning_room_fraction;
  return {"checkpointing_chosen",
          {param("gpus", req.hardware->count), param("gpu", gpu.name), param("room_share", room)}};
}

Layout main_layout(const Request& req, const Catalog& catalog) {
  // Pinned hardware: the preferred layout that fits on it (parse_request checked that the
  // count admits one). Otherwise the job on exactly the pinned tp x pp GPUs (or one).
  int per_server = largest_gpus_per_server(catalog);
  if (req.hardware) {
    const GpuSpec& gpu = *catalog.find_gpu(req.hardware->gpu);
    per_server = gpus_per_server(req, catalog, gpu, req.hardware->count);
    if (auto L = choose_fastest_layout(req, req.hardware->count, gpu, per_server, catalog.memory,
                                       catalog.performance)) {
      return *L;
    }
  }
  const int cp = is_training(req.task) ? req.parallelism.cp : 1;
  // A stated shard group needs dp x cp to be a multiple of it: the least such dp x cp.
  const int shard_group = is_training(req.task) ? req.parallelism.shard_group : 0;
  const int dp_cp = shard_group > 0 ? std::lcm(cp, shard_group) : cp;
  const int count = req.parallelism.tp * req.parallelism.pp * dp_cp;
  if (auto L = layout_for_count(req, count, per_server)) return *L;
  Layout L;
  L.count = count;
  L.tp = req.parallelism.tp;
  L.pp = req.parallelism.pp;
  L.cp = cp;
  L.dp = dp_cp / cp;
  L.shard_group = shard_group;
  L.ep = req.parallelism.ep;
  L.zero = is_training(req.task) ? req.parallelism.zero : 0;
  L.gpus_per_server = per_server;
  return L;
}

void model_warnings(const Request& req, const ModelResult& model, std::vector<Warning>& warnings) {
  if (model.published_total_b) {
    const double derived = model.params.total / kBillion;
    const double gap = std::fabs(derived / *model.published_total_b - 1);
    if (gap > kParamMismatchWarning) {
      warnings.push_back(
          {"param_count_mismatch",
           "derived parameter count " + format_number(derived) + "B differs from the published " +
               format_number(*model.published_total_b) + "B",
           "/model",
           {param("derived_b", derived), param("published_b", *model.published_total_b)}});
    }
  }
  const std::int64_t context = is_training(req.task)
                                   ? req.training.sequence_length
                                   : req.inference.prompt_tokens + req.inference.output_tokens;
  if (context > req.model.max_position_embeddings) {
    warnings.push_back(
        {"beyond_trained_context",
         "the sequence (" + std::to_string(context) +
             " tokens) is longer than the model's "
             "max_position_embeddings (" +
             std::to_string(req.model.max_position_embeddings) +
             "); memory is still estimated, quality is not guaranteed",
         is_training(req.task) ? "/training/sequence_length" : "/inference/prompt_tokens",
         {param("tokens", static_cast<double>(context)),
          param("max_position_embeddings",
                static_cast<double>(req.model.max_position_embeddings))}});
  }
}

/// The pinned GPU's risks, and the flag when it serves customers on parts they bar.
void pinned_risks(const Request& req, const Catalog& catalog, Plan& plan) {
  const GpuSpec& gpu = *catalog.find_gpu(req.hardware->gpu);
  plan.risks = hardware_risks(gpu, catalog);
  if (serves_customers(req) && bars_customer_facing(plan.risks)) {
    const Recommendation* r = plan.recommendation ? &*plan.recommendation : nullptr;
    const CandidatePlan* alt =
        r && r->datacenter_alternative ? &*r->datacenter_alternative : nullptr;
    plan.warnings.push_back(customer_facing_warning(gpu, req.hardware->count, plan.risks, alt));
  }
}

MemoryResult memory_result(const Request& req, const Catalog& catalog, const Layout& L,
                           std::vector<Warning>& warnings) {
  MemoryResult m;
  m.estimate = estimate_memory(req, L, catalog.memory, true);
  m.layout = L;
  const MemoryEstimate& e = m.estimate;
  const GpuSpec* pinned = req.hardware ? catalog.find_gpu(req.hardware->gpu) : nullptr;
  m.across_stacks = memory_across_stacks(req, L, e.total(), pinned, catalog.memory);
  if (auto note = stack_range_note(m.across_stacks)) m.estimate.assumptions.push_back(*note);
  if (pinned) {
    const GpuSpec& gpu = *pinned;
    m.gpu = gpu.id;
    const bool ok = fits(e, gpu);
    m.fits = ok;
    m.gpu_memory_bytes = gpu.memory_bytes();
    m.headroom_bytes = gpu.memory_bytes() - e.total();
    if (!ok) {
      warnings.push_back({"does_not_fit",
                          "the plan needs more memory per GPU than " + gpu.name + " has",
                          "/hardware",
                          {param("gpu", gpu.name), param("per_gpu_bytes", e.total()),
                           param("gpu_memory_bytes", gpu.memory_bytes())}});
    } else if (auto w = memory_room_warning(req, e.total(), e.band_high, gpu.memory_bytes(),
                                            catalog.memory.planning_room_fraction)) {
      warnings.push_back(std::move(*w));
    }
    if (ok)
      if (auto w = heavier_stack_warning(m.across_stacks, gpu.memory_bytes()))
        warnings.push_back(std::move(*w));
    if (!gpu.pcie_peer_to_peer && req.hardware->count > 1)
      warnings.push_back(no_peer_to_peer_warning(gpu));
    if (gpu.software_stack != "cuda") warnings.push_back(non_cuda_stack_warning(gpu));
  }
  if (e.host_ram_per_node > 0) {
    warnings.push_back({"host_ram_needed",
                        "CPU offload needs " + format_gib(e.host_ram_per_node) +
                            " of host RAM per server (plus the OS and data loaders)",
                        "/training/cpu_offload",
                        {param("host_ram_bytes", e.host_ram_per_node)}});
  }
  return m;
}

/// The values used for inputs left blank, in the request's units, for the form's placeholders.
std::vector<ResolvedInput> resolved_inputs(const Request& req, const Plan& plan,
                                           bool count_chosen) {
  std::vector<ResolvedInput> out;
  auto number = [&](const std::string& path, double v) {
    out.push_back({path, v, std::nullopt, std::nullopt});
  };
  auto text = [&](const std::string& path, std::string v) {
    out.push_back({path, std::nullopt, std::move(v), std::nullopt});
  };
  const Layout& L = plan.memory.layout;
  text("/stack", req.stack.id);
  if (count_chosen) number("/hardware/count", req.hardware->count);
  number("/parallelism/tp", L.tp);
  number("/parallelism/pp", L.pp);
  if (is_training(req.task)) {
    text("/training/activation_checkpointing", name_of(req.training.activation_checkpointing));
    number("/parallelism/zero", L.zero);
    number("/parallelism/ep", L.ep);
    const Accounting& a = req.training.accounting;
    out.push_back(
        {"/training/accounting/master_weights", std::nullopt, std::nullopt, a.master_weights});
    text("/training/accounting/gradient_dtype", a.gradient_bytes == 4 ? "fp32" : "bf16");
    text("/training/accounting/optimizer_state_dtype",
         a.optimizer_state_bytes == 4 ? "fp32" : "bf16");
    out.push_back({"/training/accounting/fused_cross_entropy", std::nullopt, std::nullopt,
                   a.fused_cross_entropy});
    if (req.model.encoder_decoder())
      number("/training/target_length", static_cast<double>(req.training.target_length));
    if (plan.training) number("/training/tokens", plan.training->tokens);
    if (plan.training && plan.training->perf)
      number("/training/global_batch_size", static_cast<double>(plan.training->perf->global_batch));
  } else if (plan.inference && plan.inference->perf) {
    number("/inference/max_model_len", static_cast<double>(plan.inference->perf->max_model_len));
  }
  if (plan.interconnect && plan.interconnect->inter_node.chosen_by_advisor)
    text("/cluster/inter_node_network", plan.interconnect->inter_node.kind);
  if (plan.power) {
    number("/power/rack_kw", plan.power->plan.racks.rack_kw);
    number("/power/gpus_per_server", plan.power->gpus_per_server);
  }
  // Price and planning defaults, where the entry is in the unit of the input it overrides (not
  // a ratio such as "x flat price") and names one value.
  std::vector<const DefaultUsed*> used;
  if (plan.cost)
    for (const DefaultUsed& d : plan.cost->defaults_used) used.push_back(&d);
  if (plan.capacity)
    for (const DefaultUsed& d : plan.capacity->defaults_used) used.push_back(&d);
  std::vector<std::string> ambiguous;  // several defaults behind one input: no single value
  for (const DefaultUsed* d : used) {
    const std::string& path = d->override_path;
    if (path.empty() || d->overridden || d->unit.rfind("x ", 0) == 0) continue;
    if (std::find(ambiguous.begin(), ambiguous.end(), path) != ambiguous.end()) continue;
    auto known = std::find_if(out.begin(), out.end(),
                              [&](const ResolvedInput& r) { return r.path == path; });
    if (known == out.end()) {
      number(path, d->value);
    } else if (!known->number || *known->number != d->value) {
      ambiguous.push_back(path);
      out.erase(known);
    }
  }
  return out;
}

void append(std::vector<Warning>& to, std::vector<Warning>&& from) {
  for (Warning& w : from) to.push_back(std::move(w));
}

/// The notes that say what the advisor chose for a pinned plan: the count of a pretraining run,
/// the checkpointing a count has room only with.
void add_chosen_notes(Plan& plan, const Request& req, const Catalog& catalog, const Layout& L,
                      const std::optional<ChosenCount>& chosen, bool checkpointing_chosen) {
  if (!plan.training) return;
  auto& notes = plan.training->assumptions;
  if (chosen)
    notes.insert(notes.begin(),
                 count_chosen_note(*chosen, *catalog.find_gpu(req.hardware->gpu), L));
  if (checkpointing_chosen) notes.insert(notes.begin(), checkpointing_chosen_note(req, catalog));
}

/// What build_plan builds: the whole result (with or without the levers' what-ifs), the
/// recommendation alone (its levers: what a result without them lacks), or only the model,
/// memory and speed sections of the pinned plan (what an unpinned result describes for its
/// recommended plan).
enum class Build { kAll, kAllButLevers, kRecommendation, kSections };

/// The request with the recommended plan's GPU and count pinned: its sections are the plan's.
Request pinned_to(const Request& req, const CandidatePlan& plan) {
  Request out = req;
  Hardware hw;
  hw.gpu = plan.gpu->id;
  hw.count = plan.gpus;
  out.hardware = std::move(hw);
  return out;
}

Plan build_plan(const Request& request, const Catalog& catalog, Build build);

/// The sections under the answer describe the recommended plan: its memory, speed and
/// interconnect, and the warnings they earn, as pinning it gives them (one plan, one set of
/// figures). Power and cost already price it (plan_power_and_cost).
void describe_recommended(Plan& plan, const Request& request, const Catalog& catalog) {
  const CandidatePlan& best = *plan.recommendation->best;
  Plan described = build_plan(pinned_to(request, best), catalog, Build::kSections);
  plan.memory = std::move(described.memory);
  plan.training = std::move(described.training);
  plan.inference = std::move(described.inference);
  plan.interconnect = std::move(described.interconnect);
  plan.warnings = std::move(described.warnings);  // the model's, then the plan's own
  plan.described = DescribedPlan{best.gpu->id, best.gpus};
}

/// The request the sections compute: a pretraining run without /hardware/count gets the count
/// a pretraining team would run; a pinned count with room only with checkpointing gets it on.
struct PlannedRequest {
  std::optional<ChosenCount> chosen;
  bool checkpointing_chosen = false;
  std::optional<Request> changed;  // the request with what the advisor chose, when it chose
  const Request& of(const Request& request) const { return changed ? *changed : request; }
};

PlannedRequest plan_request(const Request& request, const Catalog& catalog) {
  PlannedRequest out;
  out.chosen = choose_pretraining_count(request, catalog);
  if (out.chosen) {
    out.changed = request;
    out.changed->hardware->count = out.chosen->gpus;
    if (out.chosen->full_checkpointing)
      out.changed->training.activation_checkpointing = Checkpointing::kFull;
  } else if (std::optional<Request> checkpointed = with_full_checkpointing(request);
             checkpointed && request.hardware &&
             pinned_needs_checkpointing(request, *checkpointed, catalog)) {
    out.changed = std::move(*checkpointed);
    out.checkpointing_chosen = true;
  }
  return out;
}

/// The option rows as the search runs them (a GPU it runs with full checkpointing at its
/// minimum count is judged so), each with its speed and its power and cost, into plan.options.
void add_options(Plan& plan, std::vector<OptionRow>& rows, const Request& searched,
                 const Catalog& catalog, CheckpointedJob* ck, SpeedSections& speed,
                 SearchPrices& prices) {
  for (OptionRow& row : rows) {
    if (ck && checkpointing_may_help(row.judged)) {
      const OptionRow& with = ck->row(*row.judged.gpu);
      if (checkpointing_use(row.judged, with.judged) != CheckpointingUse::kPlain) {
        row.judged = with.judged;
        row.full_checkpointing = true;
      }
    }
    const GpuOption& o = row.judged;
    fill_option_speed(row.full_checkpointing ? ck->request() : searched, catalog, row, speed);
    if (o.min_layout) {
      std::optional<double> gpu_hours;
      if (row.training && row.training->available) gpu_hours = row.training->gpu_hours;
      // Serving is costed for the fleet the load needs, training for the minimum count.
      const int count = row.fleet && row.fleet->feasible ? static_cast<int>(row.fleet->gpus)
                                                         : o.min_layout->count;
      row.power_cost = option_power_cost(searched, catalog, *o.gpu, count, gpu_hours, prices);
    }
    plan.options.push_back(std::move(row));
  }
}

/// The model's warnings and a deprecated input's.
void request_warnings(const Request& req, Plan& plan) {
  model_warnings(req, plan.model, plan.warnings);
  if (req.cluster.deprecated_gbps_key) {
    plan.warnings.push_back(
        {"deprecated_field",
         "/cluster/inter_node_gbps_per_gpu is deprecated (it is Gbit/s, and "
         "every _gbps key means GB/s): use /cluster/inter_node_gbit_per_s_per_gpu",
         "/cluster/inter_node_gbps_per_gpu",
         {param("replacement", "/cluster/inter_node_gbit_per_s_per_gpu")}});
  }
}

/// A serving plan fits only with room for one sequence's KV cache at max_model_len.
void no_room_for_kv_cache(Plan& plan, const SpeedSections& speed, const Request& req) {
  if (speed.inference && speed.inference->perf && speed.inference->perf->max_concurrency < 1 &&
      plan.memory.fits.value_or(false)) {
    plan.memory.fits = false;
    plan.warnings.push_back({"no_room_for_kv_cache",
                             "the weights fit, but no room is left for one sequence's KV cache "
                             "at max_model_len: add GPUs or quantise the weights or the KV cache",
                             "/hardware",
                             {param("gpus", req.hardware->count)}});
  }
}

/// The request as planned; nullopt after a reported problem.
std::optional<PlannedRequest> checked_request(const Request& request, const Catalog& catalog) {
  validate_speed(request, catalog);  // reads the pinned GPU, not its count
  if (problem_reported()) return std::nullopt;
  PlannedRequest planned = plan_request(request, catalog);
  if (problem_reported()) return std::nullopt;
  return planned;
}

/// The serving fleet of the pinned GPU's option row, if any.
const ServingFleetPlan* pinned_fleet_of(const Request& req, const std::vector<OptionRow>& rows) {
  for (const OptionRow& row : rows)
    if (req.hardware && row.judged.gpu->id == req.hardware->gpu && row.fleet) return &*row.fleet;
  return nullptr;
}

// A reported problem ends the plan at its next stage (the answer is the problem): no search runs
// on a request the checks refused, nor on figures a check replaced.
Plan build_plan(const Request& request, const Catalog& catalog, Build build) {
  Plan plan;
  const std::optional<PlannedRequest> planned = checked_request(request, catalog);
  if (!planned) return plan;
  const std::optional<ChosenCount>& chosen = planned->chosen;
  const bool checkpointing_chosen = planned->checkpointing_chosen;
  const Request& req = planned->of(request);
  plan.task = req.task;
  plan.model = model_result(req);
  request_warnings(req, plan);

  // Every catalog GPU judged by memory; for serving, the fleet that serves the load.
  // Each layout's memory, estimated once for the options and the search that follows.
  // The options and the recommendation answer the request as sent: the checkpointing a pinned
  // plan needs (checkpointing_chosen) is not every plan's, so pinning a plan the advisor did
  // not recommend leaves the recommendation as it was.
  const Request& searched = checkpointing_chosen ? request : req;
  LayoutTable layouts(searched, catalog.memory);
  std::vector<OptionRow> rows = judge_options(searched, catalog, layouts);
  if (problem_reported()) return plan;
  const ServingFleetPlan* pinned_fleet = pinned_fleet_of(req, rows);

  // The plan's layout: the pinned hardware's (for a serving target, one replica of its fleet).
  Layout L = main_layout(req, catalog);
  const bool serving_target = req.task == Task::kInference && req.inference.perf.target_users;
  if (serving_target && pinned_fleet && pinned_fleet->feasible) L = pinned_fleet->replica;
  plan.memory = memory_result(req, catalog, L, plan.warnings);
  if (problem_reported()) return plan;

  // Speed (training, inference, interconnect), then power and cost, which price the run
  // with the speed model's hours.
  SpeedSections speed = plan_speed(req, catalog, L, plan.memory.estimate, pinned_fleet);
  append(plan.warnings, std::move(speed.warnings));
  speed.warnings.clear();
  if (problem_reported()) return plan;
  no_room_for_kv_cache(plan, speed, req);
  if (build == Build::kSections) {
    plan.training = std::move(speed.training);
    add_chosen_notes(plan, req, catalog, L, chosen, checkpointing_chosen);
    plan.inference = std::move(speed.inference);
    plan.interconnect = std::move(speed.interconnect);
    return plan;
  }
  // The cost inputs of each GPU, resolved once for the search and the option rows' costs.
  SearchPrices prices(searched, catalog);
  std::optional<CheckpointedJob> checkpointed;
  if (std::optional<Request> with = with_full_checkpointing(searched))
    checkpointed.emplace(std::move(*with), catalog);
  CheckpointedJob* ck = checkpointed ? &*checkpointed : nullptr;
  plan.recommendation =
      recommend(searched, catalog, rows, prices, layouts, build != Build::kAllButLevers, ck);
  if (problem_reported()) return plan;
  if (build == Build::kAllButLevers) plan.recommendation->levers_later = true;
  if (build == Build::kRecommendation) return plan;
  if (req.hardware) pinned_risks(req, catalog, plan);
  add_options(plan, rows, searched, catalog, ck, speed, prices);
  const std::optional<int> fleet_gpus =
      serving_target && pinned_fleet && pinned_fleet->feasible
          ? std::optional<int>(static_cast<int>(pinned_fleet->gpus))
          : std::nullopt;
  PowerCostSections power_cost = plan_power_and_cost(
      req, catalog, L, fleet_gpus, speed.training, speed.inference, plan.options,
      plan.recommendation && plan.recommendation->best ? &*plan.recommendation->best : nullptr);
  plan.power = std::move(power_cost.power);
  plan.cost = std::move(power_cost.cost);
  plan.capacity = std::move(power_cost.capacity);
  // Kept apart until the sections are settled (describe_recommended replaces theirs).
  std::vector<Warning> power_cost_warnings = std::move(power_cost.warnings);
  plan.training = std::move(speed.training);
  add_chosen_notes(plan, req, catalog, L, chosen, checkpointing_chosen);
  plan.inference = std::move(speed.inference);
  plan.interconnect = std::move(speed.interconnect);
  // Power and cost price the recommended plan; the sections above describe it too.
  if (!req.hardware && plan.recommendation && plan.recommendation->best)
    describe_recommended(plan, req, catalog);
  append(plan.warnings, std::move(power_cost_warnings));
  plan.resolved_inputs = resolved_inputs(req, plan, chosen.has_value());
  plan.gpus_as_of = catalog.gpus_as_of;
  plan.models_as_of = catalog.models_as_of;
  return plan;
}

}  // namespace

Plan make_plan(const Request& request, const Catalog& catalog, PlanPart part) {
  switch (part) {
    case PlanPart::kWhole:
      return build_plan(request, catalog, Build::kAll);
    case PlanPart::kAnswer:
      return build_plan(request, catalog, Build::kAllButLevers);
    case PlanPart::kLevers:
      return build_plan(request, catalog, Build::kRecommendation);
  }
  return build_plan(request, catalog, Build::kAll);
}

}  // namespace advisor
