// SPDX-License-Identifier: MIT
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "types/model.hpp"
#include "types/perf_constants.hpp"
#include "types/prices.hpp"
#include "types/provider.hpp"

namespace advisor {

/// The GPU-to-GPU link inside one server (NVLink/NVSwitch, Infinity Fabric, HCCS) or none.
struct ScaleUpLink {
  std::string name;
  std::optional<double> bidirectional_gbps;  // GB/s per GPU, both directions; nullopt = unknown
  std::string topology;                      // switched | bridge | none
  int max_gpus_per_domain = 1;               // GPUs one link domain joins
};

struct ChinaAvailability {
  std::string status;  // domestic | china-specific | license-required | ...
  std::string summary;
  std::string as_of;
};

/// What kind of product a part is, which marks the plans that use it (plan/plan_risks):
/// gpus.json "product". A catalog entry without it gets the facts derived from its fields
/// (`derived`): no PCIe peer-to-peer (GeForce) = consumer without ECC, else data-centre.
struct ProductFacts {
  std::string product_class = "datacenter";  // datacenter | workstation | consumer
  std::string memory_ecc = "on";             // on | off_by_default | none
  bool end_of_life = false;                  // no new supply: second-hand or rented only
  std::string basis;
  std::vector<std::string> source;
  bool derived = false;
};

/// The power limit a request sets on the part it pins (/hardware/power_limit_w,
/// engine/power_limit): the spec then carries the limit as its TDP and its peaks at the clock
/// the limit leaves.
struct PowerLimitApplied {
  double tdp_watts = 0;       // the part's own TDP
  double clock_fraction = 1;  // sustained clock under the limit / at the TDP
};

/// The largest TDP (gpus.json) or power limit (a request) read, W: catches W typed as mW without
/// excluding a real part (the largest TDP is ~1.4 kW).
constexpr double kMaxTdpWatts = 5000;

/// One accelerator from data/gpus.json. Units are in the names.
struct GpuSpec {
  std::string id;
  std::string name;
  std::string vendor;
  std::string architecture;
  std::optional<std::string> compute_capability;
  std::string software_stack;  // cuda | rocm | cann
  double memory_gib = 0;
  /// Memory the driver reports (nvidia-smi memory.total, MiB): ECC and driver reservations
  /// taken off the nominal figure (L40S with ECC: 46,068 MiB = 45 GiB, not 48). nullopt: not
  /// sourced, the nominal memory_gib is used.
  std::optional<double> memory_usable_mib;
  std::string memory_usable_basis;
  std::string memory_type;
  double memory_bandwidth_tbps = 0;
  double bf16_dense_tflops = 0;
  double fp16_dense_tflops = 0;
  std::optional<double> fp8_dense_tflops;  // nullopt: no FP8 tensor cores
  std::optional<double> fp32_tflops;
  double tdp_watts = 0;
  std::string form_factor;  // sxm | pcie | oam | module
  ScaleUpLink scale_up_link;
  int pcie_generation = 4;
  int pcie_lanes = 16;
  bool pcie_peer_to_peer = true;
  ProductFacts product;
  ChinaAvailability china_availability;
  std::string confidence;
  std::string notes;
  std::vector<std::string> source;
  std::string as_of;
  std::optional<PowerLimitApplied> power_limit;  // set by a request, never by gpus.json

  /// Bytes a process can use: the driver's figure when sourced, else the nominal memory.
  double memory_bytes() const;
};

/// Engineering estimates a user may want to change: data/assumptions.json. Each has a basis
/// string shown to the user next to the figure it moves.
struct MemoryAssumptions {
  double cuda_context_gib = 0;                // CUDA context + cuBLAS/cuDNN handles per process
  double communication_buffers_gib = 0;       // NCCL buffers when GPUs talk to each other
  double fragmentation_fraction = 0;          // caching-allocator slack on dynamic memory
  double activation_band_low = 0;             // error band on activations (fraction below estimate)
  double activation_band_high = 0;            // ... and above
  double overhead_band_high_factor = 0;       // high end of the overhead term, times the estimate
  double inference_prefill_chunk_tokens = 0;  // tokens prefilled at once (chunked prefill)
  double planning_room_fraction = 1;          // training plans are chosen within this share
  int max_gpus_searched = 0;                  // largest count tried when searching the minimum
  // A pretraining count the advisor chooses keeps this efficiency at every doubling (plan.cpp)
  double pretrain_count_min_scaling_efficiency = 0;
  std::string basis_context, basis_communication, basis_fragmentation, basis_activation_band,
      basis_prefill_chunk, basis_planning_room;
};

/// Everything the core knows besides the request: the five data files. The core reads only
/// this argument (no built-in singletons below the API layer), so a provider's own GPUs or
/// prices replace the built-in ones by passing another Catalog.
struct Catalog {
  std::vector<GpuSpec> gpus;         // gpus.json
  std::vector<ModelArch> models;     // models.json
  MemoryAssumptions memory;          // assumptions.json
  PerformanceConstants performance;  // performance.json
  PriceCatalog prices;               // prices.json
  std::string gpus_as_of;
  /// Built-in parts whose specs an addition replaced (a provider entry with a built-in id).
  std::vector<std::string> gpus_replaced;
  std::string models_as_of;
  /// The provider whose offers and packages the prices carry (advise_with_provider_text).
  std::optional<ProviderCatalog> provider;

  const GpuSpec* find_gpu(const std::string& id) const;
  const ModelArch* find_model(const std::string& id) const;
};

}  // namespace advisor
