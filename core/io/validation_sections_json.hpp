// SPDX-License-Identifier: MIT
// The sections of a validation-result.json besides "measured": the scripts' own lines ("checks")
// and DCGM's diagnostics as `dcgmi diag -r N -j` printed them ("dcgm", kept by 40_burnin.sh --dcgm
// and put into the file by 90_summary.sh).
#pragma once
#include <string>
#include <vector>

#include "io/json_value.hpp"
#include "validation/measurements.hpp"

namespace advisor::validation {

/// The lines of the file's "checks" array (DOC is the whole file; BASE its path, "/<file>"), as
/// the scripts printed them; members of the wrong type are reported, located.
std::vector<ScriptCheck> read_script_checks(const JsonValue& doc, const std::string& base);

/// The tests of one `dcgmi diag -j` document, in its order. Reads both layouts: DCGM 3
/// ({"DCGM GPU Diagnostic": {"test_categories": [{"category", "tests": [{"name", "results":
/// [{"gpu_ids", "status", "warnings": [{"warning", "error_id"}]}]}]}], "version"}}) and DCGM 4
/// ("DCGM Diagnostic", the tests at its top). A status is lowered to pass, fail, warn or skip
/// (anything else, "not run" included, is kept lowered). Reports "bad_value" at PATH (and returns
/// no tests) when DOC is not a DCGM document.
std::vector<DcgmTestResult> read_dcgm_json(const JsonValue& doc, const std::string& path);

}  // namespace advisor::validation
