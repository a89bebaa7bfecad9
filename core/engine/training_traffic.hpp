// SPDX-License-Identifier: MIT
// The traffic of one training step, one term per parallel dimension: what tensor, expert,
// context and pipeline parallelism send per micro-batch, and what data parallelism (DDP, ZeRO
// 1-3, hybrid sharding) sends per micro-batch and per step, on the heaviest pipeline stage.
// engine/training.cpp decides what compute hides and sums the step; docs/speed.md derives them.
#pragma once
#include "engine/comm.hpp"
#include "engine/training.hpp"

namespace advisor {

/// The heaviest (last) pipeline stage's share of one micro-batch on one of its GPUs: a step
/// waits on it.
struct StageWork {
  // Context parallelism gives each of its cp ranks 1/cp of every sequence (Megatron's
  // load-balanced causal chunks give each the same share of the attention work, so compute per
  // GPU is the total over the GPUs, as without cp).
  double microbatch_tokens = 0;
  int decoder_layers = 0;  // ceil(layers / pp): the last stage holds the most
  double layer_share = 0;  // decoder_layers / the model's decoder layers
  int layers = 0;          // every layer the stage runs: + an encoder-decoder's encoder
};
StageWork heaviest_stage(const Request& request, const Layout& layout);

/// Model chunks per pipeline stage: the interleaved schedule's v (1 without a pipeline).
int pipeline_chunks_per_stage(const Request& request, const Layout& layout);

/// Seconds one micro-batch spends in a parallel dimension's collectives, and their bus
/// bandwidth (0 when the dimension is 1).
struct CollectiveSeconds {
  double seconds = 0;
  double busbw_gbps = 0;
};

/// Tensor parallel: the all-reduces of each layer's activations (not overlapped).
CollectiveSeconds tensor_parallel_seconds_per_microbatch(const Request& request,
                                                         const Layout& layout, const Fabric& fabric,
                                                         const PerformanceConstants& k,
                                                         const GroupPlacement& place,
                                                         const StageWork& stage);

/// Expert parallel: the dispatch and combine all-to-alls of each MoE layer.
double expert_parallel_seconds_per_microbatch(const Request& request, const Layout& layout,
                                              const Fabric& fabric, const PerformanceConstants& k,
                                              const TrainingJob& job, const GroupPlacement& place,
                                              const StageWork& stage);

/// Context parallel: the ring's K/V exchange, and the part the attention kernels beside it
/// (`attention_s` per micro-batch) do not hide.
struct RingSeconds {
  double seconds = 0;
  double exposed_seconds = 0;
  double busbw_gbps = 0;
};
RingSeconds context_parallel_seconds_per_microbatch(const Request& request, const Layout& layout,
                                                    const Fabric& fabric,
                                                    const PerformanceConstants& k,
                                                    const GroupPlacement& place,
                                                    const StageWork& stage, double attention_s);

/// Pipeline: point-to-point activations forward and gradients backward.
double pipeline_p2p_seconds_per_microbatch(const Request& request, const Layout& layout,
                                           const Fabric& fabric, const PerformanceConstants& k,
                                           const GroupPlacement& place, const StageWork& stage);

/// Data parallel: gradients (and ZeRO-3 parameters) over the data-parallel group, by when
/// compute can hide them (engine/training.cpp applies the overlap).
struct DataParallelSeconds {
  double per_microbatch_s = 0;     // overlappable with that micro-batch's compute
  double per_step_s = 0;           // overlappable with the last micro-batch's backward
  double param_gather_s = 0;       // per step, overlappable with the first micro-batch's forward
  double per_step_unhidden_s = 0;  // per step, not overlapped (ZeRO-2 parameter all-gather)
  // Hybrid sharding: the once-per-step all-reduce of each rank's gradient shard across the
  // replicas (included in per_step_s), and its bus bandwidth.
  double shard_replica_s = 0;
  double replica_busbw_gbps = 0;
  double busbw_gbps = 0;  // of the ZeRO shard group
};
DataParallelSeconds data_parallel_seconds(const Request& request, const Layout& layout,
                                          const Fabric& fabric, const PerformanceConstants& k,
                                          const TrainingJob& job, const GroupPlacement& place,
                                          const StageWork& stage);

}  // namespace advisor
