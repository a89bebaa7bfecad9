// SPDX-License-Identifier: MIT
// The text API's entry points as fuzz targets: each takes the fuzzer's bytes, calls the API as
// the CLI, the wasm module or the page would, and checks the answer (check_result.hpp). The
// libFuzzer binaries (libfuzzer_main.cpp) and the replay test (replay_main.cpp) share them.
#pragma once
#include <string>

namespace fuzz {

/// A request text (advise_text).
void advise(const std::string& input);
/// A request and a provider's data object, separated by kDataSeparator (advise_with_data_text).
void advise_with_data(const std::string& input);
/// A job-history CSV, as /capacity/jobs_csv of a request.
void jobs_csv(const std::string& input);
/// A pasted Hugging Face config.json, as /model/hf_config of a request (as text when the first
/// byte is even, as the object itself when odd).
void hf_config(const std::string& input);

/// A validation read-back file (a validation-result.json when it starts with '{', else an
/// nvidia-smi CSV) checked against a pinned 8 x H100 fine-tune (validation_check_text).
void validation(const std::string& input);
/// A provider catalog document (data/provider.schema.json) with one of three requests.
void provider(const std::string& input);
/// Text in a field that reaches the validation scripts (the first byte picks which: a custom
/// model's name, a pasted config's _name_or_path, a provider part's name): every generated
/// shell and Python file must keep the command structure it has for a benign name.
void scripts(const std::string& input);

inline constexpr const char* kDataSeparator = "\n#data\n";

/// The target called `name` (advise, data, jobs_csv, hf_config, validation, provider, scripts),
/// or nullptr.
using Target = void (*)(const std::string&);
Target target_named(const std::string& name);

}  // namespace fuzz
