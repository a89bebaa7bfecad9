// SPDX-License-Identifier: MIT
#include "io/perf_settings_json.hpp"

#include "engine/memory.hpp"
#include "io/json_reader.hpp"
#include "io/request_json.hpp"
#include "types/catalog.hpp"
#include "types/errors.hpp"
#include "types/request.hpp"

namespace advisor {

namespace {
// Far above any real job (Llama 3: 15.6T tokens), low enough to keep products finite.
constexpr double kMaxTokens = 1e16;
constexpr double kMaxEpochs = 10'000;
constexpr std::int64_t kMaxGlobalBatch = 1'000'000'000;
constexpr std::int64_t kMaxModelLen = 100'000'000;
constexpr std::int64_t kMaxUsers = 1'000'000'000;
constexpr double kMaxTokensPerSecondPerUser = 1e6;
constexpr double kMaxNetworkGbps = 100'000;  // Gbit/s per GPU
// Fast Ethernet per GPU: slower is a typo, and a step time divides by it (1e-308 made it inf).
constexpr double kMinNetworkGbps = 0.1;
constexpr double kMaxStorageGBps = 1'000'000;  // GB/s
}  // namespace

void read_training_perf(FieldReader& t, TrainingPerfSettings& out) {
  out.tokens = t.nullable_number("tokens", 0, kMaxTokens, true);
  out.epochs = t.nullable_number("epochs", 0, kMaxEpochs, true);
  out.dataset_tokens = t.nullable_number("dataset_tokens", 0, kMaxTokens, true);
  out.global_batch_size = t.nullable_integer("global_batch_size", 1, kMaxGlobalBatch);
  if (out.tokens) {
    ADVISOR_REQUIRE_OR_RETURN(!out.epochs && !out.dataset_tokens, "inconsistent",
                              t.path_of("tokens"),
                              t.path_of("tokens") +
                                  " and epochs/dataset_tokens both give the token budget: set "
                                  "one or the other");
  }
  if (out.epochs) {
    ADVISOR_REQUIRE_OR_RETURN(out.dataset_tokens.has_value(), "missing_field",
                              t.path_of("dataset_tokens"),
                              t.path_of("dataset_tokens") + " is required with " +
                                  t.path_of("epochs") + " (tokens in one pass over the data)");
  }
  if (out.tokens || out.dataset_tokens) {
    const double budget = out.tokens ? *out.tokens : *out.dataset_tokens * out.epochs.value_or(1);
    ADVISOR_REQUIRE_OR_RETURN(
        budget <= kMaxTokens, "out_of_range", t.path_of(out.tokens ? "tokens" : "epochs"),
        "the token budget (" + format_number(budget) + ") must be <= " + format_number(kMaxTokens));
  }
}

void read_inference_perf(FieldReader& r, InferencePerfSettings& out) {
  // Default: the serving stack's (set by read_inference; vLLM 0.9).
  out.gpu_memory_utilization =
      r.number("gpu_memory_utilization", 0, 1, out.gpu_memory_utilization, true);
  out.max_model_len = r.nullable_integer("max_model_len", 1, kMaxModelLen);
  out.target_users = r.nullable_integer("target_users", 1, kMaxUsers);
  out.target_tokens_per_second_per_user =
      r.nullable_number("target_tokens_per_second_per_user", 0, kMaxTokensPerSecondPerUser, true);
  constexpr double kMaxFirstTokenSeconds = 3600;  // an hour: beyond it, no interactive target
  out.target_time_to_first_token_s =
      r.nullable_number("target_time_to_first_token_s", 0, kMaxFirstTokenSeconds, true);
  ADVISOR_REQUIRE_OR_RETURN(
      !out.target_time_to_first_token_s || out.target_users, "missing_field",
      r.path_of("target_users"),
      r.path_of("target_users") + " is required with " + r.path_of("target_time_to_first_token_s"));
  if (out.target_tokens_per_second_per_user) {
    ADVISOR_REQUIRE_OR_RETURN(out.target_users.has_value(), "missing_field",
                              r.path_of("target_users"),
                              r.path_of("target_users") + " is required with " +
                                  r.path_of("target_tokens_per_second_per_user"));
  }
}

ClusterSettings read_cluster(const JsonValue* cluster) {
  const JsonValue empty = JsonValue::object();
  FieldReader c(cluster ? *cluster : empty, "/cluster");
  ClusterSettings s;
  if (c.has("inter_node_network")) {
    s.inter_node_network =
        c.choice("inter_node_network", {kNetworkIds[0], kNetworkIds[1], kNetworkIds[2],
                                        kNetworkIds[3], kNetworkIds[4], kNetworkIds[5]});
  } else {
    c.raw("inter_node_network");  // null means "auto"
    if (FieldLog::recording()) {
      FieldLog::note({c.path_of("inter_node_network"),
                      "choice",
                      {},
                      {},
                      false,
                      nullptr,
                      {std::begin(kNetworkIds), std::end(kNetworkIds)}});
    }
  }
  // Every _gbps key means GB/s; the line rate in Gbit/s is _gbit_per_s. Schema 1 called it
  // inter_node_gbps_per_gpu: still accepted, with a deprecation warning.
  constexpr const char* kKey = "inter_node_gbit_per_s_per_gpu";
  constexpr const char* kOldKey = "inter_node_gbps_per_gpu";
  s.inter_node_gbit_per_s_per_gpu = c.nullable_number(kKey, kMinNetworkGbps, kMaxNetworkGbps);
  const JsonValue* old_given = c.raw(kOldKey);  // not a form input: read only when given
  if (const auto old = old_given && !old_given->is_null()
                           ? c.nullable_number(kOldKey, kMinNetworkGbps, kMaxNetworkGbps)
                           : std::nullopt) {
    if (s.inter_node_gbit_per_s_per_gpu)
      return report_problem(
          "inconsistent", c.path_of(kOldKey),
          c.path_of(kOldKey) + " is the old name of " + c.path_of(kKey) + ": give one");
    s.inter_node_gbit_per_s_per_gpu = old;
    s.deprecated_gbps_key = true;
  }
  const std::string given = c.path_of(s.deprecated_gbps_key ? kOldKey : kKey);
  if (s.inter_node_network && s.inter_node_gbit_per_s_per_gpu)
    return report_problem("inconsistent", given,
                          given +
                              " and /cluster/inter_node_network both describe the network between "
                              "servers: set one or the other");
  s.nvlink_bridges = c.boolean("nvlink_bridges", false);
  s.storage_read_gbps = c.nullable_number("storage_read_gbps", 0, kMaxStorageGBps, true);
  c.reject_unknown();
  return s;
}

}  // namespace advisor
