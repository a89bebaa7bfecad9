// SPDX-License-Identifier: MIT
#include "validation/check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "types/errors.hpp"

namespace advisor::validation {
namespace {

constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;

std::string num(double v, int decimals = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::string percent(double fraction) { return num(fraction * 100, 0) + "%"; }

Reason ok() { return {"ok", {}, "as planned"}; }

class Builder {
 public:
  explicit Builder(CheckReport& r) : report_(r) {}

  CheckItem& add(Area area, std::string item, Status status, Reason reason,
                 std::optional<double> expected = {}, std::optional<double> measured = {},
                 std::string unit = "") {
    CheckItem c;
    c.area = area;
    c.item = std::move(item);
    c.status = status;
    c.reason = std::move(reason);
    c.expected = expected;
    c.measured = measured;
    c.unit = std::move(unit);
    if (expected && measured && *expected != 0) c.deviation = (*measured - *expected) / *expected;
    report_.items.push_back(std::move(c));
    return report_.items.back();
  }

 private:
  CheckReport& report_;
};

double pcie_gbps(int generation, int lanes) {
  double x16 = generation >= 6 ? 121 : generation == 5 ? 63 : generation == 4 ? 31.5 : 15.75;
  return x16 * lanes / 16.0;
}

bool nvlink_plan(const ValidationPlan& p) {
  return p.intra_node_link == IntraNodeLink::nvswitch || p.intra_node_link == IntraNodeLink::nvlink_bridge;
}

std::string more(std::size_t n) { return n > 1 ? " (and " + std::to_string(n - 1) + " more)" : ""; }

void memory_items(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (m.gpu_count) {
    int want = p.gpus_per_server, got = *m.gpu_count;
    if (got == want)
      b.add(Area::memory, "gpu_count", Status::pass, ok(), want, got, "GPUs");
    else if (got < want)
      b.add(Area::memory, "gpu_count", Status::fail,
            {"gpu_missing",
             {{"expected", std::to_string(want)}, {"measured", std::to_string(got)}},
             std::to_string(want - got) + " of " + std::to_string(want) +
                 " GPUs missing: reseat or replace, and look for Xid 79 in the kernel log"},
            want, got, "GPUs");
    else
      b.add(Area::memory, "gpu_count", Status::warn,
            {"gpu_extra", {{"expected", std::to_string(want)}, {"measured", std::to_string(got)}},
             std::to_string(got) + " GPUs, the plan has " + std::to_string(want)},
            want, got, "GPUs");
  }
  if (p.memory_total_mib && !m.gpus.empty()) {
    const double want = *p.memory_total_mib;
    std::vector<const GpuInventory*> wrong, ecc_off;
    double lowest = want;
    for (const auto& g : m.gpus) {
      if (!g.memory_total_mib) continue;
      lowest = std::min(lowest, *g.memory_total_mib);
      if (*g.memory_total_mib == want) continue;
      if (p.memory_total_mib_ecc_off && *g.memory_total_mib == *p.memory_total_mib_ecc_off)
        ecc_off.push_back(&g);
      else
        wrong.push_back(&g);
    }
    if (!wrong.empty()) {
      const GpuInventory& g = *wrong.front();
      b.add(Area::memory, "memory_total", Status::fail,
            {"memory_total_mismatch",
             {{"gpu", std::to_string(g.index)}, {"expected_mib", num(want, 0)},
              {"measured_mib", num(*g.memory_total_mib, 0)}},
             "GPU " + std::to_string(g.index) + " reports " + num(*g.memory_total_mib, 0) +
                 " MiB, expected " + num(want, 0) + " MiB: another variant, MIG, or retired memory" +
                 more(wrong.size())},
            want, lowest, "MiB");
    } else if (!ecc_off.empty()) {
      const GpuInventory& g = *ecc_off.front();
      b.add(Area::memory, "memory_total", Status::warn,
            {"ecc_off_memory", {{"gpu", std::to_string(g.index)}},
             "ECC is off on GPU " + std::to_string(g.index) + more(ecc_off.size()) +
                 ": more memory, no error correction (nvidia-smi -e 1 as root, then reboot)"},
            want, *g.memory_total_mib, "MiB");
    } else {
      b.add(Area::memory, "memory_total", Status::pass, ok(), want, lowest, "MiB");
    }
  }
  if (m.step_status == "oom") {
    b.add(Area::memory, "one_step_memory", Status::fail,
          {"memory_oom", {{"model", p.probe.name}},
           "one step of the planned model ran out of memory: lower the micro-batch or sequence "
           "length, or spread the model over more GPUs"},
          p.memory_per_gpu_bytes / kBytesPerGiB, std::nullopt, "GiB");
  } else if (m.step_device_used_bytes && p.memory_per_gpu_bytes > 0) {
    const double used = *m.step_device_used_bytes;
    const std::string gib = num(used / kBytesPerGiB) + " GiB";
    const std::string band = num(p.memory_band_low_bytes / kBytesPerGiB) + "-" +
                             num(p.memory_band_high_bytes / kBytesPerGiB) + " GiB";
    Status s = Status::pass;
    Reason r = ok();
    if (used > p.memory_band_high_bytes) {
      s = Status::fail;
      r = {"memory_above_band", {{"measured_gib", num(used / kBytesPerGiB)}, {"band_gib", band}},
           "one step uses " + gib + ", above the plan's band " + band + ": expect out-of-memory on longer runs"};
    } else if (used < p.memory_band_low_bytes) {
      s = Status::warn;
      r = {"memory_below_band", {{"measured_gib", num(used / kBytesPerGiB)}, {"band_gib", band}},
           "one step uses " + gib + ", below the plan's band " + band + ": the estimate is conservative here"};
    }
    b.add(Area::memory, "one_step_memory", s, r, p.memory_per_gpu_bytes / kBytesPerGiB,
          used / kBytesPerGiB, "GiB");
  }
  if (m.row_remap_failure_gpus && *m.row_remap_failure_gpus > 0)
    b.add(Area::memory, "row_remapper", Status::fail,
          {"row_remap_failure", {{"gpus", std::to_string(*m.row_remap_failure_gpus)}},
           std::to_string(*m.row_remap_failure_gpus) + " GPU(s) failed to remap memory rows: replace them"},
          0, *m.row_remap_failure_gpus, "GPUs");
  else if (m.row_remap_pending_gpus && *m.row_remap_pending_gpus > 0)
    b.add(Area::memory, "row_remapper", Status::warn,
          {"row_remap_pending", {{"gpus", std::to_string(*m.row_remap_pending_gpus)}},
           std::to_string(*m.row_remap_pending_gpus) + " GPU(s) have pending row remaps: reset them or reboot"},
          0, *m.row_remap_pending_gpus, "GPUs");
  else if (m.row_remap_pending_gpus)
    b.add(Area::memory, "row_remapper", Status::pass, ok(), 0, 0, "GPUs");
}

void busbw_item(const ValidationPlan& p, Builder& b, const std::string& item, double expected,
                double got, bool intra) {
  const double r = expected > 0 ? got / expected : 1;
  const std::string bw = num(got);
  if (r >= 0.8) {
    b.add(Area::interconnect, item, Status::pass, ok(), expected, got, "GB/s");
  } else if (intra && nvlink_plan(p) && got < pcie_gbps(p.pcie_generation, p.pcie_width)) {
    b.add(Area::interconnect, item, Status::fail,
          {"busbw_on_pcie", {{"busbw_gbps", bw}, {"expected_gbps", num(expected)}},
           "busbw " + bw + " GB/s: traffic is on PCIe, not NVLink (check the fabric manager and NVLink status)"},
          expected, got, "GB/s");
  } else {
    b.add(Area::interconnect, item, r >= 0.6 ? Status::warn : Status::fail,
          {"busbw_low", {{"busbw_gbps", bw}, {"expected_gbps", num(expected)}, {"ratio", num(r, 2)}},
           "busbw " + bw + " GB/s is " + percent(r) + " of the planned " + num(expected) +
               " GB/s: training steps will be slower than planned"},
          expected, got, "GB/s");
  }
}

void interconnect_items(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (p.fabric_manager_required && !m.fabric_manager_state.empty()) {
    if (m.fabric_manager_state == "active")
      b.add(Area::interconnect, "fabric_manager", Status::pass, ok());
    else
      b.add(Area::interconnect, "fabric_manager", Status::fail,
            {"fabric_manager_inactive", {{"state", m.fabric_manager_state}},
             "nvidia-fabricmanager is " + m.fabric_manager_state +
                 ": NVSwitch GPUs get no NVLink without it (systemctl enable --now nvidia-fabricmanager, as root)"});
  }
  if (m.topo_pairs && *m.topo_pairs > 0 && !p.topo_entries.empty()) {
    const int bad = m.topo_mismatched_pairs.value_or(0);
    if (bad == 0) {
      b.add(Area::interconnect, "topology", Status::pass, ok(), *m.topo_pairs, *m.topo_pairs, "GPU pairs");
    } else {
      bool pcie = false;
      for (const char* e : {"PIX", "PXB", "PHB", "NODE", "SYS"})
        if ((" " + m.topo_entries + " ").find(std::string(" ") + e + " ") != std::string::npos) pcie = true;
      std::string want;
      for (const auto& e : p.topo_entries) want += (want.empty() ? "" : "/") + e;
      Reason r = pcie && nvlink_plan(p)
                     ? Reason{"traffic_on_pcie", {{"pairs", std::to_string(bad)}, {"entries", m.topo_entries}},
                              std::to_string(bad) + " GPU pairs talk over PCIe (" + m.topo_entries + "), not NVLink " + want}
                     : Reason{"topo_mismatch", {{"pairs", std::to_string(bad)}, {"entries", m.topo_entries}},
                              std::to_string(bad) + " GPU pairs show " + m.topo_entries + ", expected " + want};
      b.add(Area::interconnect, "topology", Status::fail, r, *m.topo_pairs, *m.topo_pairs - bad, "GPU pairs");
    }
  }
  if (p.nvlink_links_per_gpu > 0 && !m.nvlink.empty()) {
    std::vector<std::pair<int, int>> inactive;  // (gpu, link)
    const NvlinkState* fewest = &m.nvlink.front();
    const NvlinkState* slowest = nullptr;
    for (const auto& g : m.nvlink) {
      for (int l : g.inactive_links) inactive.emplace_back(g.index, l);
      if (g.active_links < fewest->active_links) fewest = &g;
      if (g.min_link_gbps && g.active_links > 0 &&
          (!slowest || *g.min_link_gbps < *slowest->min_link_gbps))
        slowest = &g;
    }
    const double want = p.nvlink_links_per_gpu;
    if (!inactive.empty()) {
      auto [gpu, link] = inactive.front();
      b.add(Area::interconnect, "nvlink", Status::fail,
            {"nvlink_inactive", {{"gpu", std::to_string(gpu)}, {"link", std::to_string(link)}},
             "link " + std::to_string(link) + " inactive on GPU " + std::to_string(gpu) + more(inactive.size()) +
                 ": reseat the GPU/baseboard, reset, replace if it stays down"},
            want, fewest->active_links, "links");
    } else if (fewest->active_links < want || static_cast<int>(m.nvlink.size()) < p.gpus_per_server) {
      b.add(Area::interconnect, "nvlink", Status::fail,
            {"nvlink_missing", {{"gpu", std::to_string(fewest->index)}, {"links", std::to_string(fewest->active_links)}},
             "GPU " + std::to_string(fewest->index) + " has " + std::to_string(fewest->active_links) + " of " +
                 num(want, 0) + " NVLink links (or a GPU reports none)"},
            want, fewest->active_links, "links");
    } else if (slowest && p.nvlink_link_gbps > 0 && *slowest->min_link_gbps < 0.99 * p.nvlink_link_gbps) {
      b.add(Area::interconnect, "nvlink", Status::fail,
            {"nvlink_slow", {{"gpu", std::to_string(slowest->index)}, {"gbps", num(*slowest->min_link_gbps, 3)}},
             "GPU " + std::to_string(slowest->index) + " has a link at " + num(*slowest->min_link_gbps, 3) +
                 " GB/s, planned " + num(p.nvlink_link_gbps, 3)},
            p.nvlink_link_gbps, *slowest->min_link_gbps, "GB/s per link");
    } else {
      b.add(Area::interconnect, "nvlink", Status::pass, ok(), want, fewest->active_links, "links");
    }
  }
  if (m.p2p_pairs && *m.p2p_pairs > 0) {
    const int pairs = *m.p2p_pairs, okp = m.p2p_ok_pairs.value_or(0);
    if (p.intra_node_link == IntraNodeLink::pcie_no_p2p)
      b.add(Area::interconnect, "peer_to_peer", okp == 0 ? Status::pass : Status::warn,
            okp == 0 ? ok()
                     : Reason{"p2p_better_than_plan", {{"pairs", std::to_string(okp)}},
                              "peer-to-peer works on " + std::to_string(okp) + " pairs: all-reduce may beat the plan"},
            0, okp, "GPU pairs");
    else
      b.add(Area::interconnect, "peer_to_peer", okp == pairs ? Status::pass : Status::fail,
            okp == pairs ? ok()
                         : Reason{"p2p_unavailable", {{"pairs", std::to_string(pairs - okp)}},
                                  std::to_string(pairs - okp) + " GPU pairs lack peer-to-peer: traffic goes "
                                  "through host memory (check ACS/IOMMU in the BIOS)"},
            pairs, okp, "GPU pairs");
  }
  std::vector<const GpuInventory*> slow_pcie;
  for (const auto& g : m.gpus)
    if ((g.pcie_gen_max && *g.pcie_gen_max < p.pcie_generation) || (g.pcie_width_max && *g.pcie_width_max < p.pcie_width))
      slow_pcie.push_back(&g);
  if (!slow_pcie.empty()) {
    const GpuInventory& g = *slow_pcie.front();
    b.add(Area::interconnect, "pcie_link", Status::fail,
          {"pcie_link_low",
           {{"gpu", std::to_string(g.index)}, {"gen", std::to_string(g.pcie_gen_max.value_or(0))},
            {"width", std::to_string(g.pcie_width_max.value_or(0))}},
           "GPU " + std::to_string(g.index) + " links at Gen" + std::to_string(g.pcie_gen_max.value_or(0)) + " x" +
               std::to_string(g.pcie_width_max.value_or(0)) + ", planned Gen" + std::to_string(p.pcie_generation) +
               " x" + std::to_string(p.pcie_width) + more(slow_pcie.size()) + ": check the slot, riser and BIOS"});
  } else if (!m.gpus.empty()) {
    b.add(Area::interconnect, "pcie_link", Status::pass, ok());
  }
  if (m.allreduce_busbw_gbps && p.allreduce_busbw_gbps > 0)
    busbw_item(p, b, "allreduce_busbw", p.allreduce_busbw_gbps, *m.allreduce_busbw_gbps, true);
  if (p.network != Network::none && m.ib_ports_active) {
    const int want = p.network_ports_per_server, got = *m.ib_ports_active;
    b.add(Area::interconnect, "network_ports", got >= want ? Status::pass : Status::fail,
          got >= want ? ok()
                      : Reason{"ib_port_down", {{"active", std::to_string(got)}, {"expected", std::to_string(want)}},
                               std::to_string(got) + " of " + std::to_string(want) + " ports Active at " +
                                   num(p.network_rate_gbit_per_s, 0) + " Gb/s: check cables, switch ports and the subnet manager"},
          want, got, "ports");
  }
  if (m.nccl_transport_net == "socket")
    b.add(Area::interconnect, "nccl_network", Status::fail,
          {"nccl_on_socket", {}, "NCCL fell back to TCP sockets between servers: pass /dev/infiniband into the "
                                 "container and set NCCL_IB_HCA"});
  if (m.inter_node_busbw_gbps && p.inter_node_busbw_gbps > 0)
    busbw_item(p, b, "inter_node_busbw", p.inter_node_busbw_gbps, *m.inter_node_busbw_gbps, false);
  if (m.nccl_timeouts && *m.nccl_timeouts > 0)
    b.add(Area::interconnect, "nccl_timeouts", Status::fail,
          {"nccl_timeout", {{"count", std::to_string(*m.nccl_timeouts)}},
           std::to_string(*m.nccl_timeouts) + " NCCL timeout(s) during the burn-in: a GPU, NVLink or NIC stalls"},
          0, *m.nccl_timeouts, "timeouts");
}

void compute_items(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (!m.driver_version.empty()) {
    const std::string& d = m.driver_version;
    const std::string* branch = nullptr;
    for (const auto& br : p.forward_compat_branches)
      if (br.substr(0, br.find('.')) == d.substr(0, d.find('.')) && compare_versions(d, br) >= 0) branch = &br;
    if (compare_versions(d, p.ngc_min_driver) >= 0) {
      b.add(Area::compute, "driver", Status::pass, ok());
    } else if (branch) {
      b.add(Area::compute, "driver", Status::pass,
            {"forward_compat", {{"driver", d}, {"branch", *branch}, {"tag", p.ngc_tag}},
             "driver " + d + " runs NGC " + p.ngc_tag + " through data-centre forward compatibility"});
    } else {
      std::string alt;
      for (const auto& [tag, min] : p.fallback_tags)
        if (alt.empty() && compare_versions(d, min) >= 0) alt = tag;
      b.add(Area::compute, "driver", Status::fail,
            {"driver_too_old",
             {{"driver", d}, {"min_driver", p.ngc_min_driver}, {"tag", p.ngc_tag}, {"alternative", alt}},
             "driver " + d + " is older than NGC " + p.ngc_tag + " needs (>= " + p.ngc_min_driver + "): upgrade it" +
                 (alt.empty() ? std::string(" (no tag for this GPU runs on it)") : ", or use NGC " + alt) +
                 (p.product == ProductClass::geforce ? "; GeForce cannot use forward compatibility" : "")});
    }
  }
  for (const auto& g : m.gpus)
    if (!g.compute_cap.empty() && g.compute_cap != p.compute_capability) {
      b.add(Area::compute, "compute_capability", Status::fail,
            {"compute_capability_mismatch", {{"gpu", std::to_string(g.index)}, {"measured", g.compute_cap}},
             "GPU " + std::to_string(g.index) + " has compute capability " + g.compute_cap + ", planned " +
                 p.compute_capability});
      break;
    }
  if (!m.gemm_tflops.empty()) {
    const double want = p.bf16_dense_peak_tflops * p.matmul_fraction;
    auto worst = *std::min_element(m.gemm_tflops.begin(), m.gemm_tflops.end(),
                                   [](auto& a, auto& c) { return a.second < c.second; });
    double mean = 0;
    for (const auto& g : m.gemm_tflops) mean += g.second;
    mean /= m.gemm_tflops.size();
    const double fraction = mean / p.bf16_dense_peak_tflops, r = worst.second / want;
    const std::vector<std::pair<std::string, std::string>> params = {
        {"gpu", std::to_string(worst.first)}, {"tflops", num(worst.second)},
        {"matmul_fraction_measured", num(fraction, 3)}, {"matmul_fraction_planned", num(p.matmul_fraction, 3)}};
    const std::string recal = "measured matmul fraction " + num(fraction, 3) + " (plan " + num(p.matmul_fraction, 3) + ")";
    if (r >= 1.15)
      b.add(Area::compute, "bf16_gemm", Status::warn,
            {"gemm_faster_than_plan", params, "every GPU beats the plan: " + recal + "; the plan is conservative"},
            want, worst.second, "TFLOPS");
    else if (r >= 0.9)
      b.add(Area::compute, "bf16_gemm", Status::pass, {"ok", params, recal}, want, worst.second, "TFLOPS");
    else
      b.add(Area::compute, "bf16_gemm", r >= 0.75 ? Status::warn : Status::fail,
            {"gemm_slow", params,
             "GPU " + std::to_string(worst.first) + " reaches " + num(worst.second) + " TFLOPS, " + percent(r) +
                 " of the planned " + num(want) + ": check clocks, power limit and throttling; " + recal},
            want, worst.second, "TFLOPS");
  }
  if (m.job_tokens_per_second_per_server && p.tokens_per_second_per_server && *p.tokens_per_second_per_server > 0) {
    const double want = *p.tokens_per_second_per_server, got = *m.job_tokens_per_second_per_server;
    const double dev = got / want - 1;
    std::vector<std::pair<std::string, std::string>> params = {{"measured", num(got, 0)}, {"planned", num(want, 0)}};
    std::string recal;
    if (p.mfu) {
      params.emplace_back("mfu_measured", num(*p.mfu * got / want, 3));
      recal = "; recalibrated MFU " + num(*p.mfu * got / want, 3) + " (plan " + num(*p.mfu, 3) + ")";
    }
    Status s = std::fabs(dev) <= 0.15 ? Status::pass : dev < -0.30 ? Status::fail : Status::warn;
    std::string code = s == Status::pass ? "ok" : dev < 0 ? "tokens_slow" : "tokens_faster_than_plan";
    b.add(Area::compute, "tokens_per_second", s,
          {code, params,
           num(got, 0) + " tokens/s per server vs " + num(want, 0) + " planned (" + (dev >= 0 ? "+" : "") +
               percent(dev) + ")" + recal},
          want, got, "tokens/s");
  }
}

void power_items(const ValidationPlan& p, const Measurements& m, Builder& b) {
  std::vector<const GpuInventory*> other_limit;
  for (const auto& g : m.gpus)
    if (g.power_limit_w && std::fabs(*g.power_limit_w - p.power_limit_w) >= 1) other_limit.push_back(&g);
  if (!other_limit.empty()) {
    const GpuInventory& g = *other_limit.front();
    b.add(Area::power, "power_limit", Status::warn,
          {"power_limit_differs", {{"gpu", std::to_string(g.index)}, {"limit_w", num(*g.power_limit_w, 0)}},
           "GPU " + std::to_string(g.index) + " is limited to " + num(*g.power_limit_w, 0) + " W, the plan assumes " +
               num(p.power_limit_w, 0) + " W" + more(other_limit.size()) + ": power and speed figures move with it"},
          p.power_limit_w, *g.power_limit_w, "W");
  } else if (!m.gpus.empty()) {
    b.add(Area::power, "power_limit", Status::pass, ok(), p.power_limit_w, p.power_limit_w, "W");
  }
  // A raw CSV is judged like the summary's log: fewer GPUs than the plan (one dropped out, or
  // the log of another server) fails, and so does a GPU index the plan's server does not have.
  if (m.gpus_logged && *m.gpus_logged < p.gpus_per_server)
    b.add(Area::power, "gpus_logged", Status::fail,
          {"gpu_missing_in_log", {{"logged", std::to_string(*m.gpus_logged)}},
           "only " + std::to_string(*m.gpus_logged) + " of " + std::to_string(p.gpus_per_server) +
               " GPUs in the burn-in log: one dropped out (look for Xid 79), or the log is of another server"},
          p.gpus_per_server, *m.gpus_logged, "GPUs");
  const auto extra = std::max_element(m.power.begin(), m.power.end(),
                                     [](const GpuPowerStats& a, const GpuPowerStats& b) { return a.index < b.index; });
  if (extra != m.power.end() && extra->index >= p.gpus_per_server)
    b.add(Area::power, "gpus_logged", Status::fail,
          {"gpu_extra_in_log", {{"gpu", std::to_string(extra->index)}},
           "the burn-in log has GPU " + std::to_string(extra->index) + ", the plan's server has " +
               std::to_string(p.gpus_per_server) + " (indices 0-" + std::to_string(p.gpus_per_server - 1) +
               "): this log is of another server"},
          p.gpus_per_server, extra->index + 1, "GPUs");
  if (!m.power.empty()) {
    const GpuPowerStats* hot = nullptr;
    const GpuPowerStats* brake = nullptr;
    const GpuPowerStats* capped = nullptr;
    const GpuPowerStats* ecc = nullptr;
    double p50_max = 0;
    // Under a full load every GPU may sit at its cap: flag the GPU capped far more than the median.
    std::vector<double> caps;
    for (const auto& g : m.power) caps.push_back(g.power_cap_fraction);
    std::sort(caps.begin(), caps.end());
    const double cap_median = caps[(caps.size() + 1) / 2 - 1];
    for (const auto& g : m.power) {
      if (g.thermal_throttle_fraction > 0.01 && (!hot || g.thermal_throttle_fraction > hot->thermal_throttle_fraction)) hot = &g;
      if (g.power_brake_fraction > 0.01 && (!brake || g.power_brake_fraction > brake->power_brake_fraction)) brake = &g;
      if (g.power_cap_fraction > cap_median + 0.10 && (!capped || g.power_cap_fraction > capped->power_cap_fraction)) capped = &g;
      if (g.ecc_uncorrected_max && *g.ecc_uncorrected_max > 0 && !ecc) ecc = &g;
      if (g.power_draw_w_p50) p50_max = std::max(p50_max, *g.power_draw_w_p50);
    }
    auto gpu = [](const GpuPowerStats* g) { return std::to_string(g->index); };
    if (hot)
      b.add(Area::power, "thermal_throttle", Status::fail,
            {"thermal_throttle", {{"gpu", gpu(hot)}, {"percent", num(hot->thermal_throttle_fraction * 100, 0)}},
             "GPU " + gpu(hot) + " thermal-throttled " + percent(hot->thermal_throttle_fraction) +
                 " of samples: check fans, airflow and inlet temperature"},
            1, hot->thermal_throttle_fraction * 100, "% of samples");
    else
      b.add(Area::power, "thermal_throttle", Status::pass, ok(), 1, 0, "% of samples");
    if (brake)
      b.add(Area::power, "power_brake", Status::fail,
            {"power_brake", {{"gpu", gpu(brake)}, {"percent", num(brake->power_brake_fraction * 100, 0)}},
             "GPU " + gpu(brake) + " hit the hardware power brake in " + percent(brake->power_brake_fraction) +
                 " of samples: check PSUs and power cabling"},
            1, brake->power_brake_fraction * 100, "% of samples");
    if (capped)
      b.add(Area::power, "power_cap", Status::warn,
            {"power_capped", {{"gpu", gpu(capped)}, {"percent", num(capped->power_cap_fraction * 100, 0)}},
             "GPU " + gpu(capped) + " power-capped " + percent(capped->power_cap_fraction) +
                 " of samples, the median GPU " + percent(cap_median) +
                 ": check its power limit, cooling and slot"},
            (cap_median + 0.10) * 100, capped->power_cap_fraction * 100, "% of samples");
    if (ecc)
      b.add(Area::power, "ecc_uncorrected", Status::fail,
            {"ecc_uncorrected", {{"gpu", gpu(ecc)}, {"count", num(*ecc->ecc_uncorrected_max, 0)}},
             "GPU " + gpu(ecc) + " logged " + num(*ecc->ecc_uncorrected_max, 0) +
                 " uncorrectable ECC errors: reset it, replace it if they recur"},
            0, *ecc->ecc_uncorrected_max, "errors");
    if (p50_max > 0) {
      const double planned = p.power_limit_w * p.training_load_factor;
      if (p50_max > p.power_limit_w * 1.02)
        b.add(Area::power, "gpu_power", Status::warn,
              {"power_over_tdp", {{"p50_w", num(p50_max, 0)}, {"tdp_w", num(p.power_limit_w, 0)}},
               "median GPU draw " + num(p50_max, 0) + " W exceeds the planned TDP " + num(p.power_limit_w, 0) +
                   " W: rerun the power plan with the measured figure"},
              planned, p50_max, "W");
      else
        b.add(Area::power, "gpu_power", Status::pass,
              {"ok", {{"p50_w", num(p50_max, 0)}, {"planned_w", num(planned, 0)}},
               "median draw up to " + num(p50_max, 0) + " W per GPU; the plan budgets " + num(planned, 0) +
                   " W (TDP x load factor) and " + num(p.power_limit_w, 0) + " W peak"},
              planned, p50_max, "W");
    }
  }
  if ((m.xid_count && *m.xid_count > 0) || (m.xid_new && *m.xid_new > 0)) {
    int n = std::max(m.xid_count.value_or(0), m.xid_new.value_or(0));
    b.add(Area::power, "xid", Status::fail,
          {"xid_errors", {{"count", std::to_string(n)}, {"codes", m.xid_codes}},
           std::to_string(n) + " Xid error(s) in the kernel log" + (m.xid_codes.empty() ? "" : " (Xid " + m.xid_codes + ")") +
               ": 00_inventory.sh says what each code needs"},
          0, n, "errors");
  } else if (m.xid_count || m.xid_new) {
    b.add(Area::power, "xid", Status::pass, ok(), 0, 0, "errors");
  }
  if (m.burnin_seconds) {
    const double want = m.burnin_target_seconds.value_or(p.burnin_hours * 3600);
    const double hours = *m.burnin_seconds / 3600;
    if (*m.burnin_seconds + 1 < want)
      b.add(Area::power, "burnin_duration", Status::warn,
            {"burnin_incomplete", {{"hours", num(hours, 2)}, {"target_hours", num(want / 3600, 2)}},
             "the burn-in ran " + num(hours, 2) + " h of " + num(want / 3600, 2) + " h: run 40_burnin.sh again to resume"},
            want / 3600, hours, "h");
    else
      b.add(Area::power, "burnin_duration", Status::pass, ok(), want / 3600, hours, "h");
  }
  if (m.wall_power_w_max && p.server_full_load_w) {
    const double got = *m.wall_power_w_max, want = *p.server_full_load_w;
    if (got > want)
      b.add(Area::power, "wall_power", Status::warn,
            {"wall_power_above_plan", {{"measured_w", num(got, 0)}, {"planned_w", num(want, 0)}},
             "one server draws up to " + num(got, 0) + " W at the wall, above the planned " + num(want, 0) + " W"},
            want, got, "W");
    else
      b.add(Area::power, "wall_power", Status::pass, ok(), want, got, "W");
    if (p.rack_budget_kw) {
      const double rack_kw = got * p.servers_per_rack / 1000;
      b.add(Area::power, "rack_power", rack_kw <= *p.rack_budget_kw ? Status::pass : Status::fail,
            rack_kw <= *p.rack_budget_kw
                ? ok()
                : Reason{"rack_over_budget",
                         {{"rack_kw", num(rack_kw, 2)}, {"budget_kw", num(*p.rack_budget_kw, 2)},
                          {"servers", std::to_string(p.servers_per_rack)}},
                         std::to_string(p.servers_per_rack) + " server(s) at the measured " + num(got, 0) + " W need " +
                             num(rack_kw, 2) + " kW, over the rack's " + num(*p.rack_budget_kw, 2) + " kW"},
            *p.rack_budget_kw, rack_kw, "kW");
    }
  }
}

void cost_items(const ValidationPlan& p, const Measurements& m, const CostInputs& c, Builder& b) {
  if (!c.price_per_gpu_hour || !c.planned_gpu_hours || *c.planned_gpu_hours <= 0) return;
  double ratio = 0;
  std::string basis;
  if (m.job_tokens_per_second_per_server && p.tokens_per_second_per_server && *p.tokens_per_second_per_server > 0) {
    ratio = *m.job_tokens_per_second_per_server / *p.tokens_per_second_per_server;
    basis = "tokens_per_second";
  } else if (!m.gemm_tflops.empty()) {
    double mean = 0;
    for (const auto& g : m.gemm_tflops) mean += g.second;
    mean /= m.gemm_tflops.size();
    ratio = mean / (p.bf16_dense_peak_tflops * p.matmul_fraction);
    basis = "gemm";
  }
  if (!(ratio > 0)) return;
  const double planned = *c.planned_gpu_hours * *c.price_per_gpu_hour;
  const double hours = *c.planned_gpu_hours / ratio;
  const double cost = hours * *c.price_per_gpu_hour;
  const double dev = cost / planned - 1;
  const std::string what = basis == "gemm" ? "the measured GEMM rate (no job tokens/s given)" : "the measured tokens/s";
  b.add(Area::cost, "cost_per_run", dev > 0.15 ? Status::warn : Status::pass,
        {dev > 0.15 ? "cost_over_plan" : "ok",
         {{"cost", num(cost, 0)}, {"planned", num(planned, 0)}, {"currency", c.currency}, {"gpu_hours", num(hours, 0)},
          {"basis", basis}},
         "cost per run " + num(cost, 0) + " " + c.currency + " (" + num(hours, 0) + " GPU-hours) vs " + num(planned, 0) +
             " planned (" + (dev >= 0 ? "+" : "") + percent(dev) + "), from " + what},
        planned, cost, c.currency);
}

}  // namespace

void require_same_plan(const ValidationPlan& plan, const Measurements& m) {
  const std::string base = "/" + (m.file_name.empty() ? std::string("validation-result.json") : m.file_name);
  if (!m.gpu_id.empty() && m.gpu_id != plan.gpu_id)
    throw InputError("other_plan", base + "/gpu_id",
                     m.file_name + " checked " + m.gpu_id + " GPUs, this plan has " + plan.gpu_id +
                         ": it belongs to another plan");
  const std::string id = plan_id(plan);
  if (!m.plan_id.empty() && m.plan_id != id)
    throw InputError("other_plan", base + "/plan_id",
                     m.file_name + " was written by the scripts of plan " + m.plan_id + ", not this plan (" + id +
                         "): regenerate the scripts for this plan, or check it against its own request");
}

CheckReport check_measurements(const ValidationPlan& plan, const Measurements& m, const CostInputs& cost) {
  CheckReport r;
  r.plan_id = plan_id(plan);
  r.file_name = m.file_name;
  r.script_checks = m.script_checks;
  Builder b(r);
  memory_items(plan, m, b);
  interconnect_items(plan, m, b);
  compute_items(plan, m, b);
  power_items(plan, m, b);
  cost_items(plan, m, cost, b);
  for (const auto& i : r.items) {
    if (i.status == Status::pass) ++r.passed;
    if (i.status == Status::warn) ++r.warned;
    if (i.status == Status::fail) ++r.failed;
  }
  r.overall = r.failed ? Status::fail : r.warned ? Status::warn : Status::pass;
  return r;
}

const char* to_string(Area a) {
  switch (a) {
    case Area::memory: return "memory";
    case Area::interconnect: return "interconnect";
    case Area::compute: return "compute";
    case Area::power: return "power";
    case Area::cost: return "cost";
  }
  return "memory";
}

const char* to_string(Status s) {
  switch (s) {
    case Status::pass: return "pass";
    case Status::warn: return "warn";
    case Status::fail: return "fail";
  }
  return "pass";
}

}  // namespace advisor::validation
