// SPDX-License-Identifier: MIT
#include "validation/plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "types/errors.hpp"
#include "types/text.hpp"

namespace advisor::validation {
namespace {

/// GeForce cards beat the catalog's dense BF16 peak on big GEMMs (boost clocks above the
/// spec-sheet rate): measured MAMF fractions in data/performance.json are 0.987 (RTX 4090),
/// 1.01 (4090 D), 1.077 (3090/3090 Ti) and 1.127 (RTX 5090). A fraction above 1 is a
/// measurement, not an error; above this bound it is a unit slip (a percentage).
constexpr double kMaxMatmulFraction = 1.5;

Failed invalid(const std::string& field, const std::string& message) {
  return report_problem("validation_invalid", "/validation/" + field, message);
}

/// False after reporting `v` not finite and > 0.
bool positive(double v, const char* field) {
  if (!(std::isfinite(v) && v > 0)) return invalid(field, std::string(field) + " must be > 0");
  return true;
}

/// False after reporting `v` not finite and >= 0.
bool non_negative(double v, const char* field) {
  if (!(std::isfinite(v) && v >= 0)) return invalid(field, std::string(field) + " must be >= 0");
  return true;
}

/// Canonical text of every field, hashed by plan_id().
class Canon {
 public:
  void add(const char* k, const std::string& v) { text_ += std::string(k) + "=" + v + ";"; }
  void add(const char* k, double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    add(k, std::string(buf));
  }
  void add(const char* k, int v) { add(k, std::to_string(v)); }
  void add(const char* k, bool v) { add(k, std::string(v ? "1" : "0")); }
  void add(const char* k, const std::optional<double>& v) {
    if (v)
      add(k, *v);
    else
      add(k, std::string("-"));
  }
  void add(const char* k, const std::optional<int>& v) {
    if (v)
      add(k, *v);
    else
      add(k, std::string("-"));
  }
  void add(const char* k, const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += x + ",";
    add(k, s);
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

std::string join_ints(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

int derived_tolerance(int mib) {
  return std::max(1, static_cast<int>(std::lround(mib * kDerivedMemoryTolerance)));
}

/// The part's ECC mode as shipped (gpus.json product.memory_ecc), its memory kind, and
/// memory.total in both ECC modes. A figure data/validation.json does not source is derived:
/// on HBM, ECC is out of band and memory.total is the same in both modes; on GDDR, ECC is inline
/// and reserves 1/16 (L20: 49,140 MiB off, 46,068 on; T4: 16,384 and 15,360), so the other mode's
/// figure is 15/16 (or 16/15) of the sourced one, matched within 1%.
void set_memory_expectations(ValidationPlan& p, const GpuFacts& gpu, const PartFacts& part) {
  if (gpu.memory_ecc == "on")
    p.ecc_default = EccMode::on;
  else if (gpu.memory_ecc == "off_by_default")
    p.ecc_default = EccMode::off;
  else if (gpu.memory_ecc == "none")
    p.ecc_default = EccMode::none;
  else
    p.ecc_default = part.ecc_expected ? EccMode::on : EccMode::none;
  p.ecc_expected = p.ecc_default == EccMode::on;
  p.hbm = gpu.memory_type.empty() || gpu.memory_type.rfind("HBM", 0) == 0;
  std::optional<int> on = part.memory_total_mib_ecc_on, off = part.memory_total_mib_ecc_off;
  if (p.hbm) {
    if (on && !off) off = on;
    if (off && !on) on = off;
  } else if (off && !on) {
    on = static_cast<int>(*off * 15LL / 16);
    p.memory_tolerance_mib_ecc_on = derived_tolerance(*on);
  } else if (on && !off) {
    off = static_cast<int>(std::lround(*on * 16.0 / 15));
    p.memory_tolerance_mib_ecc_off = derived_tolerance(*off);
  }
  if (p.ecc_default == EccMode::none) {  // no ECC: memory.total is the as-shipped figure only
    on.reset();
    p.memory_tolerance_mib_ecc_on = 0;
  }
  p.memory_total_mib_ecc_on = on;
  p.memory_total_mib_ecc_off = off;
}

}  // namespace

ProbeScale probe_scale(const ValidationPlan& plan) {
  const ProbeModel& m = plan.probe;
  // probe.py's parameters: per block q, kv, o, gated up, down and two norms; embedding, head and
  // the final norm once.
  const double h = m.hidden, d = m.head_dim;
  const double per_layer = h * m.heads * d + h * 2.0 * m.kv_heads * d + m.heads * d * h +
                           h * 2.0 * m.ffn + static_cast<double>(m.ffn) * h + 2 * h;
  const double fixed = 2.0 * m.vocab * h + h;
  const double bytes_per_param = 2 + (m.training ? 2 + m.state_bytes_per_param : 0);
  ProbeScale s;
  s.planned_layers = m.layers;
  s.layers = m.layers;
  s.budget_bytes = kProbeStaticShare * plan.memory_per_gpu_bytes;
  const auto bytes = [&](int layers) { return (fixed + per_layer * layers) * bytes_per_param; };
  if (plan.memory_per_gpu_bytes > 0 && bytes(m.layers) > s.budget_bytes) {
    const double room = s.budget_bytes / bytes_per_param - fixed;
    s.layers = std::clamp(static_cast<int>(std::floor(room / per_layer)), 1, m.layers);
  }
  s.static_bytes = bytes(s.layers);
  return s;
}

std::optional<int> planned_memory_total_mib(const ValidationPlan& p) {
  return p.ecc_default == EccMode::on ? p.memory_total_mib_ecc_on : p.memory_total_mib_ecc_off;
}

std::optional<std::pair<int, int>> expected_memory_for_mode(const ValidationPlan& p,
                                                            const std::string& ecc_mode) {
  if (ecc_mode == "Enabled") {
    if (!p.memory_total_mib_ecc_on) return std::nullopt;
    return std::make_pair(*p.memory_total_mib_ecc_on, p.memory_tolerance_mib_ecc_on);
  }
  if (!p.memory_total_mib_ecc_off) return std::nullopt;
  return std::make_pair(*p.memory_total_mib_ecc_off, p.memory_tolerance_mib_ecc_off);
}

const char* to_string(EccMode m) {
  switch (m) {
    case EccMode::on:
      return "on";
    case EccMode::off:
      return "off";
    case EccMode::none:
      return "none";
  }
  return "on";
}

bool is_hardware_xid(const XidClasses& x, int code) {
  return std::find(x.hardware.begin(), x.hardware.end(), code) != x.hardware.end();
}

ValidationPlan build_validation_plan(const GpuFacts& gpu, const PartFacts& part,
                                     const NgcCatalog& ngc, const PlanFigures& f) {
  if (!part.supported || gpu.software_stack != "cuda" || gpu.compute_capability.empty())
    return report_problem(
        "validation_unsupported_gpu", "/hardware/gpu",
        gpu.name + " (" + gpu.vendor + ", " + gpu.software_stack +
            ") is not an NVIDIA CUDA part: the validation scripts are NVIDIA-only "
            "(nvidia-smi, NGC CUDA containers); validate it with its vendor's tools");
  if (f.gpus_per_server < 1) return invalid("gpus_per_server", "gpus_per_server must be >= 1");
  if (f.servers < 1) return invalid("servers", "servers must be >= 1");

  ValidationPlan p;
  p.gpu_id = gpu.id;
  p.gpu_name = gpu.name;
  p.smi_names = part.smi_names;
  p.architecture = gpu.architecture;
  p.compute_capability = gpu.compute_capability;
  p.product = part.product;
  set_memory_expectations(p, gpu, part);
  p.row_remapper = part.row_remapper;
  p.power_limit_w = gpu.tdp_watts;
  p.pcie_generation = gpu.pcie_generation;
  p.pcie_width = gpu.pcie_lanes;
  p.xid = part.xid;
  p.nvlink_errors = part.nvlink_errors;
  p.network_checks = part.network_checks;

  p.gpus_per_server = f.gpus_per_server;
  p.servers = f.servers;
  p.total_gpus = f.total_gpus.value_or(f.gpus_per_server * f.servers);

  static const std::vector<std::string> pcie_entries = {"PIX", "PXB", "PHB", "NODE", "SYS"};
  if (f.gpus_per_server == 1) {
    p.intra_node_link = IntraNodeLink::none;
  } else if (part.intra_node == "nvswitch") {
    p.intra_node_link = IntraNodeLink::nvswitch;
    p.nvlink_links_per_gpu = part.nvlink_links_per_gpu;
    p.nvlink_link_gbps = part.nvlink_link_gbps.value_or(0);
    if (part.topo_entry) p.topo_entries = {*part.topo_entry};
    p.fabric_manager_required = part.fabric_manager;
  } else if (part.intra_node == "nvlink_bridge") {
    // Bridges join pairs only: the other pairs (and the all-reduce ring) cross PCIe.
    p.intra_node_link =
        f.gpus_per_server == 2 ? IntraNodeLink::nvlink_bridge : IntraNodeLink::pcie_p2p;
    p.topo_entries = pcie_entries;
    p.topo_entries.insert(p.topo_entries.begin(), "NV*");
  } else {
    p.intra_node_link =
        gpu.pcie_peer_to_peer ? IntraNodeLink::pcie_p2p : IntraNodeLink::pcie_no_p2p;
    p.topo_entries = pcie_entries;
  }

  p.network = f.servers > 1 ? f.network : Network::none;
  if (p.network != Network::none) {
    p.network_rate_gbit_per_s = f.network_rate_gbit_per_s;
    p.network_ports_per_server = f.network_ports_per_server;
    p.inter_node_busbw_gbps = f.inter_node_busbw_gbps;
  }
  p.allreduce_busbw_gbps = f.allreduce_busbw_gbps;
  p.bf16_dense_peak_tflops = gpu.bf16_dense_tflops;
  p.matmul_fraction = f.matmul_fraction;
  p.memory_per_gpu_bytes = f.memory_per_gpu_bytes;
  p.memory_band_low_bytes = f.memory_band_low_bytes;
  p.memory_band_high_bytes = f.memory_band_high_bytes;
  p.probe = f.probe;
  p.tokens_per_second_per_server = f.tokens_per_second_per_server;
  p.mfu = f.mfu;
  p.training_load_factor = f.training_load_factor;
  p.server_full_load_w = f.server_full_load_w;
  p.rack_budget_kw = f.rack_budget_kw;
  p.servers_per_rack = f.servers_per_rack;
  p.registry = f.registry.empty() ? ngc.default_registry : f.registry;
  p.burnin_hours = f.burnin_hours;
  p.sample_interval_s = f.sample_interval_s;
  p.summary = f.summary;

  GpuForTag g{gpu.compute_capability, gpu.software_stack, part.product};
  const bool may_forward =
      part.product == ProductClass::data_center && !is_blackwell_cc(gpu.compute_capability);
  const NgcTag* tag = nullptr;
  if (f.ngc_tag) {
    for (const NgcTag* t : tags_for_gpu(ngc, g, true))
      if (t->tag == *f.ngc_tag) tag = t;
    if (!tag)
      return report_problem(
          "validation_no_ngc_tag", "/validation/ngc_tag",
          "NGC tag " + *f.ngc_tag + " is not in data/ngc.json or does not support " + gpu.name);
    p.ngc_reason = {"pinned", {{"tag", tag->tag}}, "tag " + tag->tag + " set by the plan"};
  } else {
    TagChoice c = pick_ngc_tag(ngc, g, f.host_driver);
    if (!c.found)
      return report_problem("validation_no_ngc_tag", "/validation/host_driver", c.reason.message);
    for (const auto& t : ngc.tags)
      if (t.tag == c.tag) tag = &t;
    p.ngc_reason = c.reason;
  }
  p.ngc_tag = tag->tag;
  p.ngc_min_driver = tag->min_driver;
  if (may_forward) p.forward_compat_branches = tag->dc_forward_compat_branches;
  for (const NgcTag* t : tags_for_gpu(ngc, g)) p.fallback_tags.emplace_back(t->tag, t->min_driver);

  validate_plan(p);
  return p;
}

// Each check returns at its problem: the ones after it may rely on it (kv_heads >= 1 before the
// modulus).
bool validate_plan(const ValidationPlan& p) {
  if (p.gpu_id.empty()) return invalid("gpu_id", "gpu_id is empty");
  if (p.gpus_per_server < 1) return invalid("gpus_per_server", "gpus_per_server must be >= 1");
  if (p.servers < 1) return invalid("servers", "servers must be >= 1");
  if (p.total_gpus < 1 || p.total_gpus > p.gpus_per_server * p.servers)
    return invalid("total_gpus", "total_gpus must be between 1 and gpus_per_server * servers");
  if (!positive(p.power_limit_w, "power_limit_w")) return false;
  if (!positive(p.bf16_dense_peak_tflops, "bf16_dense_peak_tflops")) return false;
  if (!(p.matmul_fraction > 0 && p.matmul_fraction <= kMaxMatmulFraction))
    return invalid("matmul_fraction", "matmul_fraction must be in (0, " +
                                          trimmed_decimal(kMaxMatmulFraction, 1) + "]");
  if (!non_negative(p.allreduce_busbw_gbps, "allreduce_busbw_gbps")) return false;
  if (!non_negative(p.inter_node_busbw_gbps, "inter_node_busbw_gbps")) return false;
  if (!non_negative(p.memory_per_gpu_bytes, "memory_per_gpu_bytes")) return false;
  if (p.memory_band_low_bytes > p.memory_per_gpu_bytes ||
      p.memory_band_high_bytes < p.memory_per_gpu_bytes)
    return invalid("memory_band_low_bytes", "the memory band must contain memory_per_gpu_bytes");
  if (p.nvlink_links_per_gpu < 0) return invalid("nvlink_links_per_gpu", "must be >= 0");
  if (p.network != Network::none && p.network_rate_gbit_per_s <= 0)
    return invalid("network_rate_gbit_per_s", "a multi-server plan needs the port rate (Gbit/s)");
  if (!(p.burnin_hours > 0)) return invalid("burnin_hours", "burnin_hours must be > 0");
  if (p.sample_interval_s < 1)
    return invalid("sample_interval_s", "sample_interval_s must be >= 1");
  if (!(p.training_load_factor > 0 && p.training_load_factor <= 1))
    return invalid("training_load_factor", "training_load_factor must be in (0, 1]");
  if (p.ngc_tag.empty() || p.ngc_min_driver.empty()) return invalid("ngc_tag", "no NGC tag chosen");
  const ProbeModel& m = p.probe;
  if (m.layers < 1 || m.hidden < 1 || m.heads < 1 || m.kv_heads < 1 || m.head_dim < 1 ||
      m.ffn < 1 || m.vocab < 1 || m.sequence_length < 1 || m.micro_batch < 1)
    return invalid("probe",
                   "the probe model needs layers, hidden, heads, kv_heads, head_dim, ffn, "
                   "vocab, sequence_length and micro_batch >= 1");
  if (m.heads % m.kv_heads != 0)
    return invalid("probe/kv_heads", "heads must be a multiple of kv_heads");
  return non_negative(m.state_bytes_per_param, "probe/state_bytes_per_param");
}

std::string plan_id(const ValidationPlan& p) {
  Canon c;
  c.add("gpu", p.gpu_id);
  c.add("names", p.smi_names);
  c.add("cc", p.compute_capability);
  c.add("product", std::string(to_string(p.product)));
  c.add("mem", p.memory_total_mib_ecc_on);
  c.add("mem_ecc_off", p.memory_total_mib_ecc_off);
  c.add("mem_tol", p.memory_tolerance_mib_ecc_on);
  c.add("mem_tol_off", p.memory_tolerance_mib_ecc_off);
  c.add("ecc", std::string(to_string(p.ecc_default)));
  c.add("hbm", p.hbm);
  c.add("remap", p.row_remapper);
  c.add("plimit", p.power_limit_w);
  c.add("pcie", p.pcie_generation);
  c.add("lanes", p.pcie_width);
  c.add("xid_hw", join_ints(p.xid.hardware));
  c.add("xid_app", join_ints(p.xid.application));
  c.add("nvl_err",
        join_ints({p.nvlink_errors.crc_fail_per_link, p.nvlink_errors.replay_fail_per_link,
                   p.nvlink_errors.recovery_fail_per_link}));
  c.add("gps", p.gpus_per_server);
  c.add("servers", p.servers);
  c.add("total", p.total_gpus);
  c.add("intra", std::string(to_string(p.intra_node_link)));
  c.add("links", p.nvlink_links_per_gpu);
  c.add("link_gbps", p.nvlink_link_gbps);
  c.add("topo", p.topo_entries);
  c.add("fm", p.fabric_manager_required);
  c.add("net", std::string(to_string(p.network)));
  c.add("rate", p.network_rate_gbit_per_s);
  c.add("ports", p.network_ports_per_server);
  c.add("rdma_frac", p.network_checks.rdma_bw_fraction);
  c.add("roce_prio", p.network_checks.roce_priority);
  c.add("busbw", p.allreduce_busbw_gbps);
  c.add("inter_busbw", p.inter_node_busbw_gbps);
  c.add("peak", p.bf16_dense_peak_tflops);
  c.add("mmf", p.matmul_fraction);
  c.add("mem_gpu", p.memory_per_gpu_bytes);
  c.add("mem_lo", p.memory_band_low_bytes);
  c.add("mem_hi", p.memory_band_high_bytes);
  const ProbeModel& m = p.probe;
  c.add("probe", m.name);
  c.add("train", m.training);
  c.add("L", m.layers);
  c.add("H", m.hidden);
  c.add("A", m.heads);
  c.add("KV", m.kv_heads);
  c.add("D", m.head_dim);
  c.add("F", m.ffn);
  c.add("V", m.vocab);
  c.add("S", m.sequence_length);
  c.add("B", m.micro_batch);
  c.add("ckpt", m.activation_checkpointing);
  c.add("state", m.state_bytes_per_param);
  c.add("tps", p.tokens_per_second_per_server);
  c.add("mfu", p.mfu);
  c.add("load", p.training_load_factor);
  c.add("wall", p.server_full_load_w);
  c.add("rack", p.rack_budget_kw);
  c.add("per_rack", p.servers_per_rack);
  c.add("tag", p.ngc_tag);
  c.add("min_driver", p.ngc_min_driver);
  c.add("fc", p.forward_compat_branches);
  c.add("hours", p.burnin_hours);
  c.add("interval", p.sample_interval_s);
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a 64
  for (unsigned char ch : c.text()) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

const char* to_string(IntraNodeLink l) {
  switch (l) {
    case IntraNodeLink::none:
      return "none";
    case IntraNodeLink::nvswitch:
      return "nvswitch";
    case IntraNodeLink::nvlink_bridge:
      return "nvlink_bridge";
    case IntraNodeLink::pcie_p2p:
      return "pcie_p2p";
    case IntraNodeLink::pcie_no_p2p:
      return "pcie_no_p2p";
  }
  return "none";
}

const char* to_string(Network n) {
  switch (n) {
    case Network::none:
      return "none";
    case Network::infiniband:
      return "infiniband";
    case Network::roce:
      return "roce";
    case Network::ethernet:
      return "ethernet";
  }
  return "none";
}

}  // namespace advisor::validation
