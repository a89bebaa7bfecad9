// SPDX-License-Identifier: MIT
// The memory assumption lines (engine/memory.cpp estimate_memory with explain = true): one per
// term, each a code with the figures that went into it (the page renders it in either language)
// and the English sentence.
#include "engine/memory_explain.hpp"

#include <cstdio>
#include <string>

#include "engine/memory.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

double num(long long v) { return static_cast<double>(v); }

/// The memory notes of one estimate, one builder per term. Training's builders share how the
/// layout shards (ZeRO, hybrid shard groups) and what the pipeline keeps in flight.
struct MemoryNotes {
  MemoryNotes(const Request& request, const Layout& layout, const MemoryAssumptions& assumptions,
              MemoryEstimate& estimate)
      : req(request),
        m(request.model),
        t(request.training),
        inf(request.inference),
        L(layout),
        a(assumptions),
        best(estimate) {
    if (!is_training(req.task)) return;
    wbytes = training_weight_bytes(t.precision);
    zero3 = L.zero >= 3 && L.zero_shards() > 1;
    // Micro-batches of one stage's activations in flight on the heaviest stage (1F1B: pp - i;
    // DualPipe: pp + 1 over the rank's two stages, memory.cpp dualpipe_rank).
    dualpipe = runs_dualpipe(req, L);
    in_flight = dualpipe ? L.pp + 1 : L.pp - best.heaviest_stage;
    // Hybrid sharding: the sharded terms say their group (and carry it as a param) only when
    // the request states one, so other answers read as before.
    hybrid = L.shard_group > 0;
    if (hybrid)
      groups = " in shard groups of " + std::to_string(L.shard_group) +
               " GPUs, replicated across the groups (hybrid sharding)";
    tail =
        std::string(zero3 ? " Sharded over the data-parallel group" + groups + " (ZeRO-3)." : "") +
        (t.offload_parameters ? " Offloaded to host RAM." : "");
  }

  void add(const char* term, const char* code, std::vector<ReasonParam> params, std::string text) {
    best.assumptions.push_back({term, std::move(text), code, std::move(params)});
  }
  std::vector<ReasonParam> with_group(std::vector<ReasonParam> params) const {
    if (hybrid) params.push_back(param("shard_group", L.shard_group));
    return params;
  }

  /// Training weights: the frozen base and adapters, or every parameter.
  void training_weights() {
    if (is_adapter(req.task)) {
      const char* fp = t.precision == Precision::kFp32 ? "fp32" : "bf16";
      const char* base =
          t.base_quantization == BaseQuantization::kNone ? fp : name_of(t.base_quantization);
      const char* other = adapter_other_weight_bytes(req) == 4 ? "fp32" : "bf16";
      std::snprintf(line, sizeof line,
                    "Frozen base in %s (linear layers%s; embeddings and norms in %s) plus "
                    "LoRA adapters (rank %d on %zu module types) at %.0f bytes/param.",
                    base,
                    t.base_quantization == BaseQuantization::kNf4
                        ? ", NF4 + double quantisation = 4.127 bits"
                        : "",
                    other, t.lora_rank, static_cast<std::size_t>(t.lora_targets.count()), wbytes);
      add("weights", "weights_adapter",
          with_group({param("base", std::string(base)), param("other", std::string(other)),
                      param("nf4", flag(t.base_quantization == BaseQuantization::kNf4)),
                      param("lora_rank", t.lora_rank),
                      param("lora_modules", static_cast<double>(t.lora_targets.count())),
                      param("adapter_bytes", wbytes), param("zero3", flag(zero3)),
                      param("offloaded", flag(t.offload_parameters))}),
          line + tail);
    } else {
      std::snprintf(line, sizeof line, "%.0f bytes/param (%s weights%s).", wbytes,
                    name_of(t.precision),
                    t.precision == Precision::kFp8 ? " kept in bf16 + fp8 copy" : "");
      add("weights", "weights_training",
          with_group({param("bytes_per_param", wbytes),
                      param("precision", std::string(name_of(t.precision))),
                      param("fp8_copy", flag(t.precision == Precision::kFp8)),
                      param("zero3", flag(zero3)), param("offloaded", flag(t.offload_parameters))}),
          line + tail);
    }
  }

  /// Gradients per trainable parameter, and how ZeRO and offload shrink them.
  void gradients() {
    const bool zero2 = L.zero >= 2 && L.zero_shards() > 1;
    const bool grad_offload = t.offload_optimizer && L.zero >= 2;
    const bool apart = gradients_apart_from_activations(req, L);
    const std::string zero2_text =
        zero2 ? ", sharded over data parallel" + groups + " (ZeRO-2+)" : "";
    std::snprintf(line, sizeof line, "%.0f bytes per trainable parameter (%s gradients)%s%s%s%s.",
                  t.accounting.gradient_bytes, t.accounting.gradient_bytes == 4 ? "fp32" : "16-bit",
                  zero2_text.c_str(),
                  grad_offload
                      ? "; with ZeRO-Offload they move to host RAM and the GPU keeps at most "
                        "one reduce bucket (5e8 elements)"
                      : "",
                  t.optimizer_in_backward ? "; the optimizer steps in the backward pass, so only "
                                            "the largest tensor's gradient is held at once"
                                          : "",
                  apart ? "; one micro-batch per step: the backward frees activations as it "
                          "allocates gradients, so the peak counts only the gradients beyond the "
                          "activations (at least the LM head's)"
                        : "");
    add("gradients", "gradients",
        with_group({param("bytes_per_param", t.accounting.gradient_bytes),
                    param("fp32", flag(t.accounting.gradient_bytes == 4)),
                    param("zero2", flag(zero2)), param("offloaded", flag(grad_offload)),
                    param("in_backward", flag(t.optimizer_in_backward)),
                    param("apart", flag(apart))}),
        line);
  }

  /// Optimizer states and master weights.
  void optimizer() {
    const OptimizerState o = optimizer_state(t);
    const bool zero1 = L.zero >= 1 && L.zero_shards() > 1;
    const std::string zero1_text =
        zero1 ? ", sharded over data parallel" + groups + " (ZeRO-1+)" : "";
    std::snprintf(line, sizeof line,
                  "%s: %d state(s) x %.0f bytes + %.0f bytes fp32 master weights = %.0f bytes "
                  "per trainable parameter%s%s%s. Mixed-precision AdamW by the ZeRO paper is "
                  "2 + 2 + 12 = 16 bytes/param in all.",
                  name_of(t.optimizer), o.states, o.bytes_per_state, o.master_bytes,
                  o.bytes_per_param(), zero1_text.c_str(),
                  t.offload_optimizer ? "; offloaded to host RAM (ZeRO-Offload)" : "",
                  is_paged(t.optimizer) ? "; paged (bitsandbytes): evicted to host RAM only when "
                                          "the GPU runs out, which no plan here relies on"
                                        : "");
    add("optimizer", "optimizer",
        with_group({param("optimizer", std::string(name_of(t.optimizer))),
                    param("states", o.states), param("bytes_per_state", o.bytes_per_state),
                    param("master_bytes", o.master_bytes),
                    param("bytes_per_param", o.bytes_per_param()), param("zero1", flag(zero1)),
                    param("offloaded", flag(t.offload_optimizer)),
                    param("paged", flag(is_paged(t.optimizer)))}),
        line);
  }

  /// Activations: the per-layer formula and what the stack keeps.
  void training_activations() {
    std::snprintf(
        line, sizeof line,
        "Korthikanti et al. 2022 per-layer activations, generalised (GQA, %s MLP%s, "
        "%s attention), sequence %lld x micro-batch %lld, checkpointing: %s; "
        "%s pipeline keeps %d micro-batch(es) in flight on stage %d%s.%s",
        m.mlp_gated ? "gated" : "plain", m.moe ? ", MoE top-k" : "",
        t.flash_attention ? "flash" : "materialised", static_cast<long long>(t.sequence_length),
        static_cast<long long>(t.micro_batch_size), name_of(t.activation_checkpointing),
        dualpipe ? "DualPipe" : "1F1B", in_flight, best.heaviest_stage,
        dualpipe ? " and its mirror stage (each rank holds the parameters of two stages)" : "",
        t.accounting.fused_cross_entropy ? " Fused cross-entropy: no full logits tensor." : "");
    std::string stack_text = " Stack: " + req.stack.name + " (" +
                             (req.stack_given ? "/stack" : "default for the task; set /stack") +
                             ")";
    std::vector<ReasonParam> params{
        param("gated", flag(m.mlp_gated)),
        param("moe", flag(m.moe.has_value())),
        param("flash", flag(t.flash_attention)),
        param("sequence", num(t.sequence_length)),
        param("micro_batch", num(t.micro_batch_size)),
        param("checkpointing", std::string(name_of(t.activation_checkpointing))),
        param("in_flight", in_flight),
        param("stage", best.heaviest_stage),
        param("fused_cross_entropy", flag(t.accounting.fused_cross_entropy)),
        param("stack", req.stack.name),
        param("stack_id", req.stack.id),
        param("stack_given", flag(req.stack_given)),
        param("selective", flag(t.activation_checkpointing == Checkpointing::kSelective)),
        param("fp32_stream", flag(fp32_residual_stream(req)))};
    if (dualpipe) params.push_back(param("dualpipe", 1));  // absent under 1F1B: the text says 1F1B
    if (!t.accounting.fused_cross_entropy) {
      stack_text += ": the loss keeps " + format_number(t.accounting.logits_bytes_per_element) +
                    " bytes per vocabulary entry per token";
      params.push_back(param("logits_bytes", t.accounting.logits_bytes_per_element));
    }
    if (t.activation_checkpointing == Checkpointing::kSelective) {
      stack_text += req.stack.selective_keep_fraction
                        ? "; selective checkpointing keeps " +
                              format_number(100 * *req.stack.selective_keep_fraction) +
                              "% of each layer's activations"
                        : "; selective checkpointing recomputes the attention core (Megatron)";
      if (req.stack.selective_keep_fraction)
        params.push_back(param("selective_keep_share", *req.stack.selective_keep_fraction));
    }
    if (fp32_residual_stream(req)) {
      stack_text += "; PEFT's fp32 embeddings and norms make the layer inputs fp32";
    }
    if (L.cp > 1) {
      // Only with cp > 1, so a request without context parallelism reads as before.
      stack_text += "; context parallel " + std::to_string(L.cp) + ": each GPU holds " +
                    std::to_string(t.sequence_length / L.cp) +
                    " tokens of each sequence (activations and logits), the other ranks' K and V "
                    "pass through 4 ring buffers of its chunk in a layer's backward";
      params.push_back(param("cp", L.cp));
      params.push_back(param("local_tokens", num(t.sequence_length / L.cp)));
    }
    if (m.encoder_decoder()) {
      stack_text += "; encoder-decoder: " + std::to_string(m.encoder_layers) +
                    " encoder layers on the " + std::to_string(t.sequence_length) +
                    " input tokens, " + std::to_string(m.layers) + " decoder layers on " +
                    std::to_string(t.target_length) +
                    " target tokens, each with cross-attention to the encoder's output (kept once)";
      params.push_back(param("encoder_layers", m.encoder_layers));
      params.push_back(param("decoder_layers", m.layers));
      params.push_back(param("target_tokens", num(t.target_length)));
    }
    add("activations", "activations_training", std::move(params), line + stack_text + ".");
  }

  /// Serving weights in their format.
  void inference_weights() {
    const EdgeWeightBits edge = edge_weight_bits_for(inf.weight_format);
    const bool gguf = inf.weight_format.rfind("gguf_", 0) == 0;
    std::snprintf(line, sizeof line,
                  "Linear layers in %s (%.3f bits/param); embeddings %.4g-bit, LM head %.4g-bit%s, "
                  "norms 16-bit; split over tensor parallel %d.",
                  inf.weight_format.c_str(), weight_bits_for(inf.weight_format), edge.embedding,
                  edge.lm_head, gguf ? " (GGUF quantises both)" : "", L.tp);
    add("weights", "weights_inference",
        {param("weight_format", inf.weight_format),
         param("bits", weight_bits_for(inf.weight_format)), param("embedding_bits", edge.embedding),
         param("head_bits", edge.lm_head), param("gguf", flag(gguf)), param("tp", L.tp)},
        line);
  }

  /// The KV cache of the sequences.
  void inference_kv_cache() {
    std::snprintf(
        line, sizeof line,
        "%lld sequences x (%lld prompt + %lld output) tokens x %s per element%s%s%s.",
        static_cast<long long>(inf.concurrency), static_cast<long long>(inf.prompt_tokens),
        static_cast<long long>(inf.output_tokens), inf.kv_cache_precision.c_str(),
        m.mla ? "; MLA caches one latent per token per layer" : "",
        m.sliding_window > 0 ? "; sliding window caps the cached tokens" : "",
        L.dp > 1 ? ", shared by the data-parallel attention ranks (each GPU keeps its own "
                   "sequences)"
                 : "");
    std::vector<ReasonParam> params{param("concurrency", num(inf.concurrency)),
                                    param("prompt_tokens", num(inf.prompt_tokens)),
                                    param("output_tokens", num(inf.output_tokens)),
                                    param("kv_precision", inf.kv_cache_precision),
                                    param("mla", flag(m.mla.has_value())),
                                    param("sliding_window", flag(m.sliding_window > 0))};
    // Only with expert-parallel serving, so other answers read as before.
    if (L.dp > 1) params.push_back(param("attention_ranks", L.dp));
    add("kv_cache", "kv_cache_inference", std::move(params), line);
  }

  /// The prefill workspace.
  void inference_activations() {
    add("activations", "activations_inference",
        {param("chunk_tokens", a.inference_prefill_chunk_tokens)},
        "Prefill workspace of one layer for up to " +
            format_number(a.inference_prefill_chunk_tokens) +
            " tokens (chunked prefill) plus fp32 logits for sampling.");
  }

  /// CUDA context, communication buffers and fragmentation.
  void overhead() {
    add("overhead", "overhead",
        {param("context_gib", a.cuda_context_gib), param("multi_gpu", flag(L.count > 1)),
         param("communication_gib", a.communication_buffers_gib),
         param("fragmentation_share", a.fragmentation_fraction)},
        "CUDA context " + format_number(a.cuda_context_gib) + " GiB (" + a.basis_context + ")" +
            (L.count > 1
                 ? "; communication buffers " + format_number(a.communication_buffers_gib) + " GiB"
                 : std::string()) +
            "; allocator fragmentation " + format_number(a.fragmentation_fraction * 100) +
            "% of activations and gradients.");
  }

  /// The range the estimate stands for.
  void band() {
    add("band", "band",
        {param("low_bytes", best.band_low), param("high_bytes", best.band_high),
         param("activation_low_share", a.activation_band_low),
         param("activation_high_share", a.activation_band_high),
         param("overhead_factor", a.overhead_band_high_factor)},
        "Range " + format_gib(best.band_low) + " to " + format_gib(best.band_high) + ": " +
            a.basis_activation_band);
  }

  const Request& req;
  const ModelArch& m;
  const TrainingSettings& t;
  const InferenceSettings& inf;
  const Layout& L;
  const MemoryAssumptions& a;
  MemoryEstimate& best;
  char line[1024];  // the longest combination of clauses fits
  double wbytes = 0;
  bool zero3 = false, dualpipe = false, hybrid = false;
  int in_flight = 0;
  std::string groups, tail;
};

}  // namespace

void explain_memory(const Request& req, const Layout& L, const MemoryAssumptions& a,
                    MemoryEstimate& best) {
  MemoryNotes notes(req, L, a, best);
  if (is_training(req.task)) {
    notes.training_weights();
    notes.gradients();
    notes.optimizer();
    notes.training_activations();
    notes.add("kv_cache", "kv_cache_training", {}, "No KV cache in training.");
  } else {
    notes.inference_weights();
    notes.inference_kv_cache();
    notes.inference_activations();
  }
  notes.overhead();
  notes.band();
}

}  // namespace advisor
