// SPDX-License-Identifier: MIT
// API v1 for the validation scripts: text in, text out (bad input answered by the error
// envelope), plus the typed bundle the CLI writes to disk. The plan comes from the request on the
// same catalog (and provider) as its advice; without pinned hardware, from the recommended plan.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "api.hpp"
#include "validation/plan.hpp"
#include "validation/scripts.hpp"

namespace advisor {

struct ValidationBundle {
  validation::ValidationPlan plan;
  std::vector<validation::ScriptFile> files;
};

/// The scripts for the request's plan on `catalog` (the one its advice was given on). Reports
/// (located) bad input or a GPU the scripts cannot check, and returns no files then: call it
/// with a ProblemScope open (guarded, in_own_scope).
ValidationBundle validation_bundle(const std::string& request_text, const Catalog& catalog);

/// {"plan_id", "ngc": {...}, "files": [{"name", "text", "executable", "purpose", "root"}]} or the
/// error envelope, for the plan advise() gives on the same `source`.
std::string validation_scripts_text(const std::string& request_text, const DataSource& source = {},
                                    bool* ok = nullptr);

/// Reads a validation-result.json or a raw nvidia-smi CSV (`file_name` tells which in messages)
/// and compares it with the request's plan on `source`: the check report, or the error envelope.
/// `failed` (optional): set when any check failed.
std::string validation_check_text(const std::string& request_text, const std::string& file_text,
                                  const std::string& file_name, const DataSource& source = {},
                                  bool* ok = nullptr, bool* failed = nullptr);

/// A cluster's files, one per server ({file name, text}): each server's report and one verdict
/// (validation::check_servers; a server of the plan without a file FAILs), or the error envelope.
std::string validation_check_servers_text(
    const std::string& request_text,
    const std::vector<std::pair<std::string, std::string>>& named_files,
    const DataSource& source = {}, bool* ok = nullptr, bool* failed = nullptr);

}  // namespace advisor
