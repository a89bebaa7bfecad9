// SPDX-License-Identifier: MIT
// The cost inputs and the prices of a recommendation's search, resolved once per advise(): the
// recommendation and its levers' what-ifs change the job, never the cost inputs, so every
// search prices the same GPU x count alike (plan/recommend.cpp).
#pragma once
#include <array>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "engine/cost_scenario.hpp"
#include "types/catalog.hpp"
#include "types/errors.hpp"
#include "types/request.hpp"

namespace advisor {

/// What pricing `count` GPUs of one kind needs, whatever the job: its power plan's figures,
/// the rates of renting and reserving, and the yearly cost of owning them at each place.
struct CountPrices {
  int servers = 0;
  double server_watts_full_load = 0;
  bool office_can_host = false;
  int life_years = 0;
  double busy = 0;  // bought cards: the share of hours they are busy (amortisation)
  // Renting and reserving, when offered for `count` GPUs (a provider's offers cap the GPUs it
  // can rent out: types/provider.hpp).
  std::optional<double> rent_cny_per_gpu_hour, reserved_cny_per_gpu_month;
  int rental_billed_gpus = 0;          // a cluster offer bills whole nodes
  int rental_minimum_months = 1;       // the offer's shortest term
  std::string_view rental_offer_kind;  // engine/rental_offers offer_kind_name()
  double rental_lead_time_days = 0;    // the offer's, in calendar days
  /// Owning the cards at one place (an IDC, then the office when it can host them).
  struct Owned {
    Facility facility = Facility::kIdc;
    double average_yearly_cny = 0;
    double cny_per_gpu_hour = 0;
    double purchase_cny = 0;    // the outlay: cards, servers (buy_totals' capex)
    double lead_time_days = 0;  // order to running cards (delivery, approval, move-in)
  };
  /// At most two places, held inline (a search prices ~200 counts per advise(); a vector
  /// allocated for each). Empty without a purchase price, or when buying is not asked.
  class OwnedPlaces {
   public:
    static constexpr std::size_t kMaxPlaces = 2;  // the IDC and the office
    const Owned* begin() const { return places_.data(); }
    const Owned* end() const { return places_.data() + size_; }
    void add(const Owned& o) {
      if (size_ == kMaxPlaces) broken_invariant("CountPrices: a third place to own cards");
      places_[size_++] = o;
    }

   private:
    std::array<Owned, kMaxPlaces> places_{};
    std::size_t size_ = 0;
  };
  OwnedPlaces owned;
};

/// The cost inputs of each GPU at each place, resolved once (what a scenario depends on besides
/// the request's cost settings is the GPU, the place and the platform the count needs: small or
/// full; with_count() adapts the rest), and the prices of each count priced. Holds `request`
/// and `catalog` by reference: only their cost settings and pinned hardware are read.
class SearchPrices {
 public:
  SearchPrices(const Request& request, const Catalog& catalog) : req_(request), catalog_(catalog) {}

  /// A GPU's cost inputs resolved for `count` (its platform).
  struct Places {
    const GpuSpec* gpu = nullptr;
    int count = 0;                      // the count they were resolved for
    const CostScenario* idc = nullptr;  // in an IDC (any count: with_count())
  };
  Places places(const GpuSpec& gpu, int count);

  /// The request with `gpu` x `count` costed at the place the plan uses.
  CostScenario at(const GpuSpec& gpu, int count, bool office) {
    return with_count(resolved(gpu, count, office), count, req_.cost);
  }

  /// A floor under the cost of any training plan of `gpu` (Search::price) that runs at least
  /// `gpu_hours` GPU-hours on at least `min_count` GPUs: renting pays every GPU-hour; reserving
  /// pays whole months, at least one for each GPU; owning pays owned_rate_floor() per hour.
  /// +infinity when nothing prices the part; -infinity when no floor is safe. `buy` as for
  /// prices().
  double training_cost_floor(const GpuSpec& gpu, int min_count, double gpu_hours, bool buy);

  /// `count` GPUs priced at the places `at`. `training`: bought cards are busy the cost
  /// inputs' utilisation (serving: the request's, else around the clock). `buy`: whether owning
  /// them is priced (a China-only search skips parts not sold there).
  const CountPrices& prices(const Places& at, int count, bool training, bool buy);

  /// The yearly cost of owning `count` GPUs of `at` at `facility`, busy `busy` of the hours: a
  /// job cadence's share (prices() prices them at the cost inputs' utilisation).
  double owned_yearly_cny(const Places& at, int count, Facility facility, double busy);

 private:
  const CostScenario& resolved(const GpuSpec& gpu, int count, bool office);
  CountPrices price(const Places& at, int count, bool training, bool buy);
  /// The request's cost settings with the cards in the office.
  const CostRequest& in_office();

  const Request& req_;
  const Catalog& catalog_;
  std::map<std::tuple<const GpuSpec*, const PlatformDefaults*, bool>, CostScenario> resolved_;
  std::map<std::tuple<const CostScenario*, int, bool, bool>, CountPrices> priced_;
  // The first scenario resolved in an IDC and in the office (std::map keeps it in place).
  const CostScenario* first_in_idc_ = nullptr;
  const CostScenario* first_in_office_ = nullptr;
  std::optional<CostRequest> in_office_;
};

}  // namespace advisor
