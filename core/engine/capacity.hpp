// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

namespace advisor {

/// One job from the history: `gpus` cards for `hours` wall-clock hours.
struct JobRow {
  std::string job;
  std::string gpu_type;
  double gpus = 0;
  double hours = 0;
  std::string month;          // "YYYY-MM", or "" when the history has no dates
  std::string gpu_type_path;  // where the history names the type (for located errors)
};

struct CapacityInputs {
  std::vector<JobRow> jobs;
  int months = 3;                   // window when the rows carry no month
  double target_utilization = 1.0;  // share of a card's hours it is planned to be busy
  double buffer = 0.3;              // reserve on top (the source: 30%)
  double hours_per_month = 730;     // 8760 / 12
  // Where the inputs came from, for errors: the job history (/capacity/jobs_csv or
  // /capacity/jobs) and, when the user set it, the target utilisation.
  std::string jobs_path = "/capacity/jobs_csv";
  std::string target_utilization_path;
};

struct MonthHours {
  std::string month;
  double gpu_hours = 0;
};

struct CapacityByType {
  std::string gpu_type;
  double gpu_hours_total = 0;
  std::vector<MonthHours> monthly;  // dated histories only, every month of the window
  double average_monthly_gpu_hours = 0;
  double peak_monthly_gpu_hours = 0;
  double widest_job_gpus = 0;       // the most cards one job runs on at once
  int cards_needed = 0;             // from the average month, at least the widest job
  int cards_needed_for_peak = 0;    // from the busiest month, at least the widest job
  double expected_utilization = 0;  // average month / (cards_needed x hours per month)
};

struct CapacityPlan {
  int months = 0;
  bool dated = false;
  std::string first_month, last_month;  // dated histories only
  std::vector<CapacityByType> by_type;  // in order of first appearance
  double gpu_hours_total = 0;
};

/// GPU-hours per month per GPU type and the cards needed:
///   cards = max(ceil(monthly GPU-hours x (1 + buffer) / (hours_per_month x target_utilization)),
///               the widest job's GPUs)  -- a 64-GPU job needs 64 cards at once.
/// With months in the rows, the window runs from the first to the last month (empty months
/// count as zero); without, it is `months` long.
CapacityPlan plan_capacity(const CapacityInputs& inputs);

/// Months from `first` to `last` inclusive ("2026-01".."2026-03" -> 3); both "YYYY-MM".
int months_between(const std::string& first, const std::string& last);

}  // namespace advisor
