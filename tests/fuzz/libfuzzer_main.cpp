// SPDX-License-Identifier: MIT
// One libFuzzer binary per target: GPU_ADVISOR_FUZZ_TARGET names it (advise, data, jobs_csv,
// hf_config). Built by scripts/fuzz.sh with clang (-fsanitize=fuzzer,address,undefined).
#include <cstdint>
#include <string>

#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fuzz::Target target = fuzz::target_named(GPU_ADVISOR_FUZZ_TARGET);
  target(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
