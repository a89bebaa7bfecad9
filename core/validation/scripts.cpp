// SPDX-License-Identifier: MIT
#include "validation/scripts.hpp"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "types/limits.hpp"
#include "types/text.hpp"
#include "validation/bodies.hpp"

namespace advisor::validation {
namespace {

/// Decimal text without trailing zeros: 26.562, 700, 0.8.
std::string num(double v, int decimals = 3) { return trimmed_decimal(v, decimals); }

std::string integer(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

/// Usable one-direction bandwidth of the GPU's PCIe link, GB/s (hardware-facts §2a).
double pcie_gbps(int generation, int lanes) {
  double x16 = generation >= 6 ? 121 : generation == 5 ? 63 : generation == 4 ? 31.5 : 15.75;
  return x16 * lanes / 16.0;
}

/// Any text that is not the generator's own, as it may appear in a comment or a label: one
/// line, bounded. A model name comes from the request, a pasted config or a shared link, and a
/// GPU name from a provider's catalog: a newline there would end the comment and run the rest
/// as code, as whoever runs the script (often root).
std::string line_text(const std::string& text) {
  return one_line(text, limits::kMaxScriptTextChars);
}

std::string plan_summary(const ValidationPlan& p) {
  std::string s = std::to_string(p.gpus_per_server) + "x " + line_text(p.gpu_name) +
                  " per server, " + std::to_string(p.servers) +
                  (p.servers == 1 ? " server" : " servers");
  if (!p.summary.empty()) s += "; " + line_text(p.summary);
  return s;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += sep;
    s += v[i];
  }
  return s;
}

/// The block of expected values at the top of a script: NAME=value  # comment
class Vars {
 public:
  Vars& set(const std::string& name, const std::string& value, const std::string& comment = "") {
    line(name + "=" + shell_quote(value), comment);
    return *this;
  }
  /// NAME="${NAME:-value}": the environment may override it.
  Vars& env(const std::string& name, const std::string& value, const std::string& comment = "") {
    std::string escaped;
    for (char c : value) {
      if (c == '\\' || c == '"' || c == '$' || c == '`' || c == '}') escaped += '\\';
      escaped += c;
    }
    line(name + "=\"${" + name + ":-" + escaped + "}\"", comment);
    return *this;
  }
  Vars& array(const std::string& name, const std::vector<std::string>& values,
              const std::string& comment = "") {
    std::string s = name + "=(";
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) s += ' ';
      s += shell_quote(values[i]);
    }
    line(s + ")", comment);
    return *this;
  }
  std::string text() const { return text_; }

 private:
  void line(const std::string& code, const std::string& comment) {
    text_ += code;
    if (!comment.empty()) text_ += "  # " + line_text(comment);
    text_ += "\n";
  }
  std::string text_;
};

/// True when `body` calls shell function `name` (as a command or in $(...)).
bool uses(const std::string& body, const std::string& name) {
  for (std::size_t at = body.find(name); at != std::string::npos; at = body.find(name, at + 1)) {
    char before = at ? body[at - 1] : '\n';
    char after = at + name.size() < body.size() ? body[at + name.size()] : '\n';
    bool starts = before == ' ' || before == '\n' || before == '(' || before == '!' ||
                  before == '|' || before == ';';
    bool ends = after == ' ' || after == '\n' || after == ')' || after == ';';
    if (starts && ends) return true;
  }
  return false;
}

/// A small shell function of helpers.sh: a script carries the ones its body uses.
struct Helper {
  std::string name;
  std::string text;
};

/// helpers.sh split at its "# helper: NAME" lines, once.
const std::vector<Helper>& helpers() {
  static const std::vector<Helper> list = [] {
    constexpr std::string_view kMarker = "# helper: ";
    std::vector<Helper> out;
    const std::string_view text = validation::body("helpers.sh");
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = std::min(text.find('\n', at), text.size() - 1) + 1;
      const std::string_view line = text.substr(at, end - at);
      if (line.substr(0, kMarker.size()) == kMarker)
        out.push_back(
            {std::string(line.substr(kMarker.size(), line.size() - kMarker.size() - 1)), ""});
      else if (!out.empty())
        out.back().text += line;
      at = end;
    }
    return out;
  }();
  return list;
}

/// The helpers `body` calls, and the helpers those call, in helpers.sh's order.
std::string helpers_used_by(const std::string& body) {
  const std::vector<Helper>& all = helpers();
  std::vector<bool> used(all.size(), false);
  std::string scanned = body;
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t i = 0; i < all.size(); ++i)
      if (!used[i] && uses(scanned, all[i].name)) {
        used[i] = true;
        scanned += all[i].text;
        grew = true;
      }
  }
  std::string out;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (used[i]) out += all[i].text;
  return out;
}

struct Header {
  std::string file, title;
  std::vector<std::string> what;  // comment lines
  std::string root;
  std::string usage;
};

std::string shell_script(const ValidationPlan& p, const Header& h, const Vars& vars,
                         const char* pre_common, const char* body, bool common = true) {
  std::string s = "#!/usr/bin/env bash\n";
  s += "# " + h.file + ": " + line_text(h.title) + "\n";
  s += "# Generated by GPU Advisor from plan " + plan_id(p) + ":\n#   " + plan_summary(p) + "\n";
  for (const auto& w : h.what) s += "# " + line_text(w) + "\n";
  s += "# Root: " + (h.root.empty() ? std::string("not needed.") : h.root) + "\n";
  s += "# Usage: " + h.usage + "\n";
  s += "# Results go to $VALIDATION_DIR (default ./validation-out); 90_summary.sh collects them\n";
  s += "# into validation-result.json. Exit status 1 when any check FAILs.\n";
  s += "set -euo pipefail\n\n";
  s += "# --- The plan's expected values ------------------------------------------------------\n";
  s += vars.text();
  s += "# -------------------------------------------------------------------------------------\n";
  if (common) s += "SCRIPT_NAME=" + h.file.substr(0, h.file.size() - 3) + "\n";
  if (pre_common) s += pre_common;
  if (common) {
    s += validation::body("common_head.sh");
    s += helpers_used_by(body);
    s += validation::body("common_tail.sh");
  }
  s += body;
  return s;
}

std::string codes_text(const std::vector<int>& codes) {
  std::string s;
  for (int c : codes) s += (s.empty() ? "" : " ") + std::to_string(c);
  return s;
}

/// The Xid lists xid_report (helpers.sh) judges the kernel log by.
void set_xid_vars(Vars& v, const ValidationPlan& p) {
  v.set("XID_HARDWARE", codes_text(p.xid.hardware),
        "Xids that fail the server (NVIDIA Xid catalog; data/validation.json)");
  v.set("XID_APPLICATION", codes_text(p.xid.application),
        "Xids of a user program's fault: a warning");
}

Vars plan_vars(const ValidationPlan& p) {
  Vars v;
  v.set("PLAN_ID", plan_id(p), "validation-result.json carries it back");
  v.set("PLAN_SUMMARY", plan_summary(p));
  return v;
}

ScriptFile inventory(const ValidationPlan& p) {
  Vars v = plan_vars(p);
  v.set("EXPECTED_GPUS", std::to_string(p.gpus_per_server), "GPUs in this server");
  v.set("EXPECTED_NAMES", join(p.smi_names, "|"), "nvidia-smi name(s) of " + p.gpu_id);
  v.set("ECC_DEFAULT", to_string(p.ecc_default),
        "ECC mode the part ships in, which the plan counts on: on | off | none (gpus.json)");
  v.set("MEMORY_KIND", p.hbm ? "hbm" : "gddr",
        p.hbm ? "HBM: ECC is out of band, memory.total the same with ECC on or off"
              : "GDDR: ECC on reserves 1/16 of the memory, memory.total drops by that much");
  const auto figure = [&](const std::optional<int>& mib, int tolerance, const char* mode,
                          const char* other) {
    if (!mib) return std::string("not sourced: recorded, not checked");
    if (tolerance > 0)
      return std::string("memory.total ECC ") + mode + ", MiB, derived from the ECC-" + other +
             " figure (GDDR 1/16 rule): within " + std::to_string(tolerance) + " MiB";
    return std::string("memory.total ECC ") + mode + ", MiB";
  };
  v.set("EXPECTED_MEMORY_MIB_ECC_ON",
        p.memory_total_mib_ecc_on ? std::to_string(*p.memory_total_mib_ecc_on) : "",
        p.ecc_default == EccMode::none
            ? std::string("no ECC on this part")
            : figure(p.memory_total_mib_ecc_on, p.memory_tolerance_mib_ecc_on, "on", "off"));
  v.set("EXPECTED_MEMORY_MIB_ECC_OFF",
        p.memory_total_mib_ecc_off ? std::to_string(*p.memory_total_mib_ecc_off) : "",
        p.ecc_default == EccMode::none
            ? std::string("memory.total, MiB (no ECC on this part)")
            : figure(p.memory_total_mib_ecc_off, p.memory_tolerance_mib_ecc_off, "off", "on"));
  v.set("MEMORY_TOLERANCE_MIB_ECC_ON", std::to_string(p.memory_tolerance_mib_ecc_on),
        "0: match exactly");
  v.set("MEMORY_TOLERANCE_MIB_ECC_OFF", std::to_string(p.memory_tolerance_mib_ecc_off),
        "0: match exactly");
  v.set("EXPECTED_POWER_LIMIT_W", num(p.power_limit_w),
        "power.limit, W (the catalog TDP, or the limit the request sets)");
  v.set("EXPECTED_PCIE_GEN", std::to_string(p.pcie_generation), "pcie.link.gen.max");
  v.set("EXPECTED_PCIE_WIDTH", std::to_string(p.pcie_width), "pcie.link.width.max, lanes");
  v.set("EXPECTED_COMPUTE_CAP", p.compute_capability);
  v.set("NGC_TAG", p.ngc_tag, "nvcr.io/nvidia/pytorch:<tag>-py3 chosen by the plan");
  v.set("MIN_DRIVER", p.ngc_min_driver,
        "that tag's minimum host driver without forward compatibility");
  v.array("FORWARD_COMPAT_BRANCHES", p.forward_compat_branches,
          p.forward_compat_branches.empty() ? "no forward compatibility for this part/tag"
                                            : "data-centre forward-compatibility branches");
  std::vector<std::string> table;
  for (const auto& [tag, driver] : p.fallback_tags) table.push_back(tag + ":" + driver);
  v.array("TAG_TABLE", table, "tag:min driver for this GPU, newest first");
  v.set("CHECK_ROW_REMAPPER", p.row_remapper ? "1" : "0", "HBM parts report row remapping");
  v.set("PRODUCT_CLASS", to_string(p.product),
        "data_center: persistence mode expected on (WARN when Disabled)");
  set_xid_vars(v, p);
  Header h{
      "00_inventory.sh",
      "what this server reports against the plan",
      {"Checks GPU count, part name, memory.total, power limit, PCIe link, compute capability,",
       "ECC mode, driver vs the NGC tag, Xid errors in the kernel log and row remapping."},
      "no; where kernel.dmesg_restrict=1 the Xid check reads journalctl -k (the adm group), and "
      "SKIPs when neither is readable.",
      "./00_inventory.sh"};
  return {"00_inventory.sh", shell_script(p, h, v, nullptr, validation::body("inventory.sh")), true,
          "GPU count, part, memory, power limit, PCIe, compute capability, driver, ECC, Xid, row "
          "remapper",
          "the kernel log where neither dmesg nor journalctl -k is readable"};
}

ScriptFile topology(const ValidationPlan& p) {
  Vars v = plan_vars(p);
  v.set("EXPECTED_GPUS", std::to_string(p.gpus_per_server), "GPUs in this server");
  v.set("FABRIC_MANAGER_REQUIRED", p.fabric_manager_required ? "1" : "0",
        "NVSwitch boxes need nvidia-fabricmanager");
  v.array("EXPECTED_TOPO", p.topo_entries,
          p.topo_entries.empty() ? "not sourced: recorded, not checked"
                                 : "accepted nvidia-smi topo -m entries between two GPUs");
  v.set("EXPECTED_NVLINK_LINKS", std::to_string(p.nvlink_links_per_gpu),
        "active NVLink links per GPU (0: none planned)");
  v.set("EXPECTED_NVLINK_LINK_GBPS", num(p.nvlink_link_gbps),
        "GB/s per link in nvidia-smi nvlink --status");
  v.set("NVLINK_CRC_FAIL", std::to_string(p.nvlink_errors.crc_fail_per_link),
        "nvidia-smi nvlink -e, per link: CRC errors that FAIL (fewer WARN; 0: none FAIL; "
        "data/validation.json nvlink_errors, after DCGM)");
  v.set("NVLINK_REPLAY_FAIL", std::to_string(p.nvlink_errors.replay_fail_per_link),
        "replay errors per link that FAIL");
  v.set("NVLINK_RECOVERY_FAIL", std::to_string(p.nvlink_errors.recovery_fail_per_link),
        "recovery errors per link that FAIL (the link went down and retrained)");
  std::string p2p;
  if (p.gpus_per_server > 1) p2p = p.intra_node_link == IntraNodeLink::pcie_no_p2p ? "no" : "yes";
  v.set("EXPECTED_P2P", p2p, "peer-to-peer between GPUs: yes | no (GeForce) | \"\" (one GPU)");
  v.set("NETWORK", to_string(p.network), "between servers: none | infiniband | roce | ethernet");
  v.set("NETWORK_RATE_GBIT", num(p.network_rate_gbit_per_s), "per port, Gbit/s");
  v.set("NETWORK_PORTS", std::to_string(p.network_ports_per_server),
        "compute-fabric ports Active per server");
  v.set("RDMA_BW_FRACTION", num(p.network_checks.rdma_bw_fraction),
        "share of line rate ib_write_bw must reach per NIC (data/validation.json network_checks)");
  v.env("IB_PORT_BASE", "18515", "TCP port of the first NIC's ib_write_bw (perftest's default)");
  v.env("ROCE_PRIORITY", std::to_string(p.network_checks.roce_priority),
        "802.1p priority of RoCE traffic: PFC and ECN must be on there (ROCE_PRIORITY=<0-7>)");
  Header h{
      "10_topology.sh",
      "fabric and topology",
      {"Checks the fabric manager on NVSwitch boxes, nvidia-smi topo -m against the planned "
       "matrix,",
       "NVLink link status, speed and error counters, peer-to-peer, and IB/RoCE ports and rate.",
       "Set IB_PEER=<host> to measure each compute NIC's GPUDirect RDMA bandwidth (ib_write_bw",
       "--use_cuda) against a peer running ib_write_bw_peer.sh (IB_DEVICE=<dev>: that NIC only)."},
      "no; starting nvidia-fabricmanager or changing BIOS ACS settings does.",
      "./10_topology.sh    IB_PEER=<peer> ./10_topology.sh"};
  return {"10_topology.sh", shell_script(p, h, v, nullptr, validation::body("topology.sh")), true,
          "fabric manager, topo matrix, NVLink status/errors, peer-to-peer, IB ports and rate",
          "starting the fabric manager"};
}

ScriptFile container(const ValidationPlan& p) {
  Vars v = plan_vars(p);
  v.set("EXPECTED_GPUS", std::to_string(p.gpus_per_server), "GPUs in this server");
  v.set("EXPECTED_COMPUTE_CAP", p.compute_capability);
  v.env("NGC_TAG", p.ngc_tag, "the plan's tag; NGC_TAG=<tag> overrides");
  v.set("NGC_REASON", p.ngc_reason.message);
  v.set("MIN_DRIVER", p.ngc_min_driver, "host driver the tag needs without forward compatibility");
  v.env("REGISTRY", p.registry, "REGISTRY=<harbor mirror> when nvcr.io is slow");
  v.set("BF16_PEAK_TFLOPS", num(p.bf16_dense_peak_tflops, 1), "dense bf16 peak per GPU, TFLOPS");
  v.set("MATMUL_FRACTION", num(p.matmul_fraction), "achievable share of peak for large GEMMs");
  v.set("EXPECTED_GEMM_TFLOPS", num(p.bf16_dense_peak_tflops * p.matmul_fraction, 1),
        "peak x fraction, TFLOPS");
  v.set("PROBE_MODEL", p.probe.name.empty() ? "the planned model" : line_text(p.probe.name));
  v.set("MEMORY_PER_GPU_BYTES", integer(p.memory_per_gpu_bytes), "plan's memory.per_gpu_bytes");
  v.set("MEMORY_BAND_LOW_BYTES", integer(p.memory_band_low_bytes), "low end of its band, bytes");
  v.set("MEMORY_BAND_HIGH_BYTES", integer(p.memory_band_high_bytes), "high end of its band, bytes");
  const ProbeScale scale = probe_scale(p);
  v.set("PROBE_LAYERS", std::to_string(scale.layers),
        scale.scaled() ? "layers probe.py runs: fewer than the slice's, so it stays within the "
                         "plan's memory (ZeRO, LoRA or quantised weights hold less per GPU)"
                       : "layers probe.py runs: the whole slice");
  v.set("PROBE_LAYERS_PLANNED", std::to_string(scale.planned_layers),
        "layers of the planned slice on one GPU");
  Header h{
      "20_container.sh",
      "container and compute",
      {"Runs probe.py in the chosen NGC PyTorch container: versions, GPUs seen, a bf16 8192^3 GEMM",
       "on each GPU against peak x the plan's matmul fraction, and one step of the planned model",
       "slice against the plan's per-GPU memory."},
      "the docker group or root (docker run --gpus all).",
      "./20_container.sh    REGISTRY=harbor.example.com/nvcr ./20_container.sh"};
  return {"20_container.sh", shell_script(p, h, v, nullptr, validation::body("container.sh")), true,
          "NGC container runs; bf16 GEMM TFLOPS; one-step memory", "docker group or root"};
}

ScriptFile nccl(const ValidationPlan& p) {
  Vars v = plan_vars(p);
  v.set("GPUS_PER_SERVER", std::to_string(p.gpus_per_server));
  v.set("SERVERS", std::to_string(p.servers));
  v.env("NGC_TAG", p.ngc_tag, "NGC_TAG=<tag> overrides");
  v.env("REGISTRY", p.registry, "REGISTRY=<harbor mirror> when nvcr.io is slow");
  v.set("EXPECTED_BUSBW_GBPS", num(p.allreduce_busbw_gbps, 1),
        "plan's intra-node all-reduce bus bandwidth, GB/s");
  v.set("INTER_NODE_BUSBW_GBPS", num(p.inter_node_busbw_gbps, 1),
        "plan's all-reduce bus bandwidth across servers, GB/s");
  v.set("INTRA_LINK", to_string(p.intra_node_link),
        "nvswitch | nvlink_bridge | pcie_p2p | pcie_no_p2p | none");
  v.set("PCIE_GBPS", num(pcie_gbps(p.pcie_generation, p.pcie_width), 1),
        "one direction of the GPU's PCIe link, GB/s");
  v.set("NETWORK", to_string(p.network));
  const std::optional<int> planned_mib = planned_memory_total_mib(p);
  double memory_gib = planned_mib ? *planned_mib / 1024.0 : 24;
  v.set("MAX_BYTES", memory_gib >= 40 ? "4294967296" : "1073741824",
        "largest all-reduce message, bytes");
  Header h{
      "30_nccl.sh",
      "collective bandwidth",
      {"All-reduce bus bandwidth (busbw = algbw x 2(n-1)/n) with torchrun in the NGC container, or",
       "nccl-tests when ALL_REDUCE_PERF=<path to all_reduce_perf> is set, against the plan's "
       "figure:",
       "PASS >= 80%, WARN >= 60%. Across servers: run on all at once with MASTER_ADDR and "
       "NODE_RANK;",
       "NCCL must use NET/IB, not sockets."},
      "the docker group or root.",
      "./30_nccl.sh    MASTER_ADDR=<server 0> NODE_RANK=<i> ./30_nccl.sh   (on every server)"};
  return {"30_nccl.sh", shell_script(p, h, v, nullptr, validation::body("nccl.sh")), true,
          "all-reduce bus bandwidth inside a server and across servers", "docker group or root"};
}

/// DCGM's diagnostic level: 3 (about half an hour) for acceptance; 4, the extended tests (hours:
/// DCGM's documentation names level 4 for hardware acceptance and RMA triage), when the plan's
/// burn-in already keeps the server kDcgmLevel4Hours or longer; GeForce parts run level 1 only.
int dcgm_level(const ValidationPlan& p) {
  constexpr double kDcgmLevel4Hours = 10;  // the source guide's burn-in of 10 h or more
  if (p.product == ProductClass::geforce) return 1;
  return p.burnin_hours >= kDcgmLevel4Hours ? 4 : 3;
}

ScriptFile burnin(const ValidationPlan& p) {
  Vars v = plan_vars(p);
  v.set("EXPECTED_GPUS", std::to_string(p.gpus_per_server), "GPUs in this server");
  v.set("GPUS_PER_SERVER", std::to_string(p.gpus_per_server));
  v.set("BURNIN_HOURS", num(p.burnin_hours, 6),
        "the plan's burn-in length, h: the default --hours, and what a run must reach");
  v.set("SAMPLE_INTERVAL_S", std::to_string(p.sample_interval_s),
        "nvidia-smi interval, s (--interval)");
  v.env("NGC_TAG", p.ngc_tag, "NGC_TAG=<tag> overrides");
  v.env("REGISTRY", p.registry, "REGISTRY=<harbor mirror> when nvcr.io is slow");
  v.set("EXPECTED_POWER_P50_W", num(p.power_limit_w * p.training_load_factor, 1),
        "planned job's median draw per GPU: TDP x training load factor, W");
  v.set("EXPECTED_PCIE_GEN", std::to_string(p.pcie_generation),
        "pcie.link.gen.current while busy (idle GPUs lower it to save power)");
  v.set("EXPECTED_PCIE_WIDTH", std::to_string(p.pcie_width),
        "pcie.link.width.current while busy, lanes");
  v.set("DCGM_LEVEL", std::to_string(dcgm_level(p)),
        p.product == ProductClass::geforce
            ? "dcgmi diag level (--dcgm): GeForce parts run level 1 only"
        : dcgm_level(p) == 4
            ? "dcgmi diag level (--dcgm): 4, the extended tests, for a burn-in of 10 h or more"
            : "dcgmi diag level (--dcgm): 3; 4 for a burn-in of 10 h or more");
  v.set("SERVERS", std::to_string(p.servers),
        "servers in the plan: more than one runs a cross-server burn-in window");
  v.set("INTER_NODE_BUSBW_GBPS", num(p.inter_node_busbw_gbps, 1),
        "plan's all-reduce bus bandwidth across servers, GB/s (the cross-server window)");
  v.set("STRAGGLER_FRACTION", num(kStragglerFailFraction, 2),
        "a GPU below this share of the median GPU's GEMM rate under the burn-in FAILs (straggler)");
  set_xid_vars(v, p);
  v.set("NETWORK", to_string(p.network),
        "between servers: its ports' error counters are read before and after (link flaps)");
  v.set("SERVER_FULL_LOAD_W", p.server_full_load_w ? num(*p.server_full_load_w, 0) : "",
        "planned wall power of one server, W (\"\": not planned)");
  Header h{
      "40_burnin.sh",
      "burn-in",
      {"Runs the planned job (--job) or a GEMM + all-reduce loop for --hours (default " +
           num(p.burnin_hours, 6) + " h) while",
       "nvidia-smi logs gpu.csv every --interval s (and ipmitool wall power every 60 s as root),",
       "then checks its length against the plan's, throttle reasons, power, ECC, PCIe width and",
       "generation under load, new Xid errors, and (--dcgm) DCGM's diagnostics. The loop holds",
       "90% of each GPU's free memory and compares every result with its reference (silent",
       "data corruption).",
       "Safe to stop and resume: progress is kept in $VALIDATION_DIR/burnin.state.",
       "--detach runs it under setsid + nohup (it survives an SSH drop): output in burnin.log,",
       "its PID in burnin.pid; --status reports on it."},
      "the docker group or root for the default load; wall power (ipmitool) needs root.",
      "./40_burnin.sh [--detach] [--hours 10] [--interval 10] [--job 'torchrun ... train.py'] "
      "[--dcgm] [--restart]    ./40_burnin.sh --status"};
  return {"40_burnin.sh",
          shell_script(p, h, v, validation::body("burnin_args.sh"), validation::body("burnin.sh")),
          true, "burn-in with nvidia-smi CSV logging; throttling, power, ECC, Xid",
          "ipmitool wall power"};
}

ScriptFile summary(const ValidationPlan& p) {
  Vars v = plan_vars(p);
  v.set("GPU_ID", p.gpu_id);
  Header h{
      "90_summary.sh",
      "validation-result.json",
      {"Collects what 00-40 measured on this server into validation-result.json (schema 1) for",
       "`gpu-advisor check` or the page's validation panel."},
      "",
      "./90_summary.sh [--tokens-per-second N] [--wall-power-w W] [-o FILE]"};
  return {"90_summary.sh", shell_script(p, h, v, validation::body("summary.sh"), "", false), true,
          "writes validation-result.json", ""};
}

std::string python_header(const ValidationPlan& p, const std::string& file,
                          const std::string& what) {
  return "#!/usr/bin/env python3\n# " + file + ": " + what +
         "\n# Generated by GPU Advisor from plan " + plan_id(p) + ": " + plan_summary(p) +
         ".\n# Runs inside nvcr.io/nvidia/pytorch:" + line_text(p.ngc_tag) +
         "-py3; prints \"PROBE <key> <value>\" lines.\n";
}

std::string py_bool(bool b) { return b ? "True" : "False"; }

ScriptFile probe_py(const ValidationPlan& p) {
  const ProbeModel& m = p.probe;
  std::string s =
      python_header(p, "probe.py", "versions, bf16 GEMM per GPU, one step of the planned model");
  s += "import time\n\nimport torch\nimport torch.nn.functional as F\nfrom torch import nn\n"
       "from torch.utils.checkpoint import checkpoint\n\n";
  s += "# The model slice one GPU holds in the plan (" +
       (m.name.empty() ? std::string("planned model") : line_text(m.name)) + ").\n";
  s += "PLAN = {\n";
  s += "    \"gemm_n\": 8192,\n    \"gemm_iters\": 200,\n";
  s += "    \"training\": " + py_bool(m.training) + ",\n";
  const ProbeScale scale = probe_scale(p);
  if (scale.scaled())
    s += "# " + std::to_string(scale.layers) + " of the slice's " +
         std::to_string(scale.planned_layers) +
         " layers: bf16 weights, gradients and state of all would exceed " +
         num(kProbeStaticShare * 100, 0) + "% of the plan's per-GPU memory.\n";
  s += "    \"layers\": " + std::to_string(scale.layers) + ",\n";
  s += "    \"layers_planned\": " + std::to_string(scale.planned_layers) + ",\n";
  s += "    \"hidden\": " + std::to_string(m.hidden) + ",\n";
  s += "    \"heads\": " + std::to_string(m.heads) + ",\n";
  s += "    \"kv_heads\": " + std::to_string(m.kv_heads) + ",\n";
  s += "    \"head_dim\": " + std::to_string(m.head_dim) + ",\n";
  s += "    \"ffn\": " + std::to_string(m.ffn) + ",\n";
  s += "    \"vocab\": " + std::to_string(m.vocab) + ",\n";
  s += "    \"sequence_length\": " + std::to_string(m.sequence_length) + ",\n";
  s += "    \"micro_batch\": " + std::to_string(m.micro_batch) + ",\n";
  s += "    \"activation_checkpointing\": " + py_bool(m.activation_checkpointing) + ",\n";
  s += "    \"state_bytes_per_param\": " + num(m.state_bytes_per_param) + ",\n";
  s += "}\n";
  s += validation::body("probe.py");
  return {"probe.py", s, false, "run by 20_container.sh inside the container", ""};
}

ScriptFile readme(const ValidationPlan& p) {
  std::string s =
      "GPU Advisor validation scripts for plan " + plan_id(p) + "\n" + plan_summary(p) + "\n\n";
  s += "NGC PyTorch " + p.ngc_tag + " (driver >= " + p.ngc_min_driver +
       "): " + p.ngc_reason.message + "\n\n";
  s += "Copy this folder to each server and run, as a user in the docker group:\n"
       "  ./00_inventory.sh   GPUs, memory, power limit, PCIe, driver, ECC, Xid, row remapper\n"
       "  ./10_topology.sh    fabric manager, topo matrix, NVLink, peer-to-peer, IB ports\n"
       "  ./20_container.sh   NGC container, bf16 GEMM, one step of the planned model\n"
       "  ./30_nccl.sh        all-reduce bus bandwidth";
  if (p.servers > 1)
    s += " (then on all " + std::to_string(p.servers) +
         " servers at once: MASTER_ADDR=<server 0> NODE_RANK=<i> ./30_nccl.sh)";
  s +=
      "\n  ./40_burnin.sh --detach\n"
      "                      " +
      num(p.burnin_hours, 6) +
      " h burn-in with nvidia-smi logging, in the background\n"
      "  ./90_summary.sh     writes validation-out/validation-result.json\n\n"
      "The burn-in outlasts an SSH session. --detach starts it under setsid and nohup, so it\n"
      "survives a dropped connection: its output goes to validation-out/burnin.log and its PID to\n"
      "validation-out/burnin.pid. Follow it with ./40_burnin.sh --status or tail -f on the log;\n"
      "stop it with kill $(cat validation-out/burnin.pid), and run ./40_burnin.sh --detach again\n"
      "to resume where it stopped. Run in the foreground, it stops cleanly (and resumes) when the\n"
      "session closes. 90_summary.sh reads the log and PID file: a burn-in still running is a\n"
      "WARN; one stopped early, or run with a shorter --hours than the plan's " +
      num(p.burnin_hours, 6) +
      " h, is a FAIL.\n"
      "--dcgm runs DCGM's diagnostics first; it FAILs when DCGM's host engine is not running.\n\n"
      "Each prints PASS/WARN/FAIL lines (expected vs measured) and exits 1 if anything FAILed.\n"
      "Xid errors are read from dmesg, or from journalctl -k where dmesg is restricted (users in\n"
      "the adm group can read it). Root is needed only for: the kernel log when neither is\n"
      "readable, starting nvidia-fabricmanager,\n"
      "ipmitool wall power, and the fixes the FAIL lines suggest. Nothing is downloaded except "
      "the\n"
      "container image (docker pull; REGISTRY=<mirror> to use a local mirror, or docker load).\n"
      "Read the result back: gpu-advisor check <request.json> "
      "validation-out/validation-result.json\n";
  return {"README.txt", s, false, "how to run them", ""};
}

}  // namespace

std::string shell_quote(const std::string& v) {
  bool safe = !v.empty();
  for (char c : v) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-' || c == ':' || c == '/' || c == '+' || c == ',' ||
              c == '@' || c == '%';
    if (!ok) safe = false;
  }
  if (safe) return v;
  std::string q = "'";
  for (char c : v) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<ScriptFile> generate_scripts(const ValidationPlan& plan) {
  if (!validate_plan(plan)) return {};  // none for a plan that breaks an invariant
  std::vector<ScriptFile> files = {inventory(plan), topology(plan), container(plan),
                                   nccl(plan),      burnin(plan),   summary(plan)};
  files.push_back(probe_py(plan));
  files.push_back({"allreduce.py",
                   python_header(plan, "allreduce.py",
                                 "all-reduce bus bandwidth (run by 30_nccl.sh via torchrun)") +
                       validation::body("allreduce.py"),
                   false, "run by 30_nccl.sh inside the container", ""});
  files.push_back(
      {"burn.py",
       python_header(plan, "burn.py", "GEMM + all-reduce load (run by 40_burnin.sh via torchrun)") +
           validation::body("burn.py"),
       false, "run by 40_burnin.sh inside the container", ""});
  files.push_back(readme(plan));
  return files;
}

}  // namespace advisor::validation
