// SPDX-License-Identifier: MIT
// The few constants of the speed model, from data/performance.json. Each has a basis and a
// source there; a handful are fitted on ../shared/reference/calibration.json (docs/speed.md).
#pragma once
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "types/stack.hpp"

namespace advisor {

/// NCCL's own latency model for ring collectives (src/graph/tuning.cc): a protocol's base
/// latency plus a per-step latency of the link each ring step crosses; the protocols trade
/// latency for bandwidth (LL sends 8 bytes of data per 16, LL128 120 per 128).
enum class Hop { kNvlink = 0, kPcie = 1, kNetwork = 2 };
struct CollectiveProtocol {
  std::string name;                      // LL | LL128 | Simple
  double base_latency_us = 0;            // baseLat, ring
  double hop_latency_us[3] = {0, 0, 0};  // hwLat ring: NVLink, PCIe, network
  double bandwidth_fraction = 1;         // of the link's large-message bus bandwidth
  // Tree all-reduce across servers (log2 of the servers deep): baseLat and hwLat of the tree.
  double tree_base_latency_us = 0;
  double tree_hop_latency_us[3] = {0, 0, 0};
};

/// Measured maximum achievable matmul throughput as a fraction of the dense peak (MAMF).
struct MatmulFraction {
  std::vector<std::string> gpus;  // catalog ids sharing the measurement (same silicon)
  double bf16 = 0;
  std::optional<double> fp8;
};

/// Achieved fraction of the dense peak in FlashAttention kernels (forward + backward), counting
/// the work a causal kernel actually does.
struct AttentionFraction {
  std::vector<std::string> gpus;
  double value = 0;
};

/// A named scale-out network: one NIC per GPU (rail-optimised) or NICs a whole server shares.
struct NetworkKind {
  std::string id;
  std::string name;
  double gbit_per_s_per_gpu = 0;     // line rate per GPU (0 when given per server)
  double gbit_per_s_per_server = 0;  // line rate a server's GPUs share (0 when given per GPU)
  double efficiency = 0;             // NCCL bus bandwidth / line rate
  bool rdma = true;                  // false: NCCL's socket transport (TCP through host memory)
  double extra_hop_latency_us = 0;   // added to each network step of a collective (sockets)
  /// Line rate per GPU (Gbit/s) in a server of `gpus_per_server`: a shared NIC split evenly
  /// (every GPU of a training step sends at once).
  double gbit_per_s_per_gpu_in(int gpus_per_server) const {
    return gbit_per_s_per_server > 0 ? gbit_per_s_per_server / std::max(1, gpus_per_server)
                                     : gbit_per_s_per_gpu;
  }
};

/// Server classes by what they are sold with (engine/comm server_class()).
constexpr const char* kServerClasses[] = {"hgx_pcie5", "hgx_pcie4", "pcie_datacenter",
                                          "workstation", "geforce"};

/// The network a class of server is sold with when the request states none
/// (performance.json server_networks: each with its basis and source there).
struct ServerNetwork {
  std::string server_class;       // hgx_pcie5 | hgx_pcie4 | pcie_datacenter | workstation | geforce
  std::string network;            // a networks[] id
  std::vector<std::string> gpus;  // parts of this class by id (workstation cards)
};

struct PerformanceConstants {
  // Compute.
  double framework_efficiency = 0;  // fraction of MAMF a training/serving stack sustains
  double default_matmul_fraction_bf16 = 0;
  double default_matmul_fraction_fp8 = 0;
  double default_attention_fraction = 0;
  double memory_bandwidth_efficiency = 0;  // achievable fraction of peak DRAM bandwidth
  // A part run under a power limit (engine/power_limit).
  double power_limit_static_fraction = 0;   // share of TDP a lower clock does not take away
  double power_limit_dynamic_exponent = 0;  // the cores' power ~ clock^exponent
  double power_limit_min_fraction = 0;      // lowest limit modelled, share of TDP
  // Added with add_fraction(), which indexes them by GPU id.
  std::vector<MatmulFraction> matmul_fractions;
  std::vector<AttentionFraction> attention_fractions;
  // Communication.
  double nvlink_efficiency = 0;           // all-reduce busbw / per-direction NVLink bandwidth
  double nvlink_bridge_efficiency = 0;    // same, for a 2-GPU NVLink bridge
  double pcie_p2p_efficiency = 0;         // same, for PCIe peer-to-peer
  double pcie_host_efficiency = 0;        // same, for PCIe through host memory (no P2P)
  double host_memory_bandwidth_gbps = 0;  // what host-bounced traffic shares (GB/s)
  double overlap_fraction = 0;            // share of compute that can hide data-parallel traffic
  std::vector<CollectiveProtocol> protocols;  // LL, LL128, Simple
  double nvls_efficiency = 0;  // NVLink SHARP all-reduce busbw / per-direction link bandwidth
  double nvls_latency_us = 0;  // its latency (tuning.cc hwLat NVLS)
  std::vector<NetworkKind> networks;
  std::vector<ServerNetwork> server_networks;
  // Serving.
  // Weight-only kernels dequantise every weight they read on the CUDA cores (unpack, convert,
  // scale): FP32-rate operations per weight at 8 and 4 bits (engine/serving).
  double int8_dequant_ops_per_weight = 0;
  double int4_dequant_ops_per_weight = 0;
  double unstated_fp32_tflops_per_memory_tbps = 0;  // a part with no FP32 rate: the slowest's
  double kv_read_bandwidth_factor = 1;              // paged-attention KV reads vs weight streaming
  double decode_layer_floor_us = 0;                 // fixed time per layer per decode step
  // Whole runs.
  double failures_per_gpu_hour = 0;   // unexpected interruptions per GPU-hour (Llama 3)
  double hours_lost_per_failure = 0;  // restart + lost progress per interruption
  // A job's start-up (engine/job_startup): paid once per run by every GPU of the plan.
  double container_image_gb = 0;           // pulled on each server
  double image_pull_gbit_per_s = 0;        // from the registry (mirror) to a server
  double checkpoint_read_gbyte_per_s = 0;  // the base weights read on each server
  double warmup_s = 0;                     // first process to first useful step
  double rendezvous_s_per_doubling = 0;    // per doubling of the servers
  // The run's checkpoint saves (engine/checkpoint_writes).
  double checkpoint_interval_hours = 0;     // training time between two saves
  double checkpoint_write_gbyte_per_s = 0;  // each server writing its shard
  // Software stacks.
  std::vector<StackProfile> stacks;
  // Defaults.
  double auto_global_batch_tokens_pretrain = 0;
  double auto_global_batch_sequences_finetune = 0;
  double pretrain_tokens_per_parameter = 0;
  double finetune_tokens = 0;
  double storage_read_factor = 0;

  const NetworkKind* find_network(const std::string& id) const;
  const ServerNetwork* find_server_network(const std::string& server_class) const;
  const StackProfile* find_stack(const std::string& id) const;
  /// The stack a task runs on when the request names none (the first listing it).
  const StackProfile* default_stack(Task task) const;
  /// MAMF fraction for a GPU id at "bf16" or "fp8" (falls back to the defaults).
  double matmul_fraction(const std::string& gpu_id, bool fp8) const;
  /// FlashAttention fraction of the 16-bit peak for a GPU id (falls back to the default).
  double attention_fraction(const std::string& gpu_id) const;
  /// Appends a measurement and indexes its GPU ids (an id already listed keeps its first).
  void add_fraction(MatmulFraction fraction);
  void add_fraction(AttentionFraction fraction);

 private:
  // The entry of each list naming a GPU id, as a scan in order would find it: the speed model
  // asks for every GPU, count and layout it estimates (~1,500 times per advise()).
  std::unordered_map<std::string, std::size_t> matmul_entry_of_, attention_entry_of_;
};

}  // namespace advisor
