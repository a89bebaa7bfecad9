// SPDX-License-Identifier: MIT
// Bounded work by design: the limits on what the advisor accepts, so that no input, however
// hostile, makes it recurse deeply, allocate without bound, run for long or overflow a number.
// Each is enforced where the input is read and breaking it is a located error that names the
// limit (docs/api.md, "Limits"). Field ranges (sequence length, GPU count, ...) live with their
// parsers and are published in the form schema; these are the limits on shape and size.
#pragma once
#include <cstddef>
#include <cstdint>

namespace advisor::limits {

// ---- JSON text (request, pasted config.json, provider data files)
/// A request document (the pasted config.json and jobs CSV are inside it).
constexpr std::size_t kMaxRequestBytes = 1 << 20;  // 1 MiB
/// One provider data file (gpus.json, models.json, assumptions.json, performance.json,
/// prices.json); the built-in ones are under 50 KB.
constexpr std::size_t kMaxCatalogFileBytes = 4 << 20;  // 4 MiB
/// A validation-result.json read back (90_summary.sh writes a few KB of summary; raw
/// nvidia-smi CSV logs are read line by line, not as JSON).
constexpr std::size_t kMaxValidationResultBytes = 4 << 20;  // 4 MiB
/// The {"gpus": …, "prices": …} object of advise_with_data_text: up to five files.
constexpr std::size_t kMaxDataBytes = 5 * kMaxCatalogFileBytes;
/// Arrays and objects nested in one another. Our own documents need 7 levels; the limit is
/// checked by a bracket scan before any parsing (deep nesting used to overflow the stack).
constexpr int kMaxNestingDepth = 64;
/// Elements in any one JSON array (each catalog list, the job rows, lists in a config.json).
constexpr std::size_t kMaxArrayLength = 10'000;
/// Members of any one JSON object. Ours hold at most a few hundred (a validation result's
/// `measured`: ~20 keys per GPU of a 16-GPU server); objects are sorted once when read, so even
/// this many cost milliseconds, and finding a member is a binary search.
constexpr std::size_t kMaxObjectMembers = 10'000;
/// Bytes of any one object key (ours are under 60; a key is echoed in paths and messages).
constexpr std::size_t kMaxKeyBytes = 256;

// ---- servers
/// GPUs in one server: the largest chassis sold (HGX/OAM boards, 8-10 GPUs; PCIe servers up to
/// 20) with room; a GPU index read back from a server (nvidia-smi's index) is below it.
constexpr int kMaxGpusPerServer = 64;

// ---- validation read-back
/// A raw nvidia-smi CSV log read back (read line by line, never parsed as JSON): a 10-hour
/// burn-in of 8 GPUs logged every second is ~45 MB.
constexpr std::size_t kMaxGpuCsvBytes = 64 << 20;  // 64 MiB
/// Its samples (rows): the reader keeps one power reading per sample for the percentiles.
constexpr std::size_t kMaxGpuCsvRows = 2'000'000;

// ---- catalogs
constexpr std::size_t kMaxCatalogGpus = 1000;
constexpr std::size_t kMaxCatalogModels = 1000;
/// Stack profiles in performance.json (13 built in): a request that names no stack is
/// estimated under each stack common for its task (plan/stack_range), per plan shown.
constexpr std::size_t kMaxCatalogStacks = 64;

// ---- a provider catalog (advise_with_provider_text, data/provider.schema.json)
/// The whole document, its own GPU parts included (as large as one provider data file).
constexpr std::size_t kMaxProviderBytes = kMaxCatalogFileBytes;
/// Offers and colocation packages: every offer is folded into the prices once per document.
constexpr std::size_t kMaxProviderOffers = 1000;
constexpr std::size_t kMaxProviderPackages = 100;
/// Characters of the provider's texts (shown on the page as text): its name, a region or a
/// package name, a URL, a note.
constexpr std::size_t kMaxProviderNameChars = 120;
constexpr std::size_t kMaxProviderLabelChars = 80;
constexpr std::size_t kMaxProviderUrlChars = 500;
constexpr std::size_t kMaxProviderNoteChars = 1000;

// ---- capacity planning (/capacity)
/// Job rows, as CSV lines (header excluded) or as /capacity/jobs entries.
constexpr std::size_t kMaxJobRows = 10'000;
/// Distinct GPU types in one job history.
constexpr std::size_t kMaxJobGpuTypes = 64;
/// Months from the first to the last dated job (the result lists every month per type).
constexpr int kMaxMonthsSpanned = 120;

// ---- figures of the result
/// Bytes are written as exact integers: at most 2^53 (8 PiB per GPU). Larger estimates are a
/// located error naming the input that drives them.
constexpr double kMaxBytes = 9007199254740992.0;  // 2^53
/// Parameters of a model (10^14: 50x the largest published dense or MoE model).
constexpr double kMaxParameters = 1e14;
/// Servers, racks and cards any count in a plan may reach.
constexpr std::int64_t kMaxUnits = 1'000'000'000;

// ---- generated validation scripts
/// Characters of any text a script carries in a comment or a label (a model or GPU name, the
/// plan's summary): one line, cut beyond this (types/text.hpp one_line()).
constexpr std::size_t kMaxScriptTextChars = 160;

// ---- error messages
/// Characters of a user's text echoed in an error message (the rest is elided).
constexpr std::size_t kMaxEchoedChars = 80;

}  // namespace advisor::limits
