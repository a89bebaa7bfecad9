// SPDX-License-Identifier: MIT
#include "engine/capacity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "types/checked.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

int month_index(const std::string& ym) {  // "YYYY-MM" -> months since year 0
  return std::stoi(ym.substr(0, 4)) * 12 + std::stoi(ym.substr(5, 2)) - 1;
}

std::string month_name(int index) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d", index / 12, index % 12 + 1);
  return buffer;
}

int cards_for(double monthly_gpu_hours, const CapacityInputs& in, const std::string& type) {
  const double cards =
      monthly_gpu_hours * (1 + in.buffer) / (in.hours_per_month * in.target_utilization);
  // A low target utilisation the user set is the cause when full use would stay in bounds.
  const bool by_target = !in.target_utilization_path.empty() &&
                         cards * in.target_utilization <= double(limits::kMaxUnits);
  // Guard the ceiling against representation noise (2.0000000000000004 is 2 cards).
  return checked_int(std::ceil(cards - 1e-9), by_target ? in.target_utilization_path : in.jobs_path,
                     "the cards needed for " + in_quotes(type), 0,
                     static_cast<int>(limits::kMaxUnits));
}

}  // namespace

int months_between(const std::string& first, const std::string& last) {
  return month_index(last) - month_index(first) + 1;
}

CapacityPlan plan_capacity(const CapacityInputs& in) {
  CapacityPlan plan;
  plan.dated = !in.jobs.empty() && !in.jobs.front().month.empty();
  int first = 0, last = 0;
  if (plan.dated) {
    first = last = month_index(in.jobs.front().month);
    for (const JobRow& j : in.jobs) {
      first = std::min(first, month_index(j.month));
      last = std::max(last, month_index(j.month));
    }
    plan.months = last - first + 1;
    plan.first_month = month_name(first);
    plan.last_month = month_name(last);
  } else {
    plan.months = in.months;
  }
  // The readers bound the window (limits::kMaxMonthsSpanned); the result lists each month.
  ADVISOR_REQUIRE(plan.months >= 1 && plan.months <= limits::kMaxMonthsSpanned, "limit_exceeded",
                  in.jobs_path,
                  in.jobs_path + " spans " + std::to_string(plan.months) +
                      " months; the limit is " + std::to_string(limits::kMaxMonthsSpanned));

  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> hours;  // type -> per month (or one bucket)
  std::map<std::string, double> widest;              // type -> most GPUs of one job
  for (const JobRow& j : in.jobs) {
    auto it = hours.find(j.gpu_type);
    if (it == hours.end()) {
      order.push_back(j.gpu_type);
      it = hours.emplace(j.gpu_type, std::vector<double>(plan.dated ? plan.months : 1, 0.0)).first;
    }
    const std::size_t bucket =
        plan.dated ? static_cast<std::size_t>(month_index(j.month) - first) : 0;
    it->second[bucket] += j.gpus * j.hours;
    widest[j.gpu_type] = std::max(widest[j.gpu_type], j.gpus);
  }

  for (const std::string& type : order) {
    const std::vector<double>& h = hours[type];
    CapacityByType t;
    t.gpu_type = type;
    for (double v : h) t.gpu_hours_total += v;
    t.average_monthly_gpu_hours = t.gpu_hours_total / plan.months;
    if (plan.dated) {
      for (std::size_t m = 0; m < h.size(); ++m) {
        t.monthly.push_back({month_name(first + static_cast<int>(m)), h[m]});
        t.peak_monthly_gpu_hours = std::max(t.peak_monthly_gpu_hours, h[m]);
      }
    } else {
      t.peak_monthly_gpu_hours = t.average_monthly_gpu_hours;  // no dates: no known peak
    }
    t.widest_job_gpus = widest[type];
    const int widest_cards = static_cast<int>(std::ceil(t.widest_job_gpus - 1e-9));
    t.cards_needed = std::max(cards_for(t.average_monthly_gpu_hours, in, type), widest_cards);
    t.cards_needed_for_peak = std::max(cards_for(t.peak_monthly_gpu_hours, in, type), widest_cards);
    t.expected_utilization =
        t.cards_needed > 0 ? t.average_monthly_gpu_hours / (t.cards_needed * in.hours_per_month)
                           : 0;
    plan.gpu_hours_total += t.gpu_hours_total;
    plan.by_type.push_back(t);
  }
  return plan;
}

}  // namespace advisor
