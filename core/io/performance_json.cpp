// SPDX-License-Identifier: MIT
#include "io/performance_json.hpp"

#include <initializer_list>
#include <utility>

#include "io/catalog_json.hpp"
#include "io/json_reader.hpp"
#include "io/stack_json.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/perf_constants.hpp"

namespace advisor {

namespace {

/// Reads {"value": x, "basis": "...", "source": "..."}.
double constant(FieldReader& r, const char* key, double min, double max) {
  return read_sourced_value(r, key, min, max);
}

FieldReader section(FieldReader& root, const char* key) { return required_object(root, key); }

std::vector<std::string> gpu_list(FieldReader& m) {
  std::vector<std::string> out;
  const JsonValue* ids = m.raw("gpus");
  ADVISOR_REQUIRE(ids != nullptr && ids->is_array() && !ids->empty(), "wrong_type",
                  m.path_of("gpus"), m.path_of("gpus") + " must be a non-empty array of GPU ids");
  for (const JsonValue& id : ids->elements()) {
    ADVISOR_REQUIRE(id.is_string(), "wrong_type", m.path_of("gpus"),
                    m.path_of("gpus") + " must hold strings");
    out.push_back(id.string());
  }
  return out;
}
/// Calls `read` with a reader of each entry of the array `key` (required; not empty when
/// `non_empty`), located at its index.
template <typename Read>
void for_each_entry(FieldReader& root, const char* key, bool non_empty, Read read) {
  const JsonValue* list = root.raw(key);
  const std::string p = root.path_of(key);
  ADVISOR_REQUIRE_OR_RETURN(list != nullptr && list->is_array() && (!non_empty || !list->empty()),
                            "wrong_type", p,
                            p + (non_empty ? " must be a non-empty array" : " must be an array"));
  for (std::size_t i = 0; i < list->size(); ++i) {
    FieldReader entry((*list)[i], p + "/" + std::to_string(i));
    read(entry);
  }
}

/// One sourced constant of a section: its key, the member it sets, its range.
struct SourcedConstant {
  const char* key;
  double PerformanceConstants::*member;
  double min, max;
};

/// The section `key`, sourced constants only, each read into `k`; any other member is an error.
void read_section(FieldReader& root, const char* key, PerformanceConstants& k,
                  std::initializer_list<SourcedConstant> constants) {
  FieldReader c = section(root, key);
  for (const SourcedConstant& s : constants) k.*s.member = constant(c, s.key, s.min, s.max);
  c.reject_unknown();
}

using K = PerformanceConstants;

void read_compute(FieldReader& root, PerformanceConstants& k) {
  read_section(root, "compute", k,
               {{"framework_efficiency", &K::framework_efficiency, 0.01, 1},
                {"default_matmul_fraction_bf16", &K::default_matmul_fraction_bf16, 0.01, 1},
                {"default_matmul_fraction_fp8", &K::default_matmul_fraction_fp8, 0.01, 1},
                {"default_attention_fraction", &K::default_attention_fraction, 0.01, 1},
                {"memory_bandwidth_efficiency", &K::memory_bandwidth_efficiency, 0.01, 1}});
}

void read_power_limit(FieldReader& root, PerformanceConstants& k) {
  FieldReader c = section(root, "power_limit");
  k.power_limit_static_fraction = constant(c, "static_fraction_of_tdp", 0, 0.9);
  k.power_limit_dynamic_exponent = constant(c, "dynamic_power_exponent", 1, 4);
  // Above the static share: a limit at the lowest modelled share still powers the cores.
  const double min_fraction = constant(c, "min_fraction_of_tdp", 0.05, 1);
  ADVISOR_REQUIRE_OR_RETURN(min_fraction > k.power_limit_static_fraction, "catalog_invalid",
                            c.path_of("min_fraction_of_tdp"),
                            c.path_of("min_fraction_of_tdp") +
                                " must be above static_fraction_of_tdp: a part at the lowest "
                                "limit must have power left for its cores");
  k.power_limit_min_fraction = min_fraction;
  c.reject_unknown();
}

/// The measured shares of peak per GPU: matmul_fraction, then attention_fraction.
void read_fractions(FieldReader& root, PerformanceConstants& k) {
  for_each_entry(root, "matmul_fraction", false, [&](FieldReader& m) {
    MatmulFraction f;
    f.gpus = gpu_list(m);
    // Above 1 where a card sustains more than its rated boost clock (GeForce).
    f.bf16 = m.number("bf16", 0.01, 1.5);
    f.fp8 = m.nullable_number("fp8", 0.01, 1.5);
    m.string("basis");
    m.string("source");
    m.reject_unknown();
    k.add_fraction(std::move(f));
  });
  for_each_entry(root, "attention_fraction", false, [&](FieldReader& m) {
    AttentionFraction f;
    f.gpus = gpu_list(m);
    f.value = m.number("value", 0.01, 1);
    m.string("basis");
    m.string("source");
    m.reject_unknown();
    k.add_fraction(std::move(f));
  });
}

void read_communication(FieldReader& root, PerformanceConstants& k) {
  read_section(root, "communication", k,
               {{"nvlink_efficiency", &K::nvlink_efficiency, 0.01, 1.5},
                {"nvlink_bridge_efficiency", &K::nvlink_bridge_efficiency, 0.01, 1.5},
                {"pcie_p2p_efficiency", &K::pcie_p2p_efficiency, 0.01, 1},
                {"pcie_host_efficiency", &K::pcie_host_efficiency, 0.01, 1},
                {"host_memory_bandwidth_gbps", &K::host_memory_bandwidth_gbps, 1, 1e5},
                {"overlap_fraction", &K::overlap_fraction, 0, 1},
                {"nvls_efficiency", &K::nvls_efficiency, 0, 2},
                {"nvls_latency_us", &K::nvls_latency_us, 0, 1e4}});
}

void read_networks(FieldReader& root, PerformanceConstants& k) {
  for_each_entry(root, "networks", true, [&](FieldReader& n) {
    NetworkKind kind;
    kind.id = n.string("id");
    kind.name = n.string("name");
    // Floors as for the request's line rate: a step time divides by them. A rate per GPU
    // (one NIC per GPU) or per server (NICs its GPUs share), not both.
    const bool per_server = n.has("gbit_per_s_per_server");
    ADVISOR_REQUIRE_OR_RETURN(
        per_server != n.has("gbit_per_s_per_gpu"), "catalog_invalid", n.path(),
        n.path() + " needs one of gbit_per_s_per_gpu and gbit_per_s_per_server");
    if (per_server)
      kind.gbit_per_s_per_server = n.number("gbit_per_s_per_server", 0.1, 1e6);
    else
      kind.gbit_per_s_per_gpu = n.number("gbit_per_s_per_gpu", 0.1, 1e5);
    kind.efficiency = n.number("efficiency", 0.01, 1);
    kind.rdma = n.boolean("rdma", true);
    kind.extra_hop_latency_us = n.number("extra_hop_latency_us", 0, 1e5, 0.0);
    n.string("basis");
    n.string("source");
    n.reject_unknown();
    k.networks.push_back(kind);
  });
}

/// The network each class of server is sold with (server_networks): every class once, each
/// naming one of the networks.
void read_server_networks(FieldReader& root, PerformanceConstants& k) {
  for_each_entry(root, "server_networks", false, [&](FieldReader& n) {
    ServerNetwork s;
    s.server_class = n.choice("class", {kServerClasses[0], kServerClasses[1], kServerClasses[2],
                                        kServerClasses[3], kServerClasses[4]});
    s.network = n.string("network");
    ADVISOR_REQUIRE_OR_RETURN(
        k.find_network(s.network) != nullptr, "catalog_invalid", n.path_of("network"),
        n.path_of("network") + " names no entry of performance.json/networks");
    ADVISOR_REQUIRE_OR_RETURN(k.find_server_network(s.server_class) == nullptr, "duplicate",
                              n.path_of("class"),
                              n.path_of("class") + " " + s.server_class + " appears twice");
    if (n.has("gpus")) s.gpus = gpu_list(n);
    n.string("basis");
    n.string("source");
    n.reject_unknown();
    k.server_networks.push_back(std::move(s));
  });
  const std::string p = root.path_of("server_networks");
  for (const char* c : kServerClasses)
    ADVISOR_REQUIRE_OR_RETURN(k.find_server_network(c) != nullptr, "catalog_invalid", p,
                              p + " has no entry for the server class " + c);
}

void read_defaults(FieldReader& root, PerformanceConstants& k) {
  FieldReader c = section(root, "defaults");
  k.auto_global_batch_tokens_pretrain = constant(c, "auto_global_batch_tokens_pretrain", 1, 1e9);
  k.auto_global_batch_sequences_finetune =
      constant(c, "auto_global_batch_sequences_finetune", 1, 1e7);
  k.pretrain_tokens_per_parameter = constant(c, "pretrain_tokens_per_parameter", 0.01, 1e6);
  k.finetune_tokens = constant(c, "finetune_tokens", 1, 1e16);
  k.storage_read_factor = constant(c, "storage_read_factor", 1, 1000);
  c.reject_unknown();
}
}  // namespace

PerformanceConstants parse_performance(const std::string& text) {
  const JsonValue doc = parse_json_text(text, "performance.json", limits::kMaxCatalogFileBytes);
  FieldReader root(doc, "performance.json");
  root.integer("schema", 1, 1);
  root.string("as_of");
  root.string("note", std::string());
  PerformanceConstants k;
  read_compute(root, k);
  read_power_limit(root, k);
  read_fractions(root, k);
  read_communication(root, k);
  read_networks(root, k);
  read_server_networks(root, k);
  read_defaults(root, k);
  parse_stack_sections(root, k);
  root.reject_unknown();
  return k;
}

}  // namespace advisor
