// SPDX-License-Identifier: MIT
// Capacity planning from a job history: names matched to catalog parts, cards by hours and by
// the widest job, whole servers, what the average month costs bought, rented or reserved, and
// the months the hybrid plan prices.
#include "plan/capacity_results.hpp"

#include <algorithm>
#include <map>

#include "engine/cost_scenario.hpp"
#include "plan/gpu_names.hpp"
#include "types/checked.hpp"
#include "types/errors.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

std::optional<double> as_double(const std::optional<int>& v) {
  return v ? std::optional<double>(*v) : std::nullopt;
}

/// Resolves each job's GPU name to a catalog id (unknown names are located errors naming the
/// close matches), so "A800" and "a800-sxm-80gb" count as one type.
std::vector<JobRow> jobs_by_catalog_id(
    const std::vector<JobRow>& jobs, const Catalog& catalog,
    std::map<std::string, std::vector<std::string>>* names,
    std::map<std::string, std::vector<std::string>>* alternatives) {
  std::vector<JobRow> out = jobs;
  for (JobRow& j : out) {
    const GpuNameMatch m = match_gpu_name(j.gpu_type, catalog);
    if (!m.gpu) {
      std::string close;
      for (const std::string& id : close_gpu_names(j.gpu_type, catalog))
        close += (close.empty() ? "" : ", ") + id;
      return report_problem("unknown_gpu", j.gpu_type_path,
                            j.gpu_type_path + " " + in_quotes(j.gpu_type) +
                                " is not a GPU in the catalog; close matches: " + close);
    }
    std::vector<std::string>& seen = (*names)[m.gpu->id];
    if (std::find(seen.begin(), seen.end(), j.gpu_type) == seen.end()) seen.push_back(j.gpu_type);
    std::vector<std::string>& alt = (*alternatives)[m.gpu->id];
    for (const GpuSpec* a : m.alternatives)
      if (std::find(alt.begin(), alt.end(), a->id) == alt.end()) alt.push_back(a->id);
    j.gpu_type = m.gpu->id;
  }
  return out;
}

}  // namespace

CapacityResult plan_capacity_section(const CostRequest& rq, const PriceCatalog& pc,
                                     const Catalog& catalog) {
  const CapacitySettings& c = rq.capacity;
  CapacityResult out;
  Recorder rec(&out.defaults_used, pc, std::nullopt);
  CapacityInputs& in = out.inputs;
  std::map<std::string, std::vector<std::string>> names, alternatives;
  in.jobs = jobs_by_catalog_id(c.jobs, catalog, &names, &alternatives);
  if (problem_reported()) return out;
  in.months = c.dated ? 0
                      : checked_int(rec.take(pc.at("planning.capacity_months"), as_double(c.months),
                                             "/capacity/months"),
                                    "/capacity/months", "the months of the window", 1);
  in.target_utilization = rec.take(pc.at("planning.capacity_target_utilization"),
                                   c.target_utilization, "/capacity/target_utilization");
  in.buffer = rec.take(pc.at("planning.capacity_buffer"), c.buffer, "/capacity/buffer");
  in.jobs_path = c.path;
  if (c.target_utilization) in.target_utilization_path = "/capacity/target_utilization";
  out.plan = plan_capacity(in);
  out.jobs = c.jobs.size();
  for (const CapacityByType& t : out.plan.by_type) {
    CapacityTypeRow row;
    row.type = t;
    row.catalog_gpu = t.gpu_type;
    row.names = names[t.gpu_type];
    row.alternatives = alternatives[t.gpu_type];
    const GpuSpec& gpu = *catalog.find_gpu(t.gpu_type);
    // Whole servers once the cards outgrow one (a 20-card need on 8-GPU servers buys 24).
    row.gpus_per_server = gpus_per_server(rq, pc, gpu, false);
    row.cards_to_buy = t.cards_needed <= row.gpus_per_server
                           ? t.cards_needed
                           : (t.cards_needed + row.gpus_per_server - 1) / row.gpus_per_server *
                                 row.gpus_per_server;
    row.servers = (row.cards_to_buy + row.gpus_per_server - 1) / row.gpus_per_server;
    if (row.cards_to_buy > 0) {
      const CostScenario s =
          resolve_scenario(rq, pc, gpu, row.cards_to_buy, false, rq.cost.site, false);
      // The jobs of a history rent host by host (each within one host) at the hourly price.
      if (s.market.host_cny_per_gpu_hour)
        row.rent_cny_per_month = t.average_monthly_gpu_hours * *s.market.host_cny_per_gpu_hour;
      if (s.market.host_cny_per_gpu_month)
        row.reserved_cny_per_month = row.cards_to_buy * *s.market.host_cny_per_gpu_month;
      if (s.gpu_price_cny) {
        const double busy =
            std::min(1.0, t.average_monthly_gpu_hours / (row.cards_to_buy * kHoursPerMonth));
        row.buy_cny_per_month = buy_totals(s, row.cards_to_buy, busy).average_yearly_cny / 12;
      }
      double best = 0;
      for (const auto& [name, v] :
           {std::pair<const char*, std::optional<double>>{"buy", row.buy_cny_per_month},
            {"rent", row.rent_cny_per_month},
            {"rent_reserved", row.reserved_cny_per_month}}) {
        if (v && (!row.cheapest || *v < best)) {
          row.cheapest = name;
          best = *v;
        }
      }
    }
    out.by_gpu_type.push_back(std::move(row));
  }
  return out;
}

/// The costed GPU's months from a dated job history, as a year (each calendar month the mean of
/// its occurrences; months the history does not cover take the history's monthly mean).
std::optional<std::array<double, 12>> demand_from_capacity(const CapacityResult& capacity,
                                                           const std::string& gpu_id) {
  if (!capacity.plan.dated) return std::nullopt;
  for (const CapacityTypeRow& row : capacity.by_gpu_type) {
    if (row.type.gpu_type != gpu_id || row.type.monthly.empty()) continue;
    std::array<double, 12> sum{}, seen{};
    for (const MonthHours& m : row.type.monthly) {
      const int month = std::stoi(m.month.substr(5, 2)) - 1;
      sum[month] += m.gpu_hours;
      seen[month] += 1;
    }
    std::array<double, 12> year{};
    for (int i = 0; i < 12; ++i)
      year[i] = seen[i] > 0 ? sum[i] / seen[i] : row.type.average_monthly_gpu_hours;
    return year;
  }
  return std::nullopt;
}

}  // namespace advisor
