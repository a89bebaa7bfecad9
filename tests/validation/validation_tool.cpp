// SPDX-License-Identifier: MIT
// Test driver for the validation scripts (not the product CLI):
//   validation_tool scripts <case> <dir>            write the case's scripts into <dir>
//   validation_tool check <case> <file> [price] [gpu_hours]   print the read-back report JSON
//   validation_tool check-servers <case> <file>...   one result file per server: the cluster report
//   validation_tool csvstats <case> <gpu.csv>       per-GPU statistics, named as 40_burnin.sh names
//   them validation_tool cases                           list the case names
// Cases: h100_8x h100_2x8_ib rtx4090_4x l20_8x. Exit 2 on bad input (the error as JSON).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cases.hpp"
#include "types/errors.hpp"
#include "validation/check.hpp"
#include "validation/gpu_csv.hpp"
#include "validation/scripts.hpp"

namespace {
std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) q += c;
  }
  return q + "\"";
}
}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace advisor::validation;
  if (argc == 2 && std::string(argv[1]) == "cases") {
    for (const auto& n : vtest::case_names()) std::cout << n << "\n";
    for (const auto& n : vtest::extra_case_names()) std::cout << n << "\n";
    return 0;
  }
  if (argc < 4) {
    std::cerr << "usage: validation_tool scripts|check <case> <dir|file> [price_per_gpu_hour "
                 "planned_gpu_hours]\n";
    return 2;
  }
  const std::string cmd = argv[1], name = argv[2], target = argv[3];
  try {
    ValidationPlan plan =
        test::throwing([&] { return vtest::make_case(name, GPU_ADVISOR_DATA_DIR); });
    // The stand-in runs burn in for seconds: CASE_BURNIN_HOURS sets the plan's length, for the
    // scripts and for check alike (it is part of the plan id).
    if (const char* hours = std::getenv("CASE_BURNIN_HOURS")) plan.burnin_hours = std::stod(hours);
    if (cmd == "scripts") {
      fs::create_directories(target);
      for (const auto& f : test::throwing([&] { return generate_scripts(plan); })) {
        fs::path p = fs::path(target) / f.name;
        std::ofstream(p, std::ios::binary) << f.text;
        if (f.executable)
          fs::permissions(p, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                          fs::perm_options::add);
      }
      return 0;
    }
    if (cmd == "csvstats") {  // per-GPU statistics of an nvidia-smi CSV, as 40_burnin.sh names them
      Measurements m = test::throwing([&] { return summarize_gpu_csv(vtest::read_text(target)); });
      for (const auto& g : m.power) {
        const std::string k = "gpu." + std::to_string(g.index) + ".";
        std::cout << k << "samples\t" << g.samples << "\n";
        if (g.power_draw_w_p50)
          std::cout << k << "power_draw_w_p50\t" << *g.power_draw_w_p50 << "\n";
        if (g.power_draw_w_p99)
          std::cout << k << "power_draw_w_p99\t" << *g.power_draw_w_p99 << "\n";
        if (g.temperature_c_max)
          std::cout << k << "temperature_c_max\t" << *g.temperature_c_max << "\n";
        std::cout << k << "thermal_throttle_fraction\t" << g.thermal_throttle_fraction << "\n";
        std::cout << k << "power_brake_fraction\t" << g.power_brake_fraction << "\n";
        std::cout << k << "power_cap_fraction\t" << g.power_cap_fraction << "\n";
        if (g.ecc_uncorrected_max)
          std::cout << k << "ecc_uncorrected_max\t" << *g.ecc_uncorrected_max << "\n";
        if (g.pcie_gen_min_busy)
          std::cout << k << "pcie_gen_min_busy\t" << *g.pcie_gen_min_busy << "\n";
        if (g.pcie_width_min_busy)
          std::cout << k << "pcie_width_min_busy\t" << *g.pcie_width_min_busy << "\n";
        if (g.pcie_width_max_logged)
          std::cout << k << "pcie_width_max_logged\t" << *g.pcie_width_max_logged << "\n";
      }
      return 0;
    }
    if (cmd == "check") {
      std::string file = fs::path(target).filename().string();
      Measurements m =
          test::throwing([&] { return read_measurements(vtest::read_text(target), file, plan); });
      CostInputs cost;
      if (argc >= 6) {
        cost.price_per_gpu_hour = std::stod(argv[4]);
        cost.planned_gpu_hours = std::stod(argv[5]);
      }
      CheckReport r = test::throwing([&] { return check_measurements(plan, m, cost); });
      std::cout << check_report_json(r) << "\n";
      return r.overall == Status::fail ? 1 : 0;
    }
    if (cmd == "check-servers") {  // one result file per server, one verdict
      std::vector<Measurements> files;
      for (int i = 3; i < argc; ++i)
        files.push_back(test::throwing([&] {
          return read_measurements(vtest::read_text(argv[i]), fs::path(argv[i]).filename().string(),
                                   plan);
        }));
      const ClusterReport c = test::throwing([&] { return check_servers(plan, files); });
      std::cout << cluster_report_json(c) << "\n";
      return c.overall == Status::fail ? 1 : 0;
    }
  } catch (const advisor::InputError& e) {
    std::cout << "{\"error\": {\"code\": " << quoted(e.code()) << ", \"path\": " << quoted(e.path())
              << ", \"message\": " << quoted(e.what()) << "}}\n";
    return 2;
  }
  std::cerr << "unknown command " << cmd << "\n";
  return 2;
}
