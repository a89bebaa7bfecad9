// SPDX-License-Identifier: MIT
// The inputs of the power and cost models for one GPU type, count and site (every default or
// its override, with provenance), the power and rack plan, and each deployment's cost.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/cost.hpp"
#include "engine/power.hpp"
#include "engine/rental_offers.hpp"
#include "engine/vat.hpp"
#include "types/catalog.hpp"
#include "types/cost_settings.hpp"
#include "types/prices.hpp"
#include "types/text.hpp"

namespace advisor {

/// One default (or override) the plan used, as the page's editable price table shows it.
struct DefaultUsed {
  std::string key;   // prices.json key, e.g. "sites.shenzhen.electricity_flat_cny_per_kwh"
  double value = 0;  // in `unit` (CNY after conversion)
  std::string unit, basis, source, as_of;
  bool needs_confirmation = false;
  bool stale = false;         // as_of is older than kStalePriceMonths before the catalog's date
  bool overridden = false;    // the request set it
  std::string override_path;  // where the request sets it, e.g. "/cost/prices/usd_to_cny"
  std::vector<std::string> override_requires;  // inputs the override needs set with it
};

/// Every number the cost model needs for one GPU type, count and site, with its provenance.
struct CostScenario {
  const GpuSpec* gpu = nullptr;
  int gpus = 0;
  int gpus_per_server = 8;
  bool whole_board = false;  // SXM/OAM: GPUs ship on full baseboards (a server is bought full)
  std::string form_factor;
  // power
  double host_fixed_watts = 0, cooling_conversion_fraction = 0;
  double training_load_factor = 0.8, idle_load_factor = 0.2;
  Facility facility = Facility::kIdc;
  double pue = 1.5;
  int rack_units_usable = 38, server_rack_units = 8;
  double office_rack_kw_low = 3, office_rack_kw_high = 4;
  int office_racks = 1;
  std::optional<double> rack_kw_pinned;
  std::vector<std::pair<double, double>> rack_classes;  // kW, CNY per rack-month (site applied)
  std::optional<double> rack_price_override;
  // prices
  std::optional<double> gpu_price_cny;
  bool gpu_second_hand = false;  // the catalog's purchase price is a used card's
  // What `gpus` GPUs can rent (engine/rental_offers from `market`): on demand, by the month,
  // the GPUs billed (a cluster's whole nodes) and the shortest term in months.
  std::optional<double> rent_cny_per_gpu_hour, reserved_cny_per_gpu_month;
  int rental_billed_gpus = 0;
  int rental_minimum_months = 1;
  RentalOffer rental_offer = RentalOffer::kNone;
  RentalMarket market;
  double rental_billing_unit_hours = 1;  // an on-demand run is billed in whole units of this
  double platform_price_cny = 0;
  Tariff tariff;
  bool time_of_use = true;
  ColocationPricing colocation_pricing = ColocationPricing::kPerRack;
  double colocation_cny_per_kw_month = 0;
  bool colocation_includes_electricity = false;
  NetworkLine network_line = NetworkLine::kBgp;
  // The line: the request's Mbps, else per server; none for one workstation (its rack share
  // comes with the IDC's shared bandwidth): network_line_mbps().
  std::optional<double> network_mbps_stated;
  double network_mbps_per_server = 0, network_cny_per_mbps_month = 0;
  bool small_platform = false;  // the count fits the form factor's small platform
  double egress_tb_per_month = 0, egress_cny_per_tb = 0;
  bool operations_by_staff = false;
  double operations_capex_share = 0, staff_fte = 0, staff_cny_per_year = 0, spares_share = 0;
  int life_years = 5;
  double residual_fraction = 0;
  // Financing: the purchase repaid as an annuity at this rate over this term (0: cash).
  double financing_rate = 0;
  int financing_term_years = 0;
  // VAT: the rates, and whether the prices above count without it (deductible: every price
  // resolved here is then ex-VAT; the catalog's and the request's prices include it).
  VatTerms vat;
  // Lead times in calendar days: the purchase (delivery, and approval for an approval-only
  // part), the IDC rack move-in (0 in an office), and the rental the count rents.
  double purchase_lead_time_days = 0, move_in_days = 0, rental_lead_time_days = 0;
  double utilization = 0.6;
  std::string utilization_source;  // request | monthly_demand | default
  double valley_shift_share = 0;
  double owned_max_utilization = 0.9;
  double seventy_percent_rule = 0.7, seventy_percent_tolerance = 0.1;
  std::string site_id;
  std::vector<DefaultUsed> defaults_used;  // when resolved with `record`
  bool needs_confirmation = false;         // any default used is flagged
  bool site_needs_confirmation = false;    // any used for the GPU-independent rest is
};

/// Calendar days from order to running bought cards: the purchase's lead time and the rack
/// move-in (none in an office).
double owned_lead_time_days(const CostScenario& s);

/// The IDC line's Mbps for a plan of `servers` servers (0: no line).
double network_line_mbps(const CostScenario& s, int servers);

/// Power and racks for `gpus` GPUs of the scenario (rack class chosen when not pinned).
struct PowerPlan {
  int gpus = 0, servers = 0, gpus_in_largest_server = 0;
  double server_watts_full_load = 0, server_watts_typical = 0, server_watts_idle = 0;
  double fleet_watts_full_load = 0;
  RackFit racks;
  std::string_view rack_choice;  // request | cheapest_colocation | office (a literal)
  OfficeVerdict office;
  double rack_price_cny_per_month = 0;  // per rack (per_rack pricing)
  double colocation_cny_per_year = 0;
  double rack_share = 1;  // of one rack, when the plan fills part of it
};
PowerPlan plan_power(const CostScenario& s, int gpus);

/// Buy + colocate `gpus` GPUs used `utilization` of the time (energy detail in `energy`).
/// `plan` (optional) is plan_power(s, gpus) when the caller already has it: it does not depend
/// on utilisation, so solvers that vary only `utilization` compute it once.
OptionCost buy_option(const CostScenario& s, int gpus, double utilization,
                      EnergyResult* energy = nullptr, const PowerPlan* plan = nullptr);
/// buy_option's totals alone: what searches and summaries read (no line items, no texts;
/// `energy` without its periods).
OptionTotals buy_totals(const CostScenario& s, int gpus, double utilization,
                        EnergyResult* energy = nullptr, const PowerPlan* plan = nullptr);

/// A floor under cost_per_gpu_hour(buy_totals(s', n, utilization)) for any count n and any s'
/// that is `s` at another count, platform or place (the GPU's price and the ownership terms are
/// the same): the GPU's own price, amortised with its operations and spares shares. Every
/// other yearly item (servers, colocation, electricity, network, staff) is >= 0, and a board
/// part buys at least the GPUs it uses. -infinity when an input is out of the range that
/// argument needs (the request and catalog readers keep them in range).
double owned_rate_floor(const CostScenario& s, double utilization);

/// Yearly electricity of the scenario's fleet (`p`) used `utilization` of the time.
/// `with_periods`: with each tariff period's detail (else the totals alone).
EnergyResult energy_for(const CostScenario& s, const PowerPlan& p, double utilization,
                        bool with_periods = true);

/// Rent `gpus` on demand, used `utilization` of the time.
OptionCost rent_option(const CostScenario& s, int gpus, double utilization);
/// rent_option's totals alone.
OptionTotals rent_totals(const CostScenario& s, int gpus, double utilization);
/// Reserve `gpus` by the month (every card paid every month).
OptionCost reserved_option(const CostScenario& s, int gpus);
/// reserved_option's totals alone.
OptionTotals reserved_totals(const CostScenario& s, int gpus);
/// The lowest utilisation from which buying costs no more than renting (nullopt: never).
/// `plan` (optional) is plan_power(s, gpus) when the caller already has it.
std::optional<double> break_even(const CostScenario& s, int gpus, const PowerPlan* plan = nullptr);

/// Takes each default (or the request's override of it) and records it for defaults_used.
class Recorder {
 public:
  /// `out` may be null: values only, plus the flag of whether any used default is unconfirmed.
  Recorder(std::vector<DefaultUsed>* out, const PriceCatalog& prices,
           const std::optional<double>& usd_override)
      : out_(out), prices_(prices), usd_override_(usd_override) {}

  bool flagged() const { return flagged_; }
  /// Whether defaults are recorded (else only values and the flag: override paths unused).
  bool recording() const { return out_ != nullptr; }

  double usd_to_cny() const { return usd_override_ ? *usd_override_ : prices_.usd_to_cny.value; }

  double take(const PriceEntry& e, const std::optional<double>& override,
              std::string_view override_path = {}) {
    if (out_ == nullptr) {
      if (override) return *override;
      flagged_ =
          flagged_ || e.needs_confirmation ||
          (e.original_currency == "USD" && !usd_override_ && prices_.usd_to_cny.needs_confirmation);
      return value_of(e);
    }
    DefaultUsed d;
    d.key = e.key;
    d.unit = e.unit;
    d.basis = e.basis;
    d.as_of = e.as_of;
    d.override_path = std::string(override_path);
    if (override) {
      d.value = *override;
      d.overridden = true;
      d.source = "your input (default " + format_number(value_of(e)) + ", " + e.source + ")";
      d.needs_confirmation = false;
    } else {
      d.value = value_of(e);
      d.source = e.source;
      d.needs_confirmation = e.needs_confirmation;
      d.stale = older_than(e.as_of, prices_.as_of, kStalePriceMonths);
      if (e.original_currency == "USD") {
        d.basis += " (USD " + format_number(e.original_value) + " x " +
                   format_number(usd_to_cny()) + " CNY/USD)";
        // A converted price is only as certain as the rate it was converted with.
        d.needs_confirmation =
            d.needs_confirmation || (!usd_override_ && prices_.usd_to_cny.needs_confirmation);
      }
    }
    const double value = d.value;
    add(std::move(d));
    return value;
  }

  /// A value the request gave where the catalog has none.
  double user(const std::string& key, double value, const std::string& unit,
              const std::string& path) {
    if (out_ == nullptr) return value;
    DefaultUsed d;
    d.key = key;
    d.value = value;
    d.unit = unit;
    d.basis = "no catalog default";
    d.source = "your input";
    d.overridden = true;
    d.override_path = path;
    add(std::move(d));
    return value;
  }

  double value_of(const PriceEntry& e) const {
    return e.original_currency == "USD" ? e.original_value * usd_to_cny() : e.value;
  }

 private:
  void add(DefaultUsed&& d) {
    flagged_ = flagged_ || d.needs_confirmation;
    for (const DefaultUsed& x : *out_)
      if (x.key == d.key) return;
    out_->push_back(std::move(d));
  }
  std::vector<DefaultUsed>* out_;
  bool flagged_ = false;
  const PriceCatalog& prices_;
  std::optional<double> usd_override_;
};

}  // namespace advisor
