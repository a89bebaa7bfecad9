// SPDX-License-Identifier: MIT
#include "validation/check.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <string>

#include "types/errors.hpp"
#include "validation/check_burnin.hpp"
#include "validation/check_fabric.hpp"
#include "validation/check_health.hpp"
#include "validation/check_identity.hpp"

namespace advisor::validation {

namespace {

Status status_of_line(const std::string& s) {
  return s == "FAIL" ? Status::fail : s == "WARN" ? Status::warn : Status::pass;
}

Area area_of_line(const std::string& a) {
  if (a == "memory") return Area::memory;
  if (a == "interconnect") return Area::interconnect;
  if (a == "compute" || a == "software") return Area::compute;
  return Area::power;  // power, health
}

/// Script codes whose read-back item has another name (the item sums several lines).
const std::map<std::string, std::string>& item_code_of_line() {
  static const std::map<std::string, std::string> same = {{"pcie_gen_low", "pcie_link_low"},
                                                          {"pcie_width_low", "pcie_link_low"},
                                                          {"gpu_missing", "gpu_missing_in_log"}};
  return same;
}

bool reported(const CheckReport& r, const std::string& code, Status at_least) {
  const auto alias = item_code_of_line().find(code);
  for (const CheckItem& i : r.items) {
    const bool same = i.reason.code == code ||
                      (alias != item_code_of_line().end() && i.reason.code == alias->second);
    if (same && i.status >= at_least) return true;
  }
  return false;
}

/// Every FAIL or WARN line the scripts printed that no read-back item reports under its code (at
/// least as severe) becomes an item of its own, one per line (GPU 1 and GPU 3 each). The verdict is
/// then the scripts' rule, the one 90_summary.sh exits by: the server fails when any line FAILs.
void script_line_items(const Measurements& m, CheckReport& r, items::Builder& b) {
  for (const ScriptCheck& c : m.script_checks) {
    const Status st = status_of_line(c.status);
    if (st == Status::pass || reported(r, c.code, st)) continue;
    std::string message = c.script + ": " + c.check + ": expected " + c.expected + ", measured " +
                          c.measured + (c.detail.empty() ? "" : " (" + c.detail + ")");
    b.add(area_of_line(c.area), c.check, st,
          {"script_line",
           {{"script", c.script},
            {"check", c.check},
            {"expected", c.expected},
            {"measured", c.measured},
            {"detail", c.detail},
            {"line_code", c.code}},
           std::move(message)});
  }
}

/// The stages every plan's scripts run, in order, and the area of each one's results.
struct Stage {
  const char* name;
  Area area;
};
constexpr std::array<Stage, 5> kStages = {{{"00_inventory", Area::memory},
                                           {"10_topology", Area::interconnect},
                                           {"20_container", Area::compute},
                                           {"30_nccl", Area::interconnect},
                                           {"40_burnin", Area::power}}};

/// A stage that should have run and left nothing in the result file FAILs, located at the file's
/// stage list: a missing result must never read as a pass. A burn-in still running or stopped
/// early has its own item (burnin_running, burnin_incomplete), which says more.
void missing_stage_items(const Measurements& m, const CheckReport& r, items::Builder& b) {
  if (!m.stages_listed) return;  // a raw CSV holds one stage by design
  const std::string file = m.file_name.empty() ? "validation-result.json" : m.file_name;
  for (const Stage& st : kStages) {
    const std::string name = st.name;
    if (std::find(m.stages_run.begin(), m.stages_run.end(), name) != m.stages_run.end()) continue;
    if (name == "40_burnin" &&
        (reported(r, "burnin_incomplete", Status::fail) ||
         std::any_of(m.script_checks.begin(), m.script_checks.end(), [](const ScriptCheck& c) {
           return c.code == "burnin_running" || c.code == "burnin_incomplete";
         })))
      continue;
    b.add(st.area, name, Status::fail,
          {"stage_missing",
           {{"stage", name}, {"file", file}},
           name + " left no results in " + file + " (/" + file + "/scripts): run ./" + name +
               ".sh on this server, then 90_summary.sh again"});
  }
}

}  // namespace

void require_same_plan(const ValidationPlan& plan, const Measurements& m) {
  const std::string base =
      "/" + (m.file_name.empty() ? std::string("validation-result.json") : m.file_name);
  ADVISOR_REQUIRE_OR_RETURN(m.gpu_id.empty() || m.gpu_id == plan.gpu_id, "other_plan",
                            base + "/gpu_id",
                            m.file_name + " checked " + m.gpu_id + " GPUs, this plan has " +
                                plan.gpu_id + ": it belongs to another plan");
  const std::string id = plan_id(plan);
  if (!m.plan_id.empty() && m.plan_id != id)
    report_problem(
        "other_plan", base + "/plan_id",
        m.file_name + " was written by the scripts of plan " + m.plan_id + ", not this plan (" +
            id + "): regenerate the scripts for this plan, or check it against its own request");
}

CheckReport check_measurements(const ValidationPlan& plan, const Measurements& m,
                               const CostInputs& cost) {
  CheckReport r;
  r.plan_id = plan_id(plan);
  r.file_name = m.file_name;
  r.script_checks = m.script_checks;
  items::Builder b(r);
  items::memory_items(plan, m, b);
  items::identity_items(plan, m, b);
  items::interconnect_items(plan, m, b);
  items::compute_items(plan, m, b);
  items::power_items(plan, m, b);
  items::straggler_item(m, b);
  items::burnin_window_item(plan, m, b);
  items::cost_items(plan, m, cost, b);
  missing_stage_items(m, r, b);
  script_line_items(m, r, b);
  // The source's order, memory first (a script line joins its area's items).
  std::stable_sort(r.items.begin(), r.items.end(),
                   [](const CheckItem& x, const CheckItem& y) { return x.area < y.area; });
  for (const auto& i : r.items) {
    if (i.status == Status::pass) ++r.passed;
    if (i.status == Status::warn) ++r.warned;
    if (i.status == Status::fail) ++r.failed;
  }
  r.overall = r.failed ? Status::fail : r.warned ? Status::warn : Status::pass;
  return r;
}

const char* to_string(Area a) {
  switch (a) {
    case Area::memory:
      return "memory";
    case Area::interconnect:
      return "interconnect";
    case Area::compute:
      return "compute";
    case Area::power:
      return "power";
    case Area::cost:
      return "cost";
  }
  return "memory";
}

const char* to_string(Status s) {
  switch (s) {
    case Status::pass:
      return "pass";
    case Status::warn:
      return "warn";
    case Status::fail:
      return "fail";
  }
  return "pass";
}

}  // namespace advisor::validation
