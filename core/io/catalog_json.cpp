// SPDX-License-Identifier: MIT
#include "io/catalog_json.hpp"

#include <algorithm>
#include <set>

#include "io/json_reader.hpp"
#include "io/model_json.hpp"
#include "io/performance_json.hpp"
#include "io/prices_json.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/request.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

// Bounds that flag unit mistakes in provider catalogs (GB typed as bytes, W as kW) without
// excluding any real part: the largest GPU memory shipped is 288 GB, the largest TDP ~1.4 kW.
constexpr double kMaxGpuMemoryGib = 4096;
constexpr double kMaxBandwidthTbps = 100;
constexpr double kMaxTflops = 100'000;
constexpr double kMaxLinkGbps = 100'000;
// Floors: speeds, powers and sizes are divisors (step times, servers per rack); a part below
// these is a unit mistake, and 1e-308 would make the figures overflow.
constexpr double kMinGpuMemoryGib = 0.125;
constexpr double kMinBandwidthTbps = 0.001;  // 1 GB/s
constexpr double kMinTflops = 0.001;
constexpr double kMinTdpWatts = 1;
constexpr double kMinLinkGbps = 0.01;
// A part's words are shown on the page, in the CLI's text and in validation scripts, and a
// provider's catalog is untrusted: each is bounded (the built-in ones are well under these).
constexpr std::size_t kMaxGpuIdChars = 64;
constexpr std::size_t kMaxGpuLabelChars = limits::kMaxProviderLabelChars;  // name, vendor, ...
constexpr std::size_t kMaxGpuNoteChars = limits::kMaxProviderNoteChars;    // notes, summaries
constexpr std::size_t kMaxSourceChars = limits::kMaxProviderUrlChars;

/// A part's id: it names the part in requests, links, file paths and scripts, so it is plain:
/// lower-case letters, digits and . _ - (the built-in ids: "h100-sxm-80gb").
std::string read_gpu_id(FieldReader& r) {
  const std::string id = r.text("id", kMaxGpuIdChars);
  ADVISOR_REQUIRE(
      id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789._-") == std::string::npos,
      "out_of_range", r.path_of("id"),
      r.path_of("id") + " is " + in_quotes(id) +
          ": an id is lower-case letters, digits and . _ - (like \"h100-sxm-80gb\")");
  return id;
}

std::vector<std::string> read_sources(FieldReader& r) {
  const JsonValue* s = r.raw("source");
  const std::string p = r.path_of("source");
  ADVISOR_REQUIRE(s != nullptr, "missing_field", p, p + " is required (an array of URLs)");
  ADVISOR_REQUIRE(s->is_array() && !s->empty(), "wrong_type", p,
                  p + " must be a non-empty array of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s->size(); ++i) {
    const std::string item = p + "/" + std::to_string(i);
    ADVISOR_REQUIRE((*s)[i].is_string(), "wrong_type", item, item + " must be a string");
    ADVISOR_REQUIRE((*s)[i].string().size() <= kMaxSourceChars, "limit_exceeded", item,
                    item + " is over " + std::to_string(kMaxSourceChars) + " bytes, the limit");
    out.push_back((*s)[i].string());
  }
  return out;
}

/// The part's class, memory ECC and end of life ("product"); a provider's part without it gets
/// them derived from what it states: no PCIe peer-to-peer is the GeForce class (engine/comm
/// server_class), which has no ECC; any other part is taken for a data-centre one.
ProductFacts read_product(FieldReader& r, const GpuSpec& g) {
  ProductFacts f;
  const JsonValue* j = r.object("product");
  if (j == nullptr) {
    f.derived = true;
    if (!g.pcie_peer_to_peer) {
      f.product_class = "consumer";
      f.memory_ecc = "none";
    }
    f.basis = "derived: not stated by the catalog";
    return f;
  }
  FieldReader p(*j, r.path_of("product"));
  f.product_class = p.choice("class", {"datacenter", "workstation", "consumer"});
  f.memory_ecc = p.choice("memory_ecc", {"on", "off_by_default", "none"});
  f.end_of_life = p.boolean("end_of_life");
  f.basis = p.text("basis", kMaxGpuNoteChars);
  f.source = read_sources(p);
  p.reject_unknown();
  return f;
}

GpuSpec parse_gpu(const JsonValue& j, const std::string& path) {
  FieldReader r(j, path);
  GpuSpec g;
  g.id = read_gpu_id(r);
  g.name = r.text("name", kMaxGpuLabelChars);
  g.vendor = r.text("vendor", kMaxGpuLabelChars);
  g.architecture = r.text("architecture", kMaxGpuLabelChars);
  if (const JsonValue* cc = r.raw("compute_capability")) {
    constexpr std::size_t kMaxComputeCapabilityChars = 8;  // "12.0"
    ADVISOR_REQUIRE(cc->is_string() && !cc->string().empty() &&
                        cc->string().size() <= kMaxComputeCapabilityChars &&
                        cc->string().find_first_not_of("0123456789.") == std::string::npos,
                    "wrong_type", r.path_of("compute_capability"),
                    r.path_of("compute_capability") + " must be a string like \"9.0\" or null");
    g.compute_capability = cc->string();
  }
  g.software_stack = r.choice("software_stack", {"cuda", "rocm", "cann"});
  g.memory_gib = r.number("memory_gib", kMinGpuMemoryGib, kMaxGpuMemoryGib);
  // What the driver reports (nvidia-smi memory.total, MiB); optional so that older provider
  // catalogs stay valid. Never more than the nominal memory (plus rounding).
  g.memory_usable_mib =
      r.nullable_number("memory_usable_mib", kMinGpuMemoryGib * 1024, g.memory_gib * 1024 * 1.05);
  g.memory_usable_basis = r.text("memory_usable_basis", kMaxGpuNoteChars, std::string(), true);
  g.memory_type = r.text("memory_type", kMaxGpuLabelChars);
  g.memory_bandwidth_tbps = r.number("memory_bandwidth_tbps", kMinBandwidthTbps, kMaxBandwidthTbps);
  g.bf16_dense_tflops = r.number("bf16_dense_tflops", kMinTflops, kMaxTflops);
  g.fp16_dense_tflops = r.number("fp16_dense_tflops", kMinTflops, kMaxTflops);
  g.fp8_dense_tflops = r.nullable_number("fp8_dense_tflops", kMinTflops, kMaxTflops);
  g.fp32_tflops = r.nullable_number("fp32_tflops", kMinTflops, kMaxTflops);
  g.tdp_watts = r.number("tdp_watts", kMinTdpWatts, kMaxTdpWatts);
  g.form_factor = r.choice("form_factor", {"sxm", "pcie", "oam", "module"});
  {
    FieldReader l = required_object(r, "scale_up_link");
    g.scale_up_link.name = l.text("name", kMaxGpuLabelChars);
    g.scale_up_link.bidirectional_gbps =
        l.nullable_number("bidirectional_gbps", kMinLinkGbps, kMaxLinkGbps);
    g.scale_up_link.topology = l.choice("topology", {"switched", "bridge", "none"});
    g.scale_up_link.max_gpus_per_domain =
        static_cast<int>(l.integer("max_gpus_per_domain", 1, 1024));
    l.reject_unknown();
  }
  g.pcie_generation = static_cast<int>(r.integer("pcie_generation", 3, 6));
  g.pcie_lanes = static_cast<int>(r.integer("pcie_lanes", 1, 32));
  g.pcie_peer_to_peer = r.boolean("pcie_peer_to_peer");
  g.product = read_product(r, g);
  {
    FieldReader c = required_object(r, "china_availability");
    g.china_availability.status =
        c.choice("status", {"domestic", "china-specific", "license-required",
                            "license-required-case-by-case", "not-known-restricted"});
    g.china_availability.summary = c.text("summary", kMaxGpuNoteChars, {}, true);
    g.china_availability.as_of = c.text("as_of", kMaxGpuLabelChars);
    c.reject_unknown();
  }
  g.confidence = r.choice("confidence", {"A", "B", "C"});
  g.notes = r.text("notes", kMaxGpuNoteChars, std::string(), true);
  g.source = read_sources(r);
  g.as_of = r.text("as_of", kMaxGpuLabelChars);
  r.reject_unknown();
  return g;
}

double assumption(FieldReader& r, const char* key, double min, double max, std::string* basis) {
  return read_sourced_value(r, key, min, max, basis);
}

MemoryAssumptions parse_assumptions(const JsonValue& j) {
  FieldReader root(j, "assumptions.json");
  root.integer("schema", 1, 1);
  root.string("as_of");
  root.string("note", std::string());
  FieldReader r = required_object(root, "memory");  // "assumptions.json/memory"
  root.reject_unknown();
  MemoryAssumptions a;
  std::string unused;
  a.cuda_context_gib = assumption(r, "cuda_context_gib", 0, 16, &a.basis_context);
  a.communication_buffers_gib =
      assumption(r, "communication_buffers_gib", 0, 16, &a.basis_communication);
  a.fragmentation_fraction = assumption(r, "fragmentation_fraction", 0, 1, &a.basis_fragmentation);
  a.activation_band_low = assumption(r, "activation_band_low", 0, 1, &a.basis_activation_band);
  a.activation_band_high = assumption(r, "activation_band_high", 0, 10, &unused);
  a.overhead_band_high_factor = assumption(r, "overhead_band_high_factor", 1, 10, &unused);
  a.inference_prefill_chunk_tokens =
      assumption(r, "inference_prefill_chunk_tokens", 1, 1e7, &a.basis_prefill_chunk);
  a.planning_room_fraction =
      assumption(r, "planning_room_fraction", 0.5, 1, &a.basis_planning_room);
  a.pretrain_count_min_scaling_efficiency =
      assumption(r, "pretrain_count_min_scaling_efficiency", 0, 1, &unused);
  // At most the largest count a request may pin (types/request.hpp): the search walks every
  // candidate count.
  a.max_gpus_searched =
      static_cast<int>(assumption(r, "max_gpus_searched", 1, kMaxGpuCount, &unused));
  r.reject_unknown();
  return a;
}

template <typename T, typename Parse>
std::vector<T> parse_list(const JsonValue& root, const char* file, const char* key,
                          std::size_t max_items, std::string* as_of, Parse parse_item) {
  FieldReader r(root, file);
  r.integer("schema", 1, 1);
  *as_of = r.string("as_of");
  r.string("note", std::string());
  const JsonValue* list = r.raw(key);
  const std::string p = r.path_of(key);
  ADVISOR_REQUIRE(list != nullptr && list->is_array() && !list->empty(), "catalog_invalid", p,
                  p + " must be a non-empty array");
  r.reject_unknown();
  // Every option is judged and written per request: the list's length bounds the work.
  ADVISOR_REQUIRE(list->size() <= max_items, "limit_exceeded", p,
                  p + " has " + std::to_string(list->size()) + " entries; the limit is " +
                      std::to_string(max_items));
  std::vector<T> out;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string item_path = p + "/" + std::to_string(i);
    T item = parse_item((*list)[i], item_path);
    ADVISOR_REQUIRE(ids.insert(item.id).second, "catalog_invalid", item_path + "/id",
                    item_path + "/id " + in_quotes(item.id) + " appears twice");
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace

Catalog parse_catalog(const CatalogTexts& texts) {
  auto text = [](const std::string& given, const char* builtin) {
    return given.empty() ? std::string(builtin) : given;
  };
  const std::string gpus_json = text(texts.gpus, builtin_gpus_json());
  const std::string models_json = text(texts.models, builtin_models_json());
  const std::string assumptions_json = text(texts.assumptions, builtin_assumptions_json());
  constexpr std::size_t kFileLimit = limits::kMaxCatalogFileBytes;
  Catalog c;
  const JsonValue gpus_doc = parse_json_text(gpus_json, "gpus.json", kFileLimit);
  if (!texts.gpus.empty() && gpus_doc.is_object() && gpus_doc.contains("additions")) {
    // A provider's few parts on top of the built-in catalog: {"schema", "as_of", "additions":
    // [gpu, ...]}; an addition with a built-in id replaces that part.
    std::string builtin_as_of;
    c.gpus = parse_list<GpuSpec>(parse_json_text(builtin_gpus_json(), "gpus.json", kFileLimit),
                                 "gpus.json", "gpus", limits::kMaxCatalogGpus, &builtin_as_of,
                                 parse_gpu);
    const std::vector<GpuSpec> added = parse_list<GpuSpec>(
        gpus_doc, "gpus.json", "additions", limits::kMaxCatalogGpus, &c.gpus_as_of, parse_gpu);
    for (const GpuSpec& g : added) {
      auto same = std::find_if(c.gpus.begin(), c.gpus.end(),
                               [&](const GpuSpec& b) { return b.id == g.id; });
      if (same == c.gpus.end()) {
        c.gpus.push_back(g);
      } else {
        c.gpus_replaced.push_back(g.id);
        *same = g;
      }
    }
    ADVISOR_REQUIRE(
        c.gpus.size() <= limits::kMaxCatalogGpus, "limit_exceeded", "gpus.json/additions",
        "gpus.json/additions: the built-in parts plus the additions exceed the limit of " +
            std::to_string(limits::kMaxCatalogGpus) + " GPUs");
  } else {
    c.gpus = parse_list<GpuSpec>(gpus_doc, "gpus.json", "gpus", limits::kMaxCatalogGpus,
                                 &c.gpus_as_of, parse_gpu);
  }
  c.models = parse_list<ModelArch>(
      parse_json_text(models_json, "models.json", kFileLimit), "models.json", "models",
      limits::kMaxCatalogModels, &c.models_as_of,
      [](const JsonValue& j, const std::string& p) { return parse_model_fields(j, p, true); });
  c.memory = parse_assumptions(parse_json_text(assumptions_json, "assumptions.json", kFileLimit));
  c.performance = parse_performance(text(texts.performance, builtin_performance_json()));
  c.prices = parse_price_catalog(text(texts.prices, builtin_prices_json()));
  // A cluster offer rents a job across nodes only over RDMA (engine/rental_offers).
  for (auto& [id, offer] : c.prices.cluster_offers) {
    const NetworkKind* n = c.performance.find_network(offer.network);
    offer.rdma = n != nullptr && n->rdma;
  }
  return c;
}

}  // namespace advisor
