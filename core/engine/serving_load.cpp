// SPDX-License-Identifier: MIT
#include "engine/serving_load.hpp"

#include <algorithm>
#include <cmath>

namespace advisor {

namespace {

// Quantiles of the time to first token that the load reports (median and the tail a service
// level objective names).
constexpr double kMedian = 0.5;
constexpr double kTail = 0.9;

/// One engine step carrying `decode` streaming users' tokens and `prefill` prompt tokens (of
/// prompts `prompt` long). The engine runs them as one batch: the weights are read once (the
/// decode step's memory traffic, with the streaming users' KV cache), every token goes through
/// the same GEMMs at the achievable rate (a decode step's compute for all of them; the prompt
/// tokens' attention is counted over the decode context, an over-count of a few per cent), and
/// the tensor-parallel all-reduces carry every token. A step with no decode is a plain prefill.
double step_s(const ServingModel& model, double decode, double prefill, double prompt,
              double context) {
  if (decode <= 0) return model.prefill_s(prefill / prompt, prompt);
  const DecodeStep streaming = model.decode(decode, context);
  const DecodeStep all = prefill > 0 ? model.decode(decode + prefill, context) : streaming;
  // The host's work is per running sequence: a prompt chunk is one more, which is neglected.
  return std::max(streaming.memory_s, all.compute_s) + all.communication_s + streaming.launch_s +
         streaming.host_s;
}

}  // namespace

double step_token_budget(const StackProfile& stack, const GpuSpec& gpu) {
  return gpu.memory_gib < stack.max_batched_tokens_below_gib ? stack.max_batched_tokens_below
                                                             : stack.max_batched_tokens;
}

int poisson_quantile(double mean, double q) {
  // P(X = k) by recurrence; the mean is at most the users of one replica, and the sum reaches q
  // within a few standard deviations of it.
  double p = std::exp(-mean), sum = p;
  int k = 0;
  const int last = static_cast<int>(mean + 20 * std::sqrt(mean) + 20);
  while (sum < q && k < last) {
    ++k;
    p *= mean / k;
    sum += p;
  }
  return k;
}

ServingAtLoad serving_at_load(const ServingModel& model, const Request& req, const GpuSpec& gpu,
                              std::int64_t users) {
  const InferenceSettings& inf = req.inference;
  ServingAtLoad r;
  r.users = std::max<std::int64_t>(1, users);
  const double b = static_cast<double>(r.users);
  const double output = std::max<double>(1, static_cast<double>(inf.output_tokens));
  // The cached prefix is not recomputed, but the last position always is (it yields the first
  // token), and the whole prompt stays in the KV cache as context.
  const double prompt =
      std::max(1.0, static_cast<double>(inf.prompt_tokens) * (1 - inf.prefix_cache_share));
  const double context = mean_decode_context(req);
  // Each attention data-parallel rank schedules its own steps within the stack's budget.
  const double budget = step_token_budget(req.stack, gpu) * model.attention_ranks();
  r.prompt_tokens_prefilled = prompt;
  r.step_tokens_budget = budget;

  // A request's cycle: its prompt's chunks, then one step per output token. When the users'
  // tokens outgrow the budget, the steps per cycle grow until they fit (prompts wait).
  const double cycle_steps =
      std::max(output + std::ceil(prompt / budget), b * (output + prompt) / budget);
  r.prefill_steps_per_request = cycle_steps - output;
  r.decode_tokens_per_step = b * output / cycle_steps;
  r.prefill_tokens_per_step = b * prompt / cycle_steps;
  r.step_s = step_s(model, r.decode_tokens_per_step, r.prefill_tokens_per_step, prompt, context);
  if (r.prefill_tokens_per_step > 0 && r.decode_tokens_per_step > 0)
    r.prefill_share =
        r.prefill_tokens_per_step / (r.prefill_tokens_per_step + r.decode_tokens_per_step);
  r.per_user_tokens_per_second = 1 / r.step_s;

  // The first token: the prompt's chunks ride in steps that also decode the other users'
  // streams; prompts that arrive in the same window (Poisson, with the load's mean number of
  // prompts in flight) share the budget. Past an idle engine, a prompt waits for the step in
  // flight (half of one at the median, one at the tail).
  const double others_decoding = (b - 1) * output / cycle_steps;
  const double room = std::max(1.0, budget - others_decoding);
  const double prompts_in_flight = (b - 1) * r.prefill_steps_per_request / cycle_steps;
  const auto first_token = [&](double q, double waiting_steps) {
    const double tokens = prompt * (1 + poisson_quantile(prompts_in_flight, q));
    const double steps =
        std::max(std::ceil(tokens / room), b > 1 ? r.prefill_steps_per_request : 1.0);
    const double carried = std::min(room, tokens);
    // The step that carries the chunk takes at least the chunk's plain prefill.
    const double carrying = std::max(step_s(model, others_decoding, carried, prompt, context),
                                     model.prefill_s(carried / prompt, prompt));
    return steps * carrying + (b > 1 ? waiting_steps * r.step_s : 0);
  };
  r.time_to_first_token_s = first_token(kMedian, 0.5);
  r.time_to_first_token_p90_s = first_token(kTail, 1);

  r.output_tokens_per_second = r.decode_tokens_per_step / r.step_s;
  r.per_user_output_tokens_per_second = r.output_tokens_per_second / b;
  return r;
}

}  // namespace advisor
