// SPDX-License-Identifier: MIT
#include "perf_settings.hpp"

#include "catalog.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "memory.hpp"
#include "request.hpp"

namespace advisor {

namespace {
// Far above any real job (Llama 3: 15.6T tokens), low enough to keep products finite.
constexpr double kMaxTokens = 1e16;
constexpr double kMaxEpochs = 10'000;
constexpr std::int64_t kMaxGlobalBatch = 1'000'000'000;
constexpr std::int64_t kMaxModelLen = 100'000'000;
constexpr std::int64_t kMaxUsers = 1'000'000'000;
constexpr double kMaxTokensPerSecondPerUser = 1e6;
constexpr double kMaxNetworkGbps = 100'000;   // Gbit/s per GPU
constexpr double kMaxStorageGBps = 1'000'000;  // GB/s
}  // namespace

void read_training_perf(FieldReader& t, TrainingPerfSettings& out) {
  out.tokens = t.nullable_number("tokens", 0, kMaxTokens, true);
  out.epochs = t.nullable_number("epochs", 0, kMaxEpochs, true);
  out.dataset_tokens = t.nullable_number("dataset_tokens", 0, kMaxTokens, true);
  out.global_batch_size = t.nullable_integer("global_batch_size", 1, kMaxGlobalBatch);
  if (out.tokens) {
    require(!out.epochs && !out.dataset_tokens, "inconsistent", t.path_of("tokens"),
            t.path_of("tokens") + " and epochs/dataset_tokens both give the token budget: set "
                                  "one or the other");
  }
  if (out.epochs) {
    require(out.dataset_tokens.has_value(), "missing_field", t.path_of("dataset_tokens"),
            t.path_of("dataset_tokens") + " is required with " + t.path_of("epochs") +
                " (tokens in one pass over the data)");
  }
  if (out.tokens || out.dataset_tokens) {
    const double budget = out.tokens ? *out.tokens : *out.dataset_tokens * out.epochs.value_or(1);
    require(budget <= kMaxTokens, "out_of_range", t.path_of(out.tokens ? "tokens" : "epochs"),
            "the token budget (" + format_number(budget) + ") must be <= " +
                format_number(kMaxTokens));
  }
}

void read_inference_perf(FieldReader& r, InferencePerfSettings& out) {
  out.gpu_memory_utilization = r.number("gpu_memory_utilization", 0, 1, 0.9, true);
  out.max_model_len = r.nullable_integer("max_model_len", 1, kMaxModelLen);
  out.target_users = r.nullable_integer("target_users", 1, kMaxUsers);
  out.target_tokens_per_second_per_user =
      r.nullable_number("target_tokens_per_second_per_user", 0, kMaxTokensPerSecondPerUser, true);
  if (out.target_tokens_per_second_per_user) {
    require(out.target_users.has_value(), "missing_field", r.path_of("target_users"),
            r.path_of("target_users") + " is required with " +
                r.path_of("target_tokens_per_second_per_user"));
  }
}

ClusterSettings read_cluster(const nlohmann::json* cluster) {
  const nlohmann::json empty = nlohmann::json::object();
  FieldReader c(cluster ? *cluster : empty, "/cluster");
  ClusterSettings s;
  if (c.has("inter_node_network")) {
    s.inter_node_network = c.choice("inter_node_network", {"ib_ndr400", "ib_hdr200", "roce_200",
                                                           "roce_100", "ethernet_25"});
  } else {
    c.raw("inter_node_network");  // null means "auto"
  }
  s.inter_node_gbps_per_gpu =
      c.nullable_number("inter_node_gbps_per_gpu", 0, kMaxNetworkGbps, true);
  require(!(s.inter_node_network && s.inter_node_gbps_per_gpu), "inconsistent",
          "/cluster/inter_node_gbps_per_gpu",
          "/cluster/inter_node_gbps_per_gpu and /cluster/inter_node_network both describe the "
          "network between servers: set one or the other");
  s.nvlink_bridges = c.boolean("nvlink_bridges", false);
  s.storage_read_gbps = c.nullable_number("storage_read_gbps", 0, kMaxStorageGBps, true);
  c.reject_unknown();
  return s;
}

void validate_speed(const Request& req, const Catalog& catalog) {
  const InferencePerfSettings& ip = req.inference.perf;
  if (req.task == Task::kInference && ip.max_model_len) {
    const std::int64_t needed = req.inference.prompt_tokens + req.inference.output_tokens;
    require(*ip.max_model_len >= needed, "inconsistent", "/inference/max_model_len",
            "/inference/max_model_len " + std::to_string(*ip.max_model_len) +
                " is shorter than prompt_tokens + output_tokens (" + std::to_string(needed) +
                "): the engine would reject these requests");
  }
  if (!req.hardware || !is_training(req.task)) return;
  const GpuSpec* gpu = catalog.find_gpu(req.hardware->gpu);
  if (gpu == nullptr) return;  // reported by the caller
  const TrainingSettings& t = req.training;
  if (t.precision == "fp8") {
    require(gpu->fp8_dense_tflops.has_value(), "unsupported", "/training/precision",
            "/training/precision fp8 needs FP8 tensor cores, which " + gpu->name +
                " does not have (or no dense FP8 rate is published); use bf16");
  }
  if (t.precision == "fp32") {
    require(gpu->fp32_tflops.has_value(), "unsupported", "/training/precision",
            "/training/precision fp32: no FP32 rate is published for " + gpu->name +
                "; use bf16");
  }
  // The global batch against micro-batch x data parallel is checked once the layout on the
  // pinned GPUs is known (check_global_batch, from the speed results).
}

void check_global_batch(const Request& req, const Layout& L) {
  const TrainingSettings& t = req.training;
  if (!req.hardware || !is_training(req.task) || !t.perf.global_batch_size) return;
  const std::int64_t per_pass = t.micro_batch_size * L.dp;
  const std::int64_t gb = *t.perf.global_batch_size;
  if (gb % per_pass == 0) return;
  const std::int64_t lower = gb / per_pass * per_pass;
  const std::int64_t upper = lower + per_pass;
  throw InputError(
      "inconsistent", "/training/global_batch_size",
      "/training/global_batch_size " + std::to_string(gb) +
          " must be a multiple of micro_batch_size x data-parallel size (" +
          std::to_string(t.micro_batch_size) + " x " + std::to_string(L.dp) + " = " +
          std::to_string(per_pass) + " with tp " + std::to_string(L.tp) + " x pp " +
          std::to_string(L.pp) + " on " + std::to_string(L.count) + " GPUs); try " +
          (lower > 0 ? std::to_string(lower) + " or " : std::string()) + std::to_string(upper));
}

}  // namespace advisor
