// SPDX-License-Identifier: MIT
// nvidia-smi CSV logs -> per-GPU burn-in statistics (the same definitions as 40_burnin.sh).
#pragma once
#include <string>

#include "validation/measurements.hpp"

namespace advisor::validation {

/// Summarises an nvidia-smi CSV log (`--query-gpu=... --format=csv[,nounits]`, recognised by
/// its header: a `timestamp` and an `index` column) into per-GPU GpuPowerStats. Required
/// columns: index, power.draw. Reports the first problem (empty Measurements then), located,
/// `file` being the name shown: "/gpu.csv/header" (csv_not_nvidia_smi, csv_missing_column,
/// csv_wrong_unit),
/// "/gpu.csv/row 812/power.draw" (csv_truncated, csv_bad_value, csv_wrong_unit); rows count
/// file lines from 1 (the header).
Measurements summarize_gpu_csv(const std::string& text, const std::string& file = "gpu.csv");

/// True when `text` starts like an nvidia-smi CSV log (header with timestamp and index).
bool looks_like_gpu_csv(const std::string& text);

}  // namespace advisor::validation
