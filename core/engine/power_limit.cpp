// SPDX-License-Identifier: MIT
#include "engine/power_limit.hpp"

#include <cmath>

#include "types/perf_constants.hpp"
#include "types/request.hpp"

namespace advisor {

double clock_fraction_at_power_limit(double limit_watts, double tdp_watts,
                                     const PerformanceConstants& k) {
  if (tdp_watts <= 0 || limit_watts >= tdp_watts) return 1;
  const double s = k.power_limit_static_fraction;
  // The request reader keeps limits at or above power_limit_min_fraction, itself above s.
  const double dynamic_share = (limit_watts / tdp_watts - s) / (1 - s);
  return std::pow(dynamic_share, 1 / k.power_limit_dynamic_exponent);
}

GpuSpec gpu_at_power_limit(const GpuSpec& gpu, double limit_watts, const PerformanceConstants& k) {
  const double clock = clock_fraction_at_power_limit(limit_watts, gpu.tdp_watts, k);
  GpuSpec capped = gpu;
  capped.power_limit = PowerLimitApplied{gpu.tdp_watts, clock};
  capped.tdp_watts = limit_watts;
  capped.bf16_dense_tflops *= clock;
  capped.fp16_dense_tflops *= clock;
  if (capped.fp8_dense_tflops) *capped.fp8_dense_tflops *= clock;
  if (capped.fp32_tflops) *capped.fp32_tflops *= clock;
  return capped;
}

std::optional<double> power_limit_to_fit(double budget_watts, const ServerPowerInputs& server,
                                         double tdp_watts, const PerformanceConstants& k) {
  if (server.gpus <= 0) return std::nullopt;
  const double per_gpu = (budget_watts - server.host_fixed_watts) /
                         (server.gpus * (1 + server.cooling_conversion_fraction));
  const double limit = std::floor(per_gpu);
  if (limit >= server.gpu_tdp_watts || limit < std::ceil(k.power_limit_min_fraction * tdp_watts))
    return std::nullopt;
  return limit;
}

std::shared_ptr<const Catalog> catalog_at_power_limit(const Request& req, const Catalog& catalog) {
  if (!req.hardware || !req.hardware->power_limit_w) return nullptr;
  auto capped = std::make_shared<Catalog>(catalog);
  for (GpuSpec& gpu : capped->gpus)
    if (gpu.id == req.hardware->gpu)
      gpu = gpu_at_power_limit(gpu, *req.hardware->power_limit_w, catalog.performance);
  return capped;
}

}  // namespace advisor
