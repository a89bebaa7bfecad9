// SPDX-License-Identifier: MIT
// What every answer of the text API must be, whatever the input: valid JSON; either a result
// whose numbers are non-negative (but for the few figures that are differences) and whose byte
// counts are whole, or the error envelope {"error": {"code", "message", "path"}} with a
// documented code (never internal_error), a message and a JSON pointer or catalog-file path.
#pragma once
#include <string>

namespace fuzz {

/// How strictly to judge: the advice API (documented codes, non-negative figures), or the
/// validation read-back (its own codes, documented with it; measured differences may be negative).
/// Which error codes an answer may carry: advise's documented list (docs/api.md), or any
/// snake_case code (the validation read-back; a provider document's per-field codes).
enum class Api { kAdvise, kValidation, kProvider };

/// Empty when `answer` is acceptable, else what is wrong with it.
std::string check_answer(const std::string& answer, Api api = Api::kAdvise);

/// check_answer, aborting (a libFuzzer finding) with the input and the problem on failure.
void require_valid_answer(const std::string& answer, const std::string& input, const char* target,
                          Api api = Api::kAdvise);

}  // namespace fuzz
