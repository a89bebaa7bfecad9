// SPDX-License-Identifier: MIT
#pragma once
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/capacity.hpp"
#include "types/choices.hpp"

namespace advisor {

struct Catalog;

/// The request's /power section. Absent fields take their defaults from data/prices.json when
/// the plan is costed (so the result can list each default with its source).
struct PowerSettings {
  Facility facility = Facility::kIdc;
  // Stated by the user (or a hardware pin): bought cards are placed there only, never moved
  // to the office the search would otherwise also price.
  bool facility_stated = false;
  std::optional<int> gpus_per_server;
  std::optional<double> host_watts;  // everything but the GPUs, per server (replaces the parts)
  std::optional<double> training_load_factor;
  std::optional<double> idle_load_factor;
  std::optional<double> rack_kw;  // IDC rack power class; absent = cheapest class that fits
  std::optional<int> rack_units_usable;
  std::optional<int> server_rack_units;
  std::optional<double> office_rack_kw;  // replaces the source's 3-4 kW range
  int office_racks = 1;
  std::optional<double> pue;
};

/// /cost/prices: every price can be replaced. GPU-specific ones apply to the costed GPU;
/// `gpus` sets them per catalog id (for comparing options, or an IDC's own price list).
struct PriceOverrides {
  std::optional<double> gpu_purchase_cny;
  std::optional<double> rental_cny_per_gpu_hour;
  std::optional<double> rental_monthly_cny_per_gpu;
  std::optional<double> server_platform_cny;
  std::optional<double> electricity_flat_cny_per_kwh;
  std::optional<double> electricity_peak_cny_per_kwh;
  std::optional<double> electricity_valley_cny_per_kwh;
  std::optional<double> colocation_cny_per_rack_month;
  std::optional<double> colocation_cny_per_kw_month;
  std::optional<double> network_cny_per_mbps_month;
  std::optional<double> egress_cny_per_tb;
  std::optional<double> staff_cny_per_year;
  std::optional<double> usd_to_cny;
  struct Gpu {
    std::optional<double> purchase_cny;
    std::optional<double> rental_cny_per_gpu_hour;
  };
  std::map<std::string, Gpu> gpus;
};

/// The request's /cost section.
struct CostSettings {
  std::string site = "shenzhen";
  std::optional<int> life_years;
  std::optional<double> residual_fraction;
  std::optional<double> utilization;
  std::optional<double> valley_shift_share;
  TariffKind tariff = TariffKind::kTimeOfUse;
  ColocationPricing colocation_pricing = ColocationPricing::kPerRack;
  bool colocation_includes_electricity = false;
  std::optional<NetworkLine> network_line;  // absent: the facility's default line
  std::optional<double> network_mbps;
  Operations operations = Operations::kCapexShare;
  std::optional<double> operations_capex_share;
  std::optional<double> staff_fte;
  std::optional<double> spares_share;
  std::optional<double> reserved_discount;
  std::optional<double> egress_tb_per_month;
  std::optional<double> owned_max_utilization;
  std::optional<double> run_gpu_hours;
  std::optional<double> tokens_per_second;
  std::optional<std::array<double, 12>> monthly_demand_gpu_hours;
  // Tax: false = the prices' VAT is a cost (a small team that cannot deduct input VAT); true =
  // a general VAT payer (一般纳税人) that recovers it: every price counts without its VAT.
  bool vat_deductible = false;
  // Financing (融资租赁 or a loan): the annual rate (absent: paid in cash) and the term.
  std::optional<double> financing_rate;
  std::optional<int> financing_term_years;
  // Lead times in calendar days: a purchase's delivery (and approval), the rack move-in, a
  // rental's start (each absent: prices.json lead_time).
  std::optional<double> purchase_lead_time_days, move_in_days, rental_lead_time_days;
  PriceOverrides prices;
};

/// The request's /capacity section.
struct CapacitySettings {
  bool given = false;
  std::string path = "/capacity/jobs_csv";  // or /capacity/jobs: where the rows came from
  std::vector<JobRow> jobs;
  bool dated = false;  // rows carry a month or date
  std::optional<int> months;
  std::optional<double> target_utilization;
  std::optional<double> buffer;
};

struct CostRequest {
  PowerSettings power;
  CostSettings cost;
  CapacitySettings capacity;
  // Serving: the cards run around the clock unless the request states a utilisation or a
  // demand (the recommendation prices a serving plan's month so; its cost section does too).
  bool around_the_clock = false;
};

}  // namespace advisor
