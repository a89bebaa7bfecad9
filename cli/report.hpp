// SPDX-License-Identifier: MIT
// The answer as text in one language (`gpu-advisor advise|check ... --lang zh-CN|en`): the
// recommended plan, its reasons, risks and warnings, then the assumptions behind the figures,
// each sentence rendered from its code by data/messages (cli/messages.hpp).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "messages.hpp"

namespace gpu_advisor_cli {

/// The text report of an advise() result (or of its error envelope).
std::string advice_report(const nlohmann::json& result, const Messages& words);

/// The text of a validation check report (`check ... --lang`): the verdict, then each item with
/// its expected and measured figures and its reason (or the error envelope).
std::string check_report(const nlohmann::json& report, const Messages& words);

}  // namespace gpu_advisor_cli
