// SPDX-License-Identifier: MIT
// The request's closed choices as enums, each with its one table of API names. After parsing
// the core compares enums, never strings; the names appear only where JSON is read or written
// (io/) and in assumption texts.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace advisor {

template <typename E>
struct Named {
  E value;
  const char* name;
};

enum class Task { kPretrain, kFullFinetune, kLora, kQlora, kInference };
inline constexpr Named<Task> kTaskNames[] = {{Task::kPretrain, "pretrain"},
                                             {Task::kFullFinetune, "full_finetune"},
                                             {Task::kLora, "lora"},
                                             {Task::kQlora, "qlora"},
                                             {Task::kInference, "inference"}};

/// Training compute and weight dtype.
enum class Precision { kBf16, kFp16, kFp32, kFp8 };
inline constexpr Named<Precision> kPrecisionNames[] = {{Precision::kBf16, "bf16"},
                                                       {Precision::kFp16, "fp16"},
                                                       {Precision::kFp32, "fp32"},
                                                       {Precision::kFp8, "fp8"}};

// SGD with momentum. The paged AdamWs (bitsandbytes, the QLoRA recipe's paged_adamw_8bit /
// paged_adamw_32bit) hold the same states in unified memory, evicted to host RAM only when the
// GPU runs out: core/engine/memory.cpp counts them as their unpaged twins.
enum class Optimizer { kAdamW, kAdamW8bit, kSgd, kPagedAdamW, kPagedAdamW8bit };
inline constexpr Named<Optimizer> kOptimizerNames[] = {
    {Optimizer::kAdamW, "adamw"},
    {Optimizer::kAdamW8bit, "adamw_8bit"},
    {Optimizer::kSgd, "sgd"},
    {Optimizer::kPagedAdamW, "paged_adamw_32bit"},
    {Optimizer::kPagedAdamW8bit, "paged_adamw_8bit"}};
inline bool is_paged(Optimizer o) {
  return o == Optimizer::kPagedAdamW || o == Optimizer::kPagedAdamW8bit;
}

enum class Checkpointing { kNone, kSelective, kFull };
inline constexpr Named<Checkpointing> kCheckpointingNames[] = {
    {Checkpointing::kNone, "none"},
    {Checkpointing::kSelective, "selective"},
    {Checkpointing::kFull, "full"}};

/// Pipeline schedule (/parallelism/pipeline_schedule): Megatron's 1F1B (interleaved when
/// virtual_stages > 1), or DeepSeek-V3's DualPipe (two directions through the pipeline, each
/// stage's communication overlapped with the other direction's compute).
enum class PipelineSchedule { k1F1B, kDualPipe };
inline constexpr Named<PipelineSchedule> kPipelineScheduleNames[] = {
    {PipelineSchedule::k1F1B, "1f1b"}, {PipelineSchedule::kDualPipe, "dualpipe"}};

/// QLoRA's frozen base weights.
enum class BaseQuantization { kNone, kNf4, kInt8 };
inline constexpr Named<BaseQuantization> kBaseQuantizationNames[] = {
    {BaseQuantization::kNone, "none"},
    {BaseQuantization::kNf4, "nf4"},
    {BaseQuantization::kInt8, "int8"}};

enum class Facility { kOffice, kIdc, kIdcNew, kHubNode };
inline constexpr Named<Facility> kFacilityNames[] = {{Facility::kOffice, "office"},
                                                     {Facility::kIdc, "idc"},
                                                     {Facility::kIdcNew, "idc_new"},
                                                     {Facility::kHubNode, "hub_node"}};

enum class TariffKind { kTimeOfUse, kFlat };
inline constexpr Named<TariffKind> kTariffNames[] = {{TariffKind::kTimeOfUse, "time_of_use"},
                                                     {TariffKind::kFlat, "flat"}};

enum class ColocationPricing { kPerRack, kPerKw };
inline constexpr Named<ColocationPricing> kColocationPricingNames[] = {
    {ColocationPricing::kPerRack, "per_rack"}, {ColocationPricing::kPerKw, "per_kw"}};

enum class NetworkLine { kBgp, kDedicated, kNone };
inline constexpr Named<NetworkLine> kNetworkLineNames[] = {{NetworkLine::kBgp, "bgp"},
                                                           {NetworkLine::kDedicated, "dedicated"},
                                                           {NetworkLine::kNone, "none"}};

enum class Operations { kCapexShare, kStaff };
inline constexpr Named<Operations> kOperationsNames[] = {{Operations::kCapexShare, "capex_share"},
                                                         {Operations::kStaff, "staff"}};

/// What a buyer accepts (/goal/buying_policy): parts sold new in mainland China; also
/// second-hand cards resold there (A800/H800, RTX 3090: legal domestic resale); also grey
/// imports of export-licensed parts.
enum class BuyingPolicy { kNewOnly, kNewAndResale, kAny };
inline constexpr Named<BuyingPolicy> kBuyingPolicyNames[] = {
    {BuyingPolicy::kNewOnly, "new_only"},
    {BuyingPolicy::kNewAndResale, "new_and_resale"},
    {BuyingPolicy::kAny, "any"}};

/// How a part is bought in mainland China: new, second-hand (domestic resale), grey import.
enum class PurchaseStatus { kNew, kSecondHand, kGreyImport };
inline constexpr Named<PurchaseStatus> kPurchaseStatusNames[] = {
    {PurchaseStatus::kNew, "new"},
    {PurchaseStatus::kSecondHand, "second_hand"},
    {PurchaseStatus::kGreyImport, "grey_import"}};

/// Whether a buyer with `policy` buys a part of `status`.
inline bool allows(BuyingPolicy policy, PurchaseStatus status) {
  switch (policy) {
    case BuyingPolicy::kNewOnly:
      return status == PurchaseStatus::kNew;
    case BuyingPolicy::kNewAndResale:
      return status != PurchaseStatus::kGreyImport;
    case BuyingPolicy::kAny:
      break;
  }
  return true;
}

/// What the recommendation optimises. Auto: cheapest within the deadline when one is given,
/// fastest within the budget when only a budget is given, else cheapest.
enum class Objective { kAuto, kCheapest, kFastest, kCheapestWithinDeadline, kFastestWithinBudget };
inline constexpr Named<Objective> kObjectiveNames[] = {
    {Objective::kAuto, "auto"},
    {Objective::kCheapest, "cheapest"},
    {Objective::kFastest, "fastest"},
    {Objective::kCheapestWithinDeadline, "cheapest_within_deadline"},
    {Objective::kFastestWithinBudget, "fastest_within_budget"}};

/// How the hardware is paid for.
enum class Deployment { kBuy, kRent, kReserved };
inline constexpr Named<Deployment> kDeploymentNames[] = {{Deployment::kBuy, "buy"},
                                                         {Deployment::kRent, "rent"},
                                                         {Deployment::kReserved, "rent_reserved"}};

/// The API name of an enum value (its table is found by overload).
template <typename E, std::size_t N>
constexpr const char* name_in(const Named<E> (&table)[N], E value) {
  for (const Named<E>& n : table)
    if (n.value == value) return n.name;
  return "?";
}
template <typename E, std::size_t N>
std::optional<E> value_in(const Named<E> (&table)[N], std::string_view name) {
  for (const Named<E>& n : table)
    if (name == n.name) return n.value;
  return std::nullopt;
}

inline const char* name_of(Task v) { return name_in(kTaskNames, v); }
inline const char* name_of(Precision v) { return name_in(kPrecisionNames, v); }
inline const char* name_of(Optimizer v) { return name_in(kOptimizerNames, v); }
inline const char* name_of(Checkpointing v) { return name_in(kCheckpointingNames, v); }
inline const char* name_of(BaseQuantization v) { return name_in(kBaseQuantizationNames, v); }
inline const char* name_of(PipelineSchedule v) { return name_in(kPipelineScheduleNames, v); }
inline const char* name_of(Facility v) { return name_in(kFacilityNames, v); }
inline const char* name_of(TariffKind v) { return name_in(kTariffNames, v); }
inline const char* name_of(ColocationPricing v) { return name_in(kColocationPricingNames, v); }
inline const char* name_of(NetworkLine v) { return name_in(kNetworkLineNames, v); }
inline const char* name_of(Operations v) { return name_in(kOperationsNames, v); }
inline const char* name_of(Objective v) { return name_in(kObjectiveNames, v); }
inline const char* name_of(Deployment v) { return name_in(kDeploymentNames, v); }
inline const char* name_of(BuyingPolicy v) { return name_in(kBuyingPolicyNames, v); }
inline const char* name_of(PurchaseStatus v) { return name_in(kPurchaseStatusNames, v); }

}  // namespace advisor
