// SPDX-License-Identifier: MIT
#include "validation_api.hpp"

#include <optional>

#include "api.hpp"
#include "engine/power_limit.hpp"
#include "io/json_reader.hpp"
#include "io/request_json.hpp"
#include "io/validation_json.hpp"
#include "plan/plan.hpp"
#include "plan/validation_figures.hpp"
#include "types/errors.hpp"
#include "validation/check.hpp"
#include "validation/check_servers.hpp"

namespace advisor {

namespace {

struct Prepared {
  // The catalog the plan was made on when the request caps its GPU's power (the plan points
  // into it); nullptr: the caller's.
  std::shared_ptr<const Catalog> capped;
  Plan plan;
  validation::ValidationPlan validation;
};

const validation::NgcCatalog& ngc_catalog() {
  static const validation::NgcCatalog tags = read_builtin(
      "ngc.json", [] { return validation::parse_ngc_catalog(validation::builtin_ngc_json()); });
  return tags;
}

const std::map<std::string, validation::PartFacts>& part_facts() {
  static const auto parts = read_builtin("validation.json", [] {
    return validation::parse_part_facts(validation::builtin_validation_json());
  });
  return parts;
}

/// The request's plans; empty after a reported problem (the catalog's own included).
Prepared prepare(const std::string& request_text, const Catalog& catalog) {
  if (problem_reported()) return {};  // the catalog's own
  Request req = parse_request(parse_json_text(request_text, ""), catalog);
  if (problem_reported()) return {};
  if (!req.hardware) {
    // Validate the plan the advisor recommends.
    const Plan first = make_plan(req, catalog);
    if (problem_reported()) return {};
    ADVISOR_REQUIRE(
        first.recommendation && first.recommendation->best, "inconsistent", "/hardware",
        "/hardware: no GPU is pinned and no plan is recommended, so there is nothing to "
        "validate: pin the hardware you received");
    const CandidatePlan& best = *first.recommendation->best;
    req.hardware =
        Hardware{best.gpu->id, best.gpus, true, best.deployment, best.facility, std::nullopt};
    // Bought cards run where the plan puts them (a pinned facility is /power/facility).
    if (best.deployment == Deployment::kBuy) req.cost.power.facility = best.facility;
    if (best.facility == Facility::kOffice) req.cost.power.rack_kw.reset();
  }
  std::shared_ptr<const Catalog> capped = catalog_at_power_limit(req, catalog);
  const Catalog& used = capped ? *capped : catalog;
  Prepared out{capped, make_plan(req, used), {}};
  if (problem_reported()) return {};
  const GpuSpec& gpu = *used.find_gpu(req.hardware->gpu);
  out.validation = validation::build_validation_plan(
      validation_gpu_facts(gpu), validation_part_facts(gpu, part_facts()), ngc_catalog(),
      validation_figures(req, used, out.plan));
  return out;
}

}  // namespace

ValidationBundle validation_bundle(const std::string& request_text, const Catalog& catalog) {
  Prepared p = prepare(request_text, catalog);
  if (problem_reported()) return {};  // no scripts for a plan that was not made
  ValidationBundle b{std::move(p.validation), {}};
  b.files = validation::generate_scripts(b.plan);
  return b;
}

std::string validation_scripts_text(const std::string& request_text, const DataSource& source,
                                    bool* ok) {
  return guarded(ok, [&] {
    const ValidationBundle b = validation_bundle(request_text, *catalog_for(source));
    if (problem_reported()) return std::string();
    return validation::scripts_json(b.plan, b.files);
  });
}

std::string validation_check_text(const std::string& request_text, const std::string& file_text,
                                  const std::string& file_name, const DataSource& source, bool* ok,
                                  bool* failed) {
  return guarded(ok, [&] {
    const Prepared p = prepare(request_text, *catalog_for(source));
    if (problem_reported()) return std::string();  // no file read against a plan not made
    const validation::Measurements m =
        validation::read_measurements(file_text, file_name, p.validation);
    if (problem_reported()) return std::string();
    const validation::CheckReport report =
        validation::check_measurements(p.validation, m, validation_cost_inputs(p.plan));
    // The scripts' rule (90_summary.sh exits 1 on any FAIL line): check_measurements folds
    // every script line into the report, so its overall status is that verdict.
    if (failed) *failed = report.overall == validation::Status::fail;
    return validation::check_report_json(report);
  });
}

std::string validation_check_servers_text(
    const std::string& request_text,
    const std::vector<std::pair<std::string, std::string>>& named_files, const DataSource& source,
    bool* ok, bool* failed) {
  return guarded(ok, [&] {
    const Prepared p = prepare(request_text, *catalog_for(source));
    if (problem_reported()) return std::string();  // no file read against a plan not made
    std::vector<validation::Measurements> files;
    for (const auto& [name, text] : named_files) {
      files.push_back(validation::read_measurements(text, name, p.validation));
      if (problem_reported()) return std::string();  // the first bad file is the answer
    }
    const validation::ClusterReport report =
        validation::check_servers(p.validation, files, validation_cost_inputs(p.plan));
    if (failed) *failed = report.overall == validation::Status::fail;
    return validation::cluster_report_json(report);
  });
}

}  // namespace advisor
