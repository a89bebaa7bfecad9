// SPDX-License-Identifier: MIT
// The check's compute, power and cost items (validation/check_health.hpp).
#include "validation/check_health.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "validation/check_burnin.hpp"

namespace advisor::validation::items {

void compute_items(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (!m.driver_version.empty()) {
    const std::string& d = m.driver_version;
    const std::string* branch = nullptr;
    for (const auto& br : p.forward_compat_branches)
      if (br.substr(0, br.find('.')) == d.substr(0, d.find('.')) && compare_versions(d, br) >= 0)
        branch = &br;
    if (compare_versions(d, p.ngc_min_driver) >= 0) {
      b.add(Area::compute, "driver", Status::pass, ok());
    } else if (branch) {
      b.add(Area::compute, "driver", Status::pass,
            {"forward_compat",
             {{"driver", d}, {"branch", *branch}, {"tag", p.ngc_tag}},
             "driver " + d + " runs NGC " + p.ngc_tag +
                 " through data-centre forward compatibility"});
    } else {
      std::string alt;
      for (const auto& [tag, min] : p.fallback_tags)
        if (alt.empty() && compare_versions(d, min) >= 0) alt = tag;
      b.add(Area::compute, "driver", Status::fail,
            {"driver_too_old",
             {{"driver", d},
              {"min_driver", p.ngc_min_driver},
              {"tag", p.ngc_tag},
              {"alternative", alt}},
             "driver " + d + " is older than NGC " + p.ngc_tag + " needs (>= " + p.ngc_min_driver +
                 "): upgrade it" +
                 (alt.empty() ? std::string(" (no tag for this GPU runs on it)")
                              : ", or use NGC " + alt) +
                 (p.product == ProductClass::geforce ? "; GeForce cannot use forward compatibility"
                                                     : "")});
    }
  }
  for (const auto& g : m.gpus)
    if (!g.compute_cap.empty() && g.compute_cap != p.compute_capability) {
      b.add(Area::compute, "compute_capability", Status::fail,
            {"compute_capability_mismatch",
             {{"gpu", std::to_string(g.index)}, {"measured", g.compute_cap}},
             "GPU " + std::to_string(g.index) + " has compute capability " + g.compute_cap +
                 ", planned " + p.compute_capability});
      break;
    }
  if (!m.gemm_tflops.empty()) {
    const double want = p.bf16_dense_peak_tflops * p.matmul_fraction;
    auto worst = *std::min_element(m.gemm_tflops.begin(), m.gemm_tflops.end(),
                                   [](auto& a, auto& c) { return a.second < c.second; });
    double mean = 0;
    for (const auto& g : m.gemm_tflops) mean += g.second;
    mean /= m.gemm_tflops.size();
    const double fraction = mean / p.bf16_dense_peak_tflops, r = worst.second / want;
    const std::vector<std::pair<std::string, std::string>> params = {
        {"gpu", std::to_string(worst.first)},
        {"tflops", num(worst.second)},
        {"matmul_fraction_measured", num(fraction, 3)},
        {"matmul_fraction_planned", num(p.matmul_fraction, 3)}};
    const std::string recal = "measured matmul fraction " + num(fraction, 3) + " (plan " +
                              num(p.matmul_fraction, 3) + ")";
    if (r >= 1.15)
      b.add(Area::compute, "bf16_gemm", Status::warn,
            {"gemm_faster_than_plan", params,
             "every GPU beats the plan: " + recal + "; the plan is conservative"},
            want, worst.second, "TFLOPS");
    else if (r >= 0.9)
      b.add(Area::compute, "bf16_gemm", Status::pass, {"ok", params, recal}, want, worst.second,
            "TFLOPS");
    else
      b.add(Area::compute, "bf16_gemm", r >= 0.75 ? Status::warn : Status::fail,
            {"gemm_slow", params,
             "GPU " + std::to_string(worst.first) + " reaches " + num(worst.second) + " TFLOPS, " +
                 percent(r) + " of the planned " + num(want) +
                 ": check clocks, power limit and throttling; " + recal},
            want, worst.second, "TFLOPS");
  }
  if (m.job_tokens_per_second_per_server && p.tokens_per_second_per_server &&
      *p.tokens_per_second_per_server > 0) {
    const double want = *p.tokens_per_second_per_server, got = *m.job_tokens_per_second_per_server;
    const double dev = got / want - 1;
    std::vector<std::pair<std::string, std::string>> params = {{"measured", num(got, 0)},
                                                               {"planned", num(want, 0)}};
    std::string recal;
    if (p.mfu) {
      params.emplace_back("mfu_measured", num(*p.mfu * got / want, 3));
      recal =
          "; recalibrated MFU " + num(*p.mfu * got / want, 3) + " (plan " + num(*p.mfu, 3) + ")";
    }
    Status s = std::fabs(dev) <= 0.15 ? Status::pass : dev < -0.30 ? Status::fail : Status::warn;
    std::string code = s == Status::pass ? "ok"
                       : dev < 0         ? "tokens_slow"
                                         : "tokens_faster_than_plan";
    b.add(Area::compute, "tokens_per_second", s,
          {code, params,
           num(got, 0) + " tokens/s per server vs " + num(want, 0) + " planned (" +
               (dev >= 0 ? "+" : "") + percent(dev) + ")" + recal},
          want, got, "tokens/s");
  }
}

namespace {

/// The comma lists `a` and `b` ("79,48") as one list of whole codes, each once.
std::vector<int> xid_code_list(const std::string& a, const std::string& b) {
  std::vector<int> out;
  const std::string all = a + "," + b;
  for (std::size_t at = 0; at <= all.size();) {
    std::size_t end = all.find(',', at);
    if (end == std::string::npos) end = all.size();
    const std::string part = all.substr(at, end - at);
    if (!part.empty() && part.find_first_not_of("0123456789") == std::string::npos) {
      const int code = std::atoi(part.c_str());
      if (std::find(out.begin(), out.end(), code) == out.end()) out.push_back(code);
    }
    at = end + 1;
  }
  return out;
}

std::string join_codes(const std::vector<int>& codes) {
  std::string s;
  for (int c : codes) s += (s.empty() ? "" : ",") + std::to_string(c);
  return s;
}

/// Xid lines in the kernel log (00_inventory) or new during the burn-in (40_burnin): a hardware
/// Xid fails, any other is a warning, as xid_report in the scripts judges them.
void xid_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  const int n = std::max(m.xid_count.value_or(0), m.xid_new.value_or(0));
  if (n == 0) {
    if (m.xid_count || m.xid_new) b.add(Area::power, "xid", Status::pass, ok(), 0, 0, "errors");
    return;
  }
  std::vector<int> hardware, other;
  for (int code : xid_code_list(m.xid_codes, m.xid_new_codes))
    (is_hardware_xid(p.xid, code) ? hardware : other).push_back(code);
  const std::string codes = join_codes(hardware.empty() ? other : hardware);
  const std::string seen = codes.empty() ? "" : " (Xid " + codes + ")";
  if (!hardware.empty())
    b.add(Area::power, "xid", Status::fail,
          {"xid_errors",
           {{"count", std::to_string(n)}, {"codes", codes}},
           std::to_string(n) + " Xid error(s) in the kernel log, hardware" + seen +
               ": 00_inventory.sh says what each code needs"},
          0, n, "errors");
  else
    b.add(Area::power, "xid", Status::warn,
          {"xid_application",
           {{"count", std::to_string(n)}, {"codes", codes}},
           std::to_string(n) + " Xid error(s) in the kernel log" + seen +
               ", none a hardware Xid: a program's fault, or a code to look up in NVIDIA's Xid "
               "catalog"},
          0, n, "errors");
}

/// The burn-in's length against the plan's (the plan the scripts were generated for, never the
/// --hours the run was started with), within 2%. A run started with a shorter --hours that
/// completed is `burnin_short`; one that stopped early is `burnin_incomplete`. Both FAIL: the
/// server has not been burned in as planned.
void burnin_duration_item(const ValidationPlan& p, const Measurements& m, Builder& b) {
  if (!m.burnin_seconds) return;
  constexpr double kTolerance = 0.02;
  // Whole seconds, as 40_burnin.sh counts them.
  const double plan_s = std::floor(p.burnin_hours * 3600 + 0.5), done = *m.burnin_seconds;
  const double hours = done / 3600;
  const auto h = [](double seconds) { return num(seconds / 3600, seconds < 360 ? 4 : 2) + " h"; };
  if (done >= plan_s * (1 - kTolerance)) {
    b.add(Area::power, "burnin_duration", Status::pass, ok(), p.burnin_hours, hours, "h");
    return;
  }
  const std::optional<double> run = m.burnin_target_seconds;
  if (run && *run < plan_s * (1 - kTolerance) && done + 1 >= *run)
    b.add(Area::power, "burnin_duration", Status::fail,
          {"burnin_short",
           {{"hours", num(hours, 4)},
            {"run_hours", num(*run / 3600, 4)},
            {"plan_hours", num(p.burnin_hours, 4)}},
           "the burn-in ran " + h(done) + " (the run was set to " + h(*run) +
               "), shorter than the plan's " + num(p.burnin_hours, 4) + " h" +
               ": run 40_burnin.sh --hours " + num(p.burnin_hours, 4) +
               " to finish it (it continues where it stopped)"},
          p.burnin_hours, hours, "h");
  else
    b.add(Area::power, "burnin_duration", Status::fail,
          {"burnin_incomplete",
           {{"hours", num(hours, 4)}, {"target_hours", num(p.burnin_hours, 4)}},
           "the burn-in ran " + h(done) + " of the plan's " + num(p.burnin_hours, 4) + " h" +
               ": run 40_burnin.sh again to resume"},
          p.burnin_hours, hours, "h");
}

}  // namespace

void power_items(const ValidationPlan& p, const Measurements& m, Builder& b) {
  std::vector<const GpuInventory*> other_limit;
  for (const auto& g : m.gpus)
    if (g.power_limit_w && std::fabs(*g.power_limit_w - p.power_limit_w) >= 1)
      other_limit.push_back(&g);
  if (!other_limit.empty()) {
    const GpuInventory& g = *other_limit.front();
    b.add(Area::power, "power_limit", Status::warn,
          {"power_limit_differs",
           {{"gpu", std::to_string(g.index)}, {"limit_w", num(*g.power_limit_w, 0)}},
           "GPU " + std::to_string(g.index) + " is limited to " + num(*g.power_limit_w, 0) +
               " W, the plan assumes " + num(p.power_limit_w, 0) + " W" + more(other_limit.size()) +
               ": power and speed figures move with it"},
          p.power_limit_w, *g.power_limit_w, "W");
  } else if (!m.gpus.empty()) {
    b.add(Area::power, "power_limit", Status::pass, ok(), p.power_limit_w, p.power_limit_w, "W");
  }
  // A raw CSV is judged like the summary's log: fewer GPUs than the plan (one dropped out, or
  // the log of another server) fails, and so does a GPU index the plan's server does not have.
  if (m.gpus_logged && *m.gpus_logged < p.gpus_per_server)
    b.add(Area::power, "gpus_logged", Status::fail,
          {"gpu_missing_in_log",
           {{"logged", std::to_string(*m.gpus_logged)}},
           "only " + std::to_string(*m.gpus_logged) + " of " + std::to_string(p.gpus_per_server) +
               " GPUs in the burn-in log: one dropped out (look for Xid 79), or the log is of "
               "another server"},
          p.gpus_per_server, *m.gpus_logged, "GPUs");
  const auto extra = std::max_element(
      m.power.begin(), m.power.end(),
      [](const GpuPowerStats& a, const GpuPowerStats& b) { return a.index < b.index; });
  if (extra != m.power.end() && extra->index >= p.gpus_per_server)
    b.add(Area::power, "gpus_logged", Status::fail,
          {"gpu_extra_in_log",
           {{"gpu", std::to_string(extra->index)}},
           "the burn-in log has GPU " + std::to_string(extra->index) + ", the plan's server has " +
               std::to_string(p.gpus_per_server) + " (indices 0-" +
               std::to_string(p.gpus_per_server - 1) + "): this log is of another server"},
          p.gpus_per_server, extra->index + 1, "GPUs");
  if (!m.power.empty()) {
    const GpuPowerStats* hot = nullptr;
    const GpuPowerStats* brake = nullptr;
    const GpuPowerStats* capped = nullptr;
    const GpuPowerStats* ecc = nullptr;
    double p50_max = 0;
    // Under a full load every GPU may sit at its cap: flag the GPU capped far more than the median.
    std::vector<double> caps;
    for (const auto& g : m.power) caps.push_back(g.power_cap_fraction);
    std::sort(caps.begin(), caps.end());
    const double cap_median = caps[(caps.size() + 1) / 2 - 1];
    for (const auto& g : m.power) {
      if (g.thermal_throttle_fraction > 0.01 &&
          (!hot || g.thermal_throttle_fraction > hot->thermal_throttle_fraction))
        hot = &g;
      if (g.power_brake_fraction > 0.01 &&
          (!brake || g.power_brake_fraction > brake->power_brake_fraction))
        brake = &g;
      if (g.power_cap_fraction > cap_median + 0.10 &&
          (!capped || g.power_cap_fraction > capped->power_cap_fraction))
        capped = &g;
      if (g.ecc_uncorrected_max && *g.ecc_uncorrected_max > 0 && !ecc) ecc = &g;
      if (g.power_draw_w_p50) p50_max = std::max(p50_max, *g.power_draw_w_p50);
    }
    auto gpu = [](const GpuPowerStats* g) { return std::to_string(g->index); };
    if (hot)
      b.add(Area::power, "thermal_throttle", Status::fail,
            {"thermal_throttle",
             {{"gpu", gpu(hot)}, {"percent", num(hot->thermal_throttle_fraction * 100, 0)}},
             "GPU " + gpu(hot) + " thermal-throttled " + percent(hot->thermal_throttle_fraction) +
                 " of samples: check fans, airflow and inlet temperature"},
            1, hot->thermal_throttle_fraction * 100, "% of samples");
    else
      b.add(Area::power, "thermal_throttle", Status::pass, ok(), 1, 0, "% of samples");
    if (brake)
      b.add(
          Area::power, "power_brake", Status::fail,
          {"power_brake",
           {{"gpu", gpu(brake)}, {"percent", num(brake->power_brake_fraction * 100, 0)}},
           "GPU " + gpu(brake) + " hit the hardware power brake in " +
               percent(brake->power_brake_fraction) + " of samples: check PSUs and power cabling"},
          1, brake->power_brake_fraction * 100, "% of samples");
    if (capped)
      b.add(Area::power, "power_cap", Status::warn,
            {"power_capped",
             {{"gpu", gpu(capped)}, {"percent", num(capped->power_cap_fraction * 100, 0)}},
             "GPU " + gpu(capped) + " power-capped " + percent(capped->power_cap_fraction) +
                 " of samples, the median GPU " + percent(cap_median) +
                 ": check its power limit, cooling and slot"},
            (cap_median + 0.10) * 100, capped->power_cap_fraction * 100, "% of samples");
    if (ecc)
      b.add(Area::power, "ecc_uncorrected", Status::fail,
            {"ecc_uncorrected",
             {{"gpu", gpu(ecc)}, {"count", num(*ecc->ecc_uncorrected_max, 0)}},
             "GPU " + gpu(ecc) + " logged " + num(*ecc->ecc_uncorrected_max, 0) +
                 " uncorrectable ECC errors: reset it, replace it if they recur"},
            0, *ecc->ecc_uncorrected_max, "errors");
    if (p50_max > 0) {
      const double planned = p.power_limit_w * p.training_load_factor;
      if (p50_max > p.power_limit_w * 1.02)
        b.add(Area::power, "gpu_power", Status::warn,
              {"power_over_tdp",
               {{"p50_w", num(p50_max, 0)}, {"tdp_w", num(p.power_limit_w, 0)}},
               "median GPU draw " + num(p50_max, 0) + " W exceeds the planned TDP " +
                   num(p.power_limit_w, 0) + " W: rerun the power plan with the measured figure"},
              planned, p50_max, "W");
      else
        b.add(Area::power, "gpu_power", Status::pass,
              {"ok",
               {{"p50_w", num(p50_max, 0)}, {"planned_w", num(planned, 0)}},
               "median draw up to " + num(p50_max, 0) + " W per GPU; the plan budgets " +
                   num(planned, 0) + " W (TDP x load factor) and " + num(p.power_limit_w, 0) +
                   " W peak"},
              planned, p50_max, "W");
    }
  }
  xid_item(p, m, b);
  dcgm_item(m, b);
  burnin_duration_item(p, m, b);
  if (m.wall_power_w_max && p.server_full_load_w) {
    const double got = *m.wall_power_w_max, want = *p.server_full_load_w;
    if (got > want)
      b.add(Area::power, "wall_power", Status::warn,
            {"wall_power_above_plan",
             {{"measured_w", num(got, 0)}, {"planned_w", num(want, 0)}},
             "one server draws up to " + num(got, 0) + " W at the wall, above the planned " +
                 num(want, 0) + " W"},
            want, got, "W");
    else
      b.add(Area::power, "wall_power", Status::pass, ok(), want, got, "W");
    if (p.rack_budget_kw) {
      const double rack_kw = got * p.servers_per_rack / 1000;
      b.add(Area::power, "rack_power", rack_kw <= *p.rack_budget_kw ? Status::pass : Status::fail,
            rack_kw <= *p.rack_budget_kw
                ? ok()
                : Reason{"rack_over_budget",
                         {{"rack_kw", num(rack_kw, 2)},
                          {"budget_kw", num(*p.rack_budget_kw, 2)},
                          {"servers", std::to_string(p.servers_per_rack)}},
                         std::to_string(p.servers_per_rack) + " server(s) at the measured " +
                             num(got, 0) + " W need " + num(rack_kw, 2) + " kW, over the rack's " +
                             num(*p.rack_budget_kw, 2) + " kW"},
            *p.rack_budget_kw, rack_kw, "kW");
    }
  }
}

void cost_items(const ValidationPlan& p, const Measurements& m, const CostInputs& c, Builder& b) {
  if (!c.price_per_gpu_hour || !c.planned_gpu_hours || *c.planned_gpu_hours <= 0) return;
  double ratio = 0;
  std::string basis;
  if (m.job_tokens_per_second_per_server && p.tokens_per_second_per_server &&
      *p.tokens_per_second_per_server > 0) {
    ratio = *m.job_tokens_per_second_per_server / *p.tokens_per_second_per_server;
    basis = "tokens_per_second";
  } else if (!m.gemm_tflops.empty()) {
    double mean = 0;
    for (const auto& g : m.gemm_tflops) mean += g.second;
    mean /= m.gemm_tflops.size();
    ratio = mean / (p.bf16_dense_peak_tflops * p.matmul_fraction);
    basis = "gemm";
  }
  if (!(ratio > 0)) return;
  const double planned = *c.planned_gpu_hours * *c.price_per_gpu_hour;
  const double hours = *c.planned_gpu_hours / ratio;
  const double cost = hours * *c.price_per_gpu_hour;
  const double dev = cost / planned - 1;
  const std::string what =
      basis == "gemm" ? "the measured GEMM rate (no job tokens/s given)" : "the measured tokens/s";
  b.add(Area::cost, "cost_per_run", dev > 0.15 ? Status::warn : Status::pass,
        {dev > 0.15 ? "cost_over_plan" : "ok",
         {{"cost", num(cost, 0)},
          {"planned", num(planned, 0)},
          {"currency", c.currency},
          {"gpu_hours", num(hours, 0)},
          {"basis", basis}},
         "cost per run " + num(cost, 0) + " " + c.currency + " (" + num(hours, 0) +
             " GPU-hours) vs " + num(planned, 0) + " planned (" + (dev >= 0 ? "+" : "") +
             percent(dev) + "), from " + what},
        planned, cost, c.currency);
}

}  // namespace advisor::validation::items
