// SPDX-License-Identifier: MIT
// Errors as values (core/types/errors.hpp): the first problem of a step is the one answered, a
// scope of its own keeps a step's problem from its caller, and a failed read gives the rest of
// the step a value within the field's limits (never a NaN, an unchecked 0 or a null to follow).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "io/json_reader.hpp"
#include "io/json_text.hpp"
#include "io/json_writer.hpp"
#include "types/checked.hpp"
#include "types/errors.hpp"

using advisor::ProblemScope;
using advisor::report_problem;

namespace {

int refuses_twice() {
  ADVISOR_REQUIRE(false, "first", "/a", "the first");
  return 7;  // not reached
}

}  // namespace

TEST_CASE("the first problem of a step is the one kept", "[errors]") {
  const ProblemScope scope;
  CHECK_FALSE(scope.failed());
  CHECK(refuses_twice() == 0);  // ADVISOR_REQUIRE returned a value-initialised result
  report_problem("second", "/b", "the second");
  REQUIRE(scope.failed());
  CHECK(scope.problem().code() == "first");
  CHECK(scope.problem().path() == "/a");
  CHECK(std::string(scope.problem().what()) == "the first");
  CHECK(advisor::problem_reported());
}

TEST_CASE("a scope of its own keeps a step's problem from its caller", "[errors]") {
  const ProblemScope outer;
  std::optional<advisor::InputError> problem;
  const int value = advisor::in_own_scope(
      [] {
        report_problem("inner", "/x", "inside");
        return 3;
      },
      problem);
  CHECK(value == 3);
  REQUIRE(problem);
  CHECK(problem->code() == "inner");
  CHECK_FALSE(outer.failed());
  advisor::in_own_scope([] {}, problem);  // a step that reports nothing
  CHECK_FALSE(problem);
}

TEST_CASE("a failed read gives the rest of the step a value within the field's limits",
          "[errors]") {
  const ProblemScope scope;
  const advisor::JsonValue doc = advisor::parse_json_text(
      R"({"n": "x", "p": -1, "c": "h200", "t": 1.5, "o": 3})", "", 1 << 10);
  advisor::FieldReader r(doc, "");
  CHECK(r.number("n", 2, 10) == 2);                // wrong type: the minimum
  CHECK(r.number("p", 0, 50, {}, true) == 50);     // out of range, minimum excluded: the maximum
  CHECK(r.integer("t", 1, 8) == 1);                // not whole: the minimum
  CHECK(r.integer("missing", 3, 8) == 3);          // required and absent: the minimum
  CHECK(r.choice("c", {"buy", "rent"}) == "buy");  // not allowed: an allowed one
  CHECK_FALSE(r.nullable_number("o", 0, 1));       // out of range: none
  REQUIRE(scope.failed());
  CHECK(scope.problem().path() == "/n");
}

TEST_CASE("a refused conversion or figure leaves a usable value", "[errors]") {
  const ProblemScope scope;
  CHECK(advisor::checked_int(1e300, "/count", "cards") == 1);  // in range, and not 0 to divide by
  CHECK(advisor::checked_int(-5, "/count", "cards", 2, 9) == 2);
  CHECK(advisor::checked_finite(INFINITY, "/x", "a figure") == 0);
  CHECK(scope.problem().path() == "/count");
  // Not valid JSON: a located problem and a null document (its readers report nothing more).
  const ProblemScope text_scope;
  CHECK(advisor::parse_json_text("{\"a\": [", "/doc", 1 << 10).is_null());
  CHECK(text_scope.problem().code() == "malformed_json");
}

TEST_CASE("the writer refuses a non-finite figure as an internal_error, writing null", "[errors]") {
  const ProblemScope scope;
  advisor::JsonWriter w;
  w.begin_object();
  w.field("tflops", std::nan(""));
  w.end_object();
  CHECK(w.take() == R"({"tflops":null})");
  REQUIRE(scope.failed());
  CHECK(scope.problem().code() == "internal_error");
  CHECK(std::string(scope.problem().what()).find("/tflops") != std::string::npos);
}
