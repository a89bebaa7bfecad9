// SPDX-License-Identifier: MIT
// Plan -> result JSON (API v1, docs/api.md): the only writer of result keys. Every number is
// checked finite on the way out.
#include "io/plan_json.hpp"

#include <cmath>
#include <stdexcept>

#include "io/model_json.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {

using nlohmann::json;

/// A finite number, or null (a guard: every figure is finite for valid input).
json num(double v) { return std::isfinite(v) ? json(v) : json(); }
json num(const std::optional<double>& v) { return v ? num(*v) : json(); }
json bytes(double value) { return static_cast<std::int64_t>(std::llround(value)); }
json str(const std::optional<std::string>& v) { return v ? json(*v) : json(); }

bool all_finite(const json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_structured()) {
    for (const auto& v : j)
      if (!all_finite(v)) return false;
  }
  return true;
}

/// The result must never carry NaN or infinity: fail loudly, naming where.
void require_finite(const json& j, const std::string& path) {
  if (all_finite(j)) return;
  if (j.is_number_float()) throw std::runtime_error("internal error: non-finite value at " + path);
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) require_finite(*it, path + "/" + it.key());
  } else {
    for (std::size_t i = 0; i < j.size(); ++i) require_finite(j[i], path + "/" + std::to_string(i));
  }
}

json layout_json(const Layout& L, const std::optional<std::string>& gpu) {
  return {{"gpu", str(gpu)}, {"count", L.count}, {"tp", L.tp},       {"pp", L.pp},
          {"dp", L.dp},      {"ep", L.ep},       {"zero", L.zero},
          {"servers", L.servers()}};
}

json model_json(const ModelResult& m) {
  json j = arch_to_json(m.arch);
  j["input"] = m.input;
  j["params"] = {{"total", m.params.total},
                 {"active", m.params.active},
                 {"trainable", m.trainable_params},
                 {"published_total_b", num(m.published_total_b)}};
  return j;
}

json memory_json(const MemoryResult& m) {
  const MemoryEstimate& e = m.estimate;
  json j;
  j["per_gpu_bytes"] = bytes(e.total());
  j["breakdown_bytes"] = {{"weights", bytes(e.weights)},         {"gradients", bytes(e.gradients)},
                          {"optimizer", bytes(e.optimizer)},     {"activations", bytes(e.activations)},
                          {"kv_cache", bytes(e.kv_cache)},       {"overhead", bytes(e.overhead)}};
  j["band_bytes"] = {{"low", bytes(e.band_low)}, {"high", bytes(e.band_high)}};
  j["host_ram_per_server_bytes"] = bytes(e.host_ram_per_node);
  j["params_per_gpu"] = e.params_on_gpu;
  j["pipeline_stage"] = e.heaviest_stage;
  j["layout"] = layout_json(m.layout, m.gpu);
  json assumptions = json::array();
  for (const MemoryAssumption& a : e.assumptions)
    assumptions.push_back({{"term", a.term}, {"text", a.text}});
  j["assumptions"] = std::move(assumptions);
  j["fits"] = m.fits ? json(*m.fits) : json();
  j["gpu_memory_bytes"] = m.gpu_memory_bytes ? bytes(*m.gpu_memory_bytes) : json();
  if (m.headroom_bytes) j["headroom_bytes"] = bytes(*m.headroom_bytes);
  return j;
}

json training_summary(const TrainingPerf& t) {
  if (!t.available) return nullptr;
  return {{"tokens_per_second", num(t.tokens_per_second)},
          {"mfu", num(t.mfu)},
          {"hours", num(t.hours)},
          {"gpu_hours", num(t.gpu_hours)},
          {"step_time_s", num(t.step_time_s)}};
}

json inference_summary(const InferencePerf& p) {
  return {{"decode_tokens_per_second", num(p.decode_tokens_per_second)},
          {"per_user_tokens_per_second", num(p.per_user_tokens_per_second)},
          {"time_to_first_token_s", num(p.time_to_first_token_s)},
          {"max_concurrency", p.max_concurrency}};
}

json scaling_json(const std::vector<ScalingPoint>& curve) {
  json out = json::array();
  for (const ScalingPoint& p : curve) {
    out.push_back({{"gpus", p.gpus}, {"link", p.link}, {"fits", p.fits}, {"tp", p.tp},
                   {"pp", p.pp}, {"dp", p.dp}, {"hours", num(p.hours)},
                   {"tokens_per_second", num(p.tokens_per_second)}, {"mfu", num(p.mfu)}});
  }
  return out;
}

json training_json(const TrainingResult& r) {
  if (!r.perf) {
    return {{"tokens_per_second", nullptr}, {"mfu", nullptr},
            {"hours", nullptr},             {"gpu_hours", nullptr},
            {"step_time_s", nullptr},       {"breakdown", nullptr},
            {"tokens", num(r.tokens)},      {"gpu", str(r.gpu)},
            {"scaling_curve", scaling_json(r.scaling_curve)},
            {"assumptions", r.assumptions}};
  }
  const TrainingPerf& t = *r.perf;
  json j = training_summary(t);
  j["tokens"] = num(r.tokens);
  j["gpu"] = str(r.gpu);
  j["breakdown"] = {{"compute_s", num(t.compute_s)},
                    {"exposed_communication_s", num(t.exposed_communication_s)},
                    {"pipeline_bubble_s", num(t.pipeline_bubble_s)},
                    {"dequantization_s", num(t.dequantization_s)},
                    {"optimizer_s", num(t.optimizer_s)}};
  j["communication"] = {{"data_parallel_s", num(t.data_parallel_s)},
                        {"data_parallel_exposed_s", num(t.data_parallel_exposed_s)},
                        {"tensor_parallel_s", num(t.tensor_parallel_s)},
                        {"pipeline_p2p_s", num(t.pipeline_p2p_s)},
                        {"expert_parallel_s", num(t.expert_parallel_s)}};
  j["global_batch_size"] = t.global_batch;
  j["microbatches_per_step"] = t.microbatches;
  j["tokens_per_step"] = num(t.tokens_per_step);
  j["flops_per_token"] = {{"model", num(t.flops.model)}, {"hardware", num(t.flops.hardware)}};
  j["achieved_tflops_per_gpu"] = num(t.achieved_tflops_per_gpu);
  j["peak_tflops"] = num(t.peak_tflops);
  j["matmul_fraction"] = num(t.matmul_fraction);
  j["storage_read_gbps_needed"] = num(t.storage_read_gbps_needed);
  j["storage_read_gbps"] = num(r.storage_read_gbps);
  j["assumptions"] = r.assumptions;
  j["scaling_curve"] = scaling_json(r.scaling_curve);
  return j;
}

json concurrency_json(const std::vector<ConcurrencyPoint>& curve) {
  json out = json::array();
  for (const ConcurrencyPoint& c : curve) {
    out.push_back({{"concurrency", c.concurrency},
                   {"decode_tokens_per_second", num(c.decode_tokens_per_second)},
                   {"per_user_tokens_per_second", num(c.per_user_tokens_per_second)},
                   {"fits", c.fits}});
  }
  return out;
}

json serving_json(const ServingResult& r) {
  if (!r.perf) {
    return {{"decode_tokens_per_second", nullptr},
            {"per_user_tokens_per_second", nullptr},
            {"time_to_first_token_s", nullptr},
            {"max_concurrency", nullptr},
            {"gpus_needed", nullptr},
            {"gpu", str(r.gpu)},
            {"concurrency_curve", concurrency_json(r.concurrency_curve)},
            {"assumptions", r.assumptions}};
  }
  const InferencePerf& p = *r.perf;
  json j = inference_summary(p);
  j["gpu"] = str(r.gpu);
  if (r.fleet) {
    j["gpus_needed"] = r.fleet->gpus_needed;
    j["replicas"] = r.fleet->replicas;
    j["users_per_replica"] = r.fleet->users_per_replica;
    j["replica_layout"] = {{"count", r.fleet->replica.count},
                           {"tp", r.fleet->replica.tp},
                           {"pp", r.fleet->replica.pp}};
  } else {
    j["gpus_needed"] = nullptr;
    j["replicas"] = nullptr;
    j["users_per_replica"] = nullptr;
    j["replica_layout"] = nullptr;
  }
  j["decode_step_s"] = num(p.step.step_s);
  j["decode_breakdown"] = {{"memory_s", num(p.step.memory_s)},
                           {"compute_s", num(p.step.compute_s)},
                           {"communication_s", num(p.step.communication_s)},
                           {"weight_bytes", num(p.step.weight_bytes)},
                           {"kv_cache_bytes", num(p.step.kv_bytes)}};
  j["bandwidth_bound"] = p.bandwidth_bound;
  j["batch_prefill_s"] = num(p.batch_prefill_s);
  j["sustained_output_tokens_per_second"] = num(p.sustained_output_tokens_per_second);
  j["kv_cache"] = {{"budget_bytes", num(p.kv_budget_bytes)},
                   {"bytes_per_token", num(p.kv_bytes_per_token)},
                   {"max_model_len", p.max_model_len},
                   {"gpu_memory_utilization", r.gpu_memory_utilization}};
  j["assumptions"] = r.assumptions;
  j["concurrency_curve"] = concurrency_json(r.concurrency_curve);
  return j;
}

json interconnect_json(const std::optional<InterconnectResult>& r) {
  if (!r) {
    return {{"allreduce_bus_bandwidth_gbps", nullptr}, {"intra_node", nullptr},
            {"inter_node", nullptr}};
  }
  json j;
  j["gpu"] = r->gpu;
  j["allreduce_bus_bandwidth_gbps"] = num(r->allreduce_bus_bandwidth_gbps);
  const IntraNodeLink& a = r->intra_node;
  j["intra_node"] = {{"kind", a.kind},
                     {"description", a.description},
                     {"gpus", a.gpus},
                     {"busbw_gbps", num(a.busbw_gbps)},
                     {"link_gbps_per_direction", num(a.link_gbps_per_direction)}};
  const InterNodeLink& b = r->inter_node;
  j["inter_node"] = {{"kind", b.kind},
                     {"name", b.name},
                     {"gbit_per_s_per_gpu", num(b.gbit_per_s_per_gpu)},
                     {"busbw_gbps", num(b.busbw_gbps)},
                     {"used", b.used},
                     {"chosen_by_advisor", b.chosen_by_advisor}};
  j["data_parallel_busbw_gbps"] = num(r->data_parallel_busbw_gbps);
  j["tensor_parallel_busbw_gbps"] = num(r->tensor_parallel_busbw_gbps);
  j["gpus_per_node"] = r->gpus_per_node;
  return j;
}

json power_json(const PowerResult& r) {
  const PowerPlan& p = r.plan;
  return {{"gpu", r.gpu},
          {"gpus", r.gpus},
          {"gpus_per_server", r.gpus_per_server},
          {"servers", p.servers},
          {"gpu_watts_per_server", r.gpu_watts_per_server},
          {"host_watts", r.host_watts},
          {"server_watts_full_load", p.server_watts_full_load},
          {"server_watts_typical", p.server_watts_typical},
          {"server_watts_idle", p.server_watts_idle},
          {"training_load_factor", r.training_load_factor},
          {"it_kw_full_load", r.it_kw_full_load},
          {"it_kw_typical", r.it_kw_typical},
          {"facility", name_of(r.facility)},
          {"pue", r.pue},
          {"facility_kw", r.facility_kw},
          {"rack_kw", p.racks.rack_kw},
          {"rack_choice", p.rack_choice},
          {"servers_per_rack", p.racks.servers_per_rack},
          {"servers_per_rack_by_power", p.racks.servers_per_rack_by_power},
          {"servers_per_rack_by_space", p.racks.servers_per_rack_by_space},
          {"racks_needed", p.racks.racks_needed},
          {"rack_fits", p.racks.fits},
          {"racks_per_server", p.racks.racks_per_server},
          {"office_verdict",
           {{"can_host", p.office.can_host}, {"level", p.office.level}, {"reason", p.office.reason}}},
          {"sizing", "full_load"}};
}

json defaults_json(const std::vector<DefaultUsed>& used) {
  json out = json::array();
  for (const DefaultUsed& d : used) {
    out.push_back({{"key", d.key},
                   {"value", d.value},
                   {"unit", d.unit},
                   {"basis", d.basis},
                   {"source", d.source},
                   {"as_of", d.as_of},
                   {"needs_confirmation", d.needs_confirmation},
                   {"overridden", d.overridden},
                   {"override_path", d.override_path.empty() ? json() : json(d.override_path)}});
  }
  return out;
}

json priced_json(const std::optional<PricedOption>& p) {
  if (!p) return nullptr;
  const OptionCost& c = p->cost;
  json items = json::array();
  for (const LineItem& i : c.line_items)
    items.push_back({{"name", i.name}, {"yearly_cny", i.yearly_cny}, {"basis", i.basis}});
  json j = {{"yearly_cny", c.yearly_cny},
            {"cumulative_cny", c.cumulative_cny},
            {"lifetime_cny", c.lifetime_cny},
            {"average_yearly_cny", c.average_yearly_cny},
            {"line_items", std::move(items)}};
  if (p->with_capex) {
    j["capex_cny"] = c.capex_cny;
    j["residual_cny"] = c.residual_cny;
  }
  if (p->servers) j["servers"] = *p->servers;
  if (p->gpus) j["gpus"] = *p->gpus;
  if (p->cny_per_gpu_hour) j["cny_per_gpu_hour"] = *p->cny_per_gpu_hour;
  if (p->cny_per_gpu_month) j["cny_per_gpu_month"] = *p->cny_per_gpu_month;
  return j;
}

json per_option_json(const PerOption& values) {
  json j = json::object();
  for (const auto& [k, v] : values) j[k] = num(v);
  return j;
}

json hybrid_json(const HybridSplit& h) {
  json monthly = json::array();
  for (const HybridMonth& m : h.monthly) {
    monthly.push_back({{"month", m.month},
                       {"demand_gpu_hours", m.demand_gpu_hours},
                       {"owned_gpu_hours", m.owned_gpu_hours},
                       {"rented_gpu_hours", m.rented_gpu_hours}});
  }
  json candidates = json::array();
  for (const HybridCandidate& c : h.candidates)
    candidates.push_back({{"owned_servers", c.servers}, {"average_yearly_cny", c.average_yearly_cny}});
  return {{"owned_servers", h.best.servers},
          {"owned_gpus", h.owned_gpus},
          {"owned_gpu_hours_per_year", h.best.owned_gpu_hours_per_year},
          {"rented_gpu_hours_per_year", h.best.rented_gpu_hours_per_year},
          {"owned_utilization", num(h.owned_utilization)},
          {"owned_average_yearly_cny", h.best.owned_average_yearly_cny},
          {"rented_average_yearly_cny", h.best.rented_average_yearly_cny},
          {"average_yearly_cny", h.best.average_yearly_cny},
          {"lifetime_cny", h.lifetime_cny},
          {"owned_max_utilization", h.owned_max_utilization},
          {"monthly", std::move(monthly)},
          {"candidates", std::move(candidates)}};
}

json electricity_json(const ElectricityResult& e) {
  json periods = json::array();
  for (const ElectricityPeriod& x : e.periods) {
    periods.push_back({{"period", x.use.period},
                       {"hours_per_day", x.hours_per_day},
                       {"cny_per_kwh", x.use.price_cny_per_kwh},
                       {"busy_hours_per_day", x.use.busy_hours_per_day},
                       {"facility_kwh_per_year", x.use.facility_kwh_per_year},
                       {"cny_per_year", x.use.cny_per_year}});
  }
  return {{"tariff", e.tariff},
          {"flat_cny_per_kwh", e.prices.flat_cny_per_kwh},
          {"peak_cny_per_kwh_effective", e.prices.peak_cny_per_kwh},
          {"valley_cny_per_kwh", e.prices.valley_cny_per_kwh},
          {"pue", e.pue},
          {"it_kwh_per_year", e.energy.it_kwh_per_year},
          {"facility_kwh_per_year", e.energy.facility_kwh_per_year},
          {"cny_per_year", e.cny_per_year},
          {"average_cny_per_kwh", e.energy.average_cny_per_kwh},
          {"included_in_colocation", e.included_in_colocation},
          {"valley_shift_share", e.valley_shift_share},
          {"valley_shift_max_saving_cny_per_year", e.valley_shift_max_saving_cny_per_year},
          {"periods", std::move(periods)}};
}

json cost_json(const CostResult& c, const PriceCatalog& prices) {
  json cost;
  cost["currency"] = "CNY";
  cost["hardware"] = {{"gpu", c.gpu},
                      {"name", c.gpu_name},
                      {"count", c.gpus},
                      {"pinned", c.pinned},
                      {"reason", c.hardware_reason}};
  cost["site"] = {{"id", c.site_id}, {"name", c.site_name}, {"name_zh", c.site_name_zh}};
  cost["utilization"] = c.utilization;
  cost["utilization_source"] = c.utilization_source;
  cost["life_years"] = c.life_years;
  cost["options"] = {{"buy", priced_json(c.buy)},
                     {"rent", priced_json(c.rent)},
                     {"rent_reserved", priced_json(c.reserved)},
                     {"hybrid", priced_json(c.hybrid)}};
  json missing = json::array();
  for (const MissingPrice& m : c.missing_prices) {
    missing.push_back(
        {{"option", m.option}, {"reason", m.reason}, {"override_path", str(m.override_path)}});
  }
  cost["missing_prices"] = std::move(missing);
  cost["cheapest_option"] = str(c.cheapest_option);
  cost["break_even_utilization"] = num(c.break_even_utilization);
  cost["break_even_year"] = c.break_even_year ? json(*c.break_even_year) : json();
  cost["seventy_percent_rule_holds"] =
      c.seventy_percent_rule_holds ? json(*c.seventy_percent_rule_holds) : json();
  cost["seventy_percent_rule_note"] = c.seventy_percent_rule_note;
  cost["cost_per_gpu_hour_cny"] = per_option_json(c.cost_per_gpu_hour_cny);
  cost["run_gpu_hours"] = num(c.run_gpu_hours);
  cost["run_gpu_hours_source"] = str(c.run_gpu_hours_source);
  cost["cost_per_run_cny"] = c.cost_per_run_cny ? per_option_json(*c.cost_per_run_cny) : json();
  cost["tokens_per_second"] = num(c.tokens_per_second);
  cost["tokens_per_second_source"] = str(c.tokens_per_second_source);
  cost["cost_per_million_tokens_cny"] =
      c.cost_per_million_tokens_cny ? per_option_json(*c.cost_per_million_tokens_cny) : json();
  cost["electricity"] = electricity_json(c.electricity);
  json sites = json::array();
  for (const SiteRow& r : c.site_comparison) {
    sites.push_back({{"site", r.site},
                     {"name", r.name},
                     {"name_zh", r.name_zh},
                     {"selected", r.selected},
                     {"electricity_flat_cny_per_kwh", r.electricity_flat_cny_per_kwh},
                     {"colocation_factor", r.colocation_factor},
                     {"electricity_cny_per_year", num(r.electricity_cny_per_year)},
                     {"colocation_cny_per_year", num(r.colocation_cny_per_year)},
                     {"buy_average_yearly_cny", num(r.buy_average_yearly_cny)},
                     {"buy_lifetime_cny", num(r.buy_lifetime_cny)},
                     {"difference_vs_selected_cny_per_year",
                      num(r.difference_vs_selected_cny_per_year)},
                     {"needs_confirmation", r.needs_confirmation}});
  }
  cost["site_comparison"] = std::move(sites);
  cost["site_note"] = {{"siting_zh", prices.siting_note_zh},
                       {"siting_en", prices.siting_note_en},
                       {"data_zh", prices.data_note_zh},
                       {"data_en", prices.data_note_en},
                       {"source", prices.notes_source}};
  cost["hybrid_split"] = c.hybrid_split ? hybrid_json(*c.hybrid_split) : json();
  cost["defaults_used"] = defaults_json(c.defaults_used);
  cost["needs_confirmation"] = c.needs_confirmation;
  cost["prices_as_of"] = c.prices_as_of;
  return cost;
}

json capacity_json(const CapacityResult& c) {
  const CapacityPlan& plan = c.plan;
  json types = json::array();
  for (const CapacityTypeRow& row : c.by_gpu_type) {
    const CapacityByType& t = row.type;
    json monthly = json::array();
    for (const MonthHours& m : t.monthly)
      monthly.push_back({{"month", m.month}, {"gpu_hours", m.gpu_hours}});
    types.push_back({{"gpu_type", t.gpu_type},
                     {"catalog_gpu", str(row.catalog_gpu)},
                     {"gpu_hours_total", t.gpu_hours_total},
                     {"monthly_gpu_hours", std::move(monthly)},
                     {"average_monthly_gpu_hours", t.average_monthly_gpu_hours},
                     {"peak_monthly_gpu_hours", plan.dated ? json(t.peak_monthly_gpu_hours) : json()},
                     {"cards_needed", t.cards_needed},
                     {"cards_needed_for_peak_month",
                      plan.dated ? json(t.cards_needed_for_peak) : json()},
                     {"expected_utilization", t.expected_utilization}});
  }
  return {{"jobs", c.jobs},
          {"months", plan.months},
          {"dated", plan.dated},
          {"first_month", plan.dated ? json(plan.first_month) : json()},
          {"last_month", plan.dated ? json(plan.last_month) : json()},
          {"hours_per_month", c.inputs.hours_per_month},
          {"target_utilization", c.inputs.target_utilization},
          {"buffer", c.inputs.buffer},
          {"formula", "cards = ceil(monthly GPU-hours x (1 + buffer) / (730 h x target_utilization))"},
          {"gpu_hours_total", plan.gpu_hours_total},
          {"by_gpu_type", std::move(types)},
          {"defaults_used", defaults_json(c.defaults_used)}};
}

json option_json(const OptionRow& row, Task task) {
  const GpuOption& o = row.judged;
  const GpuSpec& g = *o.gpu;
  json j = {{"gpu", g.id},
            {"name", g.name},
            {"vendor", g.vendor},
            {"memory_bytes", bytes(g.memory_bytes())},
            {"fits_on_one", o.fits_on_one},
            {"per_gpu_bytes_on_one", bytes(o.on_one.total())},
            {"tight_on_one", o.fits_on_one && o.on_one.band_high > g.memory_bytes()},
            {"china_availability",
             {{"status", g.china_availability.status}, {"as_of", g.china_availability.as_of}}},
            {"software_stack", g.software_stack}};
  const bool training = is_training(task);
  j[training ? "training" : "inference"] = nullptr;
  j["allreduce_bus_bandwidth_gbps"] = num(row.allreduce_bus_bandwidth_gbps);
  if (o.min_layout) {
    j["min_count"] = o.min_layout->count;
    j["min_layout"] = layout_json(*o.min_layout, g.id);
    j["per_gpu_bytes_at_min"] = bytes(o.at_min.total());
    j["tight_at_min"] = o.tight_at_min;
    j["verdict"] = o.min_layout->count == 1 ? "fits_on_one" : "needs_multiple";
    j["reason"] = nullptr;
    j["intra_node_link"] = row.intra_node_link;
  } else {
    j["min_count"] = nullptr;
    j["min_layout"] = nullptr;
    j["per_gpu_bytes_at_min"] = nullptr;
    j["verdict"] = "does_not_fit";
    j["reason"] = o.reason;
  }
  if (row.training) {
    j["training"] = training_summary(*row.training);
    if (!row.training->available) j["speed_note"] = row.training->reason;
  }
  if (row.inference) {
    json s = inference_summary(*row.inference);
    s["gpus_needed"] = row.inference->gpus_needed ? json(*row.inference->gpus_needed) : json();
    j["inference"] = std::move(s);
  }
  if (row.power_cost) {
    const OptionPowerCost& pc = *row.power_cost;
    j["power"] = {{"server_watts_full_load", pc.server_watts_full_load},
                  {"servers", pc.servers},
                  {"racks_needed", pc.racks_needed},
                  {"rack_kw", pc.rack_kw},
                  {"office_can_host", pc.office_can_host}};
    json run = nullptr;
    if (pc.cost_per_run_cny) {
      run = {{"gpu_hours", pc.cost_per_run_cny->gpu_hours},
             {"buy", num(pc.cost_per_run_cny->buy)},
             {"rent", num(pc.cost_per_run_cny->rent)}};
    }
    j["cost"] = {{"gpus", pc.gpus},
                 {"buy_lifetime_cny", num(pc.buy_lifetime_cny)},
                 {"rent_lifetime_cny", num(pc.rent_lifetime_cny)},
                 {"rent_reserved_lifetime_cny", num(pc.rent_reserved_lifetime_cny)},
                 {"cheapest", str(pc.cheapest)},
                 {"break_even_utilization", num(pc.break_even_utilization)},
                 {"over_capacity", pc.over_capacity},
                 {"cost_per_run_cny", std::move(run)},
                 {"needs_confirmation", pc.needs_confirmation}};
  } else {
    j["power"] = nullptr;
    j["cost"] = nullptr;
  }
  return j;
}

}  // namespace

json warning_json(const Warning& w) {
  return {{"code", w.code}, {"message", w.message}, {"path", w.path}};
}

json plan_to_json(const Plan& plan, const Catalog& catalog) {
  json result;
  result["schema"] = 1;
  result["task"] = task_name(plan.task);
  result["model"] = model_json(plan.model);
  result["memory"] = memory_json(plan.memory);
  result["training"] = plan.training ? training_json(*plan.training) : json();
  result["inference"] = plan.inference ? serving_json(*plan.inference) : json();
  result["interconnect"] = interconnect_json(plan.interconnect);
  result["power"] = plan.power ? power_json(*plan.power) : json();
  result["cost"] = plan.cost ? cost_json(*plan.cost, catalog.prices) : json();
  result["capacity"] = plan.capacity ? capacity_json(*plan.capacity) : json();
  json options = json::array();
  for (const OptionRow& row : plan.options) options.push_back(option_json(row, plan.task));
  result["options"] = std::move(options);
  json warnings = json::array();
  for (const Warning& w : plan.warnings) warnings.push_back(warning_json(w));
  result["warnings"] = std::move(warnings);
  json resolved = json::object();
  for (const ResolvedInput& r : plan.resolved_inputs)
    resolved[r.path] = r.number ? num(*r.number) : json(r.text.value_or(""));
  result["resolved_inputs"] = std::move(resolved);
  result["catalog"] = {{"gpus_as_of", plan.gpus_as_of}, {"models_as_of", plan.models_as_of}};
  require_finite(result, "");
  return result;
}

}  // namespace advisor
