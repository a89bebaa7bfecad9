// SPDX-License-Identifier: MIT
#include "plan/levers.hpp"

#include <string>

namespace advisor {

const LeverChange kLevers[kLeverCount] = {
    {"activation_checkpointing", "/training/activation_checkpointing", "full", "more_compute",
     [](Request& r) {
       if (!is_training(r.task) || r.training.activation_checkpointing == Checkpointing::kFull)
         return false;
       r.training.activation_checkpointing = Checkpointing::kFull;
       return true;
     }},
    // One sequence per micro-batch holds the fewest activations; gradient accumulation keeps the
    // global batch (training.cpp counts the micro-batches per step).
    {"micro_batch_1", "/training/micro_batch_size", "1", "smaller_gemms",
     [](Request& r) {
       if (!is_training(r.task) || r.training.micro_batch_size <= 1) return false;
       r.training.micro_batch_size = 1;
       return true;
     }},
    {"optimizer_8bit", "/training/optimizer", "adamw_8bit", "optimizer_precision",
     [](Request& r) {
       if (!is_training(r.task) || is_adapter(r.task) || r.training.optimizer != Optimizer::kAdamW)
         return false;
       r.training.optimizer = Optimizer::kAdamW8bit;
       return true;
     }},
    {"lora", "/task", "lora", "fewer_trainable_parameters",
     [](Request& r) {
       if (r.task != Task::kFullFinetune) return false;
       r.task = Task::kLora;
       return true;
     }},
    {"qlora", "/task", "qlora", "quantised_base",
     [](Request& r) {
       if (r.task != Task::kFullFinetune && r.task != Task::kLora) return false;
       r.task = Task::kQlora;
       r.training.base_quantization = BaseQuantization::kNf4;
       r.training.activation_checkpointing = Checkpointing::kFull;
       return true;
     }},
    {"int8_weights", "/inference/weight_format", "int8", "quantised_weights",
     [](Request& r) {
       if (r.task != Task::kInference ||
           (r.inference.weight_format != "bf16" && r.inference.weight_format != "fp16"))
         return false;
       r.inference.weight_format = "int8";
       return true;
     }},
    {"int4_weights", "/inference/weight_format", "int4", "quantised_weights",
     [](Request& r) {
       const std::string& w = r.inference.weight_format;
       if (r.task != Task::kInference || w == "int4" || w == "nf4" || w.rfind("gguf_", 0) == 0)
         return false;
       r.inference.weight_format = "int4";
       return true;
     }},
    {"fp8_kv_cache", "/inference/kv_cache_precision", "fp8", "quantised_kv",
     [](Request& r) {
       const std::string& kv = r.inference.kv_cache_precision;
       if (r.task != Task::kInference || (kv != "bf16" && kv != "fp16")) return false;
       r.inference.kv_cache_precision = "fp8";
       return true;
     }},
};

}  // namespace advisor
