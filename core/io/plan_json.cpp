// SPDX-License-Identifier: MIT
// Plan -> result JSON text (API v1, docs/api.md): the only writer of result keys, streaming
// straight to text (io/json_writer), so a result costs no document of its own.
#include "io/plan_json.hpp"

#include "io/cost_json.hpp"
#include "io/json_writer.hpp"
#include "io/provider_json.hpp"
#include "io/recommend_json.hpp"

namespace advisor {

namespace {

using W = JsonWriter;

void layout(W& w, const Layout& L, const std::optional<std::string>& gpu) {
  w.begin_object();
  w.field("gpu", gpu);
  w.field("count", L.count);
  w.field("tp", L.tp);
  w.field("pp", L.pp);
  w.field("dp", L.dp);
  if (L.cp > 1) w.field("cp", L.cp);  // absent: 1 (no context parallelism), as before it existed
  // Only when the request states one: absent means ZeRO shards over all of dp x cp.
  if (L.shard_group > 0) w.field("shard_group", L.shard_group);
  w.field("ep", L.ep);
  w.field("zero", L.zero);
  w.field("servers", L.servers());
  w.end_object();
}

void model(W& w, const ModelResult& m) {
  w.begin_object();
  write_arch_fields(w, m.arch);
  w.field("input", m.input);
  w.key("params");
  w.begin_object();
  w.field("total", m.params.total);
  w.field("active", m.params.active);
  w.field("trainable", m.trainable_params);
  w.field("published_total_b", m.published_total_b);
  w.end_object();
  w.end_object();
}

void memory(W& w, const MemoryResult& m) {
  const MemoryEstimate& e = m.estimate;
  w.begin_object();
  w.key("per_gpu_bytes");
  w.bytes(e.total());
  w.key("breakdown_bytes");
  w.begin_object();
  for (const auto& [name, value] : {std::pair<const char*, double>{"weights", e.weights},
                                    {"gradients", e.gradients},
                                    {"optimizer", e.optimizer},
                                    {"activations", e.activations},
                                    {"kv_cache", e.kv_cache},
                                    {"overhead", e.overhead}}) {
    w.key(name);
    w.bytes(value);
  }
  w.end_object();
  w.key("band_bytes");
  w.begin_object();
  w.key("low");
  w.bytes(e.band_low);
  w.key("high");
  w.bytes(e.band_high);
  w.end_object();
  w.key("host_ram_per_server_bytes");
  w.bytes(e.host_ram_per_node);
  w.field("params_per_gpu", e.params_on_gpu);
  w.field("pipeline_stage", e.heaviest_stage);
  w.key("layout");
  layout(w, m.layout, m.gpu);
  w.key("assumptions");
  w.begin_array();
  for (const MemoryAssumption& a : e.assumptions) {
    w.begin_object();
    w.field("term", a.term);
    w.field("text", a.text);
    w.field("code", a.code);
    w.key("params");
    write_params(w, a.params);
    w.end_object();
  }
  w.end_array();
  w.field("fits", m.fits);
  w.key("gpu_memory_bytes");
  if (m.gpu_memory_bytes)
    w.bytes(*m.gpu_memory_bytes);
  else
    w.null();
  if (m.headroom_bytes) {
    w.key("headroom_bytes");
    w.bytes(*m.headroom_bytes);
  }
  w.key("across_stacks");
  if (m.across_stacks.empty()) {
    w.null();
  } else {
    w.begin_array();
    for (const StackMemory& s : m.across_stacks) {
      w.begin_object();
      w.field("stack", s.stack_id);
      w.field("name", s.stack_name);
      w.key("per_gpu_bytes");
      w.bytes(s.per_gpu_bytes);
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
}

/// tokens_per_second … step_time_s (the summary an option row also shows).
void training_summary_fields(W& w, const TrainingPerf& t) {
  w.field("tokens_per_second", t.tokens_per_second);
  w.field("mfu", t.mfu);
  w.field("hours", t.hours);
  w.field("gpu_hours", t.gpu_hours);
  w.field("step_time_s", t.step_time_s);
}

void training_summary(W& w, const TrainingPerf& t) {
  if (!t.available) return w.null();
  w.begin_object();
  training_summary_fields(w, t);
  w.end_object();
}

void inference_summary_fields(W& w, const InferencePerf& p) {
  w.field("decode_tokens_per_second", p.decode_tokens_per_second);
  w.field("per_user_tokens_per_second", p.per_user_tokens_per_second);
  w.field("time_to_first_token_s", p.time_to_first_token_s);
  w.field("max_concurrency", p.max_concurrency);
}

/// "assumption_notes": each a code with its parameters (the words: data/messages assume.<code>).
void notes(W& w, const std::vector<Note>& list) {
  w.key("assumption_notes");
  w.begin_array();
  for (const Note& n : list) write_note(w, n);
  w.end_array();
}

void scaling_curve(W& w, const std::vector<ScalingPoint>& curve) {
  w.begin_array();
  for (const ScalingPoint& p : curve) {
    w.begin_object();
    w.field("gpus", p.gpus);
    w.field("link", p.link);
    w.field("fits", p.fits);
    w.field("tp", p.tp);
    w.field("pp", p.pp);
    w.field("dp", p.dp);
    w.field("hours", p.hours);
    w.field("tokens_per_second", p.tokens_per_second);
    w.field("mfu", p.mfu);
    w.end_object();
  }
  w.end_array();
}

void training(W& w, const TrainingResult& r) {
  w.begin_object();
  if (!r.perf) {
    for (const char* k :
         {"tokens_per_second", "mfu", "hours", "gpu_hours", "step_time_s", "breakdown"})
      w.null_field(k);
    w.field("tokens", r.tokens);
    w.field("gpu", r.gpu);
    w.key("scaling_curve");
    scaling_curve(w, r.scaling_curve);
    notes(w, r.assumptions);
    w.end_object();
    return;
  }
  const TrainingPerf& t = *r.perf;
  training_summary_fields(w, t);
  w.field("tokens", r.tokens);
  w.field("gpu", r.gpu);
  w.key("breakdown");
  w.begin_object();
  w.field("compute_s", t.compute_s);
  w.field("memory_bound_s", t.memory_bound_s);
  w.field("exposed_communication_s", t.exposed_communication_s);
  w.field("pipeline_bubble_s", t.pipeline_bubble_s);
  w.field("dequantization_s", t.dequantization_s);
  w.field("launch_overhead_s", t.launch_overhead_s);
  w.field("activation_offload_s", t.activation_offload_s);
  w.field("optimizer_s", t.optimizer_s);
  w.end_object();
  w.field("goodput", t.goodput);
  w.field("startup_s", t.startup.total_s());
  w.field("checkpoint_write_s", t.checkpoints.total_s());
  w.key("communication");
  w.begin_object();
  w.field("data_parallel_s", t.data_parallel_s);
  w.field("data_parallel_exposed_s", t.data_parallel_exposed_s);
  w.field("tensor_parallel_s", t.tensor_parallel_s);
  // The exposed parts only where overlap hides some (TP overlap; Megatron's interleaved sends).
  if (t.tensor_parallel_exposed_s != t.tensor_parallel_s)
    w.field("tensor_parallel_exposed_s", t.tensor_parallel_exposed_s);
  w.field("pipeline_p2p_s", t.pipeline_p2p_s);
  if (t.pipeline_p2p_exposed_s != t.pipeline_p2p_s)
    w.field("pipeline_p2p_exposed_s", t.pipeline_p2p_exposed_s);
  w.field("expert_parallel_s", t.expert_parallel_s);
  if (t.context_parallel_s > 0) {  // only under context parallelism (cp > 1)
    w.field("context_parallel_s", t.context_parallel_s);
    w.field("context_parallel_exposed_s", t.context_parallel_exposed_s);
  }
  // Only under hybrid sharding with replicas: the replica all-reduce within data_parallel_s.
  if (t.shard_replica_s > 0) w.field("shard_replica_allreduce_s", t.shard_replica_s);
  w.end_object();
  w.field("global_batch_size", t.global_batch);
  w.field("microbatches_per_step", t.microbatches);
  w.field("tokens_per_step", t.tokens_per_step);
  w.key("flops_per_token");
  w.begin_object();
  w.field("model", t.flops.model);
  w.field("hardware", t.flops.hardware);
  w.end_object();
  w.field("achieved_tflops_per_gpu", t.achieved_tflops_per_gpu);
  w.field("peak_tflops", t.peak_tflops);
  w.field("matmul_fraction", t.matmul_fraction);
  w.field("storage_read_gbps_needed", t.storage_read_gbps_needed);
  w.field("storage_read_gbps", r.storage_read_gbps);
  notes(w, r.assumptions);
  w.key("scaling_curve");
  scaling_curve(w, r.scaling_curve);
  w.end_object();
}

void concurrency_curve(W& w, const std::vector<ConcurrencyPoint>& curve) {
  w.begin_array();
  for (const ConcurrencyPoint& c : curve) {
    w.begin_object();
    w.field("concurrency", c.concurrency);
    w.field("decode_tokens_per_second", c.decode_tokens_per_second);
    w.field("per_user_tokens_per_second", c.per_user_tokens_per_second);
    w.field("fits", c.fits);
    w.end_object();
  }
  w.end_array();
}

/// One replica at its share of the load (engine/serving_load): the answer card's figures.
void at_load(W& w, const ServingAtLoad& l) {
  w.key("at_load");
  if (l.users < 1) {
    w.null();
    return;
  }
  w.begin_object();
  w.field("users_per_replica", l.users);
  w.field("per_user_tokens_per_second", l.per_user_tokens_per_second);
  w.field("time_to_first_token_s", l.time_to_first_token_s);
  w.field("time_to_first_token_p90_s", l.time_to_first_token_p90_s);
  w.field("replica_output_tokens_per_second", l.output_tokens_per_second);
  w.field("per_user_output_tokens_per_second", l.per_user_output_tokens_per_second);
  w.field("step_s", l.step_s);
  w.field("step_tokens_budget", l.step_tokens_budget);
  w.field("decode_tokens_per_step", l.decode_tokens_per_step);
  w.field("prefill_tokens_per_step", l.prefill_tokens_per_step);
  w.field("prompt_tokens_prefilled", l.prompt_tokens_prefilled);
  w.field("prefill_share", l.prefill_share);
  w.end_object();
}

void serving(W& w, const ServingResult& r) {
  w.begin_object();
  if (!r.perf) {
    for (const char* k : {"decode_tokens_per_second", "per_user_tokens_per_second",
                          "time_to_first_token_s", "max_concurrency", "gpus_needed"})
      w.null_field(k);
    w.field("gpu", r.gpu);
    w.key("concurrency_curve");
    concurrency_curve(w, r.concurrency_curve);
    notes(w, r.assumptions);
    w.end_object();
    return;
  }
  const InferencePerf& p = *r.perf;
  inference_summary_fields(w, p);
  w.field("gpu", r.gpu);
  if (r.fleet) {
    w.field("gpus_needed", r.fleet->gpus);
    w.field("replicas", r.fleet->replicas);
    w.field("users_per_replica", r.fleet->users_per_replica);
    w.key("replica_layout");
    w.begin_object();
    w.field("count", r.fleet->replica.count);
    w.field("tp", r.fleet->replica.tp);
    w.field("pp", r.fleet->replica.pp);
    w.end_object();
  } else {
    for (const char* k : {"gpus_needed", "replicas", "users_per_replica", "replica_layout"})
      w.null_field(k);
  }
  at_load(w, r.fleet ? r.fleet->perf.at_load : p.at_load);
  w.field("decode_step_s", p.step.step_s);
  w.key("decode_breakdown");
  w.begin_object();
  w.field("memory_s", p.step.memory_s);
  w.field("compute_s", p.step.compute_s);
  w.field("communication_s", p.step.communication_s);
  w.field("launch_overhead_s", p.step.launch_s);
  w.field("host_overhead_s", p.step.host_s);
  w.field("weight_bytes", p.step.weight_bytes);
  w.field("kv_cache_bytes", p.step.kv_bytes);
  w.end_object();
  w.field("bandwidth_bound", p.bandwidth_bound);
  w.field("batch_prefill_s", p.batch_prefill_s);
  w.field("sustained_output_tokens_per_second", p.sustained_output_tokens_per_second);
  w.key("kv_cache");
  w.begin_object();
  w.field("budget_bytes", p.kv_budget_bytes);
  w.field("bytes_per_token", p.kv_bytes_per_token);
  w.field("max_model_len", p.max_model_len);
  w.field("gpu_memory_utilization", r.gpu_memory_utilization);
  w.end_object();
  notes(w, r.assumptions);
  w.key("concurrency_curve");
  concurrency_curve(w, r.concurrency_curve);
  w.end_object();
}

void interconnect(W& w, const std::optional<InterconnectResult>& r) {
  w.begin_object();
  if (!r) {
    for (const char* k : {"allreduce_bus_bandwidth_gbps", "allreduce_ring_busbw_gbps",
                          "allreduce_nvls_busbw_gbps", "intra_node", "inter_node"})
      w.null_field(k);
    w.end_object();
    return;
  }
  w.field("gpu", r->gpu);
  w.field("allreduce_bus_bandwidth_gbps", r->allreduce_bus_bandwidth_gbps);
  w.field("allreduce_ring_busbw_gbps", r->allreduce_ring_busbw_gbps);
  w.field("allreduce_nvls_busbw_gbps", r->allreduce_nvls_busbw_gbps);
  const IntraNodeLink& a = r->intra_node;
  w.key("intra_node");
  w.begin_object();
  w.field("kind", a.kind);
  w.field("description", a.description);
  w.field("gpus", a.gpus);
  w.field("busbw_gbps", a.busbw_gbps);
  w.field("link_gbps_per_direction", a.link_gbps_per_direction);
  w.end_object();
  const InterNodeLink& b = r->inter_node;
  w.key("inter_node");
  w.begin_object();
  w.field("kind", b.kind);
  w.field("name", b.name);
  w.field("gbit_per_s_per_gpu", b.gbit_per_s_per_gpu);
  w.field("busbw_gbps", b.busbw_gbps);
  w.field("used", b.used);
  w.field("chosen_by_advisor", b.chosen_by_advisor);
  w.field("rdma", b.rdma);
  w.field("gbit_per_s_per_server", b.gbit_per_s_per_server);
  w.field("server_class", b.server_class);
  w.end_object();
  w.field("data_parallel_busbw_gbps", r->data_parallel_busbw_gbps);
  w.field("tensor_parallel_busbw_gbps", r->tensor_parallel_busbw_gbps);
  w.field("gpus_per_node", r->gpus_per_node);
  w.key("allreduce_curve");
  w.begin_array();
  for (const auto& [bytes, busbw] : r->allreduce_curve) {
    w.begin_object();
    w.field("bytes", bytes);
    w.field("busbw_gbps", busbw);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void option(W& w, const OptionRow& row, Task task) {
  const GpuOption& o = row.judged;
  const GpuSpec& g = *o.gpu;
  w.begin_object();
  w.field("gpu", g.id);
  w.field("name", g.name);
  w.field("vendor", g.vendor);
  w.key("memory_bytes");
  w.bytes(g.memory_bytes());
  w.field("fits_on_one", o.fits_on_one);
  w.key("per_gpu_bytes_on_one");
  w.bytes(o.on_one.total());
  w.field("tight_on_one", o.fits_on_one && o.on_one.band_high > g.memory_bytes());
  w.key("china_availability");
  w.begin_object();
  w.field("status", g.china_availability.status);
  w.field("as_of", g.china_availability.as_of);
  w.end_object();
  w.field("software_stack", g.software_stack);
  // The request's /hardware/power_limit_w on the pinned part: its figures below are at it.
  w.field("power_limit_w",
          g.power_limit ? std::optional<double>(g.tdp_watts) : std::optional<double>());
  w.field("allreduce_bus_bandwidth_gbps", row.allreduce_bus_bandwidth_gbps);
  if (o.min_layout) {
    w.field("min_count", o.min_layout->count);
    w.key("min_layout");
    layout(w, *o.min_layout, g.id);
    w.key("per_gpu_bytes_at_min");
    w.bytes(o.at_min.total());
    w.field("tight_at_min", o.tight_at_min);
    if (row.full_checkpointing) w.field("full_checkpointing", true);
    w.field("verdict", o.min_layout->count == 1 ? "fits_on_one" : "needs_multiple");
    w.null_field("reason");
    w.field("intra_node_link", row.intra_node_link);
  } else {
    for (const char* k : {"min_count", "min_layout", "per_gpu_bytes_at_min"}) w.null_field(k);
    w.field("verdict", "does_not_fit");
    w.field("reason", o.reason);
    w.field("reason_code", o.reason_code);
    w.key("reason_params");
    w.begin_object();
    if (o.reason_gpus > 0) w.field("gpus", o.reason_gpus);
    w.end_object();
  }
  if (is_training(task)) {
    w.key("training");
    if (row.training)
      training_summary(w, *row.training);
    else
      w.null();
    if (row.training && !row.training->available) {
      w.field("speed_note", row.training->reason);
      w.field("speed_note_code", row.training->reason_code);
    }
  } else {
    w.key("inference");
    if (row.inference) {
      w.begin_object();
      inference_summary_fields(w, *row.inference);
      w.key("gpus_needed");
      if (row.fleet && row.fleet->feasible && row.fleet_for_target)
        w.value(row.fleet->gpus);
      else
        w.null();
      w.end_object();
    } else {
      w.null();
    }
  }
  if (row.power_cost) {
    write_option_power_cost(w, *row.power_cost);
  } else {
    w.null_field("power");
    w.null_field("cost");
  }
  w.end_object();
}

}  // namespace

void write_arch_fields(JsonWriter& w, const ModelArch& a) {
  w.field("id", a.id);
  w.field("name", a.name);
  w.field("family", a.family);
  w.field("layers", a.layers);
  w.field("encoder_layers", a.encoder_layers);
  w.field("hidden", a.hidden);
  w.field("ffn_hidden", a.ffn_hidden);
  w.field("heads", a.heads);
  w.field("kv_heads", a.kv_heads);
  w.field("head_dim", a.head_dim);
  w.field("vocab", a.vocab);
  w.field("mlp", a.mlp_gated ? "gated" : "plain");
  w.field("tied_embeddings", a.tied_embeddings);
  w.field("attention_bias", a.attention_bias);
  w.field("linear_bias", a.linear_bias);
  w.field("position", a.position);
  w.field("max_position_embeddings", a.max_position_embeddings);
  w.key("sliding_window");
  if (a.sliding_window > 0)
    w.value(a.sliding_window);
  else
    w.null();
  w.field("norm", a.layernorm ? "layernorm" : "rmsnorm");
  w.field("dropout", a.dropout);
  w.field("source", a.source);
  w.field("as_of", a.as_of);
  w.key("moe");
  if (a.moe) {
    w.begin_object();
    w.field("experts", a.moe->experts);
    w.field("experts_per_token", a.moe->experts_per_token);
    w.field("shared_experts", a.moe->shared_experts);
    w.field("expert_ffn_hidden", a.moe->expert_ffn_hidden);
    w.field("dense_layers", a.moe->dense_layers);
    w.end_object();
  } else {
    w.null();
  }
  w.key("mla");
  if (a.mla) {
    w.begin_object();
    w.field("q_lora_rank", a.mla->q_lora_rank);
    w.field("kv_lora_rank", a.mla->kv_lora_rank);
    w.field("qk_nope_head_dim", a.mla->qk_nope_head_dim);
    w.field("qk_rope_head_dim", a.mla->qk_rope_head_dim);
    w.field("v_head_dim", a.mla->v_head_dim);
    w.end_object();
  } else {
    w.null();
  }
}

std::string plan_to_text(const Plan& plan, const Catalog& catalog) {
  W w(128 * 1024);  // a typical result is 60-100 KB (one allocation, no regrowth)
  w.begin_object();
  w.field("schema", 1);
  w.field("task", task_name(plan.task));
  w.key("model");
  model(w, plan.model);
  // Nothing pinned: the sections below describe the recommended plan (null when pinned, or
  // when nothing is recommended).
  w.key("sections_describe");
  if (plan.described) {
    w.begin_object();
    w.field("plan", "recommended");
    w.field("gpu", plan.described->gpu);
    w.field("gpus", plan.described->gpus);
    w.end_object();
  } else {
    w.null();
  }
  w.key("memory");
  memory(w, plan.memory);
  w.key("training");
  if (plan.training)
    training(w, *plan.training);
  else
    w.null();
  w.key("inference");
  if (plan.inference)
    serving(w, *plan.inference);
  else
    w.null();
  w.key("interconnect");
  interconnect(w, plan.interconnect);
  w.key("power");
  if (plan.power)
    write_power(w, *plan.power);
  else
    w.null();
  w.key("cost");
  if (plan.cost)
    write_cost(w, *plan.cost, catalog.prices);
  else
    w.null();
  w.key("capacity");
  if (plan.capacity)
    write_capacity(w, *plan.capacity);
  else
    w.null();
  w.key("options");
  w.begin_array();
  for (const OptionRow& row : plan.options) option(w, row, plan.task);
  w.end_array();
  w.key("warnings");
  w.begin_array();
  for (const Warning& x : plan.warnings) write_warning(w, x);
  w.end_array();
  write_risks(w, plan.risks);
  w.key("recommendation");
  if (plan.recommendation)
    write_recommendation(w, *plan.recommendation);
  else
    w.null();
  w.key("resolved_inputs");
  w.begin_object();
  for (const ResolvedInput& r : plan.resolved_inputs) {
    w.key(r.path);
    if (r.number)
      w.value(*r.number);
    else if (r.flag)
      w.value(*r.flag);
    else
      w.value(r.text.value_or(""));
  }
  w.end_object();
  w.key("catalog");
  w.begin_object();
  w.field("gpus_as_of", plan.gpus_as_of);
  w.field("models_as_of", plan.models_as_of);
  w.end_object();
  if (catalog.provider) {  // only with a provider catalog: results without one are unchanged
    w.key("provider");
    write_provider(w, *catalog.provider, plan);
  }
  w.end_object();
  return w.take();
}

}  // namespace advisor
