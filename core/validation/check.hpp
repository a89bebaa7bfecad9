// SPDX-License-Identifier: MIT
// Read-back: measured (Measurements) against planned (ValidationPlan), item by item in the
// source's order: memory, interconnect, compute, power, cost. Pure: no I/O.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "validation/measurements.hpp"
#include "validation/plan.hpp"
#include "validation/reason.hpp"

namespace advisor::validation {

enum class Area { memory, interconnect, compute, power, cost };
enum class Status { pass, warn, fail };

struct CheckItem {
  Area area = Area::memory;
  std::string item;  // stable id: "gpu_count", "nvlink", "allreduce_busbw", ...
  Status status = Status::pass;
  std::optional<double> expected;   // in `unit`
  std::optional<double> measured;   // in `unit`
  std::string unit;                 // "GPUs", "MiB", "GiB", "GB/s", "TFLOPS", "W", "%", currency
  std::optional<double> deviation;  // (measured - expected) / expected
  Reason reason;                    // "ok" when it passed; else what to do
};

/// Inputs for the cost item: the run's price and planned GPU-hours.
struct CostInputs {
  std::optional<double> price_per_gpu_hour;  // in `currency` per GPU-hour
  std::string currency = "CNY";
  std::optional<double> planned_gpu_hours;  // GPU-hours the plan predicts for the run
};

struct CheckReport {
  std::string plan_id;
  std::string file_name;
  std::vector<CheckItem> items;   // memory, interconnect, compute, power, cost
  Status overall = Status::pass;  // the worst item
  int passed = 0, warned = 0, failed = 0;
  std::vector<ScriptCheck> script_checks;  // the scripts' own lines, as they printed them
};

/// Compares; items whose measurement is absent are left out (a raw gpu.csv yields power items
/// only). Thresholds: busbw PASS >= 80% of plan, WARN >= 60%; GEMM PASS >= 90% of peak x
/// fraction, WARN >= 75%; tokens/s within +-15%; throttling <= 1% of samples (power cap 10%).
CheckReport check_measurements(const ValidationPlan& plan, const Measurements& measured,
                               const CostInputs& cost = {});

/// Reports "other_plan" ("/<file>/plan_id" or "/<file>/gpu_id") when a result file was written
/// by another plan's scripts. Raw CSV logs (no plan id) pass.
void require_same_plan(const ValidationPlan& plan, const Measurements& measured);

/// One server's report in a cluster's check: the host its result file names ("" for a raw CSV).
struct ServerReport {
  std::string host;
  CheckReport report;
};

/// The verdict of a cluster from one result file per server (check_servers).
struct ClusterReport {
  std::string plan_id;
  int servers_expected = 0;           // the plan's servers
  std::vector<ServerReport> servers;  // in the order the files were given
  std::vector<CheckItem> items;       // about the set of files: server_missing, server_duplicate,
                                      // server_extra, inter_node_not_measured
  Status overall = Status::pass;      // the worst server report or item
  int servers_passed = 0, servers_warned = 0, servers_failed = 0;
};

/// Checks each server's result file against the plan (check_measurements) and merges them into one
/// verdict: a server of the plan without a file FAILs (server_missing), two files naming one host
/// FAIL (server_duplicate: one server counted twice), more files than the plan's servers WARN
/// (server_extra), and on a multi-server plan a set of result files none of which has the
/// cross-server all-reduce FAILs (inter_node_not_measured: 30_nccl.sh with MASTER_ADDR and
/// NODE_RANK on every server at once; server 0 measures it).
ClusterReport check_servers(const ValidationPlan& plan, const std::vector<Measurements>& files,
                            const CostInputs& cost = {});

const char* to_string(Area area);
const char* to_string(Status status);

}  // namespace advisor::validation
