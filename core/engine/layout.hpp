// SPDX-License-Identifier: MIT
#pragma once
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/memory.hpp"
#include "engine/training.hpp"
#include "types/perf_constants.hpp"

namespace advisor {

/// One catalog GPU judged for the request: does the job fit on one, and how many are needed
/// with the chosen sharding.
struct GpuOption {
  const GpuSpec* gpu = nullptr;
  MemoryEstimate on_one;  // the job on a single GPU
  bool fits_on_one = false;
  std::optional<Layout> min_layout;  // smallest count that fits; nullopt = none up to the limit
  MemoryEstimate at_min;
  bool tight_at_min = false;  // fits, but not with room (roomy()): the only fit up to the limit
  std::string reason;         // why no count fits (when min_layout is empty)
  std::string reason_code;    // no_compatible_count | replicated_zero0 | does_not_fit_at_max
  int reason_gpus = 0;        // does_not_fit_at_max: the largest count tried
};

/// True when `estimate` fits in the GPU's memory.
bool fits(const MemoryEstimate& estimate, const GpuSpec& gpu);

/// A training job fits with room: within planning_room_fraction of the card, and the top of its
/// error band on the card. Serving: fits() (the engine takes its own share of the card,
/// gpu_memory_utilization, and sizes the KV cache within it).
bool roomy(const Request& request, const MemoryEstimate& estimate, const GpuSpec& gpu,
           const MemoryAssumptions& assumptions);

/// Layouts worth trying for `count` GPUs under the request's parallelism, in order of
/// preference: least model parallelism first, tensor parallel inside a server before pipeline
/// stages. Pinned tp/pp leave one candidate; empty if the count is incompatible.
std::vector<Layout> candidate_layouts(const Request& request, int count, int gpus_per_server);

/// The preferred candidate layout for `count` GPUs (GPU-agnostic); nullopt if none is valid.
std::optional<Layout> layout_for_count(const Request& request, int count, int gpus_per_server);

/// Serving a MoE over `count` GPUs of one server with expert parallelism, as vLLM, SGLang and
/// TensorRT-LLM deploy DeepSeek-style models: attention data-parallel (tp 1, dp = count, each
/// GPU with its own sequences and KV cache) and the routed experts split over all of them
/// (ep = count, all-to-all dispatch). nullopt for a dense model, a stack without expert
/// parallelism, a stated tp/pp/ep, a count the experts do not divide, or more than a server.
std::optional<Layout> expert_parallel_serving_layout(const Request& request, int count,
                                                     int gpus_per_server);

/// The first candidate that fits on `gpu` with room (roomy()), else the first that fits, else
/// the one needing the least memory per GPU; nullopt if the count has no valid layout.
/// `estimate` receives that layout's memory.
std::optional<Layout> choose_layout(const Request& request, int count, const GpuSpec& gpu,
                                    int gpus_per_server, const MemoryAssumptions& assumptions,
                                    MemoryEstimate* estimate);

/// Pretraining with tp/pp left to the advisor: of the candidates that fit on `gpu`, the one
/// with the most training tokens/s (a pretraining team tunes the split for speed: e.g. pipeline
/// stages instead of ZeRO-3 traffic over one NIC per GPU); choose_layout's answer for other
/// tasks, when none fits, or when the request pins tp and pp.
std::optional<Layout> choose_fastest_layout(const Request& request, int count, const GpuSpec& gpu,
                                            int gpus_per_server,
                                            const MemoryAssumptions& assumptions,
                                            const PerformanceConstants& k);

/// The candidate layouts of one request at each (count, GPUs per server), with their memory
/// per GPU. A layout's memory depends on the request and the layout, not on the GPU, so a search
/// over the catalog estimates each once and judges every GPU against the same figures (the
/// search asks the same few counts for ~40 GPUs). Holds `request` and `assumptions` by reference.
class LayoutTable {
 public:
  LayoutTable(const Request& request, const MemoryAssumptions& assumptions)
      : request_(request), assumptions_(assumptions) {}
  /// choose_layout()'s answer for `gpu`.
  std::optional<Layout> choose(int count, const GpuSpec& gpu, int gpus_per_server,
                               MemoryEstimate* estimate);
  /// choose_fastest_layout()'s answer for `gpu`; `estimate` receives its memory.
  std::optional<Layout> fastest(int count, const GpuSpec& gpu, int gpus_per_server,
                                const PerformanceConstants& k, MemoryEstimate* estimate);
  /// training_job() of the request, worked out once: a search asks it for every GPU and count.
  const TrainingJob& job(const PerformanceConstants& k);
  /// roomy() for this table's request.
  bool roomy(const MemoryEstimate& estimate, const GpuSpec& gpu) const {
    return advisor::roomy(request_, estimate, gpu, assumptions_);
  }

 private:
  /// A candidate layout and its memory, estimated when first asked for: choose() reads the
  /// candidates in order only up to the first that fits the GPU.
  struct Sized {
    Layout layout;
    std::optional<MemoryEstimate> memory;
  };
  std::vector<Sized>& sized(int count, int gpus_per_server);
  const MemoryEstimate& memory_of(Sized& candidate);
  const Request& request_;
  const MemoryAssumptions& assumptions_;
  std::map<std::pair<int, int>, std::vector<Sized>> by_count_and_server_;
  std::optional<TrainingJob> job_;
  const PerformanceConstants* job_constants_ = nullptr;  // what job_ was worked out with
};

/// GPUs in one server of `gpu` for this request (the pinned override, else its platform's).
/// `gpus` when known: a plan that fits the small platform (4-card workstation, 4-GPU board).
int gpus_per_server(const Request& request, const Catalog& catalog, const GpuSpec& gpu,
                    int gpus = 0);

/// A server size for a layout that no GPU is chosen for yet: the largest platform's.
int largest_gpus_per_server(const Catalog& catalog);

/// Judges GPUs one at a time, as evaluate_options() does, keeping the candidate counts of each
/// server size between them: a search that may skip GPUs judges only those it searches.
/// Holds its arguments by reference.
class OptionJudge {
 public:
  OptionJudge(const Request& request, const Catalog& catalog, LayoutTable& layouts)
      : request_(request), catalog_(catalog), layouts_(layouts) {}
  GpuOption judge(const GpuSpec& gpu);

 private:
  const Request& request_;
  const Catalog& catalog_;
  LayoutTable& layouts_;
  std::map<int, std::vector<int>> counts_by_server_size_;
};

/// Judges every GPU in the catalog.
std::vector<GpuOption> evaluate_options(const Request& request, const Catalog& catalog);
/// Judges the listed GPUs of the catalog (in that order).
std::vector<GpuOption> evaluate_options(const Request& request, const Catalog& catalog,
                                        const std::vector<const GpuSpec*>& gpus);
/// The same, with the memory of each layout kept in `layouts` (a table of `request`): the
/// search that follows reads the same layouts again (plan/recommend.cpp).
std::vector<GpuOption> evaluate_options(const Request& request, const Catalog& catalog,
                                        const std::vector<const GpuSpec*>& gpus,
                                        LayoutTable& layouts);

}  // namespace advisor
