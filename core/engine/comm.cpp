// SPDX-License-Identifier: MIT
#include "engine/comm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "types/text.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {
// PCIe per-lane rate per direction after 128b/130b encoding (Gen3-5) / FLIT (Gen6), GB/s:
// x16 Gen4 = 31.5, Gen5 = 63 (hardware-facts.md 2a).
double pcie_lane_gbps(int generation) {
  switch (generation) {
    case 3:
      return 0.985;
    case 4:
      return 1.969;
    case 5:
      return 3.938;
    default:
      return generation >= 6 ? 7.563 : 0.985;
  }
}
}  // namespace

const char* intra_link_name(IntraLink link) {
  switch (link) {
    case IntraLink::kNvSwitch:
      return "nvswitch";
    case IntraLink::kMesh:
      return "mesh";
    case IntraLink::kBridge:
      return "nvlink_bridge";
    case IntraLink::kPcieP2p:
      return "pcie_p2p";
    case IntraLink::kPcieHost:
      return "pcie_host";
  }
  return "?";
}

double pcie_gbps(int generation, int lanes) { return pcie_lane_gbps(generation) * lanes; }

Fabric make_fabric(const GpuSpec& gpu, const ClusterSettings& cluster,
                   const PerformanceConstants& k, int gpus_per_server, LinkChoice choice) {
  Fabric f;
  f.gpus_per_node = gpus_per_server;
  f.pcie_gbps = pcie_gbps(gpu.pcie_generation, gpu.pcie_lanes);
  f.pcie_p2p = gpu.pcie_peer_to_peer;
  f.intra = f.pcie_p2p ? IntraLink::kPcieP2p : IntraLink::kPcieHost;
  const ScaleUpLink& link = gpu.scale_up_link;
  if (choice != LinkChoice::kPcie && link.topology != "none") {
    const bool usable =
        link.topology == "switched" || cluster.nvlink_bridges || choice == LinkChoice::kSwitched;
    if (!link.bidirectional_gbps) {
      f.note = gpu.name + ": the " + link.name +
               " bandwidth is not published; GPU-to-GPU traffic is modelled over PCIe";
    } else if (usable) {
      f.link_gbps = *link.bidirectional_gbps / 2;
      f.link_domain = std::max(1, link.max_gpus_per_domain);
      if (choice == LinkChoice::kSwitched && link.topology == "bridge") {
        f.intra = IntraLink::kNvSwitch;
        f.link_domain = gpus_per_server;
      } else if (link.topology == "bridge") {
        f.intra = IntraLink::kBridge;
      } else if (link.name.find("Infinity Fabric") != std::string::npos || link.name == "HCCS") {
        // 7 point-to-point links, one per peer (MI300X; the Ascend 910B's HCCS full mesh)
        f.intra = IntraLink::kMesh;
      } else {
        f.intra = IntraLink::kNvSwitch;
      }
      // NVLink SHARP: third-generation NVSwitch and later (Hopper, Blackwell baseboards).
      const double cc = gpu.compute_capability ? std::atof(gpu.compute_capability->c_str()) : 0;
      f.nvls = f.intra == IntraLink::kNvSwitch && gpu.vendor == "NVIDIA" && cc >= 9.0;
    }
  }
  // The network between servers: the request's, else the one the server class is sold with
  // (performance.json server_networks).
  const NetworkKind* net = nullptr;
  if (cluster.inter_node_network) {
    net = k.find_network(*cluster.inter_node_network);
  } else if (!cluster.inter_node_gbit_per_s_per_gpu) {
    const std::string_view cls = server_class(gpu, k);
    if (const ServerNetwork* sold = k.find_server_network(std::string(cls))) {
      net = k.find_network(sold->network);
      f.server_class = sold->server_class;
    }
    f.network_auto = true;
  }
  if (net != nullptr) {
    f.network_id = net->id;
    f.network_name = net->name;
    f.network_gbps = net->gbit_per_s_per_gpu_in(gpus_per_server) / kBitsPerByte;
    f.network_efficiency = net->efficiency;
    f.network_rdma = net->rdma;
    f.network_extra_hop_us = net->extra_hop_latency_us;
    f.network_gbit_per_s_per_server = net->gbit_per_s_per_server;
  } else {
    const NetworkKind* rdma = k.find_network("ib_ndr400");
    f.network_id = "custom";
    f.network_gbps = cluster.inter_node_gbit_per_s_per_gpu.value_or(0) / kBitsPerByte;
    f.network_efficiency = rdma ? rdma->efficiency : 0.85;
  }
  return f;
}

std::string_view server_class(const GpuSpec& gpu, const PerformanceConstants& k) {
  if (gpu.form_factor != "pcie") return gpu.pcie_generation >= 5 ? "hgx_pcie5" : "hgx_pcie4";
  if (!gpu.pcie_peer_to_peer) return "geforce";
  if (const ServerNetwork* w = k.find_server_network("workstation"))
    for (const std::string& id : w->gpus)
      if (id == gpu.id) return "workstation";
  return "pcie_datacenter";
}

std::string network_label(const Fabric& f) {
  // network_gbps is the request's Gbit/s over 8 (exact: a power of two).
  if (f.network_id == "custom")
    return format_number(f.network_gbps * kBitsPerByte) + " Gb/s per GPU (RDMA assumed)";
  return std::string(f.network_name);
}

double intra_node_busbw(const Fabric& f, int n, const PerformanceConstants& k) {
  if (n <= 1) return 0;
  auto pcie = [&]() {
    if (f.pcie_p2p) return f.pcie_gbps * k.pcie_p2p_efficiency;
    // Through host memory: each GPU's traffic crosses its PCIe link and shares the host's
    // memory bandwidth with the other n-1 (two-point fit to 8x RTX 5090, nccl#1639).
    return 1.0 / (1.0 / (f.pcie_gbps * k.pcie_host_efficiency) + n / k.host_memory_bandwidth_gbps);
  };
  switch (f.intra) {
    case IntraLink::kNvSwitch:
      return f.link_gbps * k.nvlink_efficiency;
    case IntraLink::kMesh: {
      const int peers = std::max(1, f.link_domain - 1);
      return f.link_gbps * std::min(n - 1, peers) / peers * k.nvlink_efficiency;
    }
    case IntraLink::kBridge:
      // Only the GPUs of one bridge share it; a ring beyond the bridge domain has PCIe hops.
      if (n <= f.link_domain) return f.link_gbps * k.nvlink_bridge_efficiency;
      return std::min(f.link_gbps * k.nvlink_bridge_efficiency, pcie());
    case IntraLink::kPcieP2p:
    case IntraLink::kPcieHost:
      return pcie();
  }
  return pcie();
}

double network_busbw(const Fabric& f, int per_node) {
  return std::max(1, per_node) * f.network_gbps * f.network_efficiency;
}

double group_busbw(const Fabric& f, int n, int per_node, const PerformanceConstants& k) {
  if (n <= 1) return 0;
  per_node = std::max(1, std::min(per_node, f.gpus_per_node));
  if (n <= per_node) return intra_node_busbw(f, n, k);
  const double net = network_busbw(f, per_node);
  return per_node > 1 ? std::min(intra_node_busbw(f, per_node, k), net) : net;
}

namespace {
constexpr double kMicro = 1e-6;

Hop intra_hop(const Fabric& f) {
  const bool nvlink = f.intra == IntraLink::kNvSwitch || f.intra == IntraLink::kMesh ||
                      f.intra == IntraLink::kBridge;
  return nvlink ? Hop::kNvlink : Hop::kPcie;
}

/// A ring collective moving `traffic` bytes per GPU in `steps` ring steps, `net_steps` of them
/// across servers (each paying the network's extra latency: sockets): the fastest NCCL protocol.
double ring_s(double traffic, int steps, int net_steps, double busbw, Hop hop, const Fabric& f,
              const PerformanceConstants& k) {
  double best = -1;
  for (const CollectiveProtocol& p : k.protocols) {
    const double latency_us =
        p.base_latency_us + (steps - net_steps) * p.hop_latency_us[static_cast<int>(hop)] +
        net_steps * (p.hop_latency_us[static_cast<int>(Hop::kNetwork)] + f.network_extra_hop_us);
    const double t = latency_us * kMicro + traffic / (busbw * p.bandwidth_fraction * 1e9);
    if (best < 0 || t < best) best = t;
  }
  return std::max(0.0, best);
}

int nodes_of(int n, int per_node) {
  per_node = std::max(1, per_node);
  return (n + per_node - 1) / per_node;
}

}  // namespace

double nvls_busbw(const Fabric& f, int n, int per_node, const PerformanceConstants& k) {
  // In-switch reduction needs NVSwitch between every GPU of the group and more than 2 of them.
  if (!f.nvls || n <= 2 || n > std::max(1, per_node) || k.nvls_efficiency <= 0) return 0;
  return f.link_gbps * k.nvls_efficiency;
}

double allreduce_busbw(const Fabric& f, int n, int per_node, const PerformanceConstants& k) {
  return std::max(group_busbw(f, n, per_node, k), nvls_busbw(f, n, per_node, k));
}

double allreduce_time_s(double bytes, int n, int per_node, const Fabric& f,
                        const PerformanceConstants& k) {
  if (n <= 1 || bytes <= 0) return 0;
  per_node = std::max(1, std::min(per_node, f.gpus_per_node));
  const double traffic = 2.0 * (n - 1) / n * bytes;
  const int nodes = nodes_of(n, per_node);
  const Hop hop = nodes > 1 && per_node == 1 ? Hop::kNetwork : intra_hop(f);
  const double busbw = group_busbw(f, n, per_node, k);
  double t = ring_s(traffic, 2 * (n - 1), nodes > 1 ? 2 * (nodes - 1) : 0, busbw, hop, f, k);
  if (nodes > 1) {
    // NCCL's tree across servers: latency grows with log2(servers), not with every rank
    // (tuning.cc: base + 2 x ((ranks per server - 1) x intra + log2(servers) x network)).
    const double depth = std::ceil(std::log2(double(nodes)));
    for (const CollectiveProtocol& p : k.protocols) {
      const double latency_us =
          p.tree_base_latency_us +
          2 * ((per_node - 1) * p.tree_hop_latency_us[static_cast<int>(intra_hop(f))] +
               depth * (p.tree_hop_latency_us[static_cast<int>(Hop::kNetwork)] +
                        f.network_extra_hop_us));
      t = std::min(t, latency_us * kMicro + traffic / (busbw * p.bandwidth_fraction * 1e9));
    }
  }
  if (const double nvls = nvls_busbw(f, n, per_node, k); nvls > 0)
    t = std::min(t, k.nvls_latency_us * kMicro + traffic / (nvls * 1e9));
  return t;
}

double reduce_scatter_time_s(double bytes, int n, int per_node, const Fabric& f,
                             const PerformanceConstants& k) {
  if (n <= 1 || bytes <= 0) return 0;
  per_node = std::max(1, std::min(per_node, f.gpus_per_node));
  const int nodes = nodes_of(n, per_node);
  const Hop hop = nodes > 1 && per_node == 1 ? Hop::kNetwork : intra_hop(f);
  return ring_s(double(n - 1) / n * bytes, n - 1, nodes > 1 ? nodes - 1 : 0,
                group_busbw(f, n, per_node, k), hop, f, k);
}

double p2p_time_s(double bytes, bool crosses_nodes, const Fabric& f,
                  const PerformanceConstants& k) {
  if (bytes <= 0) return 0;
  return ring_s(bytes, 1, crosses_nodes ? 1 : 0, p2p_gbps(f, crosses_nodes, k),
                crosses_nodes ? Hop::kNetwork : intra_hop(f), f, k);
}

double all_to_all_time_s(double bytes, int n, int per_node, const Fabric& f,
                         const PerformanceConstants& k) {
  if (n <= 1 || bytes <= 0) return 0;
  per_node = std::max(1, std::min({per_node, n, f.gpus_per_node}));
  const double traffic = double(n - 1) / n * bytes;
  // Inside the server at the links' rate among per_node GPUs; across servers at each GPU's
  // share of the network (not the ring's per_node NICs: every byte of an all-to-all that
  // leaves the server crosses the sender's own NIC once).
  const double intra_s =
      per_node > 1 ? double(per_node - 1) / n * bytes / (intra_node_busbw(f, per_node, k) * 1e9)
                   : 0;
  const double net_gbps = f.network_gbps * f.network_efficiency;
  const double net_s = n > per_node ? double(n - per_node) / n * bytes / (net_gbps * 1e9) : 0;
  const double wire_s = std::max(intra_s, net_s);
  if (!(wire_s > 0)) return 0;
  // NCCL runs it as grouped sends and receives: one step's latency, a network one when any
  // peer is in another server.
  const bool crosses = n > per_node;
  return ring_s(traffic, 1, crosses ? 1 : 0, traffic / wire_s / 1e9,
                crosses ? Hop::kNetwork : intra_hop(f), f, k);
}

double allreduce_busbw_at(double bytes, int n, int per_node, const Fabric& f,
                          const PerformanceConstants& k) {
  const double t = allreduce_time_s(bytes, n, per_node, f, k);
  return t > 0 ? 2.0 * (n - 1) / n * bytes / t / 1e9 : 0;
}

double p2p_gbps(const Fabric& f, bool crosses_nodes, const PerformanceConstants& k) {
  if (crosses_nodes) return f.network_gbps * f.network_efficiency;
  switch (f.intra) {
    case IntraLink::kNvSwitch:
    case IntraLink::kMesh:
      return f.link_gbps * k.nvlink_efficiency /
             (f.intra == IntraLink::kMesh ? std::max(1, f.link_domain - 1) : 1);
    default:
      return f.pcie_gbps * (f.pcie_p2p ? k.pcie_p2p_efficiency : k.pcie_host_efficiency);
  }
}

double allreduce_s(double bytes, int n, double busbw, double latency) {
  if (n <= 1 || bytes <= 0) return 0;
  return latency + 2.0 * (n - 1) / n * bytes / (busbw * 1e9);
}

double reduce_scatter_s(double bytes, int n, double busbw, double latency) {
  if (n <= 1 || bytes <= 0) return 0;
  return latency + double(n - 1) / n * bytes / (busbw * 1e9);
}

double all_gather_s(double bytes, int n, double busbw, double latency) {
  return reduce_scatter_s(bytes, n, busbw, latency);
}

GroupPlacement place_groups(const Layout& L, int G) {
  GroupPlacement g;
  g.tp_per_node = std::min(L.tp, G);
  g.tp_crosses = L.tp > G;
  g.cp_per_node = L.tp >= G ? 1 : std::min(L.cp, std::max(1, G / L.tp));
  g.cp_crosses = L.cp > g.cp_per_node;
  g.dp_per_node = L.tp >= G ? 1 : std::min(L.shard_ranks(), std::max(1, G / L.tp));
  g.dp_crosses = L.shard_ranks() > g.dp_per_node;
  g.pp_crosses = L.pp > 1 && L.count > G;
  g.shard_per_node = std::min(L.zero_shards(), g.dp_per_node);
  g.replica_per_node = std::max(1, g.dp_per_node / L.zero_shards());
  g.replica_crosses = L.shard_replicas() > g.replica_per_node;
  return g;
}

}  // namespace advisor
