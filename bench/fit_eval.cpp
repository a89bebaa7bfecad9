// SPDX-License-Identifier: MIT
// Evaluates the speed model for many candidate constant sets at once (for bench/fit.cjs).
// Not part of the product: it calls the same core functions advise() uses, with the constants
// of data/performance.json overridden per grid point.
//
// Usage: fit_eval PERFORMANCE.json GRID.json REQUESTS.json
//   GRID: [{"framework_efficiency": 0.8, ...}, ...]   REQUESTS: [request, ...]
// Prints one JSON array per grid point: per request the fields the calibration readers use.
#include <fstream>
#include <iostream>
#include <sstream>

#include "api.hpp"
#include "io/request_json.hpp"
#include "types/catalog.hpp"
#include "engine/comm.hpp"
#include "engine/serving.hpp"
#include "engine/layout.hpp"
#include "types/perf_constants.hpp"
#include "types/request.hpp"
#include "engine/training.hpp"

namespace {
std::string slurp(const char* path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void apply(advisor::PerformanceConstants& k, const nlohmann::json& g) {
  for (auto it = g.begin(); it != g.end(); ++it) {
    const double v = it.value().get<double>();
    const std::string& n = it.key();
    if (n == "framework_efficiency") k.framework_efficiency = v;
    else if (n == "overlap_fraction") k.overlap_fraction = v;
    else if (n == "memory_bandwidth_efficiency") k.memory_bandwidth_efficiency = v;
    else if (n == "pcie_p2p_efficiency") k.pcie_p2p_efficiency = v;
    else throw std::runtime_error("unknown constant " + n);
  }
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: fit_eval PERFORMANCE.json GRID.json REQUESTS.json\n";
    return 2;
  }
  const advisor::Catalog& catalog = advisor::builtin_catalog();
  const advisor::PerformanceConstants base = advisor::parse_performance(slurp(argv[1]));
  const nlohmann::json grid = nlohmann::json::parse(slurp(argv[2]));
  const nlohmann::json requests = nlohmann::json::parse(slurp(argv[3]));
  std::vector<advisor::Request> reqs;
  std::vector<advisor::Layout> layouts;
  std::vector<advisor::MemoryEstimate> memory;
  for (const auto& j : requests) {
    reqs.push_back(advisor::parse_request(j, catalog));
  }
  for (const auto& r : reqs) {
    advisor::MemoryEstimate e;
    const advisor::GpuSpec& pinned = *catalog.find_gpu(r.hardware->gpu);
    layouts.push_back(*advisor::choose_layout(r, r.hardware->count, pinned,
                                              advisor::gpus_per_server(r, catalog, pinned),
                                              catalog.memory,
                                              &e));
    memory.push_back(e);
  }
  std::cout << "[";
  for (std::size_t g = 0; g < grid.size(); ++g) {
    advisor::PerformanceConstants k = base;
    apply(k, grid[g]);
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t i = 0; i < reqs.size(); ++i) {
      const advisor::Request& r = reqs[i];
      const advisor::GpuSpec& gpu = *catalog.find_gpu(r.hardware->gpu);
      const advisor::Layout& L = layouts[i];
      const advisor::Fabric f = advisor::make_fabric(gpu, r.cluster, k, L.gpus_per_server);
      nlohmann::json res;
      res["interconnect"]["allreduce_bus_bandwidth_gbps"] =
          L.count > 1 ? advisor::group_busbw(f, L.count, std::min(L.count, f.gpus_per_node), k)
                      : 0.0;
      if (advisor::is_training(r.task)) {
        const advisor::TrainingPerf t = advisor::estimate_training(r, gpu, L, f, k);
        res["training"] = {{"tokens_per_second", t.tokens_per_second},
                           {"step_time_s", t.step_time_s},
                           {"achieved_tflops_per_gpu", t.achieved_tflops_per_gpu},
                           {"gpu_hours", t.gpu_hours},
                           {"hours", t.hours}};
      } else {
        const advisor::InferencePerf p =
            advisor::estimate_inference(r, gpu, L, memory[i], f, k, catalog.memory);
        res["inference"] = {{"decode_tokens_per_second", p.decode_tokens_per_second},
                            {"time_to_first_token_s", p.time_to_first_token_s},
                            {"sustained_output_tokens_per_second",
                             p.sustained_output_tokens_per_second},
                            {"max_concurrency", p.max_concurrency}};
      }
      out.push_back(res);
    }
    std::cout << (g ? ",\n" : "") << out.dump();
  }
  std::cout << "]\n";
  return 0;
}
