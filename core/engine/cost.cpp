// SPDX-License-Identifier: MIT
#include "engine/cost.hpp"

#include <algorithm>
#include <cmath>

#include "types/checked.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {
std::string cny(double v) { return format_number(std::round(v * 100) / 100) + " CNY"; }
std::string pct(double fraction) { return format_number(fraction * 100) + "%"; }
}  // namespace

double effective_peak_price(double peak, double multiplier, double critical_hours,
                            double peak_hours, double critical_days) {
  if (peak_hours <= 0) return peak;
  return peak * (1 + (multiplier - 1) * critical_hours / peak_hours * critical_days / kDaysPerYear);
}

namespace {
struct Period {
  const char* name;
  double price;
  double hours;
};

std::array<Period, 3> periods_of(const Tariff& t) {
  return {{{"peak", t.peak_cny_per_kwh, t.peak_hours},
           {"flat", t.flat_cny_per_kwh, t.flat_hours},
           {"valley", t.valley_cny_per_kwh, t.valley_hours}}};
}

/// Period indexes from cheapest to dearest (stable: valley before flat before peak on ties).
/// An insertion sort, stable like std::stable_sort, which allocates a buffer on every call
/// (hundreds per advise(): every plan priced works out its energy).
std::array<int, 3> cheapest_first(const std::array<Period, 3>& p) {
  std::array<int, 3> order{2, 1, 0};
  for (std::size_t i = 1; i < order.size(); ++i)
    for (std::size_t j = i; j > 0 && p[order[j]].price < p[order[j - 1]].price; --j)
      std::swap(order[j], order[j - 1]);
  return order;
}
}  // namespace

EnergyResult yearly_energy(const EnergyInputs& in) {
  const auto p = periods_of(in.tariff);
  const double busy = 24 * in.utilization;
  std::array<double, 3> greedy{0, 0, 0};
  double left = busy;
  for (int i : cheapest_first(p)) {
    greedy[i] = std::min(left, p[i].hours);
    left -= greedy[i];
  }
  EnergyResult r;
  if (in.with_periods) r.periods.reserve(3);
  for (int i = 0; i < 3; ++i) {
    PeriodUse u;
    u.period = p[i].name;
    u.price_cny_per_kwh = p[i].price;
    const double even = busy * p[i].hours / 24;
    u.busy_hours_per_day = (1 - in.valley_shift_share) * even + in.valley_shift_share * greedy[i];
    u.idle_hours_per_day = std::max(0.0, p[i].hours - u.busy_hours_per_day);
    const double it_kwh =
        (u.busy_hours_per_day * in.busy_watts + u.idle_hours_per_day * in.idle_watts) / 1000 *
        kDaysPerYear;
    u.facility_kwh_per_year = it_kwh * in.pue;
    u.cny_per_year = u.facility_kwh_per_year * u.price_cny_per_kwh;
    r.it_kwh_per_year += it_kwh;
    r.facility_kwh_per_year += u.facility_kwh_per_year;
    r.cny_per_year += u.cny_per_year;
    if (in.with_periods) r.periods.push_back(u);
  }
  r.average_cny_per_kwh =
      r.facility_kwh_per_year > 0 ? r.cny_per_year / r.facility_kwh_per_year : 0;
  return r;
}

std::vector<double> energy_breakpoints(const Tariff& tariff) {
  const auto p = periods_of(tariff);
  std::vector<double> points{0};
  double hours = 0;
  for (int i : cheapest_first(p)) {
    hours += p[i].hours;
    const double u = hours / 24;
    if (u > points.back() + 1e-12 && u < 1 - 1e-12) points.push_back(u);
  }
  points.push_back(1);
  return points;
}

namespace {

/// How the purchase is paid: in cash in year 1, or as equal payments over the first years.
struct Purchase {
  double capex_cny = 0, residual_cny = 0;
  double annuity_cny = 0;  // financed: each year's payment (0: cash)
  int annuity_years = 0;
  double paid() const { return annuity_years > 0 ? annuity_cny * annuity_years : capex_cny; }
  double in_year(int y) const {
    if (annuity_years > 0) return y <= annuity_years ? annuity_cny : 0;
    return y == 1 ? capex_cny : 0;
  }
};

/// The cash by year, summed: the average minus the straight-line hardware and interest shares,
/// plus the purchase (in year 1, or its payments) and the resale credit in the last year (sums
/// to average x years, up to rounding). `yearly` and `cumulative`, when given, receive each
/// year's cash and running sum.
double lifetime_cash(double average_yearly, int years, const Purchase& buy,
                     std::vector<double>* yearly = nullptr,
                     std::vector<double>* cumulative = nullptr) {
  const double purchase_per_year = (buy.paid() - buy.residual_cny) / years;
  const double running = average_yearly - purchase_per_year;
  double total = 0;
  for (int y = 1; y <= years; ++y) {
    double v = running + buy.in_year(y);
    if (y == years) v -= buy.residual_cny;
    total += v;
    if (yearly) yearly->push_back(v);
    if (cumulative) cumulative->push_back(total);
  }
  return total;
}

/// The sum of the line items' yearly amounts, added in their order (as finish_option does).
template <std::size_t N>
double sum_in_order(const std::array<double, N>& yearly) {
  double sum = 0;
  for (double v : yearly) sum += v;
  return sum;
}

/// The figures of buying: capex, residual and the line items' yearly amounts, in the order of
/// buy_cost's items (one home for the formulas; buy_cost describes them, buy_cost_totals sums).
struct BuyAmounts {
  double capex = 0, residual = 0;
  double annuity = 0;  // financed: the yearly payment over annuity_years
  int annuity_years = 0;
  // hardware, colocation, electricity, network, operations, spares_and_failures, interest
  std::array<double, 7> yearly{};
  Purchase purchase() const { return {capex, residual, annuity, annuity_years}; }
};

BuyAmounts buy_amounts(const BuyInputs& in) {
  BuyAmounts a;
  a.capex = in.servers * in.platform_price_cny + in.gpus * in.gpu_price_cny;
  a.residual = a.capex * in.residual_fraction;
  if (in.financing_term_years > 0) {
    a.annuity_years = std::min(in.financing_term_years, in.life_years);
    a.annuity = annuity_payment(a.capex, in.financing_rate, a.annuity_years);
  }
  const double interest = a.annuity_years > 0 ? a.annuity * a.annuity_years - a.capex : 0;
  a.yearly = {(a.capex - a.residual) / in.life_years,
              in.colocation_cny_per_year,
              in.electricity_cny_per_year,
              in.network_cny_per_year,
              in.operations_by_staff ? in.staff_fte * in.staff_cny_per_year
                                     : a.capex * in.operations_capex_share,
              a.capex * in.spares_share,
              interest / in.life_years};
  return a;
}

/// GPU-hours a year rented on demand.
double rented_gpu_hours(const RentInputs& in) { return in.gpus * kHoursPerYear * in.utilization; }
/// The yearly data transfer (egress) of a rented plan.
double egress_yearly(double tb_per_month, double cny_per_tb) {
  return tb_per_month * 12 * cny_per_tb;
}
/// Renting's line items' yearly amounts: the GPU-hours used, then the data transfer.
std::array<double, 2> rent_amounts(const RentInputs& in) {
  return {rented_gpu_hours(in) * in.cny_per_gpu_hour,
          egress_yearly(in.egress_tb_per_month, in.egress_cny_per_tb)};
}

}  // namespace

double annuity_payment(double principal, double rate, int years) {
  if (years <= 0) return principal;
  if (rate <= 0) return principal / years;
  return principal * rate / (1 - std::pow(1 + rate, -years));
}

OptionCost finish_option(std::vector<LineItem> items, int years, double capex_cny,
                         double residual_cny, double annuity_cny, int annuity_years) {
  OptionCost c;
  c.line_items = std::move(items);
  for (const LineItem& i : c.line_items) c.average_yearly_cny += i.yearly_cny;
  c.capex_cny = capex_cny;
  c.residual_cny = residual_cny;
  c.annuity_cny = annuity_cny;
  c.annuity_years = annuity_years;
  c.yearly_cny.reserve(std::max(years, 0));
  c.cumulative_cny.reserve(std::max(years, 0));
  c.lifetime_cny = lifetime_cash(c.average_yearly_cny, years,
                                 {capex_cny, residual_cny, annuity_cny, annuity_years},
                                 &c.yearly_cny, &c.cumulative_cny);
  return c;
}

namespace {
/// The financing's interest, averaged over the life: the payments less the capex.
LineItem interest_item(const BuyAmounts& a, const BuyInputs& in) {
  const double paid = a.annuity * a.annuity_years;
  return {"financing_interest",
          a.yearly[6],
          format_number(a.annuity_years) + " payment(s) of " + cny(a.annuity) + " at " +
              pct(in.financing_rate) + " a year repay capex " + cny(a.capex) + ": interest " +
              cny(paid - a.capex) + " over " + std::to_string(in.life_years) + " years",
          "annuity_interest",
          {param("payments", a.annuity_years), param("payment_cny", a.annuity),
           param("rate_share", in.financing_rate), param("capex_cny", a.capex),
           param("interest_cny", paid - a.capex), param("years", in.life_years)}};
}
}  // namespace

OptionCost buy_cost(const BuyInputs& in) {
  const BuyAmounts a = buy_amounts(in);
  const double capex = a.capex;
  std::vector<LineItem> items;
  items.reserve(6);
  items.push_back({"hardware",
                   a.yearly[0],
                   "capex " + cny(capex) + " (" + std::to_string(in.servers) + " server(s) x " +
                       cny(in.platform_price_cny) + " + " + std::to_string(in.gpus) + " GPU(s) x " +
                       cny(in.gpu_price_cny) + ") less residual " + pct(in.residual_fraction) +
                       ", straight-line over " + std::to_string(in.life_years) + " years",
                   "capex_straight_line",
                   {param("capex_cny", capex), param("servers", in.servers),
                    param("platform_cny", in.platform_price_cny), param("gpus", in.gpus),
                    param("gpu_cny", in.gpu_price_cny),
                    param("residual_share", in.residual_fraction), param("years", in.life_years)}});
  items.push_back({"colocation", a.yearly[1], in.colocation_basis, in.colocation_note.code,
                   in.colocation_note.params});
  items.push_back({"electricity", a.yearly[2], in.electricity_basis, in.electricity_note.code,
                   in.electricity_note.params});
  items.push_back(
      {"network", a.yearly[3], in.network_basis, in.network_note.code, in.network_note.params});
  if (in.operations_by_staff) {
    items.push_back(
        {"operations",
         a.yearly[4],
         format_number(in.staff_fte) + " FTE x " + cny(in.staff_cny_per_year) + " per year",
         "staff",
         {param("fte", in.staff_fte), param("staff_cny", in.staff_cny_per_year)}});
  } else {
    items.push_back({"operations",
                     a.yearly[4],
                     pct(in.operations_capex_share) + " of capex per year",
                     "share_of_capex",
                     {param("capex_share", in.operations_capex_share)}});
  }
  items.push_back({"spares_and_failures",
                   a.yearly[5],
                   pct(in.spares_share) + " of capex per year",
                   "share_of_capex",
                   {param("capex_share", in.spares_share)}});
  if (a.annuity_years > 0) items.push_back(interest_item(a, in));
  return finish_option(std::move(items), in.life_years, capex, a.residual, a.annuity,
                       a.annuity_years);
}

OptionTotals buy_cost_totals(const BuyInputs& in) {
  const BuyAmounts a = buy_amounts(in);
  const double average = sum_in_order(a.yearly);
  return {average, lifetime_cash(average, in.life_years, a.purchase()), a.capex};
}

namespace {
LineItem egress_item(double tb_per_month, double cny_per_tb) {
  return {"data_transfer",
          egress_yearly(tb_per_month, cny_per_tb),
          format_number(tb_per_month) + " TB/month x 12 x " + cny(cny_per_tb) + "/TB",
          "egress",
          {param("tb_per_month", tb_per_month), param("cny_per_tb", cny_per_tb)}};
}
}  // namespace

OptionCost rent_cost(const RentInputs& in) {
  const double hours = rented_gpu_hours(in);
  std::vector<LineItem> items;
  items.push_back({"gpu_hours",
                   rent_amounts(in)[0],
                   std::to_string(in.gpus) + " GPU(s) x 8760 h x " + pct(in.utilization) +
                       " used = " + format_number(hours) + " GPU-hours x " +
                       cny(in.cny_per_gpu_hour) + " (only hours used are paid)",
                   "rent_hours_used",
                   {param("gpus", in.gpus), param("hours_per_year", kHoursPerYear),
                    param("utilization_share", in.utilization), param("gpu_hours", hours),
                    param("cny_per_gpu_hour", in.cny_per_gpu_hour)}});
  items.push_back(egress_item(in.egress_tb_per_month, in.egress_cny_per_tb));
  return finish_option(std::move(items), in.years, 0, 0);
}

OptionTotals rent_cost_totals(const RentInputs& in) {
  const double average = sum_in_order(rent_amounts(in));
  return {average, lifetime_cash(average, in.years, {})};
}

namespace {
/// Reserving's line items' yearly amounts: the GPU-months, then the data transfer.
std::array<double, 2> reserved_amounts(const ReservedInputs& in) {
  return {in.gpus * 12 * in.cny_per_gpu_month,
          egress_yearly(in.egress_tb_per_month, in.egress_cny_per_tb)};
}
}  // namespace

OptionCost reserved_cost(const ReservedInputs& in) {
  std::vector<LineItem> items;
  items.push_back({"gpu_months",
                   reserved_amounts(in)[0],
                   std::to_string(in.gpus) + " GPU(s) x 12 months x " + cny(in.cny_per_gpu_month) +
                       " (paid whether used or not)",
                   "reserved_months",
                   {param("gpus", in.gpus), param("cny_per_gpu_month", in.cny_per_gpu_month)}});
  items.push_back(egress_item(in.egress_tb_per_month, in.egress_cny_per_tb));
  return finish_option(std::move(items), in.years, 0, 0);
}

OptionTotals reserved_cost_totals(const ReservedInputs& in) {
  const double average = sum_in_order(reserved_amounts(in));
  return {average, lifetime_cash(average, in.years, {})};
}

std::optional<double> break_even_utilization(const std::function<double(double)>& f,
                                             const std::vector<double>& points) {
  double a = points.front();
  double fa = f(a);
  if (fa <= 0) return a;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double b = points[i];
    const double fb = f(b);
    if (fb <= 0) return a + (b - a) * fa / (fa - fb);  // exact: f is linear on [a, b]
    a = b;
    fa = fb;
  }
  return std::nullopt;
}

std::optional<int> break_even_year(const OptionCost& buy, const OptionCost& rent) {
  const std::size_t n = std::min(buy.cumulative_cny.size(), rent.cumulative_cny.size());
  for (std::size_t y = 0; y < n; ++y)
    if (buy.cumulative_cny[y] <= rent.cumulative_cny[y]) return static_cast<int>(y) + 1;
  return std::nullopt;
}

std::optional<double> cost_per_gpu_hour(double average_yearly_cny, double gpu_hours_per_year) {
  if (gpu_hours_per_year <= 0) return std::nullopt;
  return average_yearly_cny / gpu_hours_per_year;
}

double cost_per_run(double gpu_hours, double cny_per_gpu_hour) {
  return gpu_hours * cny_per_gpu_hour;
}

double billed_gpu_hours(double hours, int gpus, double unit_hours) {
  // A run billed to the second is not billed a fraction of a second more: 1e-9 of a unit is
  // rounding of the hours, not a further unit.
  constexpr double kSlack = 1e-9;
  const double units = std::max(1.0, std::ceil(hours / unit_hours - kSlack));
  return units * unit_hours * gpus;
}

double cost_per_million_tokens(double cny_per_gpu_hour, int gpus, double tokens_per_second) {
  return cny_per_gpu_hour * gpus / (tokens_per_second * 3600) * 1e6;
}

HybridPlan optimise_hybrid(const std::array<double, 12>& demand, int gpus_per_server,
                           double owned_max_utilization,
                           const std::function<double(int, double)>& owned_cost, double rent_price,
                           double rent_fixed) {
  const double per_server_month = gpus_per_server * kHoursPerMonth * owned_max_utilization;
  const double peak = *std::max_element(demand.begin(), demand.end());
  const int max_servers =
      checked_int(std::ceil(peak / per_server_month - 1e-9), "/cost/monthly_demand_gpu_hours",
                  "the servers the busiest month needs", 0, static_cast<int>(limits::kMaxUnits));
  auto evaluate = [&](int k) {
    HybridCandidate c;
    c.servers = k;
    for (double d : demand) {
      const double owned = std::min(d, k * per_server_month);
      c.owned_gpu_hours_per_year += owned;
      c.rented_gpu_hours_per_year += d - owned;
    }
    c.owned_average_yearly_cny = k > 0 ? owned_cost(k, c.owned_gpu_hours_per_year) : 0;
    c.rented_average_yearly_cny = c.rented_gpu_hours_per_year * rent_price +
                                  (c.rented_gpu_hours_per_year > 0 ? rent_fixed : 0);
    c.average_yearly_cny = c.owned_average_yearly_cny + c.rented_average_yearly_cny;
    return c;
  };
  HybridPlan plan;
  bool have = false;
  auto consider = [&](const HybridCandidate& c) {
    if (!have || c.average_yearly_cny < plan.best.average_yearly_cny ||
        (c.average_yearly_cny == plan.best.average_yearly_cny && c.servers < plan.best.servers)) {
      plan.best = c;
      have = true;
    }
  };
  // Every count when there are few; else a grid of about 200 counts (the curve is a fixed cost
  // per server plus a convex rental cost, near-convex but for rack steps), then finer grids
  // around the best point down to every count: at most ~400 evaluations per level, so the work
  // stays bounded (every count around the first grid's best was 1.4 million evaluations at
  // 10^9 GPU-hours a month).
  constexpr int kExhaustive = 400;
  const int step = max_servers <= kExhaustive ? 1 : (max_servers + 199) / 200;
  for (int k = 0;; k = std::min(k + step, max_servers)) {
    const HybridCandidate c = evaluate(k);
    plan.candidates.push_back(c);
    consider(c);
    if (k == max_servers) break;
  }
  for (int window = step; window > 1;) {
    const int centre = plan.best.servers;
    const int lo = std::max(0, centre - window + 1);
    const int hi = std::min(max_servers, centre + window - 1);
    const int fine = (hi - lo + 399) / 400;  // 1 once the window holds at most 400 counts
    for (int k = lo; k <= hi; k += fine)
      if (k != centre) consider(evaluate(k));
    window = fine;
  }
  for (std::size_t m = 0; m < 12; ++m) {
    plan.owned_monthly[m] = std::min(demand[m], plan.best.servers * per_server_month);
    plan.rented_monthly[m] = demand[m] - plan.owned_monthly[m];
  }
  return plan;
}

}  // namespace advisor
