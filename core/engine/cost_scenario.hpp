// SPDX-License-Identifier: MIT
// A cost scenario resolved from the request and the price catalog: every default of
// data/prices.json or the request's override of it (recorded with its source) for one GPU type,
// count and site, and the catalog look-ups it rests on (the site, the platform, GPUs per
// server). engine/cost_inputs prices a scenario.
#pragma once
#include <string>

#include "engine/cost_inputs.hpp"

namespace advisor {

/// Resolves the request's settings against the price catalog for `gpu` x `gpus` at `site_id`.
/// `pinned`: the request pinned this GPU, so GPU-specific overrides apply to it. Site-specific
/// overrides (electricity, colocation price) apply only to the request's own site.
/// `record`: fill defaults_used (the main plan); searches skip it.
CostScenario resolve_scenario(const CostRequest& request, const PriceCatalog& prices,
                              const GpuSpec& gpu, int gpus, bool pinned, const std::string& site_id,
                              bool record = true);

/// The scenario for another count of the same GPU at the same site (what depends on the count:
/// the count, and a utilisation implied by a demand profile). Cheaper than resolving anew.
CostScenario with_count(CostScenario scenario, int gpus, const CostRequest& request);

/// The utilisation with_count() gives the scenario for `gpus`: the request's or the default,
/// else the demand profile's spread over `gpus` (never higher for more GPUs).
double utilization_at(const CostScenario& scenario, int gpus, const CostRequest& request);

/// resolve_scenario() of `gpu` x `gpus` (nothing recorded) from `other`, resolved with the
/// same request and site for another GPU: only the GPU's platform and prices are resolved
/// anew, the site's part is the same for every GPU. A search resolves ~40 GPUs at one site.
CostScenario with_gpu(const CostScenario& other, const CostRequest& request,
                      const PriceCatalog& prices, const GpuSpec& gpu, int gpus, bool pinned);

/// GPUs in one server for `gpu`: the request's /power/gpus_per_server when `gpu` is the pinned
/// GPU, else its form factor's platform in the price catalog. The one home of this fact: the
/// layout (servers), the interconnect (what is inside a server) and the power plan all read it.
/// `gpus` (when known, else 0): a plan that fits the form factor's small platform uses it.
int gpus_per_server(const CostRequest& request, const PriceCatalog& prices, const GpuSpec& gpu,
                    bool pinned, int gpus = 0);

/// The platform for `gpus` GPUs of the part: the form factor's small one when they fit it
/// (and the count is known), else the full one. Reports catalog_invalid when the form factor
/// has none.
const PlatformDefaults& platform_of(const PriceCatalog& prices, const GpuSpec& gpu, int gpus = 0);

/// Whether the part is sold new in mainland China without a US licence (its data/gpus.json
/// status is domestic, china-specific or not-known-restricted); else a grey import.
bool sold_new_in_china(const GpuSpec& gpu);

/// The site `id` of the price catalog (otherwise reports unknown_value at /cost/site and gives
/// a site of zero prices).
const SiteDefaults& site_of(const PriceCatalog& prices, const std::string& id);

}  // namespace advisor
