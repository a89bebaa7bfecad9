// SPDX-License-Identifier: MIT
#include "advise.hpp"

#include <cmath>

#include "cost_api.hpp"

#include "errors.hpp"
#include "json_reader.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "request.hpp"
#include "speed.hpp"

namespace advisor {

namespace {

constexpr double kBillion = 1e9;
// Published and derived parameter counts differ by rounding and by small tensors (norms,
// biases); beyond this the architecture fields are probably wrong.
constexpr double kParamMismatchWarning = 0.05;

nlohmann::json bytes(double value) { return static_cast<std::int64_t>(std::llround(value)); }

nlohmann::json layout_json(const Layout& L, const std::string* gpu) {
  return {{"gpu", gpu ? nlohmann::json(*gpu) : nlohmann::json(nullptr)},
          {"count", L.count},
          {"tp", L.tp},
          {"pp", L.pp},
          {"dp", L.dp},
          {"ep", L.ep},
          {"zero", L.zero},
          {"servers", (L.count + kGpusPerServer - 1) / kGpusPerServer}};
}

nlohmann::json breakdown_json(const MemoryEstimate& e) {
  return {{"weights", bytes(e.weights)},         {"gradients", bytes(e.gradients)},
          {"optimizer", bytes(e.optimizer)},     {"activations", bytes(e.activations)},
          {"kv_cache", bytes(e.kv_cache)},       {"overhead", bytes(e.overhead)}};
}


bool all_finite(const nlohmann::json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_structured()) {
    for (const auto& v : j)
      if (!all_finite(v)) return false;
  }
  return true;
}

/// The result must never carry NaN or infinity: fail loudly, naming where.
void require_finite(const nlohmann::json& j, const std::string& path) {
  if (all_finite(j)) return;
  if (j.is_number_float()) throw std::runtime_error("internal error: non-finite value at " + path);
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) require_finite(*it, path + "/" + it.key());
  } else {
    for (std::size_t i = 0; i < j.size(); ++i) require_finite(j[i], path + "/" + std::to_string(i));
  }
}

nlohmann::json model_json(const Request& req) {
  const ParamCounts c = count_params(req.model);
  nlohmann::json j = arch_to_json(req.model);
  j["input"] = req.model_source;
  j["params"] = {{"total", c.total},
                 {"active", c.active},
                 {"trainable", trainable_params(req)},
                 {"published_total_b", req.model.params_total_b_published > 0
                                           ? nlohmann::json(req.model.params_total_b_published)
                                           : nlohmann::json(nullptr)}};
  return j;
}

Layout main_layout(const Request& req, const Catalog& catalog) {
  // Pinned hardware: the preferred layout that fits on it (parse_request checked that the
  // count admits one). Otherwise the job on exactly the pinned tp x pp GPUs (or one).
  if (req.hardware) {
    if (auto L = choose_layout(req, req.hardware->count, *catalog.find_gpu(req.hardware->gpu),
                               catalog.memory, nullptr)) {
      return *L;
    }
  }
  const int count = req.parallelism.tp * req.parallelism.pp;
  if (auto L = layout_for_count(req, count)) return *L;
  Layout L;
  L.count = count;
  L.tp = req.parallelism.tp;
  L.pp = req.parallelism.pp;
  L.dp = 1;
  L.ep = req.parallelism.ep;
  L.zero = is_training(req.task) ? req.parallelism.zero : 0;
  return L;
}

}  // namespace

nlohmann::json error_envelope(const std::string& code, const std::string& message,
                              const std::string& path) {
  return {{"error", {{"code", code}, {"message", message}, {"path", path}}}};
}

nlohmann::json advise(const nlohmann::json& document, const Catalog& catalog) {
  const Request req = parse_request(document, catalog);
  nlohmann::json warnings = nlohmann::json::array();
  nlohmann::json result;
  result["schema"] = 1;
  result["task"] = task_name(req.task);
  result["model"] = model_json(req);

  const ParamCounts counts = count_params(req.model);
  if (req.model.params_total_b_published > 0) {
    const double derived = counts.total / kBillion;
    const double gap = std::fabs(derived / req.model.params_total_b_published - 1);
    if (gap > kParamMismatchWarning) {
      warnings.push_back(warning_json("param_count_mismatch",
                                 "derived parameter count " + format_number(derived) +
                                     "B differs from the published " +
                                     format_number(req.model.params_total_b_published) + "B",
                                 "/model"));
    }
  }
  const std::int64_t context = is_training(req.task)
                                   ? req.training.sequence_length
                                   : req.inference.prompt_tokens + req.inference.output_tokens;
  if (context > req.model.max_position_embeddings) {
    warnings.push_back(warning_json(
        "beyond_trained_context",
        "the sequence (" + std::to_string(context) + " tokens) is longer than the model's "
        "max_position_embeddings (" + std::to_string(req.model.max_position_embeddings) +
        "); memory is still estimated, quality is not guaranteed",
        is_training(req.task) ? "/training/sequence_length" : "/inference/prompt_tokens"));
  }

  const Layout L = main_layout(req, catalog);
  const MemoryEstimate e = estimate_memory(req, L, catalog.memory, true);
  nlohmann::json memory;
  memory["per_gpu_bytes"] = bytes(e.total());
  memory["breakdown_bytes"] = breakdown_json(e);
  memory["band_bytes"] = {{"low", bytes(e.band_low)}, {"high", bytes(e.band_high)}};
  memory["host_ram_per_server_bytes"] = bytes(e.host_ram_per_node);
  memory["params_per_gpu"] = e.params_on_gpu;
  memory["pipeline_stage"] = e.heaviest_stage;
  memory["layout"] = layout_json(L, req.hardware ? &req.hardware->gpu : nullptr);
  nlohmann::json assumptions = nlohmann::json::array();
  for (const MemoryAssumption& a : e.assumptions) {
    assumptions.push_back({{"term", a.term}, {"text", a.text}});
  }
  memory["assumptions"] = assumptions;
  memory["fits"] = nullptr;
  memory["gpu_memory_bytes"] = nullptr;
  if (req.hardware) {
    const GpuSpec& gpu = *catalog.find_gpu(req.hardware->gpu);
    const bool ok = fits(e, gpu);
    memory["fits"] = ok;
    memory["gpu_memory_bytes"] = bytes(gpu.memory_bytes());
    memory["headroom_bytes"] = bytes(gpu.memory_bytes() - e.total());
    if (!ok) {
      warnings.push_back(warning_json("does_not_fit",
                                 "the plan needs more memory per GPU than " + gpu.name + " has",
                                 "/hardware"));
    } else if (e.band_high > gpu.memory_bytes()) {
      warnings.push_back(warning_json("tight_fit",
                                 "fits by the estimate, but the upper end of the error band "
                                 "exceeds the card: expect out-of-memory risk",
                                 "/hardware"));
    }
    if (!gpu.pcie_peer_to_peer && req.hardware->count > 1) {
      warnings.push_back(warning_json("no_peer_to_peer",
                                 gpu.name + " has no PCIe peer-to-peer: GPU-to-GPU traffic goes "
                                            "through host memory",
                                 "/hardware/gpu"));
    }
    if (gpu.software_stack != "cuda") {
      warnings.push_back(warning_json("non_cuda_stack",
                                 gpu.name + " runs " + gpu.software_stack +
                                     ", not CUDA: framework overheads may differ from this "
                                     "estimate",
                                 "/hardware/gpu"));
    }
  }
  if (e.host_ram_per_node > 0) {
    warnings.push_back(warning_json("host_ram_needed",
                               "CPU offload needs " +
                                   format_gib(e.host_ram_per_node) +
                                   " of host RAM per server (plus the OS and data loaders)",
                               "/training/cpu_offload"));
  }
  result["memory"] = memory;
  // Speed (training, inference, interconnect), then power and cost, which price the run
  // with the speed model's hours.
  add_speed_results(req, catalog, L, e, result, warnings);
  const std::vector<GpuOption> judged = evaluate_options(req, catalog);
  const nlohmann::json power_and_cost =
      power_and_cost_json(req, req.cost, result, catalog, judged);
  for (const auto& [key, value] : power_and_cost.items()) {
    if (key == "warnings") {
      for (const auto& w : value) warnings.push_back(w);
    } else {
      result[key] = value;
    }
  }

  nlohmann::json options = nlohmann::json::array();
  for (const GpuOption& o : judged) {
    const GpuSpec& g = *o.gpu;
    nlohmann::json j = {
        {"gpu", g.id},
        {"name", g.name},
        {"vendor", g.vendor},
        {"memory_bytes", bytes(g.memory_bytes())},
        {"fits_on_one", o.fits_on_one},
        {"per_gpu_bytes_on_one", bytes(o.on_one.total())},
        {"tight_on_one", o.fits_on_one && o.on_one.band_high > g.memory_bytes()},
        {"china_availability", {{"status", g.china_availability.status},
                                {"as_of", g.china_availability.as_of}}},
        {"software_stack", g.software_stack}};
    if (o.min_layout) {
      j["min_count"] = o.min_layout->count;
      j["min_layout"] = layout_json(*o.min_layout, &g.id);
      j["per_gpu_bytes_at_min"] = bytes(o.at_min.total());
      j["tight_at_min"] = o.tight_at_min;
      j["verdict"] = o.min_layout->count == 1 ? "fits_on_one" : "needs_multiple";
      j["reason"] = nullptr;
    } else {
      j["min_count"] = nullptr;
      j["min_layout"] = nullptr;
      j["per_gpu_bytes_at_min"] = nullptr;
      j["verdict"] = "does_not_fit";
      j["reason"] = o.reason;
    }
    add_option_speed(req, catalog, o, j, result);
    if (o.min_layout) {
      const nlohmann::json option_cost =
          option_power_and_cost_json(req, req.cost, g, o.min_layout->count, j);
      for (const auto& [key, value] : option_cost.items()) j[key] = value;
    } else {
      j["power"] = nullptr;
      j["cost"] = nullptr;
    }
    options.push_back(j);
  }
  result["options"] = options;
  result["warnings"] = warnings;
  result["catalog"] = {{"gpus_as_of", catalog.gpus_as_of}, {"models_as_of", catalog.models_as_of}};
  require_finite(result, "");
  return result;
}

std::string advise_text(const std::string& request_text, const Catalog& catalog, bool* ok) {
  nlohmann::json out;
  bool success = false;
  try {
    out = advise(parse_json_text(request_text, ""), catalog);
    success = true;
  } catch (const InputError& e) {
    out = error_envelope(e.code(), e.what(), e.path());
  } catch (const std::exception& e) {
    out = error_envelope("internal_error", e.what(), "");
  }
  if (ok) *ok = success;
  return out.dump();
}

std::string advise_text(const std::string& request_text, bool* ok) {
  try {
    return advise_text(request_text, builtin_catalog(), ok);
  } catch (const InputError& e) {  // a corrupt built-in catalog
    if (ok) *ok = false;
    return error_envelope(e.code(), e.what(), e.path()).dump();
  }
}

std::string advise_with_catalog_text(const std::string& request_text, const std::string& gpus_json,
                                     const std::string& models_json, bool* ok) {
  try {
    const Catalog catalog = parse_catalog(gpus_json.empty() ? builtin_gpus_json() : gpus_json,
                                          models_json.empty() ? builtin_models_json() : models_json,
                                          builtin_assumptions_json());
    return advise_text(request_text, catalog, ok);
  } catch (const InputError& e) {
    if (ok) *ok = false;
    const std::string code = e.code() == "malformed_json" ? e.code() : "catalog_invalid";
    return error_envelope(code, e.what(), e.path()).dump();
  }
}

nlohmann::json catalog_summary(const Catalog& catalog) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const GpuSpec& g : catalog.gpus) {
    gpus.push_back({{"id", g.id},
                    {"name", g.name},
                    {"vendor", g.vendor},
                    {"memory_gib", g.memory_gib},
                    {"china_status", g.china_availability.status}});
  }
  nlohmann::json models = nlohmann::json::array();
  for (const ModelArch& m : catalog.models) {
    nlohmann::json j = arch_to_json(m);
    j["params_total_b"] = m.params_total_b_published;
    j["params_active_b"] = m.params_active_b_published;
    models.push_back(j);
  }
  return {{"gpus", gpus},
          {"models", models},
          {"gpus_as_of", catalog.gpus_as_of},
          {"models_as_of", catalog.models_as_of},
          {"default_request", default_request()}};
}

}  // namespace advisor
