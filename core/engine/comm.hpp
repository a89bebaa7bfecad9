// SPDX-License-Identifier: MIT
// Interconnect model: bus bandwidth (as nccl-tests reports it) of the links inside a server and
// of the network between servers, and the time of NCCL collectives over them.
//
// busbw convention (nccl-tests PERFORMANCE.md): all-reduce moves 2(n-1)/n of the buffer per GPU,
// reduce-scatter and all-gather (n-1)/n, so time = latency + factor x bytes / busbw.
#pragma once
#include <string>
#include <string_view>

#include "engine/memory.hpp"
#include "types/catalog.hpp"
#include "types/perf_constants.hpp"
#include "types/perf_settings.hpp"

namespace advisor {

enum class IntraLink {
  kNvSwitch,  // NVLink through NVSwitch (HGX baseboards), all-to-all
  kMesh,      // fully connected point-to-point links (MI300X Infinity Fabric)
  kBridge,    // NVLink bridge between 2 (or 4) PCIe cards; PCIe beyond the bridge domain
  kPcieP2p,   // PCIe with peer-to-peer DMA
  kPcieHost,  // PCIe through host memory (GeForce: P2P disabled)
};

const char* intra_link_name(IntraLink link);

/// Which intra-server link to assume for a GPU (the scaling curve compares them). kSwitched is
/// the same chip on an NVSwitch baseboard at its own NVLink rate (a PCIe card's SXM sibling).
enum class LinkChoice { kNative, kPcie, kSwitched };

/// The links of a planned cluster for one GPU type.
struct Fabric {
  IntraLink intra = IntraLink::kPcieP2p;
  double link_gbps = 0;  // GB/s per direction per GPU of the scale-up link (NVLink class)
  int link_domain = 1;   // GPUs one scale-up link domain joins (bridge: 2 or 4)
  double pcie_gbps = 0;  // GB/s per direction of the GPU's PCIe x16 slot
  bool pcie_p2p = true;
  // Views of the performance constants' network kind (or of a literal), which outlive every
  // fabric of a request: a search makes one fabric per GPU and count tried.
  std::string_view network_id;    // ib_ndr400 | ... | "custom"
  std::string_view network_name;  // empty for "custom": network_label() words it
  double network_gbps = 0;        // GB/s per GPU per direction, line rate
  double network_efficiency = 0;
  bool network_rdma = true;                  // false: NCCL's socket transport (TCP)
  double network_extra_hop_us = 0;           // added to each network step (sockets)
  double network_gbit_per_s_per_server = 0;  // a NIC the server's GPUs share (0: one per GPU)
  int gpus_per_node = 8;
  bool network_auto = false;      // chosen by the advisor (no /cluster network given)
  std::string_view server_class;  // the class whose network was assumed (network_auto only)
  bool nvls = false;              // NVLink SHARP: NVSwitch in-switch reduction (Hopper, Blackwell)
  std::string note;               // assumption text (e.g. unknown link bandwidth)
};

/// The network between servers as the results name it: the kind's name, or for a custom line
/// its rate ("400 Gb/s per GPU (RDMA assumed)").
std::string network_label(const Fabric& f);

/// The fabric for `gpu` under the request's cluster settings.
/// `gpus_per_server`: GPUs inside one server (engine/cost_scenario gpus_per_server()).
Fabric make_fabric(const GpuSpec& gpu, const ClusterSettings& cluster,
                   const PerformanceConstants& k, int gpus_per_server,
                   LinkChoice choice = LinkChoice::kNative);

/// The class of server `gpu` is sold in (types/perf_constants kServerClasses): SXM/OAM/module
/// baseboards by PCIe generation, PCIe cards without peer-to-peer (GeForce), the workstation
/// cards performance.json lists, and other (data-centre) PCIe cards.
std::string_view server_class(const GpuSpec& gpu, const PerformanceConstants& k);

/// GB/s per direction of a PCIe link.
double pcie_gbps(int generation, int lanes);

/// All-reduce bus bandwidth (GB/s) among `n` GPUs inside one server.
double intra_node_busbw(const Fabric& f, int n, const PerformanceConstants& k);

/// Bus bandwidth of the scale-out network for a group with `per_node` GPUs in each server
/// (rail-optimised: each GPU has its own NIC, so one server contributes per_node NICs).
double network_busbw(const Fabric& f, int per_node);

/// Bus bandwidth of a collective over `n` GPUs placed `per_node` to a server: hierarchical,
/// bounded by the slower of the intra-node and inter-node levels. 0 when n <= 1.
double group_busbw(const Fabric& f, int n, int per_node, const PerformanceConstants& k);

/// Large-message all-reduce bus bandwidth: the ring's, or NVLink SHARP's where the NVSwitch
/// reduces in the switch (Hopper/Blackwell, a group inside one server): link x nvls_efficiency.
double allreduce_busbw(const Fabric& f, int n, int per_node, const PerformanceConstants& k);

/// NVLink SHARP's large-message all-reduce bus bandwidth; 0 where the group cannot use it (no
/// NVSwitch with in-switch reduction, 2 GPUs or fewer, or a group across servers).
double nvls_busbw(const Fabric& f, int n, int per_node, const PerformanceConstants& k);

/// An all-to-all (MoE dispatch or combine) of `bytes` per GPU over `n` GPUs placed `per_node`
/// to a server: each GPU keeps 1/n, sends (per_node-1)/n over the server's links and
/// (n-per_node)/n over its share of the network, both at once; the slower sets the time.
double all_to_all_time_s(double bytes, int n, int per_node, const Fabric& f,
                         const PerformanceConstants& k);

/// Point-to-point bandwidth (GB/s) between two GPUs (pipeline stages).
double p2p_gbps(const Fabric& f, bool crosses_nodes, const PerformanceConstants& k);

/// Collective times (s) from a bus bandwidth and a fixed latency. `bytes` is the full buffer
/// (all-reduce: the tensor; reduce-scatter: the unsharded input; all-gather: the gathered
/// output). 0 for n <= 1.
double allreduce_s(double bytes, int n, double busbw_gbps, double latency_s);
double reduce_scatter_s(double bytes, int n, double busbw_gbps, double latency_s);
double all_gather_s(double bytes, int n, double busbw_gbps, double latency_s);

/// Collective times (s) as NCCL runs them over a group of `n` GPUs placed `per_node` to a
/// server: the fastest protocol for the message size (tuning.cc: LL, LL128, Simple), each with
/// latency = base + ring steps x per-step latency of the link crossed, and bandwidth = its
/// share of the group's bus bandwidth; all-reduce may use NVLS. Small messages are latency-
/// bound: 1 MB over 8 H100s runs at a fraction of the large-message busbw.
double allreduce_time_s(double bytes, int n, int per_node, const Fabric& f,
                        const PerformanceConstants& k);
double reduce_scatter_time_s(double bytes, int n, int per_node, const Fabric& f,
                             const PerformanceConstants& k);
/// One point-to-point send of `bytes` (pipeline stages), same latency model (one step).
double p2p_time_s(double bytes, bool crosses_nodes, const Fabric& f, const PerformanceConstants& k);
/// The bus bandwidth nccl-tests would report for an all-reduce of `bytes`.
double allreduce_busbw_at(double bytes, int n, int per_node, const Fabric& f,
                          const PerformanceConstants& k);

/// Where the groups of a layout sit (Megatron order: TP innermost, then CP, then DP, then PP).
struct GroupPlacement {
  int tp_per_node = 1;
  int cp_per_node = 1;
  int dp_per_node = 1;  // of the gradient group, data x context parallel (Layout::shard_ranks)
  bool tp_crosses = false;
  bool cp_crosses = false;
  bool dp_crosses = false;
  bool pp_crosses = false;
  // Hybrid sharding (Layout::shard_group): the shard group is the innermost part of the
  // data-parallel ranks (FSDP's HSDP device mesh (replicate, shard) puts shard last), so it
  // sits inside a server when it fits; the replica group joins ranks a shard group apart.
  int shard_per_node = 1;    // of the ZeRO shard group (Layout::zero_shards)
  int replica_per_node = 1;  // of the group of replicas of one shard (Layout::shard_replicas)
  bool replica_crosses = false;
};
GroupPlacement place_groups(const Layout& layout, int gpus_per_node);

}  // namespace advisor
