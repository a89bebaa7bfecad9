// SPDX-License-Identifier: MIT
#include "plan/validate.hpp"

#include <string>

#include "types/errors.hpp"
#include "types/text.hpp"

namespace advisor {

void validate_speed(const Request& req, const Catalog& catalog) {
  const InferencePerfSettings& ip = req.inference.perf;
  if (req.task == Task::kInference && ip.max_model_len) {
    const std::int64_t needed = req.inference.prompt_tokens + req.inference.output_tokens;
    ADVISOR_REQUIRE_OR_RETURN(
        *ip.max_model_len >= needed, "inconsistent", "/inference/max_model_len",
        "/inference/max_model_len " + std::to_string(*ip.max_model_len) +
            " is shorter than prompt_tokens + output_tokens (" + std::to_string(needed) +
            "): the engine would reject these requests");
  }
  if (!req.hardware) return;
  const GpuSpec* gpu = catalog.find_gpu(req.hardware->gpu);
  if (gpu == nullptr) return;  // reported by the caller
  ADVISOR_REQUIRE_OR_RETURN(req.stack.runs_on(gpu->software_stack), "unsupported", "/stack",
                            "/stack " + req.stack.id + " has no " + gpu->software_stack +
                                " backend, so it cannot run on " + gpu->name +
                                ": name a stack that does, or choose another GPU");
  if (!is_training(req.task)) return;
  const TrainingSettings& t = req.training;
  if (t.precision == Precision::kFp8) {
    ADVISOR_REQUIRE_OR_RETURN(gpu->fp8_dense_tflops.has_value(), "unsupported",
                              "/training/precision",
                              "/training/precision fp8 needs FP8 tensor cores, which " + gpu->name +
                                  " does not have (or no dense FP8 rate is published); use bf16");
  }
  if (t.precision == Precision::kFp32) {
    ADVISOR_REQUIRE_OR_RETURN(
        gpu->fp32_tflops.has_value(), "unsupported", "/training/precision",
        "/training/precision fp32: no FP32 rate is published for " + gpu->name + "; use bf16");
  }
  // The global batch against micro-batch x data parallel is checked once the layout on the
  // pinned GPUs is known (check_global_batch, from the speed results).
}

std::optional<std::string> check_global_batch(const Request& req, const Layout& L) {
  const TrainingSettings& t = req.training;
  if (!req.hardware || !is_training(req.task) || !t.perf.global_batch_size) return std::nullopt;
  const std::int64_t per_pass = t.micro_batch_size * L.dp;
  const std::int64_t gb = *t.perf.global_batch_size;
  if (gb % per_pass == 0) return std::nullopt;
  // Rounded up to the next whole number of passes (engine/training global_batch_for), said.
  const std::int64_t upper = (gb / per_pass + 1) * per_pass;
  return "/training/global_batch_size " + std::to_string(gb) +
         " is not a multiple of micro_batch_size x data-parallel size (" +
         std::to_string(t.micro_batch_size) + " x " + std::to_string(L.dp) + " = " +
         std::to_string(per_pass) + " with tp " + std::to_string(L.tp) + " x pp " +
         std::to_string(L.pp) + " on " + std::to_string(L.count) + " GPUs): the plan uses " +
         std::to_string(upper) + " sequences per step";
}

namespace {

const char* const kServerSpecific[][2] = {
    {"/cost/prices/gpu_purchase_cny", "gpu_purchase_cny"},
    {"/cost/prices/rental_cny_per_gpu_hour", "rental_cny_per_gpu_hour"},
    {"/cost/prices/rental_monthly_cny_per_gpu", "rental_monthly_cny_per_gpu"},
    {"/cost/prices/server_platform_cny", "server_platform_cny"},
    {"/power/gpus_per_server", "gpus_per_server"},
    {"/power/host_watts", "host_watts"},
    {"/power/server_rack_units", "server_rack_units"},
};

}  // namespace

void reject_server_overrides_without_hardware(const CostRequest& rq) {
  const PriceOverrides& p = rq.cost.prices;
  const bool given[] = {
      p.gpu_purchase_cny.has_value(),           p.rental_cny_per_gpu_hour.has_value(),
      p.rental_monthly_cny_per_gpu.has_value(), p.server_platform_cny.has_value(),
      rq.power.gpus_per_server.has_value(),     rq.power.host_watts.has_value(),
      rq.power.server_rack_units.has_value()};
  for (std::size_t i = 0; i < std::size(given); ++i) {
    if (given[i]) {
      const std::string path = kServerSpecific[i][0];
      report_problem("inconsistent", path,
                     path +
                         " describes the pinned server: set /hardware/gpu (or, for GPU "
                         "prices, use /cost/prices/gpus/<id>)");
      return;
    }
  }
}

}  // namespace advisor
