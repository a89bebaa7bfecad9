// SPDX-License-Identifier: MIT
#include "io/stack_variants_json.hpp"

#include <algorithm>
#include <optional>

#include "io/request_json.hpp"
#include "types/errors.hpp"

namespace advisor {

std::shared_ptr<const StackVariants> other_stacks(const JsonValue& document, const Request& req,
                                                  const PerformanceConstants& k) {
  auto out = std::make_shared<StackVariants>();
  out->parsed_checkpointing = req.training.activation_checkpointing;
  const JsonValue* training = document.find("training");
  const JsonValue* par = document.find("parallelism");
  const bool zero_stated = par != nullptr && par->find("zero") != nullptr;
  for (const StackProfile& s : k.stacks) {
    const bool common =
        std::find(s.common_for.begin(), s.common_for.end(), req.task) != s.common_for.end();
    if (s.serving || !common || s.id == req.stack.id) continue;
    std::optional<InputError> problem;  // the request under a stack it cannot run on: left out
    TrainingSettings t =
        in_own_scope([&] { return read_training(training, req.task, req.model, s); }, problem);
    if (!problem)
      out->variants.push_back(
          {s, std::move(t), zero_stated ? req.parallelism.zero : s.default_zero});
  }
  return out;
}

}  // namespace advisor
