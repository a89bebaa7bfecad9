// SPDX-License-Identifier: MIT
// A serving replica at its load: users each in a loop of requests (a prompt, then the answer's
// output tokens), served the way vLLM, SGLang and TensorRT-LLM serve them, with continuous
// batching and chunked prefill. Every engine step decodes one token for each user whose answer
// is streaming and fills the rest of its token budget with prompt chunks, so prompt processing
// slows every user's stream: at 200 users with 1,500-token prompts it can be most of the work.
// The decode step and the prefill are ServingModel's (calibrated on engine benchmarks); this
// file composes them at a load. docs/speed.md §3.2.
#pragma once
#include <cstdint>

#include "engine/serving.hpp"

namespace advisor {

/// The replica of `model` serving `users` users (>= 1) of `request`'s prompt and output lengths,
/// with `/inference/prefix_cache_share` of each prompt already in the cache.
ServingAtLoad serving_at_load(const ServingModel& model, const Request& request, const GpuSpec& gpu,
                              std::int64_t users);

/// The engine's tokens per step on `gpu` (the stack's budget, the smaller one on small GPUs).
double step_token_budget(const StackProfile& stack, const GpuSpec& gpu);

/// The smallest k with P(X <= k) >= q for X ~ Poisson(mean): how many of the users' prompts
/// arrive within one window, at quantile q. Exact summation; mean is bounded by the users.
int poisson_quantile(double mean, double q);

}  // namespace advisor
