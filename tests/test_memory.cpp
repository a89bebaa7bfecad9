// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "engine/activations.hpp"
#include "engine/layout.hpp"
#include "helpers.hpp"

using advisor::ActivationInputs;
using advisor::layer_activation_bytes;
using test::kGiB;

namespace {
/// GPT-3 175B as in Korthikanti et al. 2022, table 3: h = 12288, a = 96, s = 2048.
advisor::ModelArch gpt3() { return *advisor::builtin_catalog().find_model("gpt3-175b"); }

double training_state_bytes_per_param(const nlohmann::json& patch) {
  const auto j = test::request("full_finetune", "llama-2-7b", patch);
  const auto e = test::memory(j, test::layout(1, 0));
  return (e.weights + e.gradients + e.optimizer) / e.params_on_gpu;
}
}  // namespace

TEST_CASE("mixed-precision AdamW costs 16 bytes per parameter (ZeRO paper)",
          "[memory][reference]") {
  // Rajbhandari et al. 2020, sec. 3.1: 2 (fp16 weights) + 2 (fp16 grads) + 12 (fp32 master,
  // momentum, variance) = 16 bytes per parameter.
  CHECK(training_state_bytes_per_param(nlohmann::json::object()) == Approx(16));
}

TEST_CASE("each accounting switch moves only its own term", "[memory][reference]") {
  // The source's "7B needs 56 GB" is 8 bytes/param: bf16 weights, grads and two bf16 states.
  CHECK(training_state_bytes_per_param(
            {{"training",
              {{"accounting", {{"master_weights", false}, {"optimizer_state_dtype", "bf16"}}}}}}) ==
        Approx(8));
  // Megatron keeps fp32 main gradients: 18 bytes/param.
  CHECK(training_state_bytes_per_param(
            {{"training", {{"accounting", {{"gradient_dtype", "fp32"}}}}}}) == Approx(18));
  // bitsandbytes 8-bit AdamW: 2 + 2 + (1 + 1) + 4 master = 10.
  CHECK(training_state_bytes_per_param({{"training", {{"optimizer", "adamw_8bit"}}}}) ==
        Approx(10));
  // Paged AdamW (bitsandbytes) holds the same states as its unpaged twin while they fit.
  CHECK(training_state_bytes_per_param({{"training", {{"optimizer", "paged_adamw_8bit"}}}}) ==
        Approx(10));
  CHECK(training_state_bytes_per_param({{"training", {{"optimizer", "paged_adamw_32bit"}}}}) ==
        Approx(16));
  // SGD with momentum: 2 + 2 + 4 + 4 master = 12.
  CHECK(training_state_bytes_per_param({{"training", {{"optimizer", "sgd"}}}}) == Approx(12));
  // Pure fp32 AdamW: 4 + 4 + 8 = 16, without a master copy.
  CHECK(training_state_bytes_per_param(
            {{"training", {{"precision", "fp32"}, {"accounting", {{"master_weights", false}}}}}}) ==
        Approx(16));
}

TEST_CASE("ZeRO stages shard the right terms over data parallel", "[memory][reference]") {
  const auto j = test::request("full_finetune", "llama-2-7b");
  const int dp = 8;
  const auto z0 = test::memory(j, test::layout(dp, 0));
  const auto z1 = test::memory(j, test::layout(dp, 1));
  const auto z2 = test::memory(j, test::layout(dp, 2));
  const auto z3 = test::memory(j, test::layout(dp, 3));
  // Stage 1: optimizer states only (Rajbhandari et al. 2020, fig. 1).
  CHECK(z1.optimizer == Approx(z0.optimizer / dp));
  CHECK(z1.gradients == Approx(z0.gradients));
  CHECK(z1.weights == Approx(z0.weights));
  // Stage 2: plus gradients.
  CHECK(z2.gradients == Approx(z0.gradients / dp));
  CHECK(z2.weights == Approx(z0.weights));
  // Stage 3: plus weights.
  CHECK(z3.weights == Approx(z0.weights / dp));
  // Activations are never sharded by ZeRO.
  CHECK(z3.activations == Approx(z0.activations));
}

TEST_CASE("activations per layer reproduce Korthikanti et al. 2022", "[memory][reference]") {
  const auto m = gpt3();
  const double s = 2048, b = 1, h = 12288, a = 96;
  ActivationInputs in;
  in.sequence_length = s;
  in.micro_batch = b;
  in.flash_attention = false;  // the paper materialises the attention scores
  SECTION("no parallelism, no recompute: sbh(34 + 5as/h), eq. 1") {
    CHECK(layer_activation_bytes(m, in) == Approx(s * b * h * (34 + 5 * a * s / h)));
  }
  SECTION("tensor parallel without sequence parallel: sbh(10 + 24/t + 5as/(ht)), eq. 2") {
    in.tp = 8;
    in.sequence_parallel = false;
    CHECK(layer_activation_bytes(m, in) ==
          Approx(s * b * h * (10 + 24.0 / 8 + 5 * a * s / (h * 8))));
  }
  SECTION("tensor + sequence parallel: sbh/t (34 + 5as/h), eq. 4") {
    in.tp = 8;
    CHECK(layer_activation_bytes(m, in) == Approx(s * b * h / 8 * (34 + 5 * a * s / h)));
  }
  SECTION("selective recompute drops the attention core: 34 sbh/t, eq. 6") {
    in.tp = 8;
    in.recompute_attention = true;
    CHECK(layer_activation_bytes(m, in) == Approx(34 * s * b * h / 8));
  }
  SECTION("full recompute keeps only each layer's input, 2sbh per layer (sec. 4.2)") {
    const auto j = test::request("pretrain", "gpt3-175b",
                                 {{"training",
                                   {{"flash_attention", false},
                                    {"activation_checkpointing", "full"},
                                    {"accounting", {{"fused_cross_entropy", true}}}}}});
    const auto full = test::memory(j, test::layout(1, 0));
    const double one_layer = s * b * h * (34 + 5 * a * s / h);
    const double final_norm = 2 * 2 * s * b * h;
    // The backward working set: bf16 gradients of both MLP branches (2 x 4h) and of the layer's
    // input and output (2h) for the layer being recomputed.
    const double backward = 2 * s * b * (2 * 4 * h + 2 * h);
    CHECK(full.activations == Approx(96 * 2 * s * b * h + one_layer + final_norm + backward));
  }
}

TEST_CASE("FlashAttention removes the s^2 term", "[memory]") {
  const auto m = gpt3();
  ActivationInputs in;
  in.sequence_length = 8192;
  in.micro_batch = 1;
  in.flash_attention = false;
  const double materialised = layer_activation_bytes(m, in);
  in.flash_attention = true;
  const double flash = layer_activation_bytes(m, in);
  CHECK(flash < materialised / 5);
}

TEST_CASE("QLoRA fine-tunes a 65B model on one 48 GB GPU (Dettmers et al. 2023)",
          "[memory][reference]") {
  // QLoRA paper: NF4 + double quantisation, LoRA r = 64 on all linear layers, paged 32-bit
  // AdamW, gradient checkpointing; Guanaco-65B trained on a single 48 GB GPU.
  const auto j = test::request("qlora", "llama-65b",
                               {{"training",
                                 {{"sequence_length", 512},
                                  {"micro_batch_size", 1},
                                  {"lora_rank", 64},
                                  {"activation_checkpointing", "full"}}}});
  const auto e = test::memory(j, test::layout(1, 0));
  // NF4 weights of 65B parameters: 65.2e9 x 4.127 / 8 = 33.6 GB.
  CHECK(e.weights / 1e9 == Approx(35).margin(2.5));
  CHECK(e.total() < 48 * kGiB);
  CHECK(e.total() > 24 * kGiB);  // ... and clearly not on a 24 GB card
  const auto& cat = advisor::builtin_catalog();
  // The paper's 48 GB card: an RTX A6000 (49,140 MiB with ECC off, as nvidia-smi reports it).
  CHECK(advisor::fits(e, *cat.find_gpu("rtxa6000-48gb")));
  CHECK_FALSE(advisor::fits(e, *cat.find_gpu("rtx4090-24gb")));
}

TEST_CASE("KV cache for GQA models", "[memory][kv][reference]") {
  // Llama-3.1-8B: 32 layers x 2048 elements x 2 bytes = 128 KiB per token; 8192 tokens = 1 GiB.
  const auto j = test::request(
      "inference", "llama-3.1-8b",
      {{"inference", {{"prompt_tokens", 4096}, {"output_tokens", 4096}, {"concurrency", 1}}}});
  CHECK(test::memory(j, test::layout(1, 0)).kv_cache == Approx(1 * kGiB));
  // Llama-2-7B without GQA: 4x as much per token.
  const auto k = test::request("inference", "llama-2-7b",
                               {{"inference", {{"prompt_tokens", 2048}, {"output_tokens", 2048}}}});
  CHECK(test::memory(k, test::layout(1, 0)).kv_cache == Approx(2 * kGiB));
  // fp8 KV cache halves it; tensor parallel 2 splits the 8 KV heads.
  auto f = j;
  f["inference"]["kv_cache_precision"] = "fp8";
  CHECK(test::memory(f, test::layout(1, 0)).kv_cache == Approx(0.5 * kGiB));
  CHECK(test::memory(j, test::layout(2, 0, 2)).kv_cache == Approx(0.5 * kGiB));
}

TEST_CASE("sliding-window attention caps the KV cache", "[memory][kv]") {
  // Mistral-7B v0.1: 4096-token window; a 16k context caches only 4096 tokens per sequence.
  const auto j =
      test::request("inference", "mistral-7b",
                    {{"inference", {{"prompt_tokens", 12288}, {"output_tokens", 4096}}}});
  const double per_token = 32.0 * 2048 * 2;
  CHECK(test::memory(j, test::layout(1, 0)).kv_cache == Approx(4096 * per_token));
}

TEST_CASE("inference weights: bf16 Llama-2-7B is about 13.5 GB, int4 about a quarter", "[memory]") {
  const auto bf16 = test::memory(test::request("inference", "llama-2-7b"), test::layout(1, 0));
  CHECK(bf16.weights / 1e9 == Approx(13.48).epsilon(0.01));
  const auto int4 = test::memory(
      test::request("inference", "llama-2-7b", {{"inference", {{"weight_format", "int4"}}}}),
      test::layout(1, 0));
  // Linear layers at 4.16 bits; the 32000 x 4096 embedding and LM head stay 16-bit.
  CHECK(int4.weights / 1e9 == Approx(6.48e9 * 4.15625 / 8 / 1e9 + 0.524).epsilon(0.02));
}

TEST_CASE("memory properties", "[memory][property]") {
  SECTION("a bigger micro-batch never lowers peak memory") {
    double previous = 0;
    for (int b : {1, 2, 4, 8}) {
      const auto e = test::memory(
          test::request("full_finetune", "qwen2.5-7b", {{"training", {{"micro_batch_size", b}}}}),
          test::layout(8, 3));
      CHECK(e.total() >= previous);
      previous = e.total();
    }
  }
  SECTION("more GPUs under ZeRO-3 never raise per-GPU memory") {
    double previous = 1e300;
    for (int n : {1, 2, 4, 8, 16, 64}) {
      const auto e =
          test::memory(test::request("full_finetune", "llama-3.1-70b"), test::layout(n, 3));
      CHECK(e.total() <= previous);
      previous = e.total();
    }
  }
  SECTION("checkpointing never raises activations") {
    const auto base =
        test::request("pretrain", "llama-2-13b", {{"training", {{"sequence_length", 4096}}}});
    auto sel = base, full = base;
    sel["training"]["activation_checkpointing"] = "selective";
    full["training"]["activation_checkpointing"] = "full";
    const auto L = test::layout(8, 3);
    CHECK(test::memory(sel, L).activations <= test::memory(base, L).activations);
    CHECK(test::memory(full, L).activations < test::memory(sel, L).activations);
  }
  SECTION("CPU offload moves optimizer state to host RAM") {
    const auto base = test::request("full_finetune", "llama-2-7b");
    auto off = base;
    off["training"]["cpu_offload"] = {{"optimizer", true}};
    const auto on_gpu = test::memory(base, test::layout(1, 0));
    const auto offloaded = test::memory(off, test::layout(1, 0));
    CHECK(offloaded.optimizer == 0);
    CHECK(offloaded.host_ram_per_node > on_gpu.optimizer);
  }
  SECTION("the error band brackets the estimate") {
    const auto e = test::memory(test::request("lora", "qwen2.5-14b"), test::layout(1, 0));
    CHECK(e.band_low < e.total());
    CHECK(e.band_high > e.total());
  }
  SECTION("MoE expert parallel shards the experts") {
    auto j = test::request("inference", "qwen3-30b-a3b");
    auto L = test::layout(8, 0, 1);
    const auto no_ep = test::memory(j, L);
    L.ep = 8;
    const auto ep = test::memory(j, L);
    CHECK(ep.weights < no_ep.weights / 4);
  }
}

TEST_CASE("LoRA trains a small fraction of the parameters", "[memory]") {
  // Llama-2-7B, r = 8 on q and v: 2 x 8 x (4096 + 4096) x 32 layers = 4.19M (LoRA paper setup).
  const auto j = test::request("lora", "llama-2-7b",
                               {{"training", {{"lora_rank", 8}, {"lora_targets", {"q", "v"}}}}});
  CHECK(advisor::trainable_params(test::parse(j)) == Approx(4194304));
}

TEST_CASE("context parallelism divides the activations and shards ZeRO state over dp x cp",
          "[memory][context_parallel]") {
  // Llama 3.1 8B pretraining at 128k tokens, full checkpointing, FSDP over 8 GPUs.
  const auto base = test::request(
      "pretrain", "llama-3.1-8b",
      {{"training", {{"sequence_length", 131072}, {"activation_checkpointing", "full"}}},
       {"parallelism", {{"cp", 8}}}});
  advisor::Layout with_cp = test::layout(8, 3);
  with_cp.cp = 8;
  with_cp.dp = 1;
  const auto cp8 = test::memory(base, with_cp);
  // The same sequence on one GPU's share of 1/8 of the tokens without cp: the activations
  // of 16k tokens, plus the ring's K/V buffers.
  auto short_seq = base;
  short_seq["training"]["sequence_length"] = 131072 / 8;
  short_seq["parallelism"].erase("cp");
  const auto local = test::memory(short_seq, test::layout(8, 3));
  const auto& m = *advisor::builtin_catalog().find_model("llama-3.1-8b");
  const double ring = 4 * 2.0 * (131072 / 8) * 2 * m.kv_heads * m.head_dim;
  CHECK(cp8.activations == Approx(local.activations + ring));
  // ZeRO-3 over dp x cp = 8 ranks: weights, gradients and optimizer states as with dp 8.
  CHECK(cp8.weights == Approx(local.weights));
  CHECK(cp8.optimizer == Approx(local.optimizer));
  // And far below the whole sequence on each rank (plain data parallel).
  auto whole = base;
  whole["parallelism"].erase("cp");
  const auto no_cp = test::memory(whole, test::layout(8, 3));
  CHECK(cp8.activations < no_cp.activations / 6);
}

TEST_CASE("cp = 1 is the model without context parallelism", "[memory][context_parallel]") {
  const auto plain =
      test::request("pretrain", "llama-3.1-8b", {{"training", {{"sequence_length", 8192}}}});
  auto stated = plain;
  stated["parallelism"] = {{"cp", 1}};
  const auto a = test::memory(plain, test::layout(8, 3));
  const auto b = test::memory(stated, test::layout(8, 3));
  CHECK(a.total() == b.total());
  CHECK(a.activations == b.activations);
}

TEST_CASE("hybrid sharding divides ZeRO state by the shard group, not dp x cp",
          "[memory][shard_group]") {
  // Llama 3.1 8B pretraining on 64 GPUs, ZeRO-3 (FSDP): HSDP with shard groups of 8 holds 8x
  // the weights, gradients and optimizer states of full sharding over 64 ranks.
  const auto plain = test::request("pretrain", "llama-3.1-8b", nlohmann::json::object());
  auto whole = plain;
  whole["parallelism"] = {{"shard_group", 64}};
  auto hybrid = plain;
  hybrid["parallelism"] = {{"shard_group", 8}};
  advisor::Layout full = test::layout(64, 3);
  advisor::Layout g64 = full;
  g64.shard_group = 64;
  advisor::Layout g8 = full;
  g8.shard_group = 8;
  const auto a = test::memory(plain, full);
  const auto b = test::memory(whole, g64);
  const auto c = test::memory(hybrid, g8);
  // A shard group of all dp x cp ranks is today's full sharding.
  CHECK(b.total() == a.total());
  CHECK(b.weights == a.weights);
  // A smaller group: the sharded terms grow by dp / g = 8; activations do not change.
  CHECK(c.weights == Approx(a.weights * 8));
  CHECK(c.gradients == Approx(a.gradients * 8));
  CHECK(c.optimizer == Approx(a.optimizer * 8));
  CHECK(c.activations == Approx(a.activations));
  // With context parallel the group divides dp x cp: cp 2 x dp 4 with g 8 is full sharding.
  advisor::Layout cp_full = full;
  cp_full.dp = 32;
  cp_full.cp = 2;
  advisor::Layout cp_g = cp_full;
  cp_g.shard_group = 16;
  CHECK(cp_g.shard_replicas() == 4);
  CHECK(test::memory(plain, cp_g).optimizer == Approx(a.optimizer * 4));
}
