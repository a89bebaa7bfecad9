// SPDX-License-Identifier: MIT
// The answer first and its levers after: PlanPart::kAnswer's result completed with
// PlanPart::kLevers' levers is the whole result, for every golden request and under a provider.
#include <filesystem>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace {

using advisor::DataSource;
using advisor::PlanPart;
using nlohmann::json;

json answer_of(const std::string& request, const DataSource& source, PlanPart part) {
  bool ok = false;
  const json out = json::parse(advisor::advise_text(request, source, &ok, part));
  INFO(out.dump().substr(0, 300));
  REQUIRE(ok);
  return out;
}

/// The whole result equals the answer with the levers put back, and the answer says they are to
/// come.
void check_parts(const std::string& request, const DataSource& source) {
  const json whole = answer_of(request, source, PlanPart::kWhole);
  json answer = answer_of(request, source, PlanPart::kAnswer);
  const json levers = answer_of(request, source, PlanPart::kLevers);
  REQUIRE(levers.size() == 1);
  REQUIRE(levers.at("levers").is_array());
  CHECK(whole.at("recommendation").at("levers") == levers.at("levers"));
  json& rec = answer.at("recommendation");
  CHECK(rec.at("levers") == json::array());
  CHECK(rec.at("levers_later") == true);
  CHECK_FALSE(whole.at("recommendation").contains("levers_later"));
  rec.erase("levers_later");
  rec["levers"] = levers.at("levers");
  CHECK(answer == whole);
}

}  // namespace

TEST_CASE("the answer and its levers in two calls are the whole result (every golden request)") {
  const std::vector<std::filesystem::path> requests = test::golden_requests();
  REQUIRE(requests.size() >= 30);
  int with_levers = 0;  // the equality tests the levers' own call only where there are some
  for (const auto& path : requests) {
    INFO(path.filename().string());
    const std::string request = test::read_file(path.string());
    check_parts(request, {});
    if (!json::parse(advisor::advise_text(request)).at("recommendation").at("levers").empty())
      ++with_levers;
  }
  CHECK(with_levers >= 3);
}

TEST_CASE("the answer and its levers in two calls under a provider's catalog") {
  const std::string provider = test::data_file("examples/provider-example.json");
  check_parts(test::request("full_finetune", "llama-3.1-8b").dump(), {{}, provider});
  check_parts(test::request("inference", "qwen2.5-72b").dump(), {{}, provider});
}
