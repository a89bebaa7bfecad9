// SPDX-License-Identifier: MIT
// The check's items about what the burn-in's own load and DCGM's diagnostics reported: each GPU's
// GEMM rate against its server's median (stragglers) and dcgmi diag's tests (internal to
// core/validation; check.cpp and check_health.cpp call them).
#pragma once
#include "validation/check_builder.hpp"

namespace advisor::validation::items {

/// Each GPU's GEMM rate under the burn-in (gpu.<i>.burn_tflops) against the median GPU's: a GPU
/// below kStragglerFailFraction of it FAILs (burn_straggler), naming the slowest. No rates (the
/// user's own --job, an older file): no item.
void straggler_item(const Measurements& m, Builder& b);

/// The cross-server burn-in window (40_burnin.sh on every server at once): the slowest window's
/// all-reduce bus bandwidth against the plan's cross-server figure, as 30_nccl.sh judges it (>= 80%
/// PASS, >= 60% WARN, below FAIL: burnin_busbw_low). Not run across servers: no item.
void burnin_window_item(const ValidationPlan& p, const Measurements& m, Builder& b);

/// dcgmi diag (40_burnin.sh --dcgm). With its JSON in the file ("dcgm"), each test's own status:
/// any failed test FAILs dcgm_diag_failed naming the test and its GPUs, a warning WARNs, a run
/// whose every test skipped FAILs dcgm_diag_error. Without it, the script's verdict (dcgm_diag).
/// Asked for and not run is not a pass: an unreachable host engine or a missing dcgmi FAILs.
void dcgm_item(const Measurements& m, Builder& b);

}  // namespace advisor::validation::items
