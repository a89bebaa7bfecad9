// SPDX-License-Identifier: MIT
// The check's memory and interconnect items (validation/check_fabric.hpp).
#include "validation/check_fabric.hpp"

#include <algorithm>
#include <cmath>

namespace advisor::validation::items {
namespace {

double pcie_gbps(int generation, int lanes) {
  double x16 = generation >= 6 ? 121 : generation == 5 ? 63 : generation == 4 ? 31.5 : 15.75;
  return x16 * lanes / 16.0;
}

bool nvlink_plan(const ValidationPlan& p) {
  return p.intra_node_link == IntraNodeLink::nvswitch ||
         p.intra_node_link == IntraNodeLink::nvlink_bridge;
}

void busbw_item(const ValidationPlan& p, Builder& b, const std::string& item, double expected,
                double got, bool intra) {
  const double r = expected > 0 ? got / expected : 1;
  const std::string bw = num(got);
  if (r >= 0.8) {
    b.add(Area::interconnect, item, Status::pass, ok(), expected, got, "GB/s");
  } else if (intra && nvlink_plan(p) && got < pcie_gbps(p.pcie_generation, p.pcie_width)) {
    b.add(
        Area::interconnect, item, Status::fail,
        {"busbw_on_pcie",
         {{"busbw_gbps", bw}, {"expected_gbps", num(expected)}},
         "busbw " + bw +
             " GB/s: traffic is on PCIe, not NVLink (check the fabric manager and NVLink status)"},
        expected, got, "GB/s");
  } else {
    b.add(Area::interconnect, item, r >= 0.6 ? Status::warn : Status::fail,
          {"busbw_low",
           {{"busbw_gbps", bw}, {"expected_gbps", num(expected)}, {"ratio", num(r, 2)}},
           "busbw " + bw + " GB/s is " + percent(r) + " of the planned " + num(expected) +
               " GB/s: training steps will be slower than planned"},
          expected, got, "GB/s");
  }
}

/// The PCIe link in the burn-in's busy samples (an idle GPU lowers its generation to save power,
/// so only samples at >= 50% utilisation count): a width below the plan's FAILs (a link trained
/// at x8 in an x16 slot: a riser, cable or seating fault); a generation below it WARNs.
void pcie_under_load_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  const GpuPowerStats* narrow = nullptr;
  const GpuPowerStats* slow = nullptr;
  std::size_t n_narrow = 0, n_slow = 0, seen = 0;
  for (const auto& g : m.power) {
    if (g.pcie_width_min_busy || g.pcie_gen_min_busy) ++seen;
    if (g.pcie_width_min_busy && *g.pcie_width_min_busy < p.pcie_width) {
      if (!narrow || *g.pcie_width_min_busy < *narrow->pcie_width_min_busy) narrow = &g;
      ++n_narrow;
    }
    if (g.pcie_gen_min_busy && *g.pcie_gen_min_busy < p.pcie_generation) {
      if (!slow) slow = &g;
      ++n_slow;
    }
  }
  if (narrow) {
    const std::string gpu = std::to_string(narrow->index);
    const int width = *narrow->pcie_width_min_busy;
    const int link = narrow->pcie_width_max_logged.value_or(p.pcie_width);
    const std::string w = std::to_string(width);
    std::string message =
        link > width ? "GPU " + gpu + " trained at x" + w + " in an x" + std::to_string(link) +
                           " link under load" + more(n_narrow) +
                           ": reseat the card and its riser or cable, then check again"
                     : "GPU " + gpu + " runs at x" + w + " under load, the plan expects x" +
                           std::to_string(p.pcie_width) + more(n_narrow) +
                           ": the slot or riser is narrower (check the slot and the BIOS "
                           "bifurcation setting)";
    b.add(Area::interconnect, "pcie_under_load", Status::fail,
          {"pcie_width_downtrained",
           {{"gpu", gpu},
            {"width", w},
            {"link_width", std::to_string(link)},
            {"expected_width", std::to_string(p.pcie_width)}},
           std::move(message)},
          p.pcie_width, width, "lanes");
  } else if (slow) {
    const std::string gpu = std::to_string(slow->index);
    const std::string gen = std::to_string(*slow->pcie_gen_min_busy);
    b.add(Area::interconnect, "pcie_under_load", Status::warn,
          {"pcie_downtrained",
           {{"gpu", gpu}, {"gen", gen}, {"expected_gen", std::to_string(p.pcie_generation)}},
           "GPU " + gpu + " dropped to Gen" + gen + " while busy, planned Gen" +
               std::to_string(p.pcie_generation) + more(n_slow) + ": check the riser and slot"},
          p.pcie_generation, *slow->pcie_gen_min_busy, "PCIe generation");
  } else if (seen > 0) {
    b.add(Area::interconnect, "pcie_under_load", Status::pass, ok());
  }
}

/// Row remapping (HBM parts from Ampere on): a remap that failed, or one still pending (an
/// uncorrectable error was remapped and waits for a GPU reset), FAILs acceptance, as NVIDIA's
/// memory error guide and the cloud node health checks treat them.
void row_remap_item(const Measurements& m, Builder& b) {
  if (m.row_remap_failure_gpus && *m.row_remap_failure_gpus > 0)
    b.add(Area::memory, "row_remapper", Status::fail,
          {"row_remap_failure",
           {{"gpus", std::to_string(*m.row_remap_failure_gpus)}},
           std::to_string(*m.row_remap_failure_gpus) +
               " GPU(s) failed to remap memory rows: replace them"},
          0, *m.row_remap_failure_gpus, "GPUs");
  else if (m.row_remap_pending_gpus && *m.row_remap_pending_gpus > 0)
    b.add(Area::memory, "row_remapper", Status::fail,
          {"row_remap_pending",
           {{"gpus", std::to_string(*m.row_remap_pending_gpus)}},
           std::to_string(*m.row_remap_pending_gpus) +
               " GPU(s) have pending row remaps after an uncorrectable memory error: reset them "
               "(or reboot) and run 00_inventory.sh again; refuse a card whose remap fails"},
          0, *m.row_remap_pending_gpus, "GPUs");
  else if (m.row_remap_pending_gpus)
    b.add(Area::memory, "row_remapper", Status::pass, ok(), 0, 0, "GPUs");
}

/// NVLink error counters (nvidia-smi nvlink -e): links at or above data/validation.json's
/// limits FAIL, any other count WARNs.
void nvlink_error_item(const Measurements& m, Builder& b) {
  if (!m.nvlink_error_count) return;
  const int storms = m.nvlink_error_storm_links.value_or(0);
  if (storms > 0)
    b.add(Area::interconnect, "nvlink_errors", Status::fail,
          {"nvlink_error_storm",
           {{"links", std::to_string(storms)}, {"at", m.nvlink_error_storm_at}},
           std::to_string(storms) + " NVLink link(s) with errors at a failing rate (GPU:link " +
               m.nvlink_error_storm_at +
               "): reseat the GPU or baseboard, check the NVSwitch tray, rerun 10_topology.sh"},
          0, *m.nvlink_error_count, "errors");
  else if (*m.nvlink_error_count > 0)
    b.add(Area::interconnect, "nvlink_errors", Status::warn,
          {"nvlink_errors",
           {{"count", num(*m.nvlink_error_count, 0)}},
           num(*m.nvlink_error_count, 0) +
               " NVLink CRC/replay/recovery errors, below the failing limits: run 10_topology.sh "
               "again after the burn-in; rising counts mean a bad link"},
          0, *m.nvlink_error_count, "errors");
  else
    b.add(Area::interconnect, "nvlink_errors", Status::pass, ok(), 0, 0, "errors");
}

/// The part delivered against the planned one, by the names nvidia-smi prints for it
/// (data/validation.json smi_names): another part (a 4090D on a 4090 plan, an H800 on an H100
/// plan) FAILs, since the plan's speed, memory and cost assume the planned part. A part without
/// sourced names is not judged.
void part_name_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (p.smi_names.empty() || m.gpus.empty()) return;
  const GpuInventory* other = nullptr;
  std::size_t n_other = 0;
  for (const auto& g : m.gpus) {
    if (g.name.empty()) continue;
    if (std::find(p.smi_names.begin(), p.smi_names.end(), g.name) != p.smi_names.end()) continue;
    if (!other) other = &g;
    ++n_other;
  }
  if (!other) {
    b.add(Area::memory, "part", Status::pass, ok());
    return;
  }
  b.add(Area::memory, "part", Status::fail,
        {"part_mismatch",
         {{"gpu", std::to_string(other->index)},
          {"measured", other->name},
          {"expected", p.smi_names.front()}},
         "GPU " + std::to_string(other->index) + " is a " + other->name + ", not the planned " +
             p.smi_names.front() + more(n_other) +
             ": the plan's speed, memory and cost assume the planned part; refuse the delivery, "
             "or plan again for the part delivered"});
}

/// The GPUs a server shows against the plan's per server.
void gpu_count_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (!m.gpu_count) return;
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
          {"gpu_extra",
           {{"expected", std::to_string(want)}, {"measured", std::to_string(got)}},
           std::to_string(got) + " GPUs, the plan has " + std::to_string(want)},
          want, got, "GPUs");
}

/// memory.total per GPU against the figure for its ECC mode, then the mode against the plan's.
void memory_total_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  const std::optional<int> planned = planned_memory_total_mib(p);
  if (!m.gpus.empty() && (p.memory_total_mib_ecc_on || p.memory_total_mib_ecc_off)) {
    // As 00_inventory.sh: memory.total against the figure for each GPU's ECC mode, then the
    // mode against the one the plan counts on.
    const GpuInventory* wrong = nullptr;
    const GpuInventory* ecc_on = nullptr;   // GDDR part shipped without ECC, ECC on
    const GpuInventory* ecc_off = nullptr;  // data-centre part, ECC off
    std::size_t n_wrong = 0, n_on = 0, n_off = 0, checked = 0;
    int wrong_want = 0;
    double lowest = planned.value_or(0);
    for (const auto& g : m.gpus) {
      if (!g.memory_total_mib) continue;
      // No ECC mode in the file (an older one): the mode the plan counts on.
      const std::string mode = !g.ecc_mode.empty()            ? g.ecc_mode
                               : p.ecc_default == EccMode::on ? "Enabled"
                                                              : "Disabled";
      const auto want = expected_memory_for_mode(p, mode);
      if (!want) continue;
      ++checked;
      lowest = std::min(lowest, *g.memory_total_mib);
      if (std::fabs(*g.memory_total_mib - want->first) > want->second) {
        if (!wrong) wrong = &g, wrong_want = want->first;
        ++n_wrong;
        continue;
      }
      if (g.ecc_mode.empty()) continue;
      const bool on = g.ecc_mode == "Enabled";
      if (on && p.ecc_default != EccMode::on && !p.hbm) {
        if (!ecc_on) ecc_on = &g;
        ++n_on;
      } else if (!on && p.ecc_default == EccMode::on) {
        if (!ecc_off) ecc_off = &g;
        ++n_off;
      }
    }
    const double want = planned.value_or(0);
    if (wrong) {
      const GpuInventory& g = *wrong;
      b.add(Area::memory, "memory_total", Status::fail,
            {"memory_total_mismatch",
             {{"gpu", std::to_string(g.index)},
              {"expected_mib", num(wrong_want, 0)},
              {"measured_mib", num(*g.memory_total_mib, 0)},
              {"ecc_mode", g.ecc_mode}},
             "GPU " + std::to_string(g.index) + " reports " + num(*g.memory_total_mib, 0) +
                 " MiB, expected " + num(wrong_want, 0) + " MiB with ECC " +
                 (g.ecc_mode.empty() ? std::string("?") : g.ecc_mode) +
                 ": another variant, MIG, or retired memory" + more(n_wrong)},
            want, lowest, "MiB");
    } else if (ecc_on) {
      const GpuInventory& g = *ecc_on;
      const std::string i = std::to_string(g.index);
      b.add(Area::memory, "memory_total", Status::warn,
            {"ecc_on_memory",
             {{"gpu", i}, {"measured_mib", num(*g.memory_total_mib, 0)}},
             "ECC is enabled on GPU " + i + more(n_on) +
                 ": it reserves 1/16 of the memory, so the plan " + "has " +
                 num(*g.memory_total_mib, 0) + " MiB, not " + num(want, 0) +
                 ", and runs a little slower; keep it and check the plan fits, or turn it off " +
                 "(nvidia-smi -e 0 as root, then reboot)"},
            want, *g.memory_total_mib, "MiB");
    } else if (ecc_off) {
      const GpuInventory& g = *ecc_off;
      const std::string i = std::to_string(g.index);
      b.add(Area::memory, "memory_total", Status::warn,
            {p.hbm ? "ecc_disabled" : "ecc_off_memory",
             {{"gpu", i}, {"ecc_mode", g.ecc_mode}},
             "ECC is off on GPU " + i + more(n_off) +
                 (p.hbm ? std::string(": no error correction")
                        : ": more memory, no error correction") +
                 " on a data-centre part the plan expects it on (nvidia-smi -e 1 as root, then "
                 "reboot)"},
            want, *g.memory_total_mib, "MiB");
    } else if (checked > 0) {
      b.add(Area::memory, "memory_total", Status::pass, ok(), want, lowest, "MiB");
    }
  }
}

/// The memory one step of the planned model used, against the plan's band.
void one_step_memory_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (m.step_status == "oom") {
    b.add(Area::memory, "one_step_memory", Status::fail,
          {"memory_oom",
           {{"model", p.probe.name}},
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
      r = {"memory_above_band",
           {{"measured_gib", num(used / kBytesPerGiB)}, {"band_gib", band}},
           "one step uses " + gib + ", above the plan's band " + band +
               ": expect out-of-memory on longer runs"};
    } else if (used < p.memory_band_low_bytes && !probe_scale(p).scaled()) {
      // A reduced slice (probe_scale) reads below the band by design: only above it matters.
      s = Status::warn;
      r = {"memory_below_band",
           {{"measured_gib", num(used / kBytesPerGiB)}, {"band_gib", band}},
           "one step uses " + gib + ", below the plan's band " + band +
               ": the estimate is conservative here"};
    }
    b.add(Area::memory, "one_step_memory", s, r, p.memory_per_gpu_bytes / kBytesPerGiB,
          used / kBytesPerGiB, "GiB");
  }
}

}  // namespace

void memory_items(const ValidationPlan& p, const Measurements& m, Builder& b) {
  gpu_count_item(p, m, b);
  part_name_item(p, m, b);
  memory_total_item(p, m, b);
  one_step_memory_item(p, m, b);
  row_remap_item(m, b);
}

namespace {

/// The pairs `nvidia-smi topo -m` shows against the plan's link between GPUs.
void topology_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (m.topo_pairs && *m.topo_pairs > 0 && !p.topo_entries.empty()) {
    const int bad = m.topo_mismatched_pairs.value_or(0);
    if (bad == 0) {
      b.add(Area::interconnect, "topology", Status::pass, ok(), *m.topo_pairs, *m.topo_pairs,
            "GPU pairs");
    } else {
      bool pcie = false;
      for (const char* e : {"PIX", "PXB", "PHB", "NODE", "SYS"})
        if ((" " + m.topo_entries + " ").find(std::string(" ") + e + " ") != std::string::npos)
          pcie = true;
      std::string want;
      for (const auto& e : p.topo_entries) want += (want.empty() ? "" : "/") + e;
      Reason r = pcie && nvlink_plan(p)
                     ? Reason{"traffic_on_pcie",
                              {{"pairs", std::to_string(bad)}, {"entries", m.topo_entries}},
                              std::to_string(bad) + " GPU pairs talk over PCIe (" + m.topo_entries +
                                  "), not NVLink " + want}
                     : Reason{"topo_mismatch",
                              {{"pairs", std::to_string(bad)}, {"entries", m.topo_entries}},
                              std::to_string(bad) + " GPU pairs show " + m.topo_entries +
                                  ", expected " + want};
      b.add(Area::interconnect, "topology", Status::fail, r, *m.topo_pairs, *m.topo_pairs - bad,
            "GPU pairs");
    }
  }
}

/// NVLink: every link up, as many per GPU as planned, at the planned speed.
void nvlink_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
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
            {"nvlink_inactive",
             {{"gpu", std::to_string(gpu)}, {"link", std::to_string(link)}},
             "link " + std::to_string(link) + " inactive on GPU " + std::to_string(gpu) +
                 more(inactive.size()) +
                 ": reseat the GPU/baseboard, reset, replace if it stays down"},
            want, fewest->active_links, "links");
    } else if (fewest->active_links < want ||
               static_cast<int>(m.nvlink.size()) < p.gpus_per_server) {
      b.add(
          Area::interconnect, "nvlink", Status::fail,
          {"nvlink_missing",
           {{"gpu", std::to_string(fewest->index)},
            {"links", std::to_string(fewest->active_links)}},
           "GPU " + std::to_string(fewest->index) + " has " + std::to_string(fewest->active_links) +
               " of " + num(want, 0) + " NVLink links (or a GPU reports none)"},
          want, fewest->active_links, "links");
    } else if (slowest && p.nvlink_link_gbps > 0 &&
               *slowest->min_link_gbps < 0.99 * p.nvlink_link_gbps) {
      b.add(Area::interconnect, "nvlink", Status::fail,
            {"nvlink_slow",
             {{"gpu", std::to_string(slowest->index)}, {"gbps", num(*slowest->min_link_gbps, 3)}},
             "GPU " + std::to_string(slowest->index) + " has a link at " +
                 num(*slowest->min_link_gbps, 3) + " GB/s, planned " + num(p.nvlink_link_gbps, 3)},
            p.nvlink_link_gbps, *slowest->min_link_gbps, "GB/s per link");
    } else {
      b.add(Area::interconnect, "nvlink", Status::pass, ok(), want, fewest->active_links, "links");
    }
  }
}

/// Peer-to-peer between GPU pairs, against what the plan's link offers.
void peer_to_peer_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (m.p2p_pairs && *m.p2p_pairs > 0) {
    const int pairs = *m.p2p_pairs, okp = m.p2p_ok_pairs.value_or(0);
    if (p.intra_node_link == IntraNodeLink::pcie_no_p2p)
      b.add(Area::interconnect, "peer_to_peer", okp == 0 ? Status::pass : Status::warn,
            okp == 0 ? ok()
                     : Reason{"p2p_better_than_plan",
                              {{"pairs", std::to_string(okp)}},
                              "peer-to-peer works on " + std::to_string(okp) +
                                  " pairs: all-reduce may beat the plan"},
            0, okp, "GPU pairs");
    else
      b.add(Area::interconnect, "peer_to_peer", okp == pairs ? Status::pass : Status::fail,
            okp == pairs ? ok()
                         : Reason{"p2p_unavailable",
                                  {{"pairs", std::to_string(pairs - okp)}},
                                  std::to_string(pairs - okp) +
                                      " GPU pairs lack peer-to-peer: traffic goes "
                                      "through host memory (check ACS/IOMMU in the BIOS)"},
            pairs, okp, "GPU pairs");
  }
}

/// Each GPU's PCIe link generation and width against the plan's.
void pcie_link_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  std::vector<const GpuInventory*> slow_pcie;
  for (const auto& g : m.gpus)
    if ((g.pcie_gen_max && *g.pcie_gen_max < p.pcie_generation) ||
        (g.pcie_width_max && *g.pcie_width_max < p.pcie_width))
      slow_pcie.push_back(&g);
  if (!slow_pcie.empty()) {
    const GpuInventory& g = *slow_pcie.front();
    b.add(Area::interconnect, "pcie_link", Status::fail,
          {"pcie_link_low",
           {{"gpu", std::to_string(g.index)},
            {"gen", std::to_string(g.pcie_gen_max.value_or(0))},
            {"width", std::to_string(g.pcie_width_max.value_or(0))}},
           "GPU " + std::to_string(g.index) + " links at Gen" +
               std::to_string(g.pcie_gen_max.value_or(0)) + " x" +
               std::to_string(g.pcie_width_max.value_or(0)) + ", planned Gen" +
               std::to_string(p.pcie_generation) + " x" + std::to_string(p.pcie_width) +
               more(slow_pcie.size()) + ": check the slot, riser and BIOS"});
  } else if (!m.gpus.empty()) {
    b.add(Area::interconnect, "pcie_link", Status::pass, ok());
  }
}

}  // namespace

void interconnect_items(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (p.fabric_manager_required && !m.fabric_manager_state.empty()) {
    if (m.fabric_manager_state == "active")
      b.add(Area::interconnect, "fabric_manager", Status::pass, ok());
    else
      b.add(Area::interconnect, "fabric_manager", Status::fail,
            {"fabric_manager_inactive",
             {{"state", m.fabric_manager_state}},
             "nvidia-fabricmanager is " + m.fabric_manager_state +
                 ": NVSwitch GPUs get no NVLink without it (systemctl enable --now "
                 "nvidia-fabricmanager, as root)"});
  }
  topology_item(p, m, b);
  nvlink_item(p, m, b);
  nvlink_error_item(m, b);
  peer_to_peer_item(p, m, b);
  pcie_link_item(p, m, b);
  pcie_under_load_item(p, m, b);
  if (m.allreduce_busbw_gbps && p.allreduce_busbw_gbps > 0)
    busbw_item(p, b, "allreduce_busbw", p.allreduce_busbw_gbps, *m.allreduce_busbw_gbps, true);
  if (p.network != Network::none && m.ib_ports_active) {
    const int want = p.network_ports_per_server, got = *m.ib_ports_active;
    b.add(Area::interconnect, "network_ports", got >= want ? Status::pass : Status::fail,
          got >= want
              ? ok()
              : Reason{"ib_port_down",
                       {{"active", std::to_string(got)}, {"expected", std::to_string(want)}},
                       std::to_string(got) + " of " + std::to_string(want) + " ports Active at " +
                           num(p.network_rate_gbit_per_s, 0) +
                           " Gb/s: check cables, switch ports and the subnet manager"},
          want, got, "ports");
  }
  if (m.nccl_transport_net == "socket")
    b.add(Area::interconnect, "nccl_network", Status::fail,
          {"nccl_on_socket",
           {},
           "NCCL fell back to TCP sockets between servers: pass /dev/infiniband into the "
           "container and set NCCL_IB_HCA"});
  if (m.inter_node_busbw_gbps && p.inter_node_busbw_gbps > 0)
    busbw_item(p, b, "inter_node_busbw", p.inter_node_busbw_gbps, *m.inter_node_busbw_gbps, false);
  if (m.nccl_timeouts && *m.nccl_timeouts > 0)
    b.add(Area::interconnect, "nccl_timeouts", Status::fail,
          {"nccl_timeout",
           {{"count", std::to_string(*m.nccl_timeouts)}},
           std::to_string(*m.nccl_timeouts) +
               " NCCL timeout(s) during the burn-in: a GPU, NVLink or NIC stalls"},
          0, *m.nccl_timeouts, "timeouts");
}

}  // namespace advisor::validation::items
