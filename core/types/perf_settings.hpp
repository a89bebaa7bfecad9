// SPDX-License-Identifier: MIT
// Speed-related request keys (training budget, serving targets, cluster network and storage).
// Parsed strictly with FieldReader: ranges checked, never clamped; errors carry the JSON pointer.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace advisor {

class FieldReader;
struct Request;
struct Catalog;
struct Layout;

/// /training keys for time-to-train.
struct TrainingPerfSettings {
  std::optional<double> tokens;  // token budget; or epochs x dataset_tokens
  std::optional<double> epochs;
  std::optional<double> dataset_tokens;
  std::optional<std::int64_t> global_batch_size;  // sequences per optimizer step; nullopt = auto
};

/// /inference keys for serving (vLLM-style engine).
struct InferencePerfSettings {
  double gpu_memory_utilization = 0.9;        // vLLM default
  std::optional<std::int64_t> max_model_len;  // nullopt = prompt + output
  std::optional<std::int64_t> target_users;   // concurrent users to serve
  std::optional<double> target_tokens_per_second_per_user;
  /// The time to first token each user should see at the tail (p90), s; nullopt = no target.
  std::optional<double> target_time_to_first_token_s;
};

/// /cluster: the network between servers and the storage behind them.
struct ClusterSettings {
  std::optional<std::string> inter_node_network;  // ib_ndr400 | ib_hdr200 | roce_200 | ...
  std::optional<double>
      inter_node_gbit_per_s_per_gpu;        // line rate per GPU instead of a named network
  bool deprecated_gbps_key = false;         // the request used schema 1's inter_node_gbps_per_gpu
  bool nvlink_bridges = false;              // PCIe cards with NVLink bridges installed
  std::optional<double> storage_read_gbps;  // GB/s (bytes) the storage delivers
};

/// Named scale-out networks a request may choose (ids for /cluster/inter_node_network).
const char* const kNetworkIds[] = {"ib_ndr400", "ib_hdr200",   "roce_200",
                                   "roce_100",  "ethernet_25", "ethernet_25_per_server"};

}  // namespace advisor
