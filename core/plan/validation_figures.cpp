// SPDX-License-Identifier: MIT
#include "plan/validation_figures.hpp"

#include <algorithm>
#include <cstdlib>

#include "engine/memory.hpp"

namespace advisor {

namespace {

validation::Network network_of(const std::string& kind) {
  if (kind.rfind("ib_", 0) == 0) return validation::Network::infiniband;
  if (kind.rfind("roce_", 0) == 0) return validation::Network::roce;
  if (kind.rfind("ethernet", 0) == 0) return validation::Network::ethernet;
  return validation::Network::none;
}

/// Row remapping replaces failing HBM rows from Ampere (compute capability 8.0) on; GDDR parts
/// and older HBM parts retire pages instead (NVIDIA A100 GPU memory error management,
/// https://docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt/index.html).
constexpr double kRowRemapperMinComputeCapability = 8.0;

validation::ProductClass product_class_of(const ProductFacts& p) {
  if (p.product_class == "consumer") return validation::ProductClass::geforce;
  if (p.product_class == "workstation") return validation::ProductClass::workstation;
  return validation::ProductClass::data_center;
}

/// Facts for a catalog part data/validation.json does not list: no name to compare, memory.total
/// where gpus.json has the nvidia-smi figure (else the scripts record it), links by form factor.
validation::PartFacts derived_part_facts(const GpuSpec& g) {
  validation::PartFacts f;
  f.supported = g.software_stack == "cuda" && g.compute_capability.has_value();
  // memory_usable_mib is nvidia-smi's memory.total in the mode the part ships in.
  if (g.memory_usable_mib) {
    const int mib = static_cast<int>(*g.memory_usable_mib);
    if (g.product.memory_ecc == "on")
      f.memory_total_mib_ecc_on = mib;
    else
      f.memory_total_mib_ecc_off = mib;
  }
  // An SXM board without a validation.json entry: NVLink of unknown shape, so the topology
  // accepts NV# entries as well as PCIe ones (nvlink_bridge).
  f.intra_node = g.form_factor == "sxm" ? "nvlink_bridge" : "pcie";
  const double cc = g.compute_capability ? std::atof(g.compute_capability->c_str()) : 0;
  f.row_remapper = g.memory_type.rfind("HBM", 0) == 0 && cc >= kRowRemapperMinComputeCapability;
  f.confirmed = false;
  f.notes =
      "not in data/validation.json: name and topology recorded from the first box; "
      "memory.total checked only where gpus.json has memory_usable_mib";
  return f;
}

int per_rank(std::int64_t value, int ranks) {
  return static_cast<int>(std::max<std::int64_t>(1, value / ranks));
}

}  // namespace

validation::GpuFacts validation_gpu_facts(const GpuSpec& g) {
  validation::GpuFacts f;
  f.id = g.id;
  f.name = g.name;
  f.vendor = g.vendor;
  f.architecture = g.architecture;
  f.compute_capability = g.compute_capability.value_or("");
  f.software_stack = g.software_stack;
  f.bf16_dense_tflops = g.bf16_dense_tflops;
  f.tdp_watts = g.tdp_watts;
  f.pcie_generation = g.pcie_generation;
  f.pcie_lanes = g.pcie_lanes;
  f.pcie_peer_to_peer = g.pcie_peer_to_peer;
  f.memory_type = g.memory_type;
  f.memory_ecc = g.product.memory_ecc;
  return f;
}

validation::PartFacts validation_part_facts(
    const GpuSpec& gpu, const std::map<std::string, validation::PartFacts>& parts) {
  const auto it = parts.find(gpu.id);
  validation::PartFacts f = it != parts.end() ? it->second : derived_part_facts(gpu);
  if (it == parts.end() && !parts.empty()) {  // the file-wide lists and limits
    f.xid = parts.begin()->second.xid;
    f.nvlink_errors = parts.begin()->second.nvlink_errors;
    f.network_checks = parts.begin()->second.network_checks;
  }
  if (gpu.software_stack != "cuda") f.supported = false;
  f.product = product_class_of(gpu.product);
  f.ecc_expected = gpu.product.memory_ecc == "on";
  if (f.product == validation::ProductClass::geforce) {
    // GeForce: no NVLink, no fabric manager (gpus.json product; reference/validation.md §1).
    f.fabric_manager = false;
    if (f.intra_node == "nvswitch" || f.intra_node == "nvlink_bridge") f.intra_node = "pcie";
  }
  return f;
}

validation::PlanFigures validation_figures(const Request& req, const Catalog& catalog,
                                           const Plan& plan) {
  const Layout& L = plan.memory.layout;
  const MemoryEstimate& e = plan.memory.estimate;
  validation::PlanFigures f;
  f.gpus_per_server = std::min(L.gpus_per_server, L.count);
  f.servers = L.servers();
  f.total_gpus = L.count;
  if (plan.interconnect) {
    const InterconnectResult& ic = *plan.interconnect;
    if (ic.inter_node.used) {
      f.network = network_of(ic.inter_node.kind);
      f.network_rate_gbit_per_s = ic.inter_node.gbit_per_s_per_gpu;
      f.network_ports_per_server = f.gpus_per_server;  // one NIC per GPU (GPUDirect RDMA rails)
      f.inter_node_busbw_gbps = ic.inter_node.busbw_gbps;
    }
    f.allreduce_busbw_gbps = ic.allreduce_bus_bandwidth_gbps.value_or(ic.intra_node.busbw_gbps);
  }
  f.matmul_fraction = catalog.performance.matmul_fraction(req.hardware->gpu, false);
  f.memory_per_gpu_bytes = e.total();
  f.memory_band_low_bytes = e.band_low;
  f.memory_band_high_bytes = e.band_high;

  // The model slice one GPU holds, for the one-step probe.
  const ModelArch& m = req.model;
  validation::ProbeModel& p = f.probe;
  p.name = m.name;
  p.training = is_training(req.task);
  // An encoder-decoder (one stage) is probed as a decoder-only stack of all its layers: the probe
  // has no cross-attention, so its step reads low by that share (~15% of T5's weights).
  p.layers = per_rank(m.layers, L.pp) + m.encoder_layers;
  p.hidden = static_cast<int>(m.hidden);
  p.heads = per_rank(m.heads, L.tp);
  p.kv_heads = per_rank(m.kv_heads, L.tp);
  p.head_dim = static_cast<int>(m.head_dim);
  p.ffn = per_rank(m.ffn_hidden, L.tp);
  p.vocab = per_rank(m.vocab, L.tp);
  // Context parallelism: one GPU holds 1/cp of each training sequence.
  p.sequence_length =
      static_cast<int>(p.training ? req.training.sequence_length / L.cp
                                  : req.inference.prompt_tokens + req.inference.output_tokens);
  p.micro_batch = static_cast<int>(p.training ? req.training.micro_batch_size : 1);
  p.activation_checkpointing = req.training.activation_checkpointing != Checkpointing::kNone;
  const double shards = L.zero >= 1 ? L.zero_shards() : 1;
  p.state_bytes_per_param = p.training && !is_adapter(req.task)
                                ? optimizer_state(req.training).bytes_per_param() / shards
                                : 0;

  if (plan.training && plan.training->perf) {
    f.tokens_per_second_per_server = plan.training->perf->tokens_per_second / f.servers;
    f.mfu = plan.training->perf->mfu;
  }
  if (plan.power) {
    f.training_load_factor = plan.power->training_load_factor;
    f.server_full_load_w = plan.power->plan.server_watts_full_load;
    f.rack_budget_kw = plan.power->plan.racks.rack_kw;
    f.servers_per_rack = std::max(1, plan.power->plan.racks.servers_per_rack);
  }
  const ValidationSettings& v = req.validation;
  f.host_driver = v.host_driver;
  f.ngc_tag = v.ngc_tag;
  f.registry = v.registry;
  f.burnin_hours = v.burnin_hours;
  f.sample_interval_s = v.sample_interval_s;
  f.summary = std::to_string(L.count) + "x " + req.hardware->gpu + ", " + m.name + " (" +
              task_name(req.task) + ")";
  return f;
}

validation::CostInputs validation_cost_inputs(const Plan& plan) {
  validation::CostInputs c;
  if (plan.cost) {
    const PerOption& rate = plan.cost->cost_per_gpu_hour_cny;
    for (const char* d : {"rent", "buy", "rent_reserved"}) {
      auto it = rate.find(d);
      if (it != rate.end() && it->second) {
        c.price_per_gpu_hour = *it->second;
        break;
      }
    }
  }
  if (plan.training && plan.training->perf) c.planned_gpu_hours = plan.training->perf->gpu_hours;
  return c;
}

}  // namespace advisor
