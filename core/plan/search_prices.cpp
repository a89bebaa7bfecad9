// SPDX-License-Identifier: MIT
#include "plan/search_prices.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/cost.hpp"
#include "types/units.hpp"

namespace advisor {

const CostScenario& SearchPrices::resolved(const GpuSpec& gpu, int count, bool office) {
  const PlatformDefaults* platform = &platform_of(catalog_.prices, gpu, count);
  auto [it, added] = resolved_.try_emplace({&gpu, platform, office});
  if (!added) return it->second;
  const bool pinned = req_.hardware && req_.hardware->gpu == gpu.id;
  const CostRequest& request = office ? in_office() : req_.cost;
  // The first GPU at a place resolves it all; the others only their own part (with_gpu()).
  const CostScenario*& first = office ? first_in_office_ : first_in_idc_;
  if (first == nullptr) {
    it->second =
        resolve_scenario(request, catalog_.prices, gpu, count, pinned, req_.cost.cost.site, false);
    first = &it->second;
  } else {
    it->second = with_gpu(*first, request, catalog_.prices, gpu, count, pinned);
  }
  return it->second;
}

const CostRequest& SearchPrices::in_office() {
  if (!in_office_) {
    in_office_ = req_.cost;
    in_office_->power.facility = Facility::kOffice;
    in_office_->power.rack_kw.reset();
  }
  return *in_office_;
}

SearchPrices::Places SearchPrices::places(const GpuSpec& gpu, int count) {
  return {&gpu, count, &resolved(gpu, count, false)};
}

const CountPrices& SearchPrices::prices(const Places& at, int count, bool training, bool buy) {
  auto [it, added] = priced_.try_emplace({at.idc, count, training, buy});
  if (added) it->second = price(at, count, training, buy);
  return it->second;
}

double SearchPrices::owned_yearly_cny(const Places& at, int count, Facility facility, double busy) {
  const bool office = facility == Facility::kOffice;
  const CostScenario& placed = office ? resolved(*at.gpu, at.count, true) : *at.idc;
  return buy_totals(placed, count, busy, nullptr, nullptr).average_yearly_cny;
}

double SearchPrices::training_cost_floor(const GpuSpec& gpu, int min_count, double gpu_hours,
                                         bool buy) {
  // A cadence shares a month of reserved or owned cards among its runs: no floor per run holds.
  if (req_.training.runs_per_month) return -std::numeric_limits<double>::infinity();
  // Every count and platform of the part has the same prices and ownership terms (they are
  // the GPU's and the site's): the scenario of the smallest count stands for all of them.
  const CostScenario& s = resolved(gpu, min_count, false);
  double floor = std::numeric_limits<double>::infinity();
  auto lower = [&](double cost) { floor = std::min(floor, cost); };
  // Any offer may rent some count (engine/rental_offers): the floor takes each one's rate.
  const RentalMarket& m = s.market;
  const double cluster_monthly = m.cluster ? m.cluster->cny_per_gpu_month : 0;
  const bool negative = m.host_cny_per_gpu_hour.value_or(0) < 0 ||
                        m.host_cny_per_gpu_month.value_or(0) < 0 || cluster_monthly < 0 ||
                        !(gpu_hours >= 0);
  if (negative) return -std::numeric_limits<double>::infinity();
  if (m.host_cny_per_gpu_hour) lower(gpu_hours * *m.host_cny_per_gpu_hour);
  for (const std::optional<double> monthly :
       {m.host_cny_per_gpu_month,
        m.cluster ? std::optional<double>(cluster_monthly) : std::nullopt}) {
    if (monthly) lower(std::max(gpu_hours / kHoursPerMonth * *monthly, min_count * *monthly));
  }
  if (buy && s.gpu_price_cny) {
    // Fewer busy hours per GPU for more GPUs (a demand profile) only raise the owned rate.
    const double owned = owned_rate_floor(s, utilization_at(s, min_count, req_.cost));
    if (owned == -std::numeric_limits<double>::infinity()) return owned;
    if (std::isfinite(owned)) lower(gpu_hours * owned);
  }
  return floor;
}

CountPrices SearchPrices::price(const Places& at, int count, bool training, bool buy) {
  // with_count() would change only the scenario's count and utilisation, and every cost below
  // takes both as arguments: the scenario is read where it is held, not copied per count.
  const CostScenario& s = *at.idc;
  const PowerPlan p = plan_power(s, count);
  CountPrices q;
  q.servers = p.servers;
  q.server_watts_full_load = p.server_watts_full_load;
  q.office_can_host = p.office.can_host;
  q.life_years = s.life_years;
  // Serving runs around the clock unless the request says otherwise.
  q.busy =
      training ? utilization_at(s, count, req_.cost) : req_.cost.cost.utilization.value_or(1.0);
  // A demand profile is capacity the team needs every month: cards that cannot deliver it are
  // no plan, rented, reserved or bought (the cost section refuses that count the same way).
  if (q.busy > 1 && req_.cost.cost.monthly_demand_gpu_hours) return q;
  const auto listed = catalog_.prices.gpus.find(at.gpu->id);
  auto supplies = [&](std::optional<std::int64_t> GpuPrices::*cap) {
    return listed == catalog_.prices.gpus.end() || !(listed->second.*cap) ||
           count <= *(listed->second.*cap);
  };
  // What this count rents: one marketplace host, or a multi-node offer's whole nodes.
  const RentalTerms terms = rental_terms(s.market, count);
  if (supplies(&GpuPrices::rental_gpus_available)) q.rent_cny_per_gpu_hour = terms.cny_per_gpu_hour;
  if (supplies(&GpuPrices::reserved_gpus_available))
    q.reserved_cny_per_gpu_month = terms.cny_per_gpu_month;
  q.rental_billed_gpus = std::max(count, terms.billed_gpus);
  q.rental_minimum_months = terms.minimum_months;
  q.rental_offer_kind = offer_kind_name(s.market, terms.offer);
  q.rental_lead_time_days = terms.lead_time_days;
  // Cards busier than every hour of the year cannot deliver the demand profile: no purchase of
  // this many is a plan (a count that delivers it is).
  if (!buy || !s.gpu_price_cny || q.busy > 1) return q;
  // Bought: the job's amortised share of owning the cards, busy `busy` of the hours.
  for (const bool office : {false, true}) {
    if (office && (!p.office.can_host || req_.cost.power.facility_stated ||
                   req_.cost.power.facility == Facility::kOffice))
      continue;
    const CostScenario& placed = office ? resolved(*at.gpu, at.count, true) : s;
    // The request's own place may be the office: only when it can host the servers.
    if (placed.facility == Facility::kOffice && !p.office.can_host) continue;
    // The IDC's power plan is the one above; the office's racks differ.
    const OptionTotals b = buy_totals(placed, count, q.busy, nullptr, office ? nullptr : &p);
    const std::optional<double> rate =
        cost_per_gpu_hour(b.average_yearly_cny, count * kHoursPerYear * q.busy);
    if (!rate) continue;
    q.owned.add({office ? Facility::kOffice : placed.facility, b.average_yearly_cny, *rate,
                 b.capex_cny, owned_lead_time_days(placed)});
  }
  return q;
}

}  // namespace advisor
