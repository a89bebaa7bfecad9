// SPDX-License-Identifier: MIT
#pragma once
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "types/note.hpp"
#include "types/units.hpp"

namespace advisor {

// ---------------------------------------------------------------------------------------------
// Electricity

/// Time-of-use prices (CNY/kWh) and the hours of the day each applies; hours add up to 24.
/// A flat tariff is the same price in all three periods.
struct Tariff {
  double peak_cny_per_kwh = 0, flat_cny_per_kwh = 0, valley_cny_per_kwh = 0;
  double peak_hours = 7, flat_hours = 9, valley_hours = 8;
};

/// The peak price with critical-peak hours averaged in:
///   peak x (1 + (multiplier - 1) x critical_hours / peak_hours x critical_days / 365).
double effective_peak_price(double peak_cny_per_kwh, double multiplier, double critical_hours,
                            double peak_hours, double critical_days);

struct EnergyInputs {
  double busy_watts = 0;          // IT power while every GPU trains (typical load)
  double idle_watts = 0;          // IT power while powered on and idle
  double utilization = 0;         // share of hours busy
  double valley_shift_share = 0;  // share of the busy hours scheduled cheapest-hours-first
  double pue = 1;
  Tariff tariff;
  bool with_periods = true;  // false: the totals alone (searches read only the cost)
};

struct PeriodUse {
  std::string period;  // peak | flat | valley
  double price_cny_per_kwh = 0;
  double busy_hours_per_day = 0, idle_hours_per_day = 0;
  double facility_kwh_per_year = 0, cny_per_year = 0;
};

struct EnergyResult {
  double it_kwh_per_year = 0;
  double facility_kwh_per_year = 0;  // x PUE
  double cny_per_year = 0;
  double average_cny_per_kwh = 0;
  std::vector<PeriodUse> periods;  // empty unless asked for (EnergyInputs::with_periods)
};

/// Busy hours a day b = 24u. Spread evenly, each period gets b x its hours / 24; scheduled
/// cheapest-first, the cheapest period fills first. The schedule is the mix
/// (1 - s) x even + s x cheapest-first. Idle hours are the rest of each period.
/// Energy = sum over periods of (busy h x busy W + idle h x idle W) x PUE x price x 365.
EnergyResult yearly_energy(const EnergyInputs& in);

/// Utilisations in [0, 1] where the cheapest-first schedule changes period: the yearly energy
/// cost is linear in u between them.
std::vector<double> energy_breakpoints(const Tariff& tariff);

// ---------------------------------------------------------------------------------------------
// Options

struct LineItem {
  std::string name;
  double yearly_cny = 0;  // average per year over the horizon
  std::string basis;      // the English sentence
  std::string code;       // the basis as a code with parameters (each language renders it)
  std::vector<ReasonParam> params;
};

/// What a search or a summary reads of an option's cost: its totals, without the line items.
struct OptionTotals {
  double average_yearly_cny = 0;
  double lifetime_cny = 0;
  double capex_cny = 0;  // buy only: the purchase (servers x platform + GPUs bought x price)
};

/// One deployment's cost over the horizon. lifetime = sum(line items) x years = sum(yearly).
struct OptionCost {
  std::vector<LineItem> line_items;
  double average_yearly_cny = 0;
  std::vector<double> yearly_cny;      // cash in each year (a purchase lands in year 1)
  std::vector<double> cumulative_cny;  // running sum of yearly_cny
  double lifetime_cny = 0;
  double capex_cny = 0;     // buy only
  double residual_cny = 0;  // buy only: credited in the last year
  // Financed (buy only): the capex is paid as `annuity_years` equal payments of `annuity_cny`.
  double annuity_cny = 0;
  int annuity_years = 0;
};

/// The equal yearly payment that repays `principal` over `years` at `rate` a year (an
/// annuity): principal x r / (1 - (1 + r)^-years); principal / years at 0%.
/// 100,000 CNY at 6% over 3 years: 37,410.98 a year, 12,232.94 interest.
double annuity_payment(double principal, double rate, int years);

struct BuyInputs {
  int gpus = 0;
  int servers = 0;
  double gpu_price_cny = 0;       // per GPU
  double platform_price_cny = 0;  // per server without GPUs
  int life_years = 5;
  double residual_fraction = 0;
  double colocation_cny_per_year = 0;
  double electricity_cny_per_year = 0;
  double network_cny_per_year = 0;
  bool operations_by_staff = false;
  double operations_capex_share = 0;  // per year, when not by staff
  double staff_fte = 0, staff_cny_per_year = 0;
  double spares_share = 0;  // of capex, per year
  // Financing: the capex repaid as an annuity at this yearly rate over this many years (0:
  // paid in cash); the term is cut to the life (repaid by the end of the horizon).
  double financing_rate = 0;
  int financing_term_years = 0;
  std::string colocation_basis, electricity_basis, network_basis;
  Note colocation_note, electricity_note, network_note;  // the bases as codes with parameters
};

/// capex = servers x platform + gpus x gpu price; residual = capex x residual_fraction.
/// Line items per year: hardware (capex - residual) / life, colocation, electricity, network,
/// operations (capex x share, or FTE x cost), spares (capex x share), and when financed the
/// interest (payments x term - capex) / life.
OptionCost buy_cost(const BuyInputs& in);
/// buy_cost's totals alone (the same sums, no line items or bases: searches call this often).
OptionTotals buy_cost_totals(const BuyInputs& in);

struct RentInputs {
  int gpus = 0;
  double utilization = 0;
  double cny_per_gpu_hour = 0;
  int years = 5;
  double egress_tb_per_month = 0, egress_cny_per_tb = 0;
};

/// On demand: only hours used are paid: gpus x 8760 x u x price, plus egress x 12 x price.
OptionCost rent_cost(const RentInputs& in);
/// rent_cost's totals alone.
OptionTotals rent_cost_totals(const RentInputs& in);

struct ReservedInputs {
  int gpus = 0;
  double cny_per_gpu_month = 0;
  int years = 5;
  double egress_tb_per_month = 0, egress_cny_per_tb = 0;
};

/// Monthly/reserved: every card paid every month: gpus x 12 x monthly price, plus egress.
OptionCost reserved_cost(const ReservedInputs& in);
/// reserved_cost's totals alone.
OptionTotals reserved_cost_totals(const ReservedInputs& in);

/// Builds yearly/cumulative/lifetime from line items (and a capex paid in year 1 with the
/// residual credited in the last year); exposed for the hybrid plan.
/// `annuity_cny` x `annuity_years` (financed): the payments that replace the year-1 capex.
OptionCost finish_option(std::vector<LineItem> items, int years, double capex_cny,
                         double residual_cny, double annuity_cny = 0, int annuity_years = 0);

// ---------------------------------------------------------------------------------------------
// Comparison

/// The lowest utilisation in [0, 1] from which buying costs no more than renting, given
/// f(u) = buy(u) - rent(u) that is linear between `breakpoints` (sorted, 0 first, 1 last).
/// 0 when buying is cheaper even idle; nullopt when renting is cheaper even at 100%.
std::optional<double> break_even_utilization(const std::function<double(double)>& buy_minus_rent,
                                             const std::vector<double>& breakpoints);

/// The first year (1-based) whose cumulative buy cost is at or below the cumulative rent cost.
std::optional<int> break_even_year(const OptionCost& buy, const OptionCost& rent);

/// average_yearly / used GPU-hours per year; nullopt when nothing is used.
std::optional<double> cost_per_gpu_hour(double average_yearly_cny, double gpu_hours_per_year);

/// Cost of a run of `gpu_hours` at `cny_per_gpu_hour`.
double cost_per_run(double gpu_hours, double cny_per_gpu_hour);

/// `gpus` cards serving `tokens_per_second` together: cny_per_gpu_hour x gpus / (tokens/s x 3600)
/// x 1e6.
double cost_per_million_tokens(double cny_per_gpu_hour, int gpus, double tokens_per_second);

/// The GPU-hours a rental bills for a run of `hours` on `gpus` GPUs: whole billing units of
/// `unit_hours` each, at least one (prices.json rental.billing_unit_hours).
double billed_gpu_hours(double hours, int gpus, double unit_hours);

// ---------------------------------------------------------------------------------------------
// Hybrid

struct HybridCandidate {
  int servers = 0;
  double owned_gpu_hours_per_year = 0;
  double rented_gpu_hours_per_year = 0;
  double owned_average_yearly_cny = 0;
  double rented_average_yearly_cny = 0;
  double average_yearly_cny = 0;
};

struct HybridPlan {
  HybridCandidate best;
  std::vector<HybridCandidate> candidates;  // 0 .. max servers (a grid of ~200 when many)
  std::array<double, 12> owned_monthly{}, rented_monthly{};
};

/// Own k servers (k = 0 .. enough for the busiest month) and rent the rest of each month's
/// demand. An owned card delivers at most hours_per_month x owned_max_utilization a month.
/// Picks the k with the lowest average yearly cost (fewer servers on a tie).
/// `owned_cost(k, owned GPU-hours per year)` is the average yearly cost of owning k servers;
/// rented hours cost `rent_cny_per_gpu_hour`, plus `rent_fixed_cny_per_year` when any are rented.
HybridPlan optimise_hybrid(const std::array<double, 12>& demand_gpu_hours, int gpus_per_server,
                           double owned_max_utilization,
                           const std::function<double(int, double)>& owned_cost,
                           double rent_cny_per_gpu_hour, double rent_fixed_cny_per_year);

}  // namespace advisor
