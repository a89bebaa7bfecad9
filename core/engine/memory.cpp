// SPDX-License-Identifier: MIT
#include "engine/memory.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "engine/activations.hpp"
#include "engine/memory_explain.hpp"
#include "engine/model.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {

// Gradient tensors of the MLP's width a layer's backward holds at once: the two branches of a
// gated MLP (dL/d gate, dL/d up; autograd of silu(gate) * up), one for a plain MLP's output
// is folded into the same count.
constexpr double kBackwardMlpGradients = 2;
// Logits used for sampling are fp32 (vLLM sampler).
constexpr double kSamplingLogitBytes = 4;
// DeepSpeed ZeRO-Offload keeps gradient reduce buckets on the GPU: reduce_bucket_size
// defaults to 5e8 elements (DeepSpeed config docs), 2 bytes each in bf16.
constexpr double kOffloadGradientBucketBytes = 5e8 * 2;
// Context parallelism (ring attention): each rank keeps only its own chunk's K and V for the
// backward; the chunks of the other ranks pass through communication buffers. At the peak, a
// layer's backward holds the K/V chunk and its dK/dV being sent and the pair being received:
// 4 buffers of the local K and V (Transformer Engine AttnFuncWithCPAndKVP2P.backward,
// p2p_comm_buffers = [[kv, dkv], [kv, dkv]]); the forward holds 2, fewer.
constexpr double kRingKvBuffersBackward = 4;

}  // namespace

OptimizerState optimizer_state(const TrainingSettings& t) {
  OptimizerState s;
  s.states = t.optimizer == Optimizer::kSgd ? 1 : 2;
  // Paged states are the same bytes; they leave the GPU only under memory pressure, and a plan
  // that needs that eviction is not offered (bitsandbytes pages them over PCIe every step).
  const bool eight_bit =
      t.optimizer == Optimizer::kAdamW8bit || t.optimizer == Optimizer::kPagedAdamW8bit;
  s.bytes_per_state = eight_bit ? 1 : t.accounting.optimizer_state_bytes;
  s.master_bytes = (t.accounting.master_weights && t.precision != Precision::kFp32) ? 4 : 0;
  return s;
}

double base_weight_bits(const TrainingSettings& t) {
  return weight_bits_for(t.base_quantization != BaseQuantization::kNone
                             ? name_of(t.base_quantization)
                             : (t.precision == Precision::kFp32 ? "fp32" : "bf16"));
}

double adapter_other_weight_bytes(const Request& req) {
  const bool fp32 = req.training.precision == Precision::kFp32 ||
                    (req.task == Task::kQlora && req.stack.kbit_fp32_other_weights);
  return fp32 ? 4 : 2;
}

double training_weight_bytes(Precision precision) {
  if (precision == Precision::kFp32) return 4;
  if (precision == Precision::kFp8) return 3;
  return 2;
}

namespace {

/// LoRA adapter parameters of one layer: r x (d_in + d_out) per targeted matrix.
double lora_params_per_layer(const ModelArch& m, const LoraTargets& t, int rank, bool moe_layer) {
  const double h = static_cast<double>(m.hidden);
  double total = 0;

  if (m.mla) {
    // MLA: q -> q_a/q_b (or q_proj), k -> kv_a, v -> kv_b, o -> o_proj.
    const MlaSpec& l = *m.mla;
    if (t.q) {
      total +=
          l.q_lora_rank > 0 ? (h + l.q_lora_rank) + (l.q_lora_rank + q_width(m)) : h + q_width(m);
    }
    if (t.k) total += h + l.kv_lora_rank + l.qk_rope_head_dim;
    if (t.v) total += l.kv_lora_rank + double(m.heads) * (l.qk_nope_head_dim + l.v_head_dim);
  } else {
    if (t.q) total += h + q_width(m);
    if (t.k) total += h + kv_width(m);
    if (t.v) total += h + kv_width(m);
  }
  if (t.o) total += attn_out_width(m) + h;
  double f = static_cast<double>(m.ffn_hidden);
  double copies = 1;
  if (moe_layer && m.moe) {
    f = static_cast<double>(m.moe->expert_ffn_hidden);
    copies = m.moe->experts + m.moe->shared_experts;  // PEFT all-linear targets every expert
  }
  if (t.gate) total += copies * (h + f);
  if (t.up) total += copies * (h + f);
  if (t.down) total += copies * (f + h);
  return total * rank;
}

/// LoRA adapters an encoder-decoder adds to the decoder's: the encoder's layers and each
/// decoder layer's cross-attention (PEFT's T5 targets q/k/v/o match EncDecAttention's too).
double encoder_decoder_lora(const ModelArch& m, const TrainingSettings& t) {
  if (!m.encoder_decoder()) return 0;
  LoraTargets attention = t.lora_targets;
  attention.gate = attention.up = attention.down = false;
  return m.encoder_layers * lora_params_per_layer(m, t.lora_targets, t.lora_rank, false) +
         m.layers * lora_params_per_layer(m, attention, t.lora_rank, false);
}

/// Layers of each kind that one pipeline stage holds.
struct StageLayers {
  int dense = 0;
  int moe = 0;
  bool first = true;
  bool last = true;
  // Micro-batches of these layers' activations in flight: 1F1B's stage i keeps pp - i.
  double in_flight_microbatches = 1;
};

StageLayers stage_layers(const ModelArch& m, const ParamCounts& c, int pp, int stage) {
  const int per_stage = (m.layers + pp - 1) / pp;
  const int begin = std::min(m.layers, stage * per_stage);
  const int end = std::min(m.layers, begin + per_stage);
  StageLayers s;
  // Dense layers come first (DeepSeek-V3's first_k_dense_replace).
  s.dense = std::max(0, std::min(end, c.dense_layers) - begin);
  s.moe = (end - begin) - s.dense;
  s.first = stage == 0;
  s.last = stage == pp - 1;
  s.in_flight_microbatches = pp - stage;
  return s;
}

/// A DualPipe rank: rank 0 holds the first stage of one direction and the last of the other
/// (so the embedding, the LM head and the loss), each rank two stages' parameters; in flight,
/// pp + 1 micro-batches of one stage's activations (DeepSeek-V3 report, Table 2: parameters 2x,
/// activations PP + 1). The activations are counted over both stages' layers, so the count in
/// flight is scaled to the first stage's share of them (the last stage may hold fewer layers).
StageLayers dualpipe_rank(const ModelArch& m, const ParamCounts& c, int pp) {
  const StageLayers head = stage_layers(m, c, pp, 0);
  const StageLayers tail = stage_layers(m, c, pp, pp - 1);
  StageLayers s;
  s.dense = head.dense + tail.dense;
  s.moe = head.moe + tail.moe;
  s.first = s.last = true;
  const int head_layers = head.dense + head.moe;
  s.in_flight_microbatches =
      (pp + 1.0) * head_layers / std::max(1, head_layers + tail.dense + tail.moe);
  return s;
}

struct StageParams {
  double all = 0;     // parameters on this GPU (after TP/EP split, before ZeRO-3)
  double linear = 0;  // of which inside quantisable linear layers
  double lora = 0;    // LoRA adapter parameters on this GPU
  double expert = 0;  // of `all`, the routed experts (split over ep, sharded over dp / ep)
};

StageParams stage_params(const Request& req, const ParamCounts& c, const StageLayers& s,
                         const Layout& L) {
  const ModelArch& m = req.model;
  StageParams p;
  const double tp = L.tp;
  const double common = c.attention_per_layer + c.norms_per_layer;
  p.all += s.dense * (common + c.dense_mlp_per_layer) / tp;
  p.all += s.moe * (common + c.moe_shared_per_layer) / tp;
  p.expert = s.moe * c.moe_expert_per_layer / (tp * L.ep);
  p.all += p.expert;
  p.linear += s.dense * (c.attention_linear_per_layer + c.dense_mlp_linear_per_layer) / tp;
  if (m.encoder_decoder()) {
    // One stage holds both stacks (parse_request refuses pp > 1 for encoder-decoders).
    p.all += (c.encoder_layers * c.encoder_layer + s.dense * c.cross_attention_per_layer) / tp;
    p.linear += (c.encoder_layers * (c.attention_linear_per_layer + c.dense_mlp_linear_per_layer) +
                 s.dense * c.attention_linear_per_layer) /
                tp;
  }
  if (m.moe) {
    const double expert_linear = c.moe_linear_per_layer;
    const double routed_share = double(m.moe->experts) / (m.moe->experts + m.moe->shared_experts);
    p.linear += s.moe * (c.attention_linear_per_layer + expert_linear * (1 - routed_share)) / tp;
    p.linear += s.moe * expert_linear * routed_share / (tp * L.ep);
  }
  // Vocabulary-parallel embedding and LM head. With pp > 1 a tied embedding is kept on both
  // the first and the last stage (Megatron-LM).
  if (s.first) p.all += c.embedding / tp;
  if (s.last) {
    const double head = c.lm_head > 0 ? c.lm_head : (L.pp > 1 ? c.embedding : 0);
    p.all += head / tp + c.final_norm;
  }
  if (is_adapter(req.task)) {
    const auto& t = req.training;
    p.lora = (s.dense * lora_params_per_layer(m, t.lora_targets, t.lora_rank, false) +
              s.moe * lora_params_per_layer(m, t.lora_targets, t.lora_rank, true) +
              encoder_decoder_lora(m, t)) /
             tp;
  }
  return p;
}

/// Elements of the largest trainable tensor on this GPU: for a full fine-tune the embedding,
/// the LM head or one MLP matrix; for adapters one LoRA factor (r x the widest dimension).
double largest_trainable_tensor(const Request& req, const ParamCounts& c, const Layout& L) {
  const ModelArch& m = req.model;
  const double h = static_cast<double>(m.hidden);
  double widest =
      std::max<double>({h, static_cast<double>(q_width(m)), static_cast<double>(m.ffn_hidden),
                        m.moe ? static_cast<double>(m.moe->expert_ffn_hidden) : 0.0});
  if (is_adapter(req.task)) return req.training.lora_rank * widest / L.tp;
  return std::max({c.embedding, c.lm_head, h * widest}) / L.tp;
}

double activations_for_stage(const Request& req, const StageLayers& s, const Layout& L,
                             const MemoryAssumptions& /*a: the logits term is the stack's*/,
                             double* host_bytes) {
  const ModelArch& m = req.model;
  const TrainingSettings& t = req.training;
  const ActivationInputs in = activation_inputs(req, L);
  const bool encoder_decoder = m.encoder_decoder();
  const bool selective = t.activation_checkpointing == Checkpointing::kSelective;
  const std::optional<double> keep = req.stack.selective_keep_fraction;
  const bool fp32_stream = fp32_residual_stream(req);
  const double sb = in.sequence_length * in.micro_batch;
  const double sharded_by = (t.sequence_parallel && L.tp > 1) ? L.tp : 1;
  const double residual =
      (fp32_stream ? 4 : in.bytes_per_value) * sb * static_cast<double>(m.hidden) / sharded_by;

  const double dense_layer = layer_activation_bytes(m, in);
  ActivationInputs moe_in = in;
  moe_in.moe_layer = true;
  const double moe_layer = s.moe > 0 ? layer_activation_bytes(m, moe_in) : 0;

  // Each adapter keeps its rank-r intermediate (x A) for the backward pass.
  const double lora_per_token = is_adapter(req.task) ? in.bytes_per_value * t.lora_rank / L.tp : 0;
  const double lora_modules = static_cast<double>(t.lora_targets.count());
  const double lora_extra = lora_per_token * sb * lora_modules;
  // An encoder-decoder's encoder layers (source tokens) and each decoder layer's
  // cross-attention; the encoder's output is kept once for every cross-attention's backward.
  double encoder_layer = 0, residual_encoder = 0, encoder_output = 0, cross = 0;
  double encoder_lora = 0, cross_lora = 0;
  const double sb_source = static_cast<double>(t.sequence_length) * in.micro_batch;
  if (encoder_decoder) {
    ActivationInputs source = in;
    source.sequence_length = static_cast<double>(t.sequence_length);
    encoder_layer = layer_activation_bytes(m, source);
    residual_encoder = residual * sb_source / sb;
    encoder_output = in.bytes_per_value * sb_source * static_cast<double>(m.hidden);
    cross = cross_attention_activation_bytes(m, in, static_cast<double>(t.sequence_length));
    encoder_lora = lora_per_token * sb_source * lora_modules;
    const LoraTargets& lt = t.lora_targets;
    cross_lora = lora_per_token * (sb * (lt.q + lt.o) + sb_source * (lt.k + lt.v));
  }
  const int encoder_layers = encoder_decoder ? m.encoder_layers : 0;
  const double layers = s.dense + s.moe + encoder_layers;
  const double kept_inputs = (s.dense + s.moe) * residual + encoder_layers * residual_encoder;
  double per_microbatch = 0;
  double recompute_peak = 0;
  if (t.activation_checkpointing == Checkpointing::kFull) {
    // Only each layer's input is kept; one layer is re-run at a time in the backward pass.
    per_microbatch = kept_inputs + encoder_output;
    ActivationInputs one = in;
    one.recompute_attention = false;
    one.moe_layer = s.moe > 0;
    recompute_peak = std::max(layer_activation_bytes(m, one) + lora_extra + cross + cross_lora,
                              encoder_layer + encoder_lora);
  } else {
    per_microbatch = s.dense * (dense_layer + lora_extra) + s.moe * (moe_layer + lora_extra) +
                     s.dense * (cross + cross_lora) +
                     encoder_layers * (encoder_layer + encoder_lora) + encoder_output;
    if (selective && keep) {
      // Keep a share of each layer's activations and recompute the rest from its input; the
      // recomputed part of one layer is live at a time in the backward pass.
      const double full = per_microbatch;
      per_microbatch = *keep * full + (1 - *keep) * kept_inputs;
      recompute_peak = layers > 0 ? (1 - *keep) * full / layers : 0;
    }
  }
  // 1F1B keeps (pp - stage) micro-batches in flight; the interleaved schedule with v model
  // chunks per stage keeps (1 + (pp - 1)/(pp v)) times more on the first stage (Korthikanti
  // et al. 2022, sec. 4.2.3).
  double in_flight = s.in_flight_microbatches;
  const int vp = req.parallelism.virtual_stages;
  if (vp > 1 && L.pp > 1 && s.first) in_flight *= 1 + double(L.pp - 1) / (L.pp * vp);
  double total = per_microbatch * in_flight + recompute_peak;
  if (t.offload_activations && t.activation_checkpointing == Checkpointing::kFull) {
    // The checkpointed layer inputs wait in host RAM; the GPU keeps the one being brought back
    // for the layer it recomputes.
    const double kept = per_microbatch * in_flight;
    if (host_bytes) *host_bytes += kept;
    total -= kept - kept / (std::max(1.0, layers) * in_flight);
  }
  if (s.last) {
    total += 2 * residual;  // final norm input and output
    if (in.gathered_inputs && sharded_by > 1) {
      // The LM head (column-parallel) keeps its all-gathered input for the backward.
      total += in.bytes_per_value * sb * static_cast<double>(m.hidden) * (1 - 1 / sharded_by);
    }
    // The loss's logits: bytes per vocabulary entry per token as the stack keeps them (eager
    // 14: bf16 logits, fp32 upcast, fp32 log-softmax, fp32 gradient; 0 with a fused loss).
    total += sb * static_cast<double>(m.vocab) / L.tp * t.accounting.logits_bytes_per_element;
  }
  {
    // The backward pass of a layer holds the gradients of its tensors next to the activations:
    // the SwiGLU backward materialises the gradients of both MLP branches (gate and up) and
    // the layer carries the gradients of its input and output, at the peak.
    double mlp_width = static_cast<double>(m.ffn_hidden);
    if (m.moe && s.moe > 0) {
      mlp_width = std::max(mlp_width, static_cast<double>(m.moe->expert_ffn_hidden) *
                                          (m.moe->experts_per_token + m.moe->shared_experts));
    }
    total +=
        in.bytes_per_value * std::max(sb, encoder_decoder ? sb_source : 0.0) *
        (kBackwardMlpGradients * mlp_width / L.tp + 2 * static_cast<double>(m.hidden) / sharded_by);
  }
  if (L.cp > 1) {
    // The ring's K/V (and dK/dV) chunks in flight during one layer's backward: transient, one
    // layer at a time.
    total += kRingKvBuffersBackward * in.bytes_per_value * sb * ring_kv_elements_per_token(m, L.tp);
  }
  if (req.task == Task::kQlora) {
    // The 4-bit base is dequantised one matrix at a time into a bf16 buffer.
    const double h = static_cast<double>(m.hidden);
    const double widest =
        std::max<double>({static_cast<double>(q_width(m)), static_cast<double>(m.ffn_hidden),
                          m.moe ? static_cast<double>(m.moe->expert_ffn_hidden) : 0.0});
    total += 2 * h * widest / L.tp;
  }
  return total;
}

/// Every byte count of the result is an exact integer (at most limits::kMaxBytes = 2^53, 8 PiB
/// per GPU). In-range inputs can multiply past that (sequence 10^7 x micro-batch 10^6): such an
/// estimate is refused (a reported problem), located at the input that drives its largest term.
void check_representable(const MemoryEstimate& e, const Request& req) {
  const double largest = std::max({e.band_high, e.total(), e.host_ram_per_node});
  if (largest <= limits::kMaxBytes) return;
  const bool training = is_training(req.task);
  std::string path = "/model";
  std::string what = "the model's weights and training state";
  if (e.host_ram_per_node > limits::kMaxBytes) {
    path = "/training/cpu_offload";
    what = "the host memory for CPU offload";
  } else if (e.activations >= std::max({e.weights, e.gradients, e.optimizer, e.kv_cache})) {
    if (training) {
      path = req.training.micro_batch_size > 1 ? "/training/micro_batch_size"
                                               : "/training/sequence_length";
      what = "the activations of one micro-batch (sequence_length " +
             std::to_string(req.training.sequence_length) + " x micro_batch_size " +
             std::to_string(req.training.micro_batch_size) + ")";
    } else {
      path = req.inference.concurrency > 1 ? "/inference/concurrency" : "/inference/prompt_tokens";
      what = "the prefill and sampling buffers";
    }
  } else if (e.kv_cache >= std::max({e.weights, e.gradients, e.optimizer})) {
    path = req.inference.concurrency > 1 ? "/inference/concurrency" : "/inference/prompt_tokens";
    what = "the KV cache (concurrency " + std::to_string(req.inference.concurrency) + " x " +
           std::to_string(req.inference.prompt_tokens + req.inference.output_tokens) + " tokens)";
  }
  report_problem("out_of_range", path,
                 what + " would need " + format_with("%.3g", largest) +
                     " bytes on one GPU, beyond the limit of 2^53 bytes (8 PiB) the result "
                     "states exactly; lower " +
                     path);
}

double inference_activations(const Request& req, const Layout& L, const MemoryAssumptions& a) {
  const ModelArch& m = req.model;
  const InferenceSettings& inf = req.inference;
  // With attention data-parallel inside the replica (L.dp > 1, expert-parallel serving), each
  // GPU holds its own share of the sequences and schedules its own chunk.
  const double sequences = static_cast<double>(inf.concurrency) / L.dp;
  const double chunk = std::min(sequences * static_cast<double>(inf.prompt_tokens),
                                a.inference_prefill_chunk_tokens);
  const double h = static_cast<double>(m.hidden);
  double mlp_width = static_cast<double>(m.ffn_hidden);
  if (m.moe && m.moe->dense_layers < m.layers) {
    mlp_width = std::max(mlp_width, static_cast<double>(m.moe->expert_ffn_hidden) *
                                        (m.moe->experts_per_token + m.moe->shared_experts));
  }
  const double matrices = m.mlp_gated ? 3 : 2;
  // One layer's transient tensors per prefilled token: residual + norm output, q/k/v,
  // attention output, MLP intermediates; 16-bit activations.
  const double per_token =
      2 * (2 * h + static_cast<double>(q_width(m) + 2 * kv_width(m) + attn_out_width(m)) / L.tp +
           matrices * mlp_width / L.tp);
  const double logits = sequences * static_cast<double>(m.vocab) / L.tp * kSamplingLogitBytes;
  return chunk * per_token + logits;
}

double kv_cache_bytes(const Request& req, const StageLayers& s, const Layout& L) {
  const ModelArch& m = req.model;
  const InferenceSettings& inf = req.inference;
  double context = static_cast<double>(inf.prompt_tokens + inf.output_tokens);
  if (m.sliding_window > 0) context = std::min(context, static_cast<double>(m.sliding_window));
  double per_token_layer;
  if (m.mla) {
    // The latent is shared by all heads, so tensor parallelism replicates it.
    per_token_layer = static_cast<double>(kv_cache_elements_per_token_layer(m));
  } else {
    const double kv_heads_here = std::ceil(double(m.kv_heads) / L.tp);  // replicated if tp > kv
    per_token_layer = 2 * kv_heads_here * m.head_dim;
  }
  const double bytes = weight_bits_for(inf.kv_cache_precision) / kBitsPerByte;
  // Attention data-parallel inside the replica (L.dp > 1): each GPU keeps its sequences' cache.
  return static_cast<double>(inf.concurrency) / L.dp * context * (s.dense + s.moe) *
         per_token_layer * bytes;
}

}  // namespace

bool fp32_residual_stream(const Request& req) {
  return req.task == Task::kQlora && req.stack.kbit_fp32_other_weights;
}

bool gradients_apart_from_activations(const Request& req, const Layout& L) {
  const TrainingSettings& t = req.training;
  if (!is_training(req.task) || L.pp > 1 || t.optimizer_in_backward) return false;
  const std::optional<std::int64_t>& global = t.perf.global_batch_size;
  return global && *global <= t.micro_batch_size * static_cast<std::int64_t>(L.dp);
}

namespace {
double trainable_params(const Request& req, const ParamCounts& c) {
  if (!is_training(req.task)) return 0;
  if (!is_adapter(req.task)) return c.total;
  const auto& t = req.training;
  return c.dense_layers * lora_params_per_layer(req.model, t.lora_targets, t.lora_rank, false) +
         c.moe_layers * lora_params_per_layer(req.model, t.lora_targets, t.lora_rank, true) +
         encoder_decoder_lora(req.model, t);
}
}  // namespace

double trainable_params(const Request& req) {
  return trainable_params(req, count_params(req.model));
}

namespace {

/// How one stage's states are sharded: ZeRO/FSDP over every rank holding the same weights (data x
/// context parallel) or over the stated hybrid-sharding group (FSDP HYBRID_SHARD, ZeRO++ hpZ).
struct Shards {
  double weights = 1, gradients = 1, optimizer = 1;
  int ep = 1;
  /// Routed experts, already split over ep, are sharded over the expert-data-parallel group
  /// (dp / ep ranks: Megatron's expert_data_parallel group): `share` of `bytes` are theirs.
  double sharded(double bytes, double shard, double share) const {
    const double expert_shard = std::max(1.0, shard / ep);
    return bytes * (1 - share) / shard + bytes * share / expert_shard;
  }
};

Shards shards_for(const Request& req, const Layout& L) {
  const bool training = is_training(req.task);
  // Stacks that gather ZeRO-3/FSDP weights once per step under pipeline parallelism keep the
  // stage's weights and its accumulated gradients unsharded between micro-batches.
  const bool gathered =
      training && L.zero >= 3 && L.pp > 1 && req.stack.zero3_gather_once_per_step_with_pp;
  const double ranks = L.zero_shards();
  Shards out;
  out.weights = (training && L.zero >= 3 && !gathered) ? ranks : 1;
  out.gradients = (L.zero >= 2 && !gathered) ? ranks : 1;
  out.optimizer = L.zero >= 1 ? ranks : 1;
  out.ep = L.ep;
  return out;
}

/// A training stage's weights, gradients, optimizer states and activations into `e`; what is
/// offloaded to the host into `host_per_gpu`.
void training_states(const Request& req, const ParamCounts& c, const Layout& L,
                     const MemoryAssumptions& a, const StageLayers& s, const StageParams& p,
                     MemoryEstimate& e, double& host_per_gpu) {
  const TrainingSettings& t = req.training;
  const Shards sh = shards_for(req, L);
  double expert_share = p.all > 0 ? p.expert / p.all : 0;  // of the weights (full training)
  const double wbytes = training_weight_bytes(t.precision);
  double base_weights;
  double trainable_here;
  if (is_adapter(req.task)) {
    const double base_bits = base_weight_bits(t);
    base_weights =
        p.linear * base_bits / kBitsPerByte + (p.all - p.linear) * adapter_other_weight_bytes(req);
    trainable_here = p.lora;
    base_weights += p.lora * wbytes;
    expert_share = base_weights > 0 ? p.expert * base_bits / kBitsPerByte / base_weights : 0;
  } else {
    base_weights = p.all * wbytes;
    trainable_here = p.all;
  }
  e.weights = sh.sharded(base_weights, sh.weights, expert_share);
  // The trainable parameters: experts' share for a full run, none for adapters (modelled
  // as replicated over the experts' ranks like the dense ones).
  const double trained_share = is_adapter(req.task) ? 0 : expert_share;
  if (t.offload_parameters) {
    host_per_gpu += e.weights;
    e.weights = 0;
  }
  e.gradients =
      sh.sharded(trainable_here * t.accounting.gradient_bytes, sh.gradients, trained_share);
  if (t.optimizer_in_backward) {
    // Each gradient is freed as soon as its parameter is stepped (torchtune
    // optimizer_in_bwd): at most the largest trainable tensor's gradient is held.
    e.gradients = std::min(e.gradients, largest_trainable_tensor(req, c, L) *
                                            t.accounting.gradient_bytes / sh.gradients);
  }
  e.optimizer = sh.sharded(trainable_here * optimizer_state(t).bytes_per_param(), sh.optimizer,
                           trained_share);
  if (t.offload_optimizer) {
    // ZeRO-Offload keeps optimizer states, the fp32 master copy and fp32 gradients on the
    // host and runs the optimizer step on the CPU.
    host_per_gpu += e.optimizer + sh.sharded(trainable_here * 4, sh.optimizer, trained_share);
    e.optimizer = 0;
    if (L.zero >= 2) e.gradients = std::min(e.gradients, kOffloadGradientBucketBytes);
  }
  e.activations = activations_for_stage(req, s, L, a, &host_per_gpu);
  if (gradients_apart_from_activations(req, L)) {
    // The activation peak (start of the backward) holds only the first gradients (the LM
    // head's); the end of the backward holds all gradients and hardly any activations.
    const double head = std::min(e.gradients, largest_trainable_tensor(req, c, L) *
                                                  t.accounting.gradient_bytes / sh.gradients);
    e.gradients = std::max(head, e.gradients - e.activations);
  }
}

/// A serving stage's weights (in their stored format), KV cache and activations into `e`.
void serving_states(const Request& req, const ParamCounts& c, const Layout& L,
                    const MemoryAssumptions& a, const StageLayers& s, const StageParams& p,
                    MemoryEstimate& e) {
  const double bits = weight_bits_for(req.inference.weight_format);
  const EdgeWeightBits edge = edge_weight_bits_for(req.inference.weight_format);
  // A tied embedding is also the output tensor, stored as the output tensor is.
  const bool tied = c.lm_head == 0;
  const double embedding = s.first ? c.embedding / L.tp : 0;
  const double head = s.last ? (tied ? (L.pp > 1 ? c.embedding : 0) : c.lm_head) / L.tp : 0;
  const double other = p.all - p.linear - embedding - head;  // norms, biases, router
  e.weights =
      (p.linear * bits + embedding * (tied ? edge.lm_head : edge.embedding) + head * edge.lm_head) /
          kBitsPerByte +
      other * 2;
  e.kv_cache = kv_cache_bytes(req, s, L);
  e.activations = inference_activations(req, L, a);
}

/// The CUDA context, communication buffers and fragmentation, and the error band around the total.
void overheads_and_band(const Layout& L, const MemoryAssumptions& a, MemoryEstimate& e) {
  const double context = a.cuda_context_gib * kBytesPerGib;
  const double comm = L.count > 1 ? a.communication_buffers_gib * kBytesPerGib : 0;
  const double fragmentation = a.fragmentation_fraction * (e.activations + e.gradients);
  e.overhead = context + comm + fragmentation;
  const double fixed = e.weights + e.gradients + e.optimizer + e.kv_cache;
  e.band_low = fixed + e.activations * (1 - a.activation_band_low) + context;
  e.band_high = fixed + e.activations * (1 + a.activation_band_high) +
                e.overhead * a.overhead_band_high_factor;
}

}  // namespace

MemoryEstimate estimate_memory(const Request& req, const Layout& L, const MemoryAssumptions& a,
                               bool explain) {
  const ModelArch& m = req.model;
  const ParamCounts c = count_params(m);
  const bool training = is_training(req.task);

  MemoryEstimate best;
  double best_total = -1;
  // The first stage holds the most in-flight activations, the last the LM head and logits:
  // evaluate both and report the heavier.
  const double trainable = trainable_params(req, c);
  const int stages[] = {0, L.pp - 1};
  const bool dualpipe = training && runs_dualpipe(req, L);
  const int distinct_stages = L.pp > 1 && !dualpipe ? 2 : 1;
  for (int i = 0; i < distinct_stages; ++i) {
    const int stage = stages[i];
    const StageLayers s = dualpipe ? dualpipe_rank(m, c, L.pp) : stage_layers(m, c, L.pp, stage);
    const StageParams p = stage_params(req, c, s, L);
    MemoryEstimate e;
    e.heaviest_stage = stage;
    e.params_on_gpu = p.all;
    double host_per_gpu = 0;
    if (training)
      training_states(req, c, L, a, s, p, e, host_per_gpu);
    else
      serving_states(req, c, L, a, s, p, e);
    overheads_and_band(L, a, e);
    e.host_ram_per_node = host_per_gpu * std::min(L.count, L.gpus_per_server);
    e.trainable_params = trainable;
    if (e.total() > best_total) {
      best_total = e.total();
      best = e;
    }
    if (L.pp == 1) break;
  }
  check_representable(best, req);

  if (explain) explain_memory(req, L, a, best);
  return best;
}

}  // namespace advisor
