// SPDX-License-Identifier: MIT
#include "engine/serving.hpp"

#include <algorithm>
#include <cmath>

#include "engine/flops.hpp"
#include "engine/model.hpp"
#include "engine/serving_load.hpp"
#include "engine/training.hpp"
#include "types/checked.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {
constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;
constexpr double kActivationBytes = 2;  // bf16 activations between layers
}  // namespace

double dequant_ops_per_weight(double bits, const PerformanceConstants& k) {
  const double o4 = k.int4_dequant_ops_per_weight, o8 = k.int8_dequant_ops_per_weight;
  if (bits <= 4) return o4;
  if (bits <= 8) return o4 + (bits - 4) / 4 * (o8 - o4);
  if (bits < 16) return o8 * (16 - bits) / 8;
  return 0;
}

double dequant_fp32_tflops(const GpuSpec& gpu, const PerformanceConstants& k) {
  return gpu.fp32_tflops.value_or(gpu.memory_bandwidth_tbps *
                                  k.unstated_fp32_tflops_per_memory_tbps);
}

double mean_decode_context(const Request& req) {
  return static_cast<double>(req.inference.prompt_tokens) +
         static_cast<double>(req.inference.output_tokens) / 2;
}

ServingModel::ServingModel(const Request& req, const GpuSpec& gpu, const Layout& L,
                           const Fabric& fabric, const PerformanceConstants& k)
    : req_(req), gpu_(gpu), layout_(L), fabric_(fabric), k_(k) {
  const ModelArch& m = req.model;
  const ParamCounts c = count_params(m);
  const InferenceSettings& inf = req.inference;
  // Compute: FP8 weights run W8A8 on parts with FP8 tensor cores; every other format is
  // dequantised into 16-bit GEMMs (W4A16/W8A16 kernels such as Marlin).
  const bool fp8 = inf.weight_format == "fp8" && gpu.fp8_dense_tflops.has_value();
  peak_tflops_ = fp8 ? *gpu.fp8_dense_tflops : gpu.bf16_dense_tflops;
  mamf_ = k.matmul_fraction(gpu.id, fp8);

  const double tp = L.tp;
  const double bits = weight_bits_for(inf.weight_format);
  const double expert_linear_all = c.moe_layers * c.moe_expert_per_layer;  // routed experts
  const double dense_linear = c.block_linear - expert_linear_all;          // incl. shared experts
  // Weight-only quantised kernels dequantise every weight they read on the CUDA cores: where
  // those instructions take longer than the bytes, the part's FP32 rate sets the stream
  // (fitted in bench/fit.cjs on gpt-fast's and torchao's A100 and AutoAWQ's RTX 4090 rows). A part
  // with no stated FP32 rate is taken as slow per byte as the slowest part that states one. A
  // stack may state its own share.
  if (!fp8 && bits < 16) {
    stack_weight_share_ = req.stack.quantized_decode_bandwidth_factor;
    quantized_bits_ = bits;
    dense_quantized_weights_ = dense_linear / tp;
    if (m.moe && m.moe->experts > 0)
      expert_quantized_weights_ = c.moe_expert_per_layer / m.moe->experts / tp;
    dequant_s_per_weight_ = dequant_ops_per_weight(bits, k) / (dequant_fp32_tflops(gpu, k) * kTera);
  }
  // Read per step: the quantised linear layers, the 16-bit LM head and norms (the embedding
  // is a row lookup, not read in full).
  const double head = c.lm_head > 0 ? c.lm_head : c.embedding;
  const double norms = m.layers * c.norms_per_layer + c.final_norm;
  dense_weight_bytes_ = (dense_linear * bits / 8 +
                         head * edge_weight_bits_for(inf.weight_format).lm_head / 8 + norms * 2) /
                        tp;
  if (m.moe && m.moe->experts > 0) {
    expert_bytes_ = c.moe_expert_per_layer / m.moe->experts * bits / 8 / tp;
    moe_layers_ = c.moe_layers;
  }
  head_flops_token_ = 2 * static_cast<double>(m.vocab) * m.hidden / tp;
  matmul_flops_token_ = 2 * active_matmul_params(m) / tp - head_flops_token_;

  double per_token_layer;
  if (m.mla) {
    per_token_layer = static_cast<double>(kv_cache_elements_per_token_layer(m));  // replicated
  } else {
    per_token_layer = 2 * std::ceil(double(m.kv_heads) / L.tp) * m.head_dim;
  }
  const double kv_bytes = weight_bits_for(inf.kv_cache_precision) / 8;
  const int layers_stage = (m.layers + L.pp - 1) / L.pp;
  kv_bytes_per_token_ = per_token_layer * kv_bytes * layers_stage;
  kv_bytes_per_token_all_ = per_token_layer * kv_bytes * m.layers;

  const GroupPlacement place = place_groups(L, fabric.gpus_per_node);
  if (L.tp > 1) {
    tp_busbw_ = allreduce_busbw(fabric, L.tp, place.tp_per_node, k);
    tp_per_node_ = place.tp_per_node;
  }
  if (L.pp > 1) {
    pp_crosses_ = place.pp_crosses;
  }
  if (L.ep > 1) ep_per_node_ = std::max(1, std::min(L.ep, fabric.gpus_per_node));
}

double ServingModel::busiest_rank_sequences(double sequences) const {
  // A sequence is one rank's whole: fewer sequences than ranks leave some ranks idle (they run
  // the engine's dummy steps), and the busiest holds one.
  return std::max(sequences / layout_.dp, std::min(sequences, 1.0));
}

double ServingModel::expert_all_to_all_s(double tokens) const {
  const ModelArch& m = req_.model;
  if (layout_.ep <= 1 || !m.moe || tokens <= 0) return 0;
  // Each GPU sends its own tokens to the experts they are routed to and takes the outputs
  // back: two all-to-alls per MoE layer of tokens x top-k hidden vectors (16-bit).
  const double bytes = tokens * m.moe->experts_per_token * m.hidden * kActivationBytes;
  return moe_layers_ * 2 * all_to_all_time_s(bytes, layout_.ep, ep_per_node_, fabric_, k_);
}

DecodeStep ServingModel::decode(double batch, double context) const {
  const ModelArch& m = req_.model;
  DecodeStep s;
  double span = context;
  if (m.sliding_window > 0) span = std::min(span, static_cast<double>(m.sliding_window));
  // Routed experts a batch touches: each of E experts is missed by one token with
  // probability 1 - k/E, so E (1 - (1 - k/E)^batch) are read per layer.
  double experts_read = 0;
  if (m.moe && m.moe->experts > 0) {
    const double e = m.moe->experts;
    const double touched = e * (1 - std::pow(1 - m.moe->experts_per_token / e, batch));
    experts_read = moe_layers_ * touched / layout_.ep;
  }
  s.weight_bytes = dense_weight_bytes_ + experts_read * expert_bytes_;
  // Attention data-parallel ranks (expert-parallel serving) each hold and read their own
  // sequences' KV cache and run their tokens' GEMMs; the busiest rank sets the step.
  const double rank_batch = busiest_rank_sequences(batch);
  s.kv_bytes = rank_batch * span * kv_bytes_per_token_all_;
  const double bw = gpu_.memory_bandwidth_tbps * kTera * k_.memory_bandwidth_efficiency;
  // Weights stream at the bandwidth unless dequantising them takes longer; the KV cache is read
  // by paged-attention kernels in scattered blocks, at a lower share of the bandwidth.
  // (Each layer's kernel waits for the slower of its bytes and its dequantising; the 16-bit LM
  // head and norms stream as they are.)
  const double stream_s = s.weight_bytes / bw;
  double weight_s = stream_s;
  if (stack_weight_share_) {
    weight_s = stream_s / *stack_weight_share_;
  } else {
    const double quantized = dense_quantized_weights_ + experts_read * expert_quantized_weights_;
    const double quantized_s = quantized * quantized_bits_ / 8 / bw;
    s.dequant_s = quantized * dequant_s_per_weight_;
    weight_s = stream_s - quantized_s + std::max(quantized_s, s.dequant_s);
  }
  s.weight_stream_share = weight_s > 0 ? stream_s / weight_s : 1;
  s.kv_read_share = req_.stack.kv_read_bandwidth_factor.value_or(k_.kv_read_bandwidth_factor);
  s.memory_s = weight_s + s.kv_bytes / (bw * s.kv_read_share);
  const double flops = rank_batch * (matmul_flops_token_ + head_flops_token_ +
                                     attention_forward_flops(m, span) / layout_.tp);
  // The roofline takes the slower of memory and compute, so the compute side is the full
  // achievable matmul rate (no small-batch penalty: that is the memory side).
  const double rate =
      peak_tflops_ * kTera * mamf_ * k_.framework_efficiency * req_.stack.efficiency_factor;
  s.compute_s = flops / rate;
  if (layout_.tp > 1) {
    s.communication_s += m.layers * 2 *
                         allreduce_time_s(batch * m.hidden * kActivationBytes, layout_.tp,
                                          tp_per_node_, fabric_, k_);
  }
  if (layout_.pp > 1) {
    s.communication_s += (layout_.pp - 1) *
                         p2p_time_s(batch * m.hidden * kActivationBytes, pp_crosses_, fabric_, k_);
  }
  s.communication_s += expert_all_to_all_s(rank_batch);
  // Each layer's kernels (GEMVs, attention, norms, rotary, residual adds) start and drain once
  // per step whatever the batch: a fixed time per layer that the bytes do not carry.
  s.layer_floor_us = req_.stack.decode_layer_floor_us.value_or(k_.decode_layer_floor_us);
  s.launch_s = m.layers * s.layer_floor_us * 1e-6;
  // A Python engine's work per running sequence between steps (each attention rank schedules
  // its own sequences): what makes a full batch slower than its kernels.
  s.host_s = rank_batch * req_.stack.host_us_per_sequence * 1e-6;
  s.step_s = std::max(s.memory_s, s.compute_s) + s.communication_s + s.launch_s + s.host_s;
  return s;
}

double ServingModel::prefill_s(double sequences, double prompt) const {
  const ModelArch& m = req_.model;
  // Attention data-parallel ranks (expert-parallel serving) each prefill their own prompts: the
  // busiest rank's prompts set the time (one prompt is one rank's).
  const double rank_sequences = busiest_rank_sequences(sequences);
  const double tokens = rank_sequences * prompt;
  // GEMMs (logits only for the last position of each prompt) at the achievable matmul rate;
  // the causal attention core (half the full score matrix) at the FlashAttention rate.
  const double gemm_flops = tokens * matmul_flops_token_ + rank_sequences * head_flops_token_;
  const bool fp8 = req_.inference.weight_format == "fp8" && gpu_.fp8_dense_tflops.has_value();
  const double ridge = peak_tflops_ / gpu_.memory_bandwidth_tbps * (fp8 ? 0.5 : 1.0);
  const double gemm_rate =
      peak_tflops_ * kTera * mamf_ * k_.framework_efficiency * req_.stack.efficiency_factor *
      gemm_shape_efficiency(tokens, double(m.hidden) / layout_.tp,
                            double(m.moe ? m.moe->expert_ffn_hidden : m.ffn_hidden) / layout_.tp,
                            ridge);
  const double attention_flops = tokens * attention_forward_flops(m, prompt) / layout_.tp / 2;
  const double attention_rate = gpu_.bf16_dense_tflops * kTera * k_.attention_fraction(gpu_.id) *
                                k_.framework_efficiency * req_.stack.efficiency_factor;
  const double bw = gpu_.memory_bandwidth_tbps * kTera * k_.memory_bandwidth_efficiency;
  const double weights =
      dense_weight_bytes_ + (m.moe ? expert_bytes_ * m.moe->experts * moe_layers_ / layout_.ep : 0);
  const double t =
      std::max(gemm_flops / gemm_rate + attention_flops / attention_rate, weights / bw);
  double comm = 0;
  if (layout_.tp > 1) {
    comm += m.layers * 2 *
            allreduce_time_s(tokens * m.hidden * kActivationBytes, layout_.tp, tp_per_node_,
                             fabric_, k_);
  }
  if (layout_.pp > 1) {
    comm += (layout_.pp - 1) *
            p2p_time_s(tokens * m.hidden * kActivationBytes, pp_crosses_, fabric_, k_);
  }
  comm += expert_all_to_all_s(tokens);
  return t + comm;
}

namespace {

/// The fleet of this layout for the load: with /inference/target_users, the most users one
/// replica serves at the per-user speed and first-token targets (at its load, prompts and all:
/// engine/serving_load), then enough replicas for all users; without, `concurrency` sequences
/// spread over as many replicas as the KV cache needs. Then the replica at its share of the load.
void size_for_load(const ServingModel& model, const Request& req, const GpuSpec& gpu,
                   const Layout& L, InferencePerf& r) {
  const InferencePerfSettings& perf = req.inference.perf;
  const std::int64_t users = perf.target_users.value_or(req.inference.concurrency);
  std::int64_t per_replica = 0;
  if (r.max_concurrency < 1) {
    r.target_note = "no room for a single sequence's KV cache at max_model_len on this layout";
    r.target_note_code = "no_kv_room";
  } else if (!perf.target_users) {
    per_replica = std::min<std::int64_t>(r.max_concurrency, users);
  } else {
    const auto meets = [&](std::int64_t c) {
      const ServingAtLoad load = serving_at_load(model, req, gpu, c);
      return (!perf.target_tokens_per_second_per_user ||
              load.per_user_tokens_per_second >= *perf.target_tokens_per_second_per_user) &&
             (!perf.target_time_to_first_token_s ||
              load.time_to_first_token_p90_s <= *perf.target_time_to_first_token_s);
    };
    if (meets(1)) {
      std::int64_t lo = 1, hi = std::min(r.max_concurrency, users);  // meets(lo) holds
      while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (meets(mid))
          lo = mid;
        else
          hi = mid - 1;
      }
      per_replica = lo;
    } else {
      r.target_note =
          "even one user per replica gets less than the per-user speed target on "
          "this layout: use faster GPUs or more tensor parallelism";
      r.target_note_code = "target_speed_unreachable";
    }
  }
  if (per_replica < 1) return;
  r.users_per_replica = per_replica;
  r.replicas = (users + per_replica - 1) / per_replica;
  if (perf.target_users) r.gpus_needed = r.replicas * L.count;
  // The users spread evenly: each replica serves its share, not the most it could.
  r.at_load = serving_at_load(model, req, gpu, (users + r.replicas - 1) / r.replicas);
}

}  // namespace

InferencePerf estimate_inference(const Request& req, const GpuSpec& gpu, const Layout& L,
                                 const MemoryEstimate& e, const Fabric& fabric,
                                 const PerformanceConstants& k, const MemoryAssumptions& a) {
  InferencePerf r;
  const InferenceSettings& inf = req.inference;
  const ServingModel model(req, gpu, L, fabric, k);
  const double batch = static_cast<double>(inf.concurrency);
  const double context = mean_decode_context(req);
  r.step = model.decode(batch, context);
  r.decode_tokens_per_second = batch / r.step.step_s;
  r.per_user_tokens_per_second = 1 / r.step.step_s;
  r.bandwidth_bound = r.step.memory_s >= r.step.compute_s;
  const double prompt = static_cast<double>(inf.prompt_tokens);
  const double output = static_cast<double>(inf.output_tokens);
  r.time_to_first_token_s = model.prefill_s(1, prompt);
  r.batch_prefill_s = model.prefill_s(batch, prompt);
  r.sustained_output_tokens_per_second =
      batch * output / (r.batch_prefill_s + output * r.step.step_s);

  // vLLM: KV cache = utilisation x memory - weights - activation peak - non-torch memory.
  const double non_torch =
      (a.cuda_context_gib + (L.count > 1 ? a.communication_buffers_gib : 0)) * kBytesPerGib;
  // TensorRT-LLM instead takes its fraction of what is free after the weights and activations
  // (kv_cache_free_gpu_mem_fraction).
  const double util = inf.perf.gpu_memory_utilization;
  r.kv_budget_bytes =
      req.stack.kv_of_free_memory
          ? std::max(0.0, util * (gpu.memory_bytes() - e.weights - e.activations - non_torch))
          : std::max(0.0, gpu.memory_bytes() * util - e.weights - e.activations - non_torch);
  r.kv_bytes_per_token = model.kv_bytes_per_token();
  r.max_model_len = inf.perf.max_model_len.value_or(inf.prompt_tokens + inf.output_tokens);
  double per_sequence_tokens = static_cast<double>(r.max_model_len);
  if (req.model.sliding_window > 0) {
    per_sequence_tokens =
        std::min(per_sequence_tokens, static_cast<double>(req.model.sliding_window));
  }
  const double per_sequence = per_sequence_tokens * r.kv_bytes_per_token;
  // Attention data-parallel ranks each hold their own sequences' cache.
  r.max_concurrency = per_sequence > 0
                          ? checked_int64(std::floor(r.kv_budget_bytes / per_sequence) * L.dp,
                                          "/inference/max_model_len", "the sequences that fit")
                          : 0;

  size_for_load(model, req, gpu, L, r);
  return r;
}

}  // namespace advisor
