// SPDX-License-Identifier: MIT
#include "engine/job_startup.hpp"

#include <cmath>

namespace advisor {

namespace {
constexpr double kBitsPerByte = 8;
constexpr double kGiga = 1e9;
constexpr double kCheckpointBytesPerParam = 2;  // bf16/fp16 safetensors, as models are published
}  // namespace

double checkpoint_bytes(const Request& req, double total_params) {
  return req.task == Task::kPretrain ? 0 : total_params * kCheckpointBytesPerParam;
}

JobStartup job_startup(const Layout& L, double weight_bytes, const PerformanceConstants& k) {
  JobStartup s;
  s.image_pull_s = k.container_image_gb * kBitsPerByte / k.image_pull_gbit_per_s;
  s.weights_load_s = weight_bytes / (k.checkpoint_read_gbyte_per_s * kGiga);
  s.warmup_s = k.warmup_s;
  s.rendezvous_s = k.rendezvous_s_per_doubling * std::log2(static_cast<double>(L.servers()));
  return s;
}

}  // namespace advisor
