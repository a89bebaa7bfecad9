// SPDX-License-Identifier: MIT
// Validation scripts generated from a ValidationPlan: pure text in, text out (no I/O).
#pragma once
#include <string>
#include <vector>

#include "validation/plan.hpp"

namespace advisor::validation {

struct ScriptFile {
  std::string name;        // "00_inventory.sh"
  std::string text;        // the whole file
  bool executable = true;  // false for the Python probes and README.txt
  std::string purpose;     // one line: what it checks
  std::string root;        // where it needs root ("" = none)
};

/// The scripts for `plan`, in run order:
///   00_inventory.sh  10_topology.sh  20_container.sh  30_nccl.sh  40_burnin.sh  90_summary.sh
/// then the files they use: probe.py, allreduce.py, burn.py (run inside the NGC container) and
/// README.txt. Each shell script starts with the plan's expected values, runs under
/// `set -euo pipefail`, prints PASS/WARN/FAIL/SKIP lines with expected vs measured, writes
/// $VALIDATION_DIR/<script>.checks.tsv and .measured.tsv, and exits 1 when anything FAILed.
/// None, after reporting "validation_invalid", when the plan is inconsistent (validate_plan).
std::vector<ScriptFile> generate_scripts(const ValidationPlan& plan);

/// `value` as one shell word: bare when safe, else single-quoted.
std::string shell_quote(const std::string& value);

}  // namespace advisor::validation
