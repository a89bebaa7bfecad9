// SPDX-License-Identifier: MIT
// The traffic of one training step, one term per parallel dimension (see the header).
#include "engine/training_traffic.hpp"

#include <algorithm>
#include <cmath>

#include "engine/activations.hpp"
#include "engine/flops.hpp"

namespace advisor {

namespace {
// Gradient bucket of PyTorch DDP (bucket_cap_mb = 25; DeepSpeed's reduce buckets are similar):
// data-parallel traffic goes out in messages of this size.
constexpr double kBucketBytes = 25e6;
// Context-parallel ring (Liu et al. 2023, "Ring Attention"; Megatron-LM / Transformer Engine
// AttnFuncWithCPAndKVP2P): every layer's forward passes each rank's K and V chunk around the
// ring; the backward passes K and V again plus their gradients dK and dV: twice the forward.
constexpr double kRingBackwardPerForward = 2;

/// Bytes of one activation element as the collectives send it.
double activation_bytes(const TrainingSettings& t) {
  return t.precision == Precision::kFp32 ? 4 : 2;
}

/// Collectives of the activations run once in the forward and once in the backward; a full
/// recompute runs the forward's again: 4 per layer, else 6.
int collectives_per_layer(const TrainingSettings& t) {
  return t.activation_checkpointing == Checkpointing::kFull ? 6 : 4;
}

using CollectiveTime = double (*)(double bytes, int n, int per_node, const Fabric& f,
                                  const PerformanceConstants& k);

/// One GPU's share of the parameters, the data-parallel groups it reduces them over (dense
/// weights over all of them, routed experts over 1/ep of them), and the messages frameworks
/// send them in.
struct DataParallelShares {
  int group = 1;          // dp x cp: every rank holding the same weights
  int shards = 1;         // the ZeRO shard group (the whole group without hybrid sharding)
  int replicas = 1;       // copies of the shard group (hybrid sharding)
  int expert_group = 1;   // group / ep
  int expert_shards = 1;  // shards / ep
  int expert_group_per_node = 1;
  int expert_shards_per_node = 1;
  double dense_params_per_gpu = 0;
  double expert_params_per_gpu = 0;
  double trainable_dense_params_per_gpu = 0;  // adapters: the LoRA parameters
  double trainable_expert_params_per_gpu = 0;
  double weight_bytes = 2;      // per parameter as stored, what ZeRO-3 gathers (QLoRA: 4-bit base)
  double gradient_bytes = 2;    // per trainable parameter
  double bucket_bytes = 0;      // DDP / ZeRO-1/2 message
  double layer_unit_bytes = 0;  // ZeRO-3 / FSDP message: one layer unit
};

DataParallelShares data_parallel_shares(const Request& req, const Layout& L, const TrainingJob& job,
                                        const GroupPlacement& place, const StageWork& stage) {
  const TrainingSettings& t = req.training;
  const ParamCounts& c = job.params;
  DataParallelShares s;
  // Gradients are reduced (and ZeRO state sharded) over data x context parallel; under hybrid
  // sharding (PyTorch FSDP ShardingStrategy.HYBRID_SHARD, torchtitan data_parallel_shard_degree
  // x data_parallel_replicate_degree, ZeRO++ hpZ: Wang et al. 2023) the ZeRO collectives run
  // inside a shard group of `shards` ranks and each rank's gradient shard is all-reduced across
  // the `replicas` copies of its group once per step.
  s.group = L.shard_ranks();
  s.shards = L.zero_shards();
  s.replicas = L.shard_replicas();
  const double expert_params = c.moe_layers * c.moe_expert_per_layer;
  s.dense_params_per_gpu = (c.total - expert_params) / (L.tp * L.pp);
  s.expert_params_per_gpu = expert_params / (L.tp * L.pp * L.ep);
  s.expert_group = std::max(1, s.group / L.ep);
  s.expert_shards = std::max(1, s.shards / L.ep);
  s.expert_group_per_node = std::max(1, place.dp_per_node / L.ep);
  s.expert_shards_per_node = std::max(1, place.shard_per_node / L.ep);
  s.gradient_bytes = t.accounting.gradient_bytes;
  s.weight_bytes = t.precision == Precision::kFp32 ? 4 : 2;
  s.trainable_dense_params_per_gpu = s.dense_params_per_gpu;
  s.trainable_expert_params_per_gpu = s.expert_params_per_gpu;
  if (is_adapter(req.task)) {
    const double bits = job.base_weight_bits;
    const double linear_share = c.total > 0 ? c.block_linear / c.total : 1;
    s.weight_bytes = linear_share * bits / 8 + (1 - linear_share) * 2;
    s.trainable_dense_params_per_gpu = job.trainable_params / (L.tp * L.pp);
    s.trainable_expert_params_per_gpu = 0;
  }
  // Megatron-LM scales its buckets with the data-parallel size (max(40M, 1M x dp)
  // elements): a ring collective over dp ranks pays dp-1 steps of latency per message, so
  // small buckets over hundreds of ranks would be latency-bound.
  s.bucket_bytes =
      std::max(kBucketBytes, req.stack.dp_bucket_elements_per_rank * s.shards * s.gradient_bytes);
  s.layer_unit_bytes =
      std::max(1.0, s.dense_params_per_gpu * s.weight_bytes / std::max(1, stage.layers));
  return s;
}

/// The data-parallel collectives of one GPU over its groups, each sent as messages.
class DataParallelCollectives {
 public:
  DataParallelCollectives(const DataParallelShares& shares, const GroupPlacement& place,
                          const Fabric& fabric, const PerformanceConstants& k)
      : s_(shares), place_(place), fabric_(fabric), k_(k) {}

  /// Bucketed all-reduces over the whole group (dense) and its expert part.
  double all_reduce(double dense_bytes, double expert_bytes) const {
    return in_messages(dense_bytes, s_.bucket_bytes, allreduce_time_s, s_.group,
                       place_.dp_per_node) +
           in_messages(expert_bytes, s_.bucket_bytes, allreduce_time_s, s_.expert_group,
                       s_.expert_group_per_node);
  }
  /// ZeRO's reduce-scatters and all-gathers (same volume and time) over the shard group.
  double reduce_scatter(double dense_bytes, double expert_bytes, double message_bytes) const {
    return in_messages(dense_bytes, message_bytes, reduce_scatter_time_s, s_.shards,
                       place_.shard_per_node) +
           in_messages(expert_bytes, message_bytes, reduce_scatter_time_s, s_.expert_shards,
                       s_.expert_shards_per_node);
  }
  /// Bucketed all-reduces of gradient shards across the replicas of the shard group.
  double replica_all_reduce(double dense_bytes, double expert_bytes) const {
    return in_messages(dense_bytes, s_.bucket_bytes, allreduce_time_s, s_.replicas,
                       place_.replica_per_node) +
           in_messages(expert_bytes, s_.bucket_bytes, allreduce_time_s, s_.replicas,
                       place_.replica_per_node);
  }

 private:
  /// `bytes` sent as messages of at most `message_bytes` (at least one per layer unit).
  double in_messages(double bytes, double message_bytes, CollectiveTime collective, int ranks,
                     int per_node) const {
    if (bytes <= 0) return 0.0;
    const double count = std::max(1.0, std::ceil(bytes / message_bytes));
    return count * collective(bytes / count, ranks, per_node, fabric_, k_);
  }

  const DataParallelShares& s_;
  const GroupPlacement& place_;
  const Fabric& fabric_;
  const PerformanceConstants& k_;
};

/// What each ZeRO stage sends and when compute can hide it.
DataParallelSeconds zero_stage_seconds(const Request& req, const Layout& L,
                                       const DataParallelShares& s,
                                       const DataParallelCollectives& dp) {
  DataParallelSeconds out;
  const double dense_grad = s.trainable_dense_params_per_gpu * s.gradient_bytes;
  const double expert_grad = s.trainable_expert_params_per_gpu * s.gradient_bytes;
  const double updated_b = is_adapter(req.task) ? 2 : s.weight_bytes;  // adapters are 16-bit
  if (L.zero == 0) {
    // DDP bucketed all-reduce, once per step after gradient accumulation (Rajbhandari et
    // al. 2020, sec. 7: 2 x params), overlapped with the last micro-batch's backward.
    out.per_step_s = dp.all_reduce(dense_grad, expert_grad);
  } else if (L.zero == 1) {
    // ZeRO-1 / Megatron's distributed optimizer: the gradients are reduce-scattered (in the
    // gradient dtype) during the last micro-batch's backward, and the updated 16-bit
    // weights all-gathered during the next step's first forward, one layer's chunk at a
    // time (NVIDIA Megatron Bridge, "Communication Overlap": reduce-scatter of gradients
    // and all-gather of updated parameters, each overlapped with compute).
    out.per_step_s = dp.reduce_scatter(dense_grad, expert_grad, s.bucket_bytes);
    out.param_gather_s =
        dp.reduce_scatter(s.trainable_dense_params_per_gpu * updated_b,
                          s.trainable_expert_params_per_gpu * updated_b, s.bucket_bytes);
  } else if (L.zero == 2) {
    // Gradients reduce-scattered in every backward, parameters all-gathered after the step.
    out.per_microbatch_s = dp.reduce_scatter(dense_grad, expert_grad, s.bucket_bytes);
    out.per_step_unhidden_s =
        dp.reduce_scatter(s.trainable_dense_params_per_gpu * updated_b,
                          s.trainable_expert_params_per_gpu * updated_b, s.bucket_bytes);
  } else if (L.pp > 1 && req.stack.zero3_gather_once_per_step_with_pp) {
    // ZeRO-3 under pipeline parallelism in stacks that keep the gathered weights for all of a
    // step's micro-batches (torchtitan): one all-gather and one gradient reduce-scatter per
    // step, not per micro-batch.
    out.per_step_s =
        dp.reduce_scatter(s.dense_params_per_gpu * s.weight_bytes,
                          s.expert_params_per_gpu * s.weight_bytes, s.layer_unit_bytes) +
        dp.reduce_scatter(dense_grad, expert_grad, s.layer_unit_bytes);
  } else {
    // ZeRO-3 / FSDP full shard: all-gather the weights for the forward and again for the
    // backward, reduce-scatter the gradients: 3 x the parameter volume per micro-batch
    // (Rajbhandari et al. 2020, sec. 7.2.2: 1.5 x DDP), one message per layer unit.
    const double gathers =
        2 * dp.reduce_scatter(s.dense_params_per_gpu * s.weight_bytes,
                              s.expert_params_per_gpu * s.weight_bytes, s.layer_unit_bytes);
    out.per_microbatch_s = gathers + dp.reduce_scatter(dense_grad, expert_grad, s.layer_unit_bytes);
  }
  return out;
}

}  // namespace

StageWork heaviest_stage(const Request& req, const Layout& L) {
  const ModelArch& m = req.model;
  const TrainingSettings& t = req.training;
  StageWork stage;
  stage.microbatch_tokens = static_cast<double>(t.micro_batch_size) * tokens_per_example(t) / L.cp;
  stage.decoder_layers = (m.layers + L.pp - 1) / L.pp;
  stage.layer_share = double(stage.decoder_layers) / m.layers;
  stage.layers = stage.decoder_layers + m.encoder_layers;
  return stage;
}

int pipeline_chunks_per_stage(const Request& req, const Layout& L) {
  return L.pp > 1 ? req.parallelism.virtual_stages : 1;
}

CollectiveSeconds tensor_parallel_seconds_per_microbatch(const Request& req, const Layout& L,
                                                         const Fabric& fabric,
                                                         const PerformanceConstants& k,
                                                         const GroupPlacement& place,
                                                         const StageWork& stage) {
  // Tensor parallel (Megatron, Shoeybi et al. 2019): 2 all-reduces in the forward and 2 in the
  // backward per layer of s x b x h activations (with sequence parallelism: reduce-scatter +
  // all-gather, the same volume); a full recompute repeats the forward ones. What the GEMMs
  // hide under /parallelism/tp_comm_overlap: engine/training.cpp.
  // Each is one NCCL collective: latency-bound when small (comm.cpp).
  CollectiveSeconds tp;
  if (L.tp <= 1) return tp;
  tp.busbw_gbps = allreduce_busbw(fabric, L.tp, place.tp_per_node, k);
  const double bytes = stage.microbatch_tokens * req.model.hidden * activation_bytes(req.training);
  const int per_layer = collectives_per_layer(req.training);
  tp.seconds =
      stage.layers * per_layer * allreduce_time_s(bytes, L.tp, place.tp_per_node, fabric, k);
  return tp;
}

double expert_parallel_seconds_per_microbatch(const Request& req, const Layout& L,
                                              const Fabric& fabric, const PerformanceConstants& k,
                                              const TrainingJob& job, const GroupPlacement& place,
                                              const StageWork& stage) {
  // Dispatch and combine all-to-alls per MoE layer, forward and backward ((ep-1)/ep of the
  // routed tokens leave each GPU; the part bound for other servers crosses the network).
  const ModelArch& m = req.model;
  if (!(L.ep > 1 && m.moe)) return 0;
  const int moe_stage = static_cast<int>(std::ceil(job.params.moe_layers * stage.layer_share));
  const int ep_per_node = std::max(1, std::min(L.ep, place.dp_per_node));
  const double bytes = stage.microbatch_tokens * m.moe->experts_per_token * m.hidden *
                       activation_bytes(req.training);
  const int count = collectives_per_layer(req.training);
  return moe_stage * count * all_to_all_time_s(bytes, L.ep, ep_per_node, fabric, k);
}

RingSeconds context_parallel_seconds_per_microbatch(const Request& req, const Layout& L,
                                                    const Fabric& fabric,
                                                    const PerformanceConstants& k,
                                                    const GroupPlacement& place,
                                                    const StageWork& stage, double attention_s) {
  // Each layer's forward passes every rank's K and V chunk around the ring of cp ranks ((cp-1)/cp
  // of the sequence's K and V reach each rank, an all-gather's volume), the backward K, V, dK
  // and dV (twice that), a recompute the forward's again. The ring sends the next chunk while
  // the attention kernel works on the current one (Liu et al. 2023, "Ring Attention", sec. 3;
  // Megatron-LM's context parallelism overlaps the P2P exchange with attention compute the same
  // way), so per micro-batch only what exceeds the attention time of the cp-1 chunks that
  // arrive is exposed. Inside a server when tp x cp fits in it (Megatron order: tp innermost,
  // then cp), else over the network.
  RingSeconds cp;
  if (L.cp <= 1) return cp;
  cp.busbw_gbps = group_busbw(fabric, L.cp, place.cp_per_node, k);
  const double local_kv = stage.microbatch_tokens * ring_kv_elements_per_token(req.model, L.tp) *
                          activation_bytes(req.training);
  const bool recompute = req.training.activation_checkpointing != Checkpointing::kNone;
  const double passes = 1 + kRingBackwardPerForward + (recompute ? 1 : 0);
  cp.seconds = stage.layers * passes *
               reduce_scatter_time_s(local_kv * L.cp, L.cp, place.cp_per_node, fabric, k);
  cp.exposed_seconds = std::max(0.0, cp.seconds - attention_s * (L.cp - 1) / L.cp);
  return cp;
}

double pipeline_p2p_seconds_per_microbatch(const Request& req, const Layout& L,
                                           const Fabric& fabric, const PerformanceConstants& k,
                                           const GroupPlacement& place, const StageWork& stage) {
  // Point-to-point activations forward and gradients backward per micro-batch; the interleaved
  // schedule sends v times as often (each model chunk's boundary).
  if (L.pp <= 1) return 0;
  const TrainingSettings& t = req.training;
  const double sp = (t.sequence_parallel && L.tp > 1) ? L.tp : 1;
  const double bytes = stage.microbatch_tokens * req.model.hidden * activation_bytes(t) / sp;
  return 2 * pipeline_chunks_per_stage(req, L) * p2p_time_s(bytes, place.pp_crosses, fabric, k);
}

DataParallelSeconds data_parallel_seconds(const Request& req, const Layout& L, const Fabric& fabric,
                                          const PerformanceConstants& k, const TrainingJob& job,
                                          const GroupPlacement& place, const StageWork& stage) {
  // Gradients (and ZeRO-3 parameters) over the data-parallel group, in the messages frameworks
  // send: DDP/ZeRO-1/2 buckets of 25 MB, ZeRO-3/FSDP one unit per layer.
  if (L.shard_ranks() <= 1) return {};
  const DataParallelShares s = data_parallel_shares(req, L, job, place, stage);
  const DataParallelCollectives collectives(s, place, fabric, k);
  DataParallelSeconds out = zero_stage_seconds(req, L, s, collectives);
  out.busbw_gbps = group_busbw(fabric, s.shards, place.shard_per_node, k);
  if (s.replicas > 1) {
    // Hybrid sharding: after the reduce-scatter inside the shard group, each rank all-reduces
    // its gradient shard (params / shard group x gradient bytes) with the ranks holding the
    // same shard in the other groups (PyTorch FSDP docs, HYBRID_SHARD: "Apply FULL_SHARD within
    // a node, and replicate parameters across nodes"; the all-gathers and reduce-scatters stay
    // inside the group), once per step, overlapped like the other per-step data-parallel
    // traffic with the last micro-batch's backward.
    out.replica_busbw_gbps = group_busbw(fabric, s.replicas, place.replica_per_node, k);
    out.shard_replica_s = collectives.replica_all_reduce(
        s.trainable_dense_params_per_gpu * s.gradient_bytes / s.shards,
        s.trainable_expert_params_per_gpu * s.gradient_bytes / s.expert_shards);
    out.per_step_s += out.shard_replica_s;
  }
  return out;
}

}  // namespace advisor
