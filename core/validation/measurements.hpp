// SPDX-License-Identifier: MIT
// What came back from a server: validation-result.json (written by 90_summary.sh) or a raw
// nvidia-smi CSV log, as typed values. Every field is optional: a result file holds only what
// the scripts that ran could measure.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace advisor::validation {

/// One GPU as 00_inventory.sh saw it.
struct GpuInventory {
  int index = 0;
  std::string name;  // nvidia-smi name
  std::string pci_bus_id;
  std::optional<double> memory_total_mib;  // MiB
  std::optional<double> power_limit_w;     // W
  std::optional<int> pcie_gen_max;
  std::optional<int> pcie_width_max;  // lanes
  std::string compute_cap;            // "9.0"
  std::string ecc_mode;               // Enabled | Disabled | [N/A]
  std::string persistence_mode;       // Enabled | Disabled ("": not recorded)
  std::string mig_mode;               // mig.mode.current: Enabled | Disabled | [N/A]
  std::string vbios_version;          // "96.00.89.00.01"
  std::string serial;                 // the board's serial; [N/A] on GeForce
};

/// One GPU's NVLink state (10_topology.sh).
struct NvlinkState {
  int index = 0;
  int active_links = 0;
  std::vector<int> inactive_links;      // link numbers reported <inactive>
  std::optional<double> min_link_gbps;  // slowest active link, GB/s
};

/// One GPU's burn-in statistics over the nvidia-smi CSV (nearest-rank percentiles).
struct GpuPowerStats {
  int index = 0;
  int samples = 0;
  std::optional<double> power_draw_w_p50;     // W
  std::optional<double> power_draw_w_p99;     // W
  std::optional<double> power_limit_w;        // highest power.limit logged, W
  std::optional<double> temperature_c_max;    // degrees C
  double thermal_throttle_fraction = 0;       // share of samples with thermal slowdown (0-1)
  double power_brake_fraction = 0;            // share with the hardware power brake (0-1)
  double power_cap_fraction = 0;              // share at the software power cap (0-1)
  std::optional<double> ecc_uncorrected_max;  // volatile uncorrectable ECC count
  std::optional<int> pcie_gen_min_busy;       // lowest PCIe generation at >= 50% utilization
  std::optional<int> pcie_width_min_busy;     // narrowest PCIe width at >= 50% utilization, lanes
  std::optional<int> pcie_width_max_logged;   // widest pcie.link.width.max logged, lanes
};

/// One test of DCGM's diagnostics for one group of GPUs, from `dcgmi diag -j` (40_burnin.sh --dcgm
/// keeps its JSON; 90_summary.sh puts it in the result file as "dcgm").
struct DcgmTestResult {
  std::string category;  // Deployment | Integration | Hardware | Stress ("" in DCGM 4's layout)
  std::string name;      // "Targeted Power"
  std::string status;    // pass | fail | warn | skip (DCGM prints Pass, PASS, Skip, SKIPPED ...)
  std::string gpus;      // DCGM's gpu_ids: "1" or "0,1,2,3"
  std::string message;   // the first warning's text, where DCGM gave one
};

/// A line a script printed: STATUS check: expected X, measured Y (detail).
struct ScriptCheck {
  std::string script;  // "10_topology"
  std::string status;  // PASS | WARN | FAIL | SKIP
  std::string area;    // memory | interconnect | compute | power | health | software
  std::string check, expected, measured, code, detail;
};

struct Measurements {
  std::string file_name;  // where they came from ("validation-result.json", "gpu.csv")
  std::string plan_id;    // "" for a raw CSV (it names no plan)
  std::string gpu_id;
  std::string host;
  // The stages that left results ("00_inventory" ... "40_burnin"), as 90_summary.sh lists them;
  // stages_listed is false for a raw CSV or a file without the list.
  std::vector<std::string> stages_run;
  bool stages_listed = false;

  // 00_inventory.sh
  std::optional<int> gpu_count;
  std::vector<GpuInventory> gpus;
  std::string driver_version;
  std::optional<int> xid_count;
  std::string xid_codes;  // "79,48"
  std::optional<int> row_remap_pending_gpus;
  std::optional<int> row_remap_failure_gpus;

  // 10_topology.sh
  std::string fabric_manager_state;    // active | inactive | ...
  std::string fabric_manager_version;  // nv-fabricmanager --version ("unknown": not on PATH)
  std::optional<int> fabric_completed_gpus;
  std::optional<int> topo_pairs;
  std::optional<int> topo_mismatched_pairs;
  std::string topo_entries;  // distinct entries seen, space-separated
  std::vector<NvlinkState> nvlink;
  std::optional<double> nvlink_error_count;     // every CRC/replay/recovery count, summed
  std::optional<int> nvlink_error_storm_links;  // links at or above a failing limit
  std::string nvlink_error_storm_at;            // "3:10,5:2" (GPU:link)
  std::optional<int> p2p_pairs;
  std::optional<int> p2p_ok_pairs;
  std::optional<int> ib_ports_active;
  std::optional<double> ib_rate_gbit_per_s_min;  // Gbit/s
  std::optional<double> ib_write_bw_gbit_per_s;  // Gbit/s

  // 20_container.sh
  std::string ngc_tag;
  std::string torch_version;
  std::optional<int> container_device_count;
  std::vector<std::pair<int, double>> gemm_tflops;  // (GPU, TFLOPS)
  std::string step_status;                          // ok | oom | not_run
  std::optional<double> step_device_used_bytes;
  std::optional<double> step_peak_reserved_bytes;
  std::optional<double> step_tokens_per_second_per_gpu;

  // 30_nccl.sh
  std::optional<double> allreduce_busbw_gbps;   // GB/s
  std::string nccl_transport_intra;             // nvls | p2p | shm | unknown
  std::optional<double> inter_node_busbw_gbps;  // GB/s
  std::string nccl_transport_net;               // ib | socket | none

  // 40_burnin.sh (or a raw gpu.csv)
  std::vector<GpuPowerStats> power;
  std::optional<int> gpus_logged;  // GPUs present in the log
  std::optional<double> burnin_seconds;
  std::optional<double> burnin_target_seconds;
  std::optional<int> xid_new;
  std::string xid_new_codes;                     // the codes of the new Xid lines, "13,79"
  std::optional<int> nccl_timeouts;              // NCCL watchdog timeouts in the load's log
  std::optional<int> burnin_inter_node_windows;  // cross-server windows of the burn-in's load
  std::optional<double> burnin_inter_node_busbw_gbps_min;  // GB/s, the slowest window's median
  std::optional<double> wall_power_w_max;                  // W, one server
  std::optional<double> wall_power_w_p50;                  // W
  std::string dcgm_diag;  // dcgmi diag (--dcgm): pass | warn | fail | unreachable | missing |
                          // error; "" when not run
  std::string dcgm_failed_tests;  // "Targeted Power GPU: 1;Memory Bandwidth GPU: 3"
  std::optional<int> dcgm_level;  // the -r level run (3, or 4 for a plan's burn-in >= 10 h)
  std::vector<DcgmTestResult> dcgm_tests;  // the file's "dcgm" (dcgmi diag -j); empty: not kept
  std::vector<std::pair<int, double>> burn_tflops;  // (GPU, TFLOPS) of the burn-in's own GEMMs

  // 90_summary.sh --tokens-per-second
  std::optional<double> job_tokens_per_second_per_server;

  std::vector<ScriptCheck> script_checks;
};

}  // namespace advisor::validation
