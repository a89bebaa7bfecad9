// SPDX-License-Identifier: MIT
#include "io/validation_json.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "io/json_reader.hpp"
#include "io/validation_fields.hpp"
#include "io/validation_sections_json.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"
#include "validation/check_identity.hpp"
#include "validation/gpu_csv.hpp"

namespace advisor::validation {
namespace {

using json = JsonValue;
using namespace fields;  // NOLINT: the reads of these files, one namespace for them

/// Xid codes: whole numbers (NVIDIA's catalog numbers them from 1).
std::vector<int> xid_codes(const json& obj, const std::string& key, const std::string& path) {
  const json& v = field(obj, key, path);
  if (!v.is_array())
    return report_problem("catalog_invalid", path + "/" + key, key + " must be an array");
  std::vector<int> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number() || v[i].number() < 1 || v[i].number() != std::floor(v[i].number()))
      return report_problem("catalog_invalid", path + "/" + key + "/" + std::to_string(i),
                            "an Xid code is a whole number >= 1");
    out.push_back(static_cast<int>(v[i].number()));
  }
  return out;
}

XidClasses xid_classes(const json& doc, const std::string& base) {
  const std::string p = base + "/xid";
  const json& x = field(doc, "xid", base);
  XidClasses c{xid_codes(x, "hardware", p), xid_codes(x, "application", p), str(x, "source", p)};
  for (int code : c.application)
    if (is_hardware_xid(c, code))
      return report_problem(
          "catalog_invalid", p + "/application",
          "Xid " + std::to_string(code) + " is listed as hardware and application");
  return c;
}

/// The number `key` of `x`, whole where `whole`, in [lo, hi]: else a located catalog error.
double bounded(const json& x, const char* key, const std::string& p, double lo, double hi,
               bool whole, const char* rule) {
  const double v = number(x, key, p);
  if (v < lo || v > hi || (whole && v != std::floor(v)))
    return report_problem("catalog_invalid", p + "/" + key, std::string(key) + " is " + rule);
  return v;
}

NvlinkErrorLimits nvlink_error_limits(const json& doc, const std::string& base) {
  const std::string p = base + "/nvlink_errors";
  const json& x = field(doc, "nvlink_errors", base);
  auto limit = [&](const char* key) {
    return static_cast<int>(bounded(x, key, p, 1, 1e9, true, "a count >= 1"));
  };
  return {limit("crc_fail_per_link"), limit("replay_fail_per_link"),
          limit("recovery_fail_per_link"), str(x, "source", p)};
}

NetworkCheckLimits network_check_limits(const json& doc, const std::string& base) {
  const std::string p = base + "/network_checks";
  const json& x = field(doc, "network_checks", base);
  return {bounded(x, "rdma_bw_fraction", p, 0.01, 1, false, "a share of line rate, 0.01-1"),
          static_cast<int>(bounded(x, "roce_priority", p, 0, 7, true, "an 802.1p priority, 0-7")),
          str(x, "source", p)};
}

ProductClass product_class(const std::string& s, const std::string& path) {
  if (s == "data_center") return ProductClass::data_center;
  if (s == "workstation") return ProductClass::workstation;
  if (s == "geforce") return ProductClass::geforce;
  return report_problem("catalog_invalid", path,
                        "product_class must be data_center, workstation or geforce");
}

// --- validation-result.json -------------------------------------------------------------------

class ResultReader {
 public:
  ResultReader(const json& measured, std::string base) : m_(measured), base_(std::move(base)) {}

  /// A number, or nullopt when absent, reported as N/A, or not a number (reported).
  std::optional<double> num(const std::string& key) const {
    const json* found = m_.find(key);
    if (found == nullptr) return std::nullopt;
    const json& v = *found;
    if (v.is_null()) return std::nullopt;
    if (v.is_number()) return v.number();
    if (v.is_string()) {
      std::string s = v.string();
      if (s.empty() || s == "[N/A]" || s == "N/A" || s == "[Not Supported]") return std::nullopt;
      char* end = nullptr;
      std::strtod(s.c_str(), &end);
      std::string rest = end ? std::string(end) : "";
      while (!rest.empty() && rest.front() == ' ') rest.erase(rest.begin());
      if (end != s.c_str() && !rest.empty())
        return report_problem(
            "wrong_unit", path(key),
            key + " is " + in_quotes(s) + ": give a plain number" + unit_hint(key));
    }
    return report_problem("bad_value", path(key),
                          key + " must be a number" + unit_hint(key) + ", got " +
                              in_quotes(v.is_string() ? v.string() : v.dump()));
  }
  /// A count or an index: a whole number in [0, 2^31), refused rather than wrapped.
  std::optional<int> integer(const std::string& key) const {
    auto v = num(key);
    if (!v) return std::nullopt;
    constexpr double kMaxCount = 2147483647;  // INT_MAX: every count here is far below it
    ADVISOR_REQUIRE(*v >= 0 && *v <= kMaxCount && *v == std::floor(*v), "bad_value", path(key),
                    key + " must be a whole number from 0 to " + format_number(kMaxCount) +
                        ", got " + format_number(*v));
    return static_cast<int>(*v);
  }
  std::string text(const std::string& key) const {
    const json* found = m_.find(key);
    if (found == nullptr || found->is_null()) return "";
    const json& v = *found;
    if (v.is_string()) return v.string();
    if (v.is_number()) return v.dump();
    return report_problem("bad_value", path(key), key + " must be text");
  }
  std::string path(const std::string& key) const { return base_ + "/measured/" + key; }

 private:
  static std::string unit_hint(const std::string& key) {
    auto ends = [&](const char* s) {
      std::string x = s;
      return key.size() >= x.size() && key.compare(key.size() - x.size(), x.size(), x) == 0;
    };
    if (ends("_mib")) return " of MiB";
    if (ends("_bytes")) return " of bytes";
    if (ends("_gbps")) return " of GB/s";
    if (ends("_gbit_per_s") || ends("_gbit_per_s_min")) return " of Gbit/s";
    if (ends("_tflops")) return " of TFLOPS";
    if (ends("_fraction")) return " (a share 0-1)";
    if (ends("_seconds")) return " of seconds";
    if (ends("_c_max")) return " of degrees C";
    if (ends("_w") || ends("_w_p50") || ends("_w_p99") || ends("_w_max") || ends("_w_logged"))
      return " of W";
    return "";
  }
  const json& m_;
  std::string base_;
};

/// The entry of `list` for GPU `index`, appended when the file has not named that GPU yet.
template <typename Entry>
Entry& entry_for(std::vector<Entry>& list, int index) {
  for (Entry& e : list)
    if (e.index == index) return e;
  list.push_back({});
  list.back().index = index;
  return list.back();
}

/// "gpu.3.memory_total_mib" -> (3, "memory_total_mib"); false when not of that form.
bool split_indexed(const std::string& key, const std::string& prefix, int& index,
                   std::string& rest) {
  if (key.rfind(prefix + ".", 0) != 0) return false;
  std::size_t a = prefix.size() + 1, dot = key.find('.', a);
  if (dot == std::string::npos || dot == a) return false;
  for (std::size_t i = a; i < dot; ++i)
    if (!std::isdigit(static_cast<unsigned char>(key[i]))) return false;
  // An index beyond one server's GPUs is not read as a number (no overflow, no huge table).
  constexpr std::size_t kMaxIndexDigits = 2;
  static_assert(limits::kMaxGpusPerServer <= 100, "two digits hold every GPU index");
  index = -1;
  if (dot - a <= kMaxIndexDigits) index = std::stoi(key.substr(a, dot - a));
  rest = key.substr(dot + 1);
  return true;
}

void fraction_in_range(const std::optional<double>& v, const std::string& path,
                       const std::string& key) {
  if (v && (*v < 0 || *v > 1))
    report_problem("wrong_unit", path,
                   key + " is " + json(*v).dump() + ": a share 0-1 is expected (a percentage?)");
}

/// The flat figures of "measured", one per line in 90_summary.sh's order.
void read_measured_figures(ResultReader& r, Measurements& m) {
  m.gpu_count = r.integer("gpu_count");
  m.driver_version = r.text("driver_version");
  m.xid_count = r.integer("xid_count");
  m.xid_codes = r.text("xid_codes");
  m.row_remap_pending_gpus = r.integer("row_remap_pending_gpus");
  m.row_remap_failure_gpus = r.integer("row_remap_failure_gpus");
  m.fabric_manager_state = r.text("fabric_manager_state");
  m.fabric_manager_version = r.text("fabric_manager_version");
  m.fabric_completed_gpus = r.integer("fabric_completed_gpus");
  m.topo_pairs = r.integer("topo_pairs");
  m.topo_mismatched_pairs = r.integer("topo_mismatched_pairs");
  m.topo_entries = r.text("topo_entries");
  m.nvlink_error_count = r.num("nvlink_error_count");
  m.nvlink_error_storm_links = r.integer("nvlink_error_storm_links");
  m.nvlink_error_storm_at = r.text("nvlink_error_storm_at");
  m.p2p_pairs = r.integer("p2p_pairs");
  m.p2p_ok_pairs = r.integer("p2p_ok_pairs");
  m.ib_ports_active = r.integer("ib_ports_active");
  m.ib_rate_gbit_per_s_min = r.num("ib_rate_gbit_per_s_min");
  m.ib_write_bw_gbit_per_s = r.num("ib_write_bw_gbit_per_s");
  m.ngc_tag = r.text("ngc_tag");
  m.torch_version = r.text("torch_version");
  m.container_device_count = r.integer("container_device_count");
  m.step_status = r.text("step_status");
  m.step_device_used_bytes = r.num("step_device_used_bytes");
  m.step_peak_reserved_bytes = r.num("step_peak_reserved_bytes");
  m.step_tokens_per_second_per_gpu = r.num("step_tokens_per_second_per_gpu");
  m.allreduce_busbw_gbps = r.num("allreduce_busbw_gbps");
  m.nccl_transport_intra = r.text("nccl_transport_intra");
  m.inter_node_busbw_gbps = r.num("inter_node_busbw_gbps");
  m.nccl_transport_net = r.text("nccl_transport_net");
  m.burnin_seconds = r.num("burnin_seconds");
  m.burnin_target_seconds = r.num("burnin_target_seconds");
  m.xid_new = r.integer("xid_new");
  m.xid_new_codes = r.text("xid_new_codes");
  m.nccl_timeouts = r.integer("nccl_timeouts");
  m.gpus_logged = r.integer("gpus_logged");
  m.burnin_inter_node_windows = r.integer("burnin_inter_node_windows");
  m.burnin_inter_node_busbw_gbps_min = r.num("burnin_inter_node_busbw_gbps_min");
  m.wall_power_w_max = r.num("wall_power_w_max");
  m.wall_power_w_p50 = r.num("wall_power_w_p50");
  m.dcgm_diag = r.text("dcgm_diag");
  m.dcgm_failed_tests = r.text("dcgm_failed_tests");
  m.dcgm_level = r.integer("dcgm_level");
  m.job_tokens_per_second_per_server = r.num("job.tokens_per_second_per_server");
}

/// One "gpu<i>.<f>" member of "measured": an identity field, a GEMM rate or a logged figure.
void read_gpu_member(ResultReader& r, const std::string& key, int i, const std::string& f,
                     Measurements& m) {
  if (f == "name")
    entry_for(m.gpus, i).name = r.text(key);
  else if (f == "pci_bus_id")
    entry_for(m.gpus, i).pci_bus_id = r.text(key);
  else if (f == "memory_total_mib")
    entry_for(m.gpus, i).memory_total_mib = r.num(key);
  else if (f == "power_limit_w")
    entry_for(m.gpus, i).power_limit_w = r.num(key);
  else if (f == "pcie_gen_max")
    entry_for(m.gpus, i).pcie_gen_max = r.integer(key);
  else if (f == "pcie_width_max")
    entry_for(m.gpus, i).pcie_width_max = r.integer(key);
  else if (f == "compute_cap")
    entry_for(m.gpus, i).compute_cap = r.text(key);
  else if (is_gpu_text_field(f))
    set_gpu_text_field(entry_for(m.gpus, i), f, r.text(key));
  else if (f == "gemm_tflops" || f == "burn_tflops") {
    if (auto v = r.num(key)) (f[0] == 'g' ? m.gemm_tflops : m.burn_tflops).emplace_back(i, *v);
  } else if (f == "samples")
    entry_for(m.power, i).samples = r.integer(key).value_or(0);
  else if (f == "power_draw_w_p50")
    entry_for(m.power, i).power_draw_w_p50 = r.num(key);
  else if (f == "power_draw_w_p99")
    entry_for(m.power, i).power_draw_w_p99 = r.num(key);
  else if (f == "power_limit_w_logged")
    entry_for(m.power, i).power_limit_w = r.num(key);
  else if (f == "temperature_c_max")
    entry_for(m.power, i).temperature_c_max = r.num(key);
  else if (f == "thermal_throttle_fraction" || f == "power_brake_fraction" ||
           f == "power_cap_fraction") {
    auto v = r.num(key);
    fraction_in_range(v, r.path(key), key);
    double& slot = f == "thermal_throttle_fraction"
                       ? entry_for(m.power, i).thermal_throttle_fraction
                   : f == "power_brake_fraction" ? entry_for(m.power, i).power_brake_fraction
                                                 : entry_for(m.power, i).power_cap_fraction;
    slot = v.value_or(0);
  } else if (f == "ecc_uncorrected_max")
    entry_for(m.power, i).ecc_uncorrected_max = r.num(key);
  else if (f == "pcie_gen_min_busy")
    entry_for(m.power, i).pcie_gen_min_busy = r.integer(key);
  else if (f == "pcie_width_min_busy")
    entry_for(m.power, i).pcie_width_min_busy = r.integer(key);
  else if (f == "pcie_width_max_logged")
    entry_for(m.power, i).pcie_width_max_logged = r.integer(key);
}

/// One "nvlink<i>.<f>" member of "measured": the links up, the slowest, the ones down.
void read_nvlink_member(ResultReader& r, const std::string& key, int i, const std::string& f,
                        Measurements& m) {
  if (f == "active_links")
    entry_for(m.nvlink, i).active_links = r.integer(key).value_or(0);
  else if (f == "min_link_gbps")
    entry_for(m.nvlink, i).min_link_gbps = r.num(key);
  else if (f == "inactive_links") {
    std::string list = r.text(key);
    std::size_t a = 0;
    while (a < list.size()) {
      std::size_t b = list.find(',', a);
      std::string item = list.substr(a, b == std::string::npos ? std::string::npos : b - a);
      if (!item.empty()) {
        char* end = nullptr;
        long link = std::strtol(item.c_str(), &end, 10);
        constexpr long kMaxLink = 64;  // NVLink links per GPU: 18 on Hopper and Blackwell
        ADVISOR_REQUIRE_OR_RETURN(*end == '\0' && link >= 0 && link <= kMaxLink, "bad_value",
                                  r.path(key),
                                  key + " must list link numbers 0-64, got " + in_quotes(list));
        entry_for(m.nvlink, i).inactive_links.push_back(static_cast<int>(link));
      }
      if (b == std::string::npos) break;
      a = b + 1;
    }
  }
}

}  // namespace

NgcCatalog parse_ngc_catalog(const std::string& text) {
  const std::string base = "ngc.json";
  json doc = parse(text, base);
  if (problem_reported()) return {};
  NgcCatalog c;
  c.as_of = str(doc, "as_of", base);
  c.default_registry = str(doc, "default_registry", base);
  const json& tags = field(doc, "tags", base);
  if (!tags.is_array() || tags.empty())
    return report_problem("catalog_invalid", base + "/tags", "tags must be a non-empty array");
  for (std::size_t i = 0; i < tags.size(); ++i) {
    const std::string p = base + "/tags/" + std::to_string(i);
    const json& t = tags[i];
    NgcTag tag;
    tag.tag = str(t, "tag", p);
    tag.cuda = str(t, "cuda", p);
    tag.pytorch = str_or_empty(t, "pytorch", p);
    tag.min_driver = str(t, "min_driver", p);
    tag.bundled_driver = str_or_empty(t, "bundled_driver", p);
    tag.dc_forward_compat_branches = strings(t, "dc_forward_compat_branches", p);
    tag.arch_min_cc = str(t, "arch_min_cc", p);
    tag.native_blackwell = boolean(t, "arch_native_blackwell", p);
    tag.ubuntu = str_or_empty(t, "ubuntu", p);
    tag.python = str_or_empty(t, "python", p);
    std::string status = str(t, "status", p);
    if (status == "confirmed")
      tag.status = TagStatus::confirmed;
    else if (status == "secondary")
      tag.status = TagStatus::secondary;
    else if (status == "unconfirmed")
      tag.status = TagStatus::unconfirmed;
    else
      return report_problem("catalog_invalid", p + "/status",
                            "status must be confirmed, secondary or unconfirmed");
    tag.source = strings(t, "source", p);
    tag.as_of = str(t, "as_of", p);
    tag.notes = str(t, "notes", p);
    if (!c.tags.empty() && compare_versions(c.tags.back().tag, tag.tag) >= 0)
      return report_problem("catalog_invalid", p + "/tag", "tags must be in ascending order");
    c.tags.push_back(std::move(tag));
  }
  return c;
}

std::map<std::string, PartFacts> parse_part_facts(const std::string& text) {
  const std::string base = "validation.json";
  json doc = parse(text, base);
  if (problem_reported()) return {};
  const json& parts = field(doc, "parts", base);
  if (!parts.is_object())  // (nor read as one: an array's members have no keys)
    return report_problem("catalog_invalid", base + "/parts", "parts must be an object");
  std::map<std::string, PartFacts> out;
  const XidClasses xid = xid_classes(doc, base);
  const NvlinkErrorLimits nvlink_errors = nvlink_error_limits(doc, base);
  const NetworkCheckLimits network_checks = network_check_limits(doc, base);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string p = base + "/parts/" + parts.key(i);
    const json& j = parts[i];
    PartFacts f;
    f.xid = xid;
    f.nvlink_errors = nvlink_errors;
    f.network_checks = network_checks;
    f.supported = boolean(j, "supported", p);
    f.product = product_class(str(j, "product_class", p), p + "/product_class");
    f.smi_names = strings(j, "smi_names", p);
    if (!field(j, "memory_total_mib_ecc_on", p).is_null())
      f.memory_total_mib_ecc_on = static_cast<int>(number(j, "memory_total_mib_ecc_on", p));
    if (!field(j, "memory_total_mib_ecc_off", p).is_null())
      f.memory_total_mib_ecc_off = static_cast<int>(number(j, "memory_total_mib_ecc_off", p));
    f.intra_node = str(j, "intra_node", p);
    if (f.intra_node != "nvswitch" && f.intra_node != "nvlink_bridge" && f.intra_node != "pcie" &&
        f.intra_node != "none")
      return report_problem("catalog_invalid", p + "/intra_node",
                            "intra_node must be nvswitch, nvlink_bridge, pcie or none");
    f.nvlink_links_per_gpu = static_cast<int>(number(j, "nvlink_links_per_gpu", p));
    if (!field(j, "nvlink_link_gbps", p).is_null())
      f.nvlink_link_gbps = number(j, "nvlink_link_gbps", p);
    if (!field(j, "topo_entry", p).is_null()) f.topo_entry = str(j, "topo_entry", p);
    f.fabric_manager = boolean(j, "fabric_manager", p);
    f.row_remapper = boolean(j, "row_remapper", p);
    f.ecc_expected = f.product == ProductClass::data_center;  // gpus.json product decides
    // "derived": which of the entry's values are not sourced, each with the rule that gives it.
    const json* derived = j.find("derived");
    if (derived && !derived->is_null()) {
      if (!derived->is_object())
        return report_problem("catalog_invalid", p + "/derived", "derived must be an object");
      for (std::size_t k = 0; k < derived->size(); ++k) {
        if (!(*derived)[k].is_string())
          return report_problem("catalog_invalid", p + "/derived/" + derived->key(k),
                                "a derived value's rule must be a string");
        if (!j.contains(derived->key(k)))
          return report_problem(
              "catalog_invalid", p + "/derived/" + derived->key(k),
              "derived names " + derived->key(k) + ", which the entry does not have");
      }
    }
    const json& obs = field(j, "power_limit_w_observed", p);
    if (obs.is_array())
      for (const json& w : obs.elements()) {
        if (!w.is_number())
          return report_problem(
              "catalog_invalid", p + "/power_limit_w_observed",
              p + "/power_limit_w_observed must hold numbers, not " + w.type_name());
        f.power_limit_w_observed.push_back(w.number());
      }
    f.confirmed = boolean(j, "confirmed", p);
    f.notes = str(j, "notes", p);
    f.source = strings(j, "source", p);
    f.as_of = str(j, "as_of", p);
    out[parts.key(i)] = std::move(f);
  }
  return out;
}

GpuFacts gpu_facts_from_catalog_json(const std::string& gpus_json, const std::string& gpu_id) {
  json doc = parse(gpus_json, "gpus.json");
  if (problem_reported()) return {};
  const json& gpus = field(doc, "gpus", "gpus.json");
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const json& g = gpus[i];
    const std::string p = "gpus.json/gpus/" + std::to_string(i);
    if (!g.is_object() || text_or_empty(g, "id", p) != gpu_id) continue;
    GpuFacts f;
    f.id = gpu_id;
    f.name = str(g, "name", p);
    f.vendor = str(g, "vendor", p);
    f.architecture = str(g, "architecture", p);
    f.compute_capability = str_or_empty(g, "compute_capability", p);
    f.software_stack = str(g, "software_stack", p);
    f.bf16_dense_tflops = number(g, "bf16_dense_tflops", p);
    f.tdp_watts = number(g, "tdp_watts", p);
    f.pcie_generation = static_cast<int>(number(g, "pcie_generation", p));
    f.pcie_lanes = static_cast<int>(number(g, "pcie_lanes", p));
    f.pcie_peer_to_peer = boolean(g, "pcie_peer_to_peer", p);
    f.memory_type = str_or_empty(g, "memory_type", p);
    const json* product = g.find("product");
    if (product && product->is_object()) f.memory_ecc = str_or_empty(*product, "memory_ecc", p);
    return f;
  }
  return report_problem("validation_unknown_gpu", "/gpu", "no GPU " + gpu_id + " in gpus.json");
}

Measurements parse_result_file(const std::string& text, const std::string& file) {
  const std::string base = "/" + file;
  json doc = parse(text, file);
  if (problem_reported()) return {};
  if (!doc.is_object() || text_or_empty(doc, "kind", base) != "gpu-advisor-validation-result")
    return report_problem("not_a_validation_result", base + "/kind",
                          file + " is not a validation-result.json written by 90_summary.sh");
  const json* schema = doc.find("schema");
  ADVISOR_REQUIRE(schema && schema->is_integer() && schema->number() == 1, "unsupported_schema",
                  base + "/schema", file + " has a schema this version cannot read (expected 1)");
  const json* plan_id = doc.find("plan_id");
  ADVISOR_REQUIRE(plan_id && plan_id->is_string(), "bad_value", base + "/plan_id",
                  file + " names no plan_id");
  const json* measured_object = doc.find("measured");
  ADVISOR_REQUIRE(measured_object && measured_object->is_object(), "bad_value", base + "/measured",
                  file + " has no measured object");

  Measurements m;
  m.file_name = file;
  m.plan_id = plan_id->string();
  m.gpu_id = text_or_empty(doc, "gpu_id", base);
  m.host = text_or_empty(doc, "host", base);
  if (const json* stages = doc.find("scripts"); stages && stages->is_array()) {
    m.stages_listed = true;
    for (std::size_t i = 0; i < stages->size(); ++i)
      if ((*stages)[i].is_string()) m.stages_run.push_back((*stages)[i].string());
  }
  if (const json* d = doc.find("dcgm")) m.dcgm_tests = read_dcgm_json(*d, base + "/dcgm");
  const json& measured = *measured_object;
  ResultReader r(measured, base);

  read_measured_figures(r, m);
  for (std::size_t k = 0; k < measured.size(); ++k) {
    const std::string& key = measured.key(k);
    int i = 0;
    std::string f;
    const bool gpu_key = split_indexed(key, "gpu", i, f);
    if ((gpu_key || split_indexed(key, "nvlink", i, f)) &&
        !(i >= 0 && i < limits::kMaxGpusPerServer))
      return report_problem("bad_value", r.path(key),
                            in_quotes(key) + " names a GPU index beyond " +
                                std::to_string(limits::kMaxGpusPerServer - 1) +
                                ": one server's nvidia-smi numbers its GPUs from 0");
    if (gpu_key)
      read_gpu_member(r, key, i, f, m);
    else if (split_indexed(key, "nvlink", i, f))
      read_nvlink_member(r, key, i, f, m);
    if (problem_reported()) return {};
  }
  m.script_checks = read_script_checks(doc, base);
  return m;
}

Measurements read_measurements(const std::string& text, const std::string& file,
                               const ValidationPlan& plan) {
  Measurements m =
      looks_like_gpu_csv(text) ? summarize_gpu_csv(text, file) : parse_result_file(text, file);
  if (problem_reported()) return {};  // a file not read whole is not compared with the plan
  require_same_plan(plan, m);
  const std::string base = "/" + file + "/measured/";
  for (const auto& g : m.gpus) {
    const std::optional<int> planned = planned_memory_total_mib(plan);
    if (planned && g.memory_total_mib && *g.memory_total_mib > 0 &&
        *g.memory_total_mib * 100 < *planned)
      return report_problem("wrong_unit",
                            base + "gpu." + std::to_string(g.index) + ".memory_total_mib",
                            "memory_total_mib of GPU " + std::to_string(g.index) + " is " +
                                json(*g.memory_total_mib).dump() +
                                ": that looks like GiB; give MiB as nvidia-smi prints them");
    if (g.power_limit_w && *g.power_limit_w > plan.power_limit_w * 20)
      return report_problem("wrong_unit",
                            base + "gpu." + std::to_string(g.index) + ".power_limit_w",
                            "power_limit_w of GPU " + std::to_string(g.index) + " is " +
                                json(*g.power_limit_w).dump() + ": that looks like mW; give W");
  }
  for (const auto& g : m.power) {
    if (g.power_draw_w_p50 && *g.power_draw_w_p50 > plan.power_limit_w * 20) {
      std::string where = m.plan_id.empty()
                              ? "/" + file + "/power.draw"
                              : base + "gpu." + std::to_string(g.index) + ".power_draw_w_p50";
      return report_problem("wrong_unit", where,
                            "GPU " + std::to_string(g.index) + " draws " +
                                json(*g.power_draw_w_p50).dump() +
                                " at the median: that looks like mW; give W");
    }
  }
  return m;
}

}  // namespace advisor::validation
