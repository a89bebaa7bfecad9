// SPDX-License-Identifier: MIT
// The power, cost and capacity sections of the result (and each option's power and cost).
#include "io/cost_json.hpp"

#include "io/recommend_json.hpp"

namespace advisor {

namespace {

using W = JsonWriter;

void defaults_used(W& w, const std::vector<DefaultUsed>& used) {
  w.begin_array();
  for (const DefaultUsed& d : used) {
    w.begin_object();
    w.field("key", d.key);
    w.field("value", d.value);
    w.field("unit", d.unit);
    w.field("basis", d.basis);
    w.field("source", d.source);
    w.field("as_of", d.as_of);
    w.field("needs_confirmation", d.needs_confirmation);
    w.field("stale", d.stale);
    w.field("overridden", d.overridden);
    w.key("override_path");
    if (d.override_path.empty())
      w.null();
    else
      w.value(d.override_path);
    w.key("override_requires");
    w.begin_array();
    for (const std::string& p : d.override_requires) w.value(p);
    w.end_array();
    w.end_object();
  }
  w.end_array();
}

void priced(W& w, const std::optional<PricedOption>& p) {
  if (!p) return w.null();
  const OptionCost& c = p->cost;
  w.begin_object();
  w.key("yearly_cny");
  w.begin_array();
  for (double v : c.yearly_cny) w.value(v);
  w.end_array();
  w.key("cumulative_cny");
  w.begin_array();
  for (double v : c.cumulative_cny) w.value(v);
  w.end_array();
  w.field("lifetime_cny", c.lifetime_cny);
  w.field("average_yearly_cny", c.average_yearly_cny);
  w.key("line_items");
  w.begin_array();
  for (const LineItem& i : c.line_items) {
    w.begin_object();
    w.field("name", i.name);
    w.field("yearly_cny", i.yearly_cny);
    w.field("basis", i.basis);
    w.field("basis_code", i.code);
    w.key("basis_params");
    write_params(w, i.params);
    w.end_object();
  }
  w.end_array();
  if (p->with_capex) {
    w.field("capex_cny", c.capex_cny);
    w.field("residual_cny", c.residual_cny);
  }
  if (p->servers) w.field("servers", *p->servers);
  if (p->gpus) w.field("gpus", *p->gpus);
  if (p->cny_per_gpu_hour) w.field("cny_per_gpu_hour", *p->cny_per_gpu_hour);
  if (p->cny_per_gpu_month) w.field("cny_per_gpu_month", *p->cny_per_gpu_month);
  if (!p->offer_kind.empty()) w.field("offer_kind", p->offer_kind);
  if (p->minimum_term_months) w.field("minimum_term_months", *p->minimum_term_months);
  if (c.annuity_years > 0) {
    w.field("financing_payment_cny", c.annuity_cny);
    w.field("financing_years", c.annuity_years);
  }
  w.field("vat_cny", p->vat_cny);
  w.field("vat_deductible", p->vat_deductible);
  w.field("lead_time_days", p->lead_time_days);
  w.end_object();
}

void per_option(W& w, const PerOption& values) {
  w.begin_object();
  for (const auto& [k, v] : values) w.field(k, v);
  w.end_object();
}

void hybrid(W& w, const HybridSplit& h) {
  w.begin_object();
  w.field("owned_servers", h.best.servers);
  w.field("owned_gpus", h.owned_gpus);
  w.field("owned_gpu_hours_per_year", h.best.owned_gpu_hours_per_year);
  w.field("rented_gpu_hours_per_year", h.best.rented_gpu_hours_per_year);
  w.field("owned_utilization", h.owned_utilization);
  w.field("owned_average_yearly_cny", h.best.owned_average_yearly_cny);
  w.field("rented_average_yearly_cny", h.best.rented_average_yearly_cny);
  w.field("average_yearly_cny", h.best.average_yearly_cny);
  w.field("lifetime_cny", h.lifetime_cny);
  w.field("owned_max_utilization", h.owned_max_utilization);
  w.key("monthly");
  w.begin_array();
  for (const HybridMonth& m : h.monthly) {
    w.begin_object();
    w.field("month", m.month);
    w.field("demand_gpu_hours", m.demand_gpu_hours);
    w.field("owned_gpu_hours", m.owned_gpu_hours);
    w.field("rented_gpu_hours", m.rented_gpu_hours);
    w.end_object();
  }
  w.end_array();
  w.key("candidates");
  w.begin_array();
  for (const HybridCandidate& c : h.candidates) {
    w.begin_object();
    w.field("owned_servers", c.servers);
    w.field("average_yearly_cny", c.average_yearly_cny);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void electricity(W& w, const ElectricityResult& e) {
  w.begin_object();
  w.field("tariff", e.tariff);
  w.field("flat_cny_per_kwh", e.prices.flat_cny_per_kwh);
  w.field("peak_cny_per_kwh_effective", e.prices.peak_cny_per_kwh);
  w.field("valley_cny_per_kwh", e.prices.valley_cny_per_kwh);
  w.field("pue", e.pue);
  w.field("it_kwh_per_year", e.energy.it_kwh_per_year);
  w.field("facility_kwh_per_year", e.energy.facility_kwh_per_year);
  w.field("cny_per_year", e.cny_per_year);
  w.field("average_cny_per_kwh", e.energy.average_cny_per_kwh);
  w.field("included_in_colocation", e.included_in_colocation);
  w.field("valley_shift_share", e.valley_shift_share);
  w.field("valley_shift_max_saving_cny_per_year", e.valley_shift_max_saving_cny_per_year);
  w.key("periods");
  w.begin_array();
  for (const ElectricityPeriod& x : e.periods) {
    w.begin_object();
    w.field("period", x.use.period);
    w.field("hours_per_day", x.hours_per_day);
    w.field("cny_per_kwh", x.use.price_cny_per_kwh);
    w.field("busy_hours_per_day", x.use.busy_hours_per_day);
    w.field("facility_kwh_per_year", x.use.facility_kwh_per_year);
    w.field("cny_per_year", x.use.cny_per_year);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void site_rows(W& w, const std::vector<SiteRow>& rows) {
  w.begin_array();
  for (const SiteRow& r : rows) {
    w.begin_object();
    w.field("site", r.site);
    w.field("name", r.name);
    w.field("name_zh", r.name_zh);
    w.field("selected", r.selected);
    w.field("electricity_flat_cny_per_kwh", r.electricity_flat_cny_per_kwh);
    w.field("colocation_factor", r.colocation_factor);
    w.field("electricity_cny_per_year", r.electricity_cny_per_year);
    w.field("colocation_cny_per_year", r.colocation_cny_per_year);
    w.field("buy_average_yearly_cny", r.buy_average_yearly_cny);
    w.field("buy_lifetime_cny", r.buy_lifetime_cny);
    w.field("difference_vs_selected_cny_per_year", r.difference_vs_selected_cny_per_year);
    w.field("needs_confirmation", r.needs_confirmation);
    w.end_object();
  }
  w.end_array();
}

}  // namespace

void write_power(W& w, const PowerResult& r) {
  const PowerPlan& p = r.plan;
  w.begin_object();
  w.field("gpu", r.gpu);
  w.field("gpus", r.gpus);
  w.field("gpus_per_server", r.gpus_per_server);
  w.field("servers", p.servers);
  w.field("gpu_watts_per_server", r.gpu_watts_per_server);
  w.field("host_watts", r.host_watts);
  w.field("server_watts_full_load", p.server_watts_full_load);
  w.field("server_watts_typical", p.server_watts_typical);
  w.field("server_watts_idle", p.server_watts_idle);
  w.field("training_load_factor", r.training_load_factor);
  w.field("it_kw_full_load", r.it_kw_full_load);
  w.field("it_kw_typical", r.it_kw_typical);
  w.field("facility", name_of(r.facility));
  w.field("pue", r.pue);
  w.field("facility_kw", r.facility_kw);
  w.field("rack_kw", p.racks.rack_kw);
  w.field("rack_choice", p.rack_choice);
  w.field("servers_per_rack", p.racks.servers_per_rack);
  w.field("servers_per_rack_by_power", p.racks.servers_per_rack_by_power);
  w.field("servers_per_rack_by_space", p.racks.servers_per_rack_by_space);
  w.field("racks_needed", p.racks.racks_needed);
  w.field("rack_fits", p.racks.fits);
  w.field("racks_per_server", p.racks.racks_per_server);
  w.key("office_verdict");
  w.begin_object();
  w.field("can_host", p.office.can_host);
  w.field("level", p.office.level);
  w.field("reason", office_reason_text(p.office));
  w.field("reason_code", p.office.reason_code);
  w.key("reason_params");
  w.begin_object();
  w.field("server_watts", p.office.server_watts);
  w.field("total_watts", p.office.total_watts);
  w.field("servers", p.office.servers);
  w.field("rack_kw_low", p.office.rack_kw_low);
  w.field("rack_kw_high", p.office.rack_kw_high);
  w.field("office_racks", p.office.office_racks);
  w.field("racks_needed", p.office.racks_needed);
  w.end_object();
  w.end_object();
  w.field("sizing", "full_load");
  w.end_object();
}

void write_cost(W& w, const CostResult& c, const PriceCatalog& prices) {
  w.begin_object();
  w.field("currency", "CNY");
  w.key("hardware");
  w.begin_object();
  w.field("gpu", c.gpu);
  w.field("name", c.gpu_name);
  w.field("count", c.gpus);
  w.field("pinned", c.pinned);
  w.field("reason", c.hardware_reason);
  w.field("reason_code", c.hardware_reason_code);
  if (c.deployment) w.field("deployment", name_of(*c.deployment));
  if (c.facility) w.field("facility", name_of(*c.facility));
  w.end_object();
  w.key("site");
  w.begin_object();
  w.field("id", c.site_id);
  w.field("name", c.site_name);
  w.field("name_zh", c.site_name_zh);
  w.end_object();
  w.field("utilization", c.utilization);
  w.field("utilization_source", c.utilization_source);
  w.field("life_years", c.life_years);
  w.key("options");
  w.begin_object();
  w.key("buy");
  priced(w, c.buy);
  w.key("rent");
  priced(w, c.rent);
  w.key("rent_reserved");
  priced(w, c.reserved);
  w.key("hybrid");
  priced(w, c.hybrid);
  w.end_object();
  w.key("missing_prices");
  w.begin_array();
  for (const MissingPrice& m : c.missing_prices) {
    w.begin_object();
    w.field("option", m.option);
    w.field("reason", m.reason);
    w.field("code", m.code);
    w.key("params");
    write_params(w, m.params);
    w.field("override_path", m.override_path);
    w.end_object();
  }
  w.end_array();
  w.field("cheapest_option", c.cheapest_option);
  w.field("break_even_utilization", c.break_even_utilization);
  w.field("break_even_year", c.break_even_year);
  w.field("seventy_percent_rule_holds", c.seventy_percent_rule_holds);
  w.field("seventy_percent_rule_note", c.seventy_percent_rule_note);
  w.key("seventy_percent_rule_reason");
  write_note(w, c.seventy_percent_rule);
  w.key("cost_per_gpu_hour_cny");
  per_option(w, c.cost_per_gpu_hour_cny);
  w.field("run_gpu_hours", c.run_gpu_hours);
  w.field("run_gpu_hours_source", c.run_gpu_hours_source);
  w.key("cost_per_run_cny");
  if (c.cost_per_run_cny)
    per_option(w, *c.cost_per_run_cny);
  else
    w.null();
  w.field("tokens_per_second", c.tokens_per_second);
  w.field("tokens_per_second_source", c.tokens_per_second_source);
  w.key("cost_per_million_tokens_cny");
  if (c.cost_per_million_tokens_cny)
    per_option(w, *c.cost_per_million_tokens_cny);
  else
    w.null();
  w.key("electricity");
  electricity(w, c.electricity);
  w.key("site_comparison");
  site_rows(w, c.site_comparison);
  w.key("site_note");
  w.begin_object();
  w.field("siting_zh", prices.siting_note_zh);
  w.field("siting_en", prices.siting_note_en);
  w.field("data_zh", prices.data_note_zh);
  w.field("data_en", prices.data_note_en);
  w.field("source", prices.notes_source);
  w.end_object();
  w.key("hybrid_split");
  if (c.hybrid_split)
    hybrid(w, *c.hybrid_split);
  else
    w.null();
  w.key("defaults_used");
  defaults_used(w, c.defaults_used);
  w.field("needs_confirmation", c.needs_confirmation);
  w.field("prices_as_of", c.prices_as_of);
  w.end_object();
}

void write_capacity(W& w, const CapacityResult& c) {
  const CapacityPlan& plan = c.plan;
  w.begin_object();
  w.field("jobs", c.jobs);
  w.field("months", plan.months);
  w.field("dated", plan.dated);
  w.key("first_month");
  if (plan.dated)
    w.value(plan.first_month);
  else
    w.null();
  w.key("last_month");
  if (plan.dated)
    w.value(plan.last_month);
  else
    w.null();
  w.field("hours_per_month", c.inputs.hours_per_month);
  w.field("target_utilization", c.inputs.target_utilization);
  w.field("buffer", c.inputs.buffer);
  w.field("formula",
          "cards = max(ceil(monthly GPU-hours x (1 + buffer) / (730 h x target_utilization)), "
          "widest job's GPUs); beyond one server, whole servers");
  w.field("gpu_hours_total", plan.gpu_hours_total);
  w.key("by_gpu_type");
  w.begin_array();
  for (const CapacityTypeRow& row : c.by_gpu_type) {
    const CapacityByType& t = row.type;
    w.begin_object();
    w.field("gpu_type", t.gpu_type);
    w.field("catalog_gpu", row.catalog_gpu);
    w.field("gpu_hours_total", t.gpu_hours_total);
    w.key("monthly_gpu_hours");
    w.begin_array();
    for (const MonthHours& m : t.monthly) {
      w.begin_object();
      w.field("month", m.month);
      w.field("gpu_hours", m.gpu_hours);
      w.end_object();
    }
    w.end_array();
    w.field("average_monthly_gpu_hours", t.average_monthly_gpu_hours);
    w.key("peak_monthly_gpu_hours");
    if (plan.dated)
      w.value(t.peak_monthly_gpu_hours);
    else
      w.null();
    w.field("cards_needed", t.cards_needed);
    w.key("cards_needed_for_peak_month");
    if (plan.dated)
      w.value(t.cards_needed_for_peak);
    else
      w.null();
    w.field("expected_utilization", t.expected_utilization);
    w.field("widest_job_gpus", t.widest_job_gpus);
    w.key("names");
    w.begin_array();
    for (const std::string& n : row.names) w.value(n);
    w.end_array();
    w.key("alternatives");
    w.begin_array();
    for (const std::string& n : row.alternatives) w.value(n);
    w.end_array();
    w.field("gpus_per_server", row.gpus_per_server);
    w.field("cards_to_buy", row.cards_to_buy);
    w.field("servers", row.servers);
    w.key("cost_per_month_cny");
    w.begin_object();
    w.field("buy", row.buy_cny_per_month);
    w.field("rent", row.rent_cny_per_month);
    w.field("rent_reserved", row.reserved_cny_per_month);
    w.end_object();
    w.field("cheapest", row.cheapest);
    w.end_object();
  }
  w.end_array();
  w.field("demand_for_cost", c.demand_for_cost);
  w.key("defaults_used");
  defaults_used(w, c.defaults_used);
  w.end_object();
}

void write_option_power_cost(W& w, const OptionPowerCost& pc) {
  w.key("power");
  w.begin_object();
  w.field("server_watts_full_load", pc.server_watts_full_load);
  w.field("servers", pc.servers);
  w.field("racks_needed", pc.racks_needed);
  w.field("rack_kw", pc.rack_kw);
  w.field("office_can_host", pc.office_can_host);
  w.end_object();
  w.key("cost");
  w.begin_object();
  w.field("gpus", pc.gpus);
  w.field("buy_lifetime_cny", pc.buy_lifetime_cny);
  w.field("rent_lifetime_cny", pc.rent_lifetime_cny);
  w.field("rent_reserved_lifetime_cny", pc.rent_reserved_lifetime_cny);
  w.field("cheapest", pc.cheapest);
  w.field("break_even_utilization", pc.break_even_utilization);
  w.field("over_capacity", pc.over_capacity);
  w.key("cost_per_run_cny");
  if (pc.cost_per_run_cny) {
    w.begin_object();
    w.field("gpu_hours", pc.cost_per_run_cny->gpu_hours);
    w.field("buy", pc.cost_per_run_cny->buy);
    w.field("rent", pc.cost_per_run_cny->rent);
    w.end_object();
  } else {
    w.null();
  }
  w.field("needs_confirmation", pc.needs_confirmation);
  w.end_object();
}

}  // namespace advisor
