// SPDX-License-Identifier: MIT
#include "io/hardware_json.hpp"

#include "io/json_reader.hpp"
#include "types/catalog.hpp"
#include "types/errors.hpp"
#include "types/perf_constants.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

/// /hardware/power_limit_w on `gpu`: a cap (not a raised limit) no lower than the clock model
/// holds (performance.json power_limit). Outside, the limit contradicts the part chosen
/// (`inconsistent`: the form's static range, 0-5,000 W, is not what it breaks).
void check_power_limit(double watts, const GpuSpec& gpu, const PerformanceConstants& k) {
  const std::string p = "/hardware/power_limit_w";
  const std::string given = p + " " + trimmed_decimal(watts, 1) + " W";
  ADVISOR_REQUIRE_OR_RETURN(
      watts <= gpu.tdp_watts, "inconsistent", p,
      given + " is above the " + gpu.name + "'s TDP of " + trimmed_decimal(gpu.tdp_watts, 1) +
          " W: the advisor models parts capped below their TDP, not raised limits");
  const double lowest = gpu.tdp_watts * k.power_limit_min_fraction;
  ADVISOR_REQUIRE_OR_RETURN(watts >= lowest, "inconsistent", p,
                            given + " is below " + trimmed_decimal(lowest, 1) + " W (" +
                                trimmed_decimal(k.power_limit_min_fraction * 100, 1) + "% of the " +
                                gpu.name + "'s TDP of " + trimmed_decimal(gpu.tdp_watts, 1) +
                                " W), the lowest limit the clock model holds for");
}

}  // namespace

/// /hardware: the pinned GPU, its count, and where and how it is had.
std::optional<Hardware> read_hardware(const JsonValue* hw, const Catalog& catalog) {
  if (hw == nullptr) return std::nullopt;
  FieldReader h(*hw, "/hardware");
  Hardware pinned;
  pinned.gpu = h.string("gpu");
  const GpuSpec* gpu = catalog.find_gpu(pinned.gpu);
  if (gpu == nullptr) {  // no part to check the rest against
    report_problem("unknown_gpu", "/hardware/gpu",
                   "/hardware/gpu " + in_quotes(pinned.gpu) +
                       " is not in the GPU catalog; known: " + known_ids(catalog.gpus));
    return std::nullopt;  // not `return report_problem()`: an optional of Failed is engaged
  }
  pinned.count_given = h.has("count");
  pinned.count = static_cast<int>(h.integer("count", 1, kMaxGpuCount, 1));
  pinned.deployment = h.nullable_choice("deployment", kDeploymentNames);
  pinned.facility = h.nullable_choice("facility", kFacilityNames);
  pinned.power_limit_w = h.nullable_number("power_limit_w", 0, kMaxTdpWatts, true);
  h.reject_unknown();
  if (pinned.power_limit_w) check_power_limit(*pinned.power_limit_w, *gpu, catalog.performance);
  const bool rented = pinned.deployment && *pinned.deployment != Deployment::kBuy;
  if (rented && pinned.facility && *pinned.facility != Facility::kIdc)
    report_problem("inconsistent", "/hardware/facility",
                   "/hardware/facility " + in_quotes(name_of(*pinned.facility)) +
                       ": rented GPUs run in the provider's data centre (\"idc\"); set "
                       "/hardware/deployment to \"buy\" to own them there");
  return pinned;
}

/// A pinned facility is where the cost section and the recommendation place bought cards: the
/// request's /power/facility (set here, before the power section is read and checked), which
/// must then say the same.
void pin_facility(const std::optional<Hardware>& hw, JsonValue& cost_sections) {
  if (!hw || !hw->facility) return;
  const std::string pinned = name_of(*hw->facility);
  JsonValue* power = cost_sections.find("power");
  const JsonValue* stated = power ? power->find("facility") : nullptr;
  if (stated && !stated->is_null()) {
    // Not a string: the power section's reader says so, at its own path.
    if (!stated->is_string() || stated->string() == pinned) return;
    report_problem("inconsistent", "/hardware/facility",
                   "/hardware/facility " + in_quotes(pinned) +
                       " contradicts /power/facility: give one of them");
    return;
  }
  if (power == nullptr) {
    cost_sections.set("power", JsonValue::object());
    power = cost_sections.find("power");
  }
  ADVISOR_REQUIRE_OR_RETURN(power->is_object(), "wrong_type", "/power", "/power must be an object");
  power->set("facility", JsonValue(pinned));
}

}  // namespace advisor
