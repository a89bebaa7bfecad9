// SPDX-License-Identifier: MIT
#include "validation/check_burnin.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace advisor::validation::items {
namespace {

/// "Targeted Power GPU: 1;Memory Bandwidth GPU: 3": the tests of STATUS, as 40_burnin.sh lists
/// them in dcgm_failed_tests.
std::string dcgm_tests_with(const Measurements& m, const std::string& status) {
  std::string out;
  for (const DcgmTestResult& t : m.dcgm_tests)
    if (t.status == status)
      out += (out.empty() ? "" : ";") + t.name + (t.gpus.empty() ? "" : " GPU: " + t.gpus);
  return out;
}

/// The first DCGM warning of a test of STATUS, for the English sentence.
std::string dcgm_first_message(const Measurements& m, const std::string& status) {
  for (const DcgmTestResult& t : m.dcgm_tests)
    if (t.status == status && !t.message.empty()) return " (DCGM: " + t.message + ")";
  return "";
}

/// The verdict of the JSON's tests: fail, warn, pass, or error when no test passed.
std::string dcgm_verdict(const Measurements& m) {
  auto any = [&](const char* s) {
    return std::any_of(m.dcgm_tests.begin(), m.dcgm_tests.end(),
                       [&](const DcgmTestResult& t) { return t.status == s; });
  };
  if (any("fail")) return "fail";
  if (!any("pass")) return "error";
  return any("warn") ? "warn" : "pass";
}

}  // namespace

void straggler_item(const Measurements& m, Builder& b) {
  if (m.burn_tflops.empty()) return;
  std::vector<double> rates;
  for (const auto& g : m.burn_tflops) rates.push_back(g.second);
  std::sort(rates.begin(), rates.end());
  const double median = rates[(rates.size() - 1) / 2];  // the lower middle, as burnin.sh's awk
  const auto slowest = *std::min_element(m.burn_tflops.begin(), m.burn_tflops.end(),
                                         [](auto& x, auto& y) { return x.second < y.second; });
  const double share = median > 0 ? slowest.second / median : 1;
  if (share >= kStragglerFailFraction) {
    b.add(Area::compute, "burn_throughput", Status::pass, ok(), median, slowest.second, "TFLOPS");
    return;
  }
  const std::string gpu = std::to_string(slowest.first);
  b.add(Area::compute, "burn_throughput", Status::fail,
        {"burn_straggler",
         {{"gpu", gpu},
          {"tflops", num(slowest.second, 1)},
          {"median_tflops", num(median, 1)},
          {"share_percent", num(share * 100, 0)},
          {"limit_percent", num(kStragglerFailFraction * 100, 0)}},
         "GPU " + gpu + " ran the burn-in's GEMMs at " + num(slowest.second, 1) + " TFLOPS, " +
             percent(share) + " of the median GPU's " + num(median, 1) + " TFLOPS (below " +
             percent(kStragglerFailFraction) +
             "): every synchronous step waits for it; look at its clocks, temperature and power "
             "in gpu.csv, reseat or replace it"},
        median, slowest.second, "TFLOPS");
}

void burnin_window_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (!m.burnin_inter_node_busbw_gbps_min || p.inter_node_busbw_gbps <= 0) return;
  constexpr double kPass = 0.8, kWarn = 0.6;  // 30_nccl.sh's busbw thresholds
  const double got = *m.burnin_inter_node_busbw_gbps_min, want = p.inter_node_busbw_gbps;
  const std::string windows = std::to_string(m.burnin_inter_node_windows.value_or(0));
  if (got >= kPass * want) {
    b.add(Area::interconnect, "burnin_inter_node", Status::pass, ok(), want, got, "GB/s");
    return;
  }
  b.add(Area::interconnect, "burnin_inter_node", got >= kWarn * want ? Status::warn : Status::fail,
        {"burnin_busbw_low",
         {{"measured_gbps", num(got, 1)}, {"expected_gbps", num(want, 1)}, {"windows", windows}},
         "the cross-server all-reduce ran at " + num(got, 1) + " GB/s in the slowest of " +
             windows + " burn-in windows, the plan expects " + num(want, 1) +
             " GB/s: look for link flaps and errors, PFC pauses on RoCE, or a congested switch "
             "port"},
        want, got, "GB/s");
}

void dcgm_item(const Measurements& m, Builder& b) {
  const bool from_json = !m.dcgm_tests.empty();
  const std::string d = from_json ? dcgm_verdict(m) : m.dcgm_diag;
  if (d.empty()) return;
  const std::string failed = from_json ? dcgm_tests_with(m, "fail") : m.dcgm_failed_tests;
  const std::string warned = from_json ? dcgm_tests_with(m, "warn") : m.dcgm_failed_tests;
  const std::string fix =
      "start DCGM's host engine (systemctl start nvidia-dcgm, or nv-hostengine, as root) or "
      "install datacenter-gpu-manager, then run 40_burnin.sh --dcgm again";
  if (d == "pass")
    b.add(Area::power, "dcgm_diag", Status::pass, ok());
  else if (d == "warn")
    b.add(Area::power, "dcgm_diag", Status::warn,
          {"dcgm_diag_warn",
           {{"tests", warned}},
           "DCGM's diagnostics warn: " + warned + dcgm_first_message(m, "warn") +
               " (dcgm_diag.json has the messages)"});
  else if (d == "fail")
    b.add(Area::power, "dcgm_diag", Status::fail,
          {"dcgm_diag_failed",
           {{"tests", failed}},
           "DCGM's diagnostics failed: " + failed + dcgm_first_message(m, "fail") +
               ": reset the GPU named and rerun; replace it if it fails again"});
  else if (d == "unreachable")
    b.add(Area::power, "dcgm_diag", Status::fail,
          {"dcgm_unreachable",
           {},
           "dcgmi could not reach DCGM's host engine, so no diagnostic ran: " + fix});
  else if (d == "missing")
    b.add(Area::power, "dcgm_diag", Status::fail,
          {"dcgm_missing", {}, "--dcgm was asked for but dcgmi is not installed: " + fix});
  else
    b.add(Area::power, "dcgm_diag", Status::fail,
          {"dcgm_diag_error", {}, "dcgmi diag ran no test (dcgm_diag.txt says why): " + fix});
}

}  // namespace advisor::validation::items
