// SPDX-License-Identifier: MIT
// ValidationPlan: everything the validation scripts and the read-back need from the advisor's
// plan, as plain typed fields (no JSON). Units are in the names; each field says what it is.
// Build one with build_validation_plan() from catalog facts + the plan's figures, or fill it
// directly (tests do).
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "validation/ngc.hpp"
#include "validation/reason.hpp"

namespace advisor::validation {

/// How GPUs inside one server reach each other.
enum class IntraNodeLink {
  none,           // one GPU per server
  nvswitch,       // NVLink through NVSwitch (HGX/DGX): all pairs NV<links>
  nvlink_bridge,  // PCIe cards with NVLink bridges joining pairs; other pairs over PCIe
  pcie_p2p,       // PCIe with peer-to-peer DMA
  pcie_no_p2p,    // PCIe without peer-to-peer (GeForce): traffic bounces through host memory
};

/// The network between servers.
enum class Network { none, infiniband, roce, ethernet };

/// The model slice one GPU holds, for the one-step memory probe (probe.py). Parallelism is
/// already applied: layers per pipeline stage, heads and FFN width after tensor parallelism.
struct ProbeModel {
  std::string name;         // summary shown in the script, e.g. "Llama-3.1-8B"
  bool training = true;     // false: forward pass only (inference)
  int layers = 0;           // transformer layers held by one GPU
  int hidden = 0;           // model width (residual stream), elements
  int heads = 0;            // query heads on one GPU
  int kv_heads = 0;         // key/value heads on one GPU
  int head_dim = 0;         // elements per head
  int ffn = 0;              // gated-FFN inner width on one GPU, elements
  int vocab = 0;            // embedding/LM-head rows on one GPU
  int sequence_length = 0;  // tokens per sequence
  int micro_batch = 1;      // sequences per step
  bool activation_checkpointing = false;
  double state_bytes_per_param = 12;  // optimizer state + fp32 master on this GPU, bytes/param
                                      // (12 for AdamW mixed precision; divided by ZeRO shards)
};

/// How the kernel log's Xid codes are judged (data/validation.json "xid", from NVIDIA's Xid
/// catalog). A hardware Xid FAILs the server; any other (an application's fault, or a code the
/// lists do not name) is a WARN to read.
struct XidClasses {
  std::vector<int> hardware;     // 48, 79, ...: the card, its memory or its links
  std::vector<int> application;  // 13, 31, 43, 45: a user program's fault
  std::string source;
};

/// Limits on one NVLink link's error counters as `nvidia-smi nvlink -e` prints them (counts since
/// the driver loaded; data/validation.json "nvlink_errors", after DCGM's NVLink health watch). A
/// count at or above its limit FAILs the link (a CRC storm, a link that had to retrain); fewer,
/// but not none, WARN. 0: no limit, every count only WARNs.
struct NvlinkErrorLimits {
  int crc_fail_per_link = 0;
  int replay_fail_per_link = 0;
  int recovery_fail_per_link = 0;
  std::string source;
};

/// What the multi-node checks of 10_topology.sh hold the network to (data/validation.json
/// "network_checks"): the share of each compute NIC's line rate its GPUDirect RDMA write
/// bandwidth must reach, and the 802.1p priority RoCE traffic uses (PFC and ECN must be on there).
struct NetworkCheckLimits {
  double rdma_bw_fraction = 0.9;
  int roce_priority = 3;
  std::string source;
};

/// A part's memory ECC as shipped (data/gpus.json product.memory_ecc: on | off_by_default |
/// none): on for data-centre parts, off for workstation cards and the GeForce cards with a
/// driver toggle, none for GeForce cards without ECC.
enum class EccMode { on, off, none };

/// A derived memory.total (the GDDR 15/16 rule) is matched within this share of the figure.
inline constexpr double kDerivedMemoryTolerance = 0.01;

/// Whether `code` is one of the hardware Xids.
bool is_hardware_xid(const XidClasses& x, int code);

struct ValidationPlan {
  // --- The part (data/gpus.json + data/validation.json) -------------------------------------
  std::string gpu_id;                  // catalog id, "h100-sxm-80gb"
  std::string gpu_name;                // catalog display name
  std::vector<std::string> smi_names;  // names nvidia-smi prints for the part
  std::string architecture;            // "Hopper"
  std::string compute_capability;      // "9.0"
  ProductClass product = ProductClass::data_center;
  EccMode ecc_default = EccMode::on;  // the ECC mode the part ships in, which the plan counts on
  bool hbm = true;  // HBM: ECC is out of band, memory.total is the same either way; GDDR: ECC on
                    // reserves 1/16 of the memory, so memory.total drops by that much
  std::optional<int> memory_total_mib_ecc_on;   // nvidia-smi memory.total, MiB, ECC on
  std::optional<int> memory_total_mib_ecc_off;  // the same with ECC off (or a part without ECC)
  int memory_tolerance_mib_ecc_on = 0;   // 0: a sourced figure, matched exactly; else the figure
  int memory_tolerance_mib_ecc_off = 0;  // is derived (GDDR 15/16 rule) and matched within 1%
  bool ecc_expected = true;              // ECC should be Enabled: ecc_default == on
  bool row_remapper = false;             // HBM parts report row remapping
  double power_limit_w = 0;              // expected power.limit, W (TDP or the set limit)
  int pcie_generation = 4;               // expected pcie.link.gen.max
  int pcie_width = 16;                   // expected pcie.link.width.max, lanes
  XidClasses xid;                        // hardware Xids FAIL, others WARN
  NvlinkErrorLimits nvlink_errors;       // per-link counts that FAIL
  NetworkCheckLimits network_checks;     // RDMA bandwidth share, RoCE priority

  // --- Layout ---------------------------------------------------------------------------------
  int gpus_per_server = 8;
  int servers = 1;
  int total_gpus = 8;  // GPUs the job uses (<= gpus_per_server * servers)

  // --- Inside one server ----------------------------------------------------------------------
  IntraNodeLink intra_node_link = IntraNodeLink::nvswitch;
  int nvlink_links_per_gpu = 0;           // active NVLink links expected per GPU (0: none)
  double nvlink_link_gbps = 0;            // GB/s per link as `nvidia-smi nvlink --status` prints
  std::vector<std::string> topo_entries;  // accepted `topo -m` entries between two GPUs
                                          // ("NV18"; "NV*" = any NVLink); empty: record only
  bool fabric_manager_required = false;   // NVSwitch boxes need nvidia-fabricmanager active

  // --- Between servers ------------------------------------------------------------------------
  Network network = Network::none;
  double network_rate_gbit_per_s = 0;  // per port, Gbit/s (NDR = 400)
  int network_ports_per_server = 0;    // compute-fabric ports expected Active per server

  // --- The plan's predictions -----------------------------------------------------------------
  double allreduce_busbw_gbps = 0;    // intra-node all-reduce bus bandwidth, GB/s
  double inter_node_busbw_gbps = 0;   // all-reduce bus bandwidth across servers, GB/s
  double bf16_dense_peak_tflops = 0;  // catalog dense BF16 peak per GPU, TFLOPS
  double matmul_fraction = 0;         // achievable share of that peak for big GEMMs (0-1)
  double memory_per_gpu_bytes = 0;    // the plan's per-GPU memory estimate, bytes
  double memory_band_low_bytes = 0;   // low end of its band, bytes
  double memory_band_high_bytes = 0;  // high end of its band, bytes
  ProbeModel probe;                   // the model slice for the one-step probe
  std::optional<double> tokens_per_second_per_server;  // planned training tokens/s per server
  std::optional<double> mfu;                           // planned model FLOPs utilisation (0-1)

  // --- Power ----------------------------------------------------------------------------------
  double training_load_factor = 0.8;         // GPU draw while training / TDP (0-1)
  std::optional<double> server_full_load_w;  // planned wall power of one server at full load, W
  std::optional<double> rack_budget_kw;      // power available to one rack, kW
  int servers_per_rack = 1;

  // --- Container ------------------------------------------------------------------------------
  std::string ngc_tag;         // "25.12"
  std::string ngc_min_driver;  // the tag's minimum host driver (no forward compat)
  std::vector<std::string> forward_compat_branches;  // usable branches ("535.86"); empty: none
  std::vector<std::pair<std::string, std::string>>
      fallback_tags;                 // (tag, min driver), newest
                                     // first: what an older driver could run instead
  std::string registry = "nvcr.io";  // default REGISTRY (a Harbor mirror, ...)
  Reason ngc_reason;                 // why this tag

  // --- Burn-in --------------------------------------------------------------------------------
  double burnin_hours = 10;    // >= 10 h as the source asks
  int sample_interval_s = 10;  // nvidia-smi CSV interval, s

  std::string summary;  // one line for the script headers
};

/// Facts about the part from data/gpus.json (fill from GpuSpec, or read with
/// gpu_facts_from_catalog_json()).
struct GpuFacts {
  std::string id, name, vendor, architecture;
  std::string compute_capability;  // "" for non-CUDA parts
  std::string software_stack;      // cuda | rocm | cann
  double bf16_dense_tflops = 0;    // TFLOPS
  double tdp_watts = 0;            // W
  int pcie_generation = 4;
  int pcie_lanes = 16;
  bool pcie_peer_to_peer = true;
  std::string memory_type;  // "HBM3", "GDDR6", ...: HBM keeps memory.total with ECC on
  std::string memory_ecc;   // product.memory_ecc: on | off_by_default | none ("": from PartFacts)
};

/// Per-part expectations from data/validation.json.
struct PartFacts {
  bool supported = true;  // false: not an nvidia-smi/CUDA part
  ProductClass product = ProductClass::data_center;
  std::vector<std::string> smi_names;
  std::optional<int> memory_total_mib_ecc_on;   // MiB, ECC on (sourced; else derived)
  std::optional<int> memory_total_mib_ecc_off;  // MiB, ECC off or no ECC (sourced; else derived)
  std::string intra_node;                       // nvswitch | nvlink_bridge | pcie | none
  int nvlink_links_per_gpu = 0;
  std::optional<double> nvlink_link_gbps;  // GB/s per link
  std::optional<std::string> topo_entry;   // "NV18"
  bool fabric_manager = false;
  bool row_remapper = false;
  bool ecc_expected = true;         // used only when GpuFacts has no memory_ecc (gpus.json product)
  XidClasses xid;                   // file-wide: the same lists for every part
  NvlinkErrorLimits nvlink_errors;  // file-wide, as xid
  NetworkCheckLimits network_checks;           // file-wide, as xid
  std::vector<double> power_limit_w_observed;  // W, limits seen on real boxes when != TDP
  bool confirmed = true;
  std::string notes;
  std::vector<std::string> source;
  std::string as_of;
};

/// The advisor plan's figures the validation needs (the other half of ValidationPlan).
struct PlanFigures {
  int gpus_per_server = 8;
  int servers = 1;
  std::optional<int> total_gpus;  // default gpus_per_server * servers
  Network network = Network::none;
  double network_rate_gbit_per_s = 0;  // Gbit/s per port
  int network_ports_per_server = 0;
  double allreduce_busbw_gbps = 0;    // GB/s
  double inter_node_busbw_gbps = 0;   // GB/s
  double matmul_fraction = 0.8;       // 0-1
  double memory_per_gpu_bytes = 0;    // bytes
  double memory_band_low_bytes = 0;   // bytes
  double memory_band_high_bytes = 0;  // bytes
  ProbeModel probe;
  std::optional<double> tokens_per_second_per_server;
  std::optional<double> mfu;
  double training_load_factor = 0.8;
  std::optional<double> server_full_load_w;  // W
  std::optional<double> rack_budget_kw;      // kW
  int servers_per_rack = 1;
  std::optional<std::string> host_driver;  // "550.54.15" when known: picks the tag
  std::optional<std::string> ngc_tag;      // pin a tag instead of picking one
  std::string registry = "nvcr.io";
  double burnin_hours = 10;
  int sample_interval_s = 10;
  std::string summary;
};

/// Joins catalog facts, part facts, the NGC table and the plan's figures into a ValidationPlan.
/// Reports "validation_unsupported_gpu" for parts without nvidia-smi/CUDA, "validation_no_ngc_tag"
/// when no tag fits the GPU and driver, and "validation_invalid" for figures out of range (path
/// "/validation/<field>"); the plan returned then is not to be used.
ValidationPlan build_validation_plan(const GpuFacts& gpu, const PartFacts& part,
                                     const NgcCatalog& ngc, const PlanFigures& figures);

/// A straggler in the burn-in: a GPU whose own GEMM rate (burn.py times its GEMMs alone, so the
/// all-reduce that paces every rank does not hide it) is below this share of its server's median
/// GPU FAILs (burn_straggler). Synchronous data-parallel training runs every step at the pace of
/// its slowest GPU, so one GPU 10% slow costs the whole server (and cluster) 10%. Identical parts
/// under one load differ by a few percent (clock and power binning, inlet temperature); gpu-burn
/// (wilicc/gpu-burn) prints each GPU's Gflop/s side by side for this comparison but names no
/// limit. 10% below the median is well outside that spread: a fault (cooling, power delivery, a
/// GPU held at low clocks), not binning.
inline constexpr double kStragglerFailFraction = 0.90;

/// How much of the planned model slice the one-step probe runs. probe.py holds bf16 weights and
/// gradients for every parameter plus the optimizer-state buffer: more than a plan that shards
/// them (ZeRO), trains adapters only (LoRA) or quantises the weights counts. So the probe never
/// holds more than kProbeStaticShare of the plan's per-GPU memory in weights, gradients and state
/// (the rest is for activations and the CUDA context): when the whole slice would, it runs fewer
/// layers, and its memory is checked against the plan's band from above only.
inline constexpr double kProbeStaticShare = 0.9;
struct ProbeScale {
  int layers = 0;           // layers probe.py builds
  int planned_layers = 0;   // layers of the planned slice
  double static_bytes = 0;  // weights + gradients + state of those layers, bytes
  double budget_bytes = 0;  // kProbeStaticShare x the plan's per-GPU memory, bytes
  bool scaled() const { return layers < planned_layers; }
};
ProbeScale probe_scale(const ValidationPlan& plan);

/// memory.total (MiB) in the ECC mode the plan counts on (the part's default); nullopt: record.
std::optional<int> planned_memory_total_mib(const ValidationPlan& plan);

/// memory.total (MiB) expected for a GPU whose ecc.mode.current reads `ecc_mode` ("Enabled":
/// the ECC-on figure; "Disabled", "[N/A]" or anything else: the ECC-off one) and its tolerance.
std::optional<std::pair<int, int>> expected_memory_for_mode(const ValidationPlan& plan,
                                                            const std::string& ecc_mode);

const char* to_string(EccMode mode);

/// Stable 16-hex-digit hash of every expected value: a result file names the plan it checked.
std::string plan_id(const ValidationPlan& plan);

/// Every ValidationPlan invariant the scripts rely on: false after reporting the first one broken
/// ("validation_invalid" at "/validation/<field>").
bool validate_plan(const ValidationPlan& plan);

const char* to_string(IntraNodeLink link);
const char* to_string(Network network);

}  // namespace advisor::validation
