// SPDX-License-Identifier: MIT
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog.hpp"
#include "cost.hpp"
#include "cost_settings.hpp"
#include "options.hpp"
#include "power.hpp"
#include "prices.hpp"
#include "request.hpp"

namespace advisor {

/// One default (or override) the plan used, as the page's editable price table shows it.
struct DefaultUsed {
  std::string key;       // prices.json key, e.g. "sites.shenzhen.electricity_flat_cny_per_kwh"
  double value = 0;      // in `unit` (CNY after conversion)
  std::string unit, basis, source, as_of;
  bool needs_confirmation = false;
  bool overridden = false;       // the request set it
  std::string override_path;     // where the request sets it, e.g. "/cost/prices/usd_to_cny"
};

/// Every number the cost model needs for one GPU type, count and site, with its provenance.
struct CostScenario {
  const GpuSpec* gpu = nullptr;
  int gpus = 0;
  int gpus_per_server = 8;
  std::string form_factor;
  // power
  double host_fixed_watts = 0, cooling_conversion_fraction = 0;
  double training_load_factor = 0.8, idle_load_factor = 0.2;
  std::string facility;
  double pue = 1.5;
  int rack_units_usable = 38, server_rack_units = 8;
  double office_rack_kw_low = 3, office_rack_kw_high = 4;
  int office_racks = 1;
  std::optional<double> rack_kw_pinned;
  std::vector<std::pair<double, double>> rack_classes;  // kW, CNY per rack-month (site applied)
  std::optional<double> rack_price_override;
  // prices
  std::optional<double> gpu_price_cny, rent_cny_per_gpu_hour, reserved_cny_per_gpu_month;
  double platform_price_cny = 0;
  Tariff tariff;
  bool time_of_use = true;
  std::string colocation_pricing = "per_rack";
  double colocation_cny_per_kw_month = 0;
  bool colocation_includes_electricity = false;
  std::string network_line = "bgp";
  double network_mbps = 0, network_cny_per_mbps_month = 0;
  double egress_tb_per_month = 0, egress_cny_per_tb = 0;
  bool operations_by_staff = false;
  double operations_capex_share = 0, staff_fte = 0, staff_cny_per_year = 0, spares_share = 0;
  int life_years = 5;
  double residual_fraction = 0;
  double utilization = 0.6;
  std::string utilization_source;  // request | monthly_demand | default
  double valley_shift_share = 0;
  double owned_max_utilization = 0.9;
  double seventy_percent_rule = 0.7, seventy_percent_tolerance = 0.1;
  std::string site_id;
  std::vector<DefaultUsed> defaults_used;  // when resolved with `record`
  bool needs_confirmation = false;         // any default used is flagged
};

/// Resolves the request's settings against the price catalog for `gpu` x `gpus` at `site_id`.
/// `pinned`: the request pinned this GPU, so GPU-specific overrides apply to it. Site-specific
/// overrides (electricity, colocation price) apply only to the request's own site.
/// `record`: fill defaults_used (the main plan); searches skip it.
CostScenario resolve_scenario(const CostRequest& request, const PriceCatalog& prices,
                              const GpuSpec& gpu, int gpus, bool pinned,
                              const std::string& site_id, bool record = true);

/// Power and racks for `gpus` GPUs of the scenario (rack class chosen when not pinned).
struct PowerPlan {
  int gpus = 0, servers = 0, gpus_in_largest_server = 0;
  double server_watts_full_load = 0, server_watts_typical = 0, server_watts_idle = 0;
  double fleet_watts_full_load = 0;
  RackFit racks;
  std::string rack_choice;  // request | cheapest_colocation | office
  OfficeVerdict office;
  double rack_price_cny_per_month = 0;  // per rack (per_rack pricing)
  double colocation_cny_per_year = 0;
};
PowerPlan plan_power(const CostScenario& s, int gpus);

/// Buy + colocate `gpus` GPUs used `utilization` of the time (energy detail in `energy`).
/// `describe`: write the line items' basis texts (off in searches).
/// `plan` (optional) is plan_power(s, gpus) when the caller already has it: it does not depend
/// on utilisation, so solvers that vary only `utilization` compute it once.
OptionCost buy_option(const CostScenario& s, int gpus, double utilization,
                      EnergyResult* energy = nullptr, bool describe = true,
                      const PowerPlan* plan = nullptr);

/// {"power", "cost", "capacity"} for the request (API v1). `result` is the result built so far
/// (memory layout; the speed model's training.gpu_hours and inference.decode_tokens_per_second
/// when present). `judged_options` (evaluate_options) are used when no GPU is pinned.
nlohmann::json power_cost_result(const Request& request, const CostRequest& cost_request,
                                 const nlohmann::json& result, const Catalog& catalog,
                                 const PriceCatalog& prices,
                                 const std::vector<GpuOption>& judged_options);

/// Compact per-option figures: {"power": {...}, "cost": {...}} for `gpus` of `gpu`.
/// `option` is the option's result so far (its training.gpu_hours prices a run when present).
nlohmann::json option_power_cost(const Request& request, const CostRequest& cost_request,
                                 const GpuSpec& gpu, int gpus, const PriceCatalog& prices,
                                 const nlohmann::json& option = nlohmann::json::object());

// Entry points for advise() and parse_request(), with the built-in prices.
nlohmann::json power_and_cost_json(const Request& request, const CostRequest& cost_request,
                                   const nlohmann::json& result, const Catalog& catalog,
                                   const std::vector<GpuOption>& judged_options);
nlohmann::json option_power_and_cost_json(const Request& request, const CostRequest& cost_request,
                                          const GpuSpec& gpu, int gpus,
                                          const nlohmann::json& option);

}  // namespace advisor
