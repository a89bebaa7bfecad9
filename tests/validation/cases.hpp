// SPDX-License-Identifier: MIT
// The plans the validation tests generate scripts for: 8x H100 SXM, 2 servers of 8x H100 over
// InfiniBand, 4x RTX 4090 and 8x L20 (goldens); 1x L4, 8x B200, 8x A800, 8x H20, 4x L40S and 2
// servers of 8x H100 over RoCE (rules, shellcheck and the stand-in runs). Catalog facts come from
// data/*.json; the plan figures stand in for what the advisor computes (sources in the comments).
#pragma once
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../throwing.hpp"
#include "io/validation_json.hpp"
#include "validation/plan.hpp"
#include "validation/scripts.hpp"

namespace vtest {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline const std::vector<std::string>& case_names() {
  static const std::vector<std::string> names = {"h100_8x", "h100_2x8_ib", "rtx4090_4x", "l20_8x"};
  return names;
}

/// More plans, for shellcheck and the rules only (no goldens): one GPU, Blackwell, a derived NV8.
inline const std::vector<std::string>& extra_case_names() {
  static const std::vector<std::string> names = {"l4_1x",  "b200_8x", "a800_8x",
                                                 "h20_8x", "l40s_4x", "h100_2x8_roce"};
  return names;
}

inline advisor::validation::ValidationPlan make_case(const std::string& name,
                                                     const std::string& data_dir) {
  using namespace advisor::validation;
  const std::string gpus = read_text(data_dir + "/gpus.json");
  const auto parts = parse_part_facts(read_text(data_dir + "/validation.json"));
  const NgcCatalog ngc = parse_ngc_catalog(read_text(data_dir + "/ngc.json"));
  constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
  PlanFigures f;
  std::string gpu;
  if (name == "h100_8x" || name == "h100_2x8_ib" || name == "h100_2x8_roce") {
    gpu = "h100-sxm-80gb";
    f.gpus_per_server = 8;
    f.allreduce_busbw_gbps = 360;  // validation.md §2.4: H100 NVSwitch ring
    f.matmul_fraction = 0.803;     // performance.json: H100 SXM MAMF 794.5 / 989.4
    f.server_full_load_w = 10200;  // hardware-facts §3a: DGX H100
    f.rack_budget_kw = 12;
    f.servers_per_rack = 1;
    f.training_load_factor = 0.8;
    f.host_driver = "570.86.10";
    if (name == "h100_8x") {
      f.summary = "Llama-3.1-8B full fine-tune, ZeRO-2 over 8 GPUs";
      f.probe = {"Llama-3.1-8B", true, 32, 4096, 32, 8, 128, 14336, 128256, 4096, 1, true, 1.5};
      f.memory_per_gpu_bytes = 40 * GiB;
      f.memory_band_low_bytes = 34 * GiB;
      f.memory_band_high_bytes = 47 * GiB;
      f.tokens_per_second_per_server = 72000;
      f.mfu = 0.42;
    } else {
      f.servers = 2;
      // NDR InfiniBand, or 400GbE RoCE: one ConnectX-7 per GPU either way.
      f.network = name == "h100_2x8_roce" ? Network::roce : Network::infiniband;
      f.network_rate_gbit_per_s = 400;
      f.network_ports_per_server = 8;
      f.inter_node_busbw_gbps = 180;
      f.summary = "Llama-3.1-70B pre-training, TP 8 x PP 2";
      f.probe = {
          "Llama-3.1-70B (TP 8, PP 2)", true, 40, 8192, 8, 1, 128, 3584, 16032, 8192, 1, true, 12};
      f.memory_per_gpu_bytes = 70 * GiB;
      f.memory_band_low_bytes = 61 * GiB;
      f.memory_band_high_bytes = 78 * GiB;
      f.tokens_per_second_per_server = 9500;
      f.mfu = 0.40;
    }
  } else if (name == "rtx4090_4x") {
    gpu = "rtx4090-24gb";
    f.gpus_per_server = 4;
    f.allreduce_busbw_gbps = 18;  // validation.md §2.4: GeForce via host memory 17-20
    f.matmul_fraction = 0.81;     // performance.json default_matmul_fraction_bf16
    f.server_full_load_w = 2400;
    f.training_load_factor = 0.85;
    f.host_driver = "550.54.15";
    f.summary = "Qwen2.5-1.5B full fine-tune, DDP";
    f.probe = {"Qwen2.5-1.5B", true, 28, 1536, 12, 2, 128, 8960, 151936, 2048, 1, true, 12};
    f.memory_per_gpu_bytes = 19 * GiB;
    f.memory_band_low_bytes = 16 * GiB;
    f.memory_band_high_bytes = 22.5 * GiB;
    f.tokens_per_second_per_server = 21000;
  } else if (name == "l20_8x") {
    gpu = "l20-48gb";
    f.gpus_per_server = 8;
    f.allreduce_busbw_gbps = 22;  // validation.md §2.4: PCIe Gen4 with P2P
    f.matmul_fraction = 0.81;
    f.server_full_load_w = 3500;
    f.training_load_factor = 0.7;
    f.host_driver = "535.161.08";  // R535 LTS: forward compatibility picks the tag
    f.summary = "Qwen2.5-32B serving, tensor parallel 8";
    f.probe = {"Qwen2.5-32B (TP 8)", false, 64, 5120, 5, 1, 128, 3456, 19008, 8192, 4, false, 0};
    f.memory_per_gpu_bytes = 40 * GiB;
    f.memory_band_low_bytes = 35 * GiB;
    f.memory_band_high_bytes = 44 * GiB;
  } else if (name == "l4_1x" || name == "b200_8x" || name == "a800_8x" || name == "h20_8x" ||
             name == "l40s_4x") {
    gpu = name == "l4_1x"     ? "l4-24gb"
          : name == "b200_8x" ? "b200-180gb"
          : name == "h20_8x"  ? "h20-96gb"
          : name == "l40s_4x" ? "l40s-48gb"
                              : "a800-sxm-80gb";
    f.gpus_per_server = name == "l4_1x" ? 1 : name == "l40s_4x" ? 4 : 8;
    // validation.md §2.4: B200 NVLS; A800 160; H20 as the H100 (NV18); PCIe Gen4 with P2P 22.
    f.allreduce_busbw_gbps = name == "b200_8x"   ? 700
                             : name == "a800_8x" ? 160
                             : name == "h20_8x"  ? 360
                             : name == "l40s_4x" ? 22
                                                 : 0;
    // performance.json: B200 and A100/A800 MAMF; the default 0.81 elsewhere.
    f.matmul_fraction = name == "b200_8x" ? 0.776 : name == "a800_8x" ? 0.869 : 0.81;
    // The R535/R550 drivers these parts ship with in China (forward compatibility on R535).
    if (name == "a800_8x") f.host_driver = "535.161.08";
    if (name == "h20_8x") f.host_driver = "550.127.05";
    if (name == "l40s_4x") f.host_driver = "550.54.15";
    f.summary = "Qwen2.5-1.5B serving";
    f.probe = {"Qwen2.5-1.5B", false, 28, 1536, 12, 2, 128, 8960, 151936, 4096, 8, false, 0};
    f.memory_per_gpu_bytes = 8 * GiB;
    f.memory_band_low_bytes = 7 * GiB;
    f.memory_band_high_bytes = 9 * GiB;
  } else {
    throw std::runtime_error("unknown case " + name);
  }
  return build_validation_plan(gpu_facts_from_catalog_json(gpus, gpu), parts.at(gpu), ngc, f);
}

/// The text of the generated script `name` of plan `p` ("" when the plan has none).
inline std::string script(const advisor::validation::ValidationPlan& p, const std::string& name) {
  for (const auto& f : advisor::validation::generate_scripts(p))
    if (f.name == name) return f.text;
  return "";
}

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace vtest
