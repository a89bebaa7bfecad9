// SPDX-License-Identifier: MIT
// What the validation module writes: the check report, the generated scripts, the NGC tag
// choice (their shapes in validation_report_json.hpp).
#include "io/validation_report_json.hpp"

#include "io/json_value.hpp"

namespace advisor::validation {

namespace {
using json = JsonValue;

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(); }

/// Sets `key` in an object written in insertion order (a repeated key keeps its first place).
void put(json& object, const std::string& key, json value) {
  if (json* v = object.find(key))
    *v = std::move(value);
  else
    object.append(key, std::move(value));
}
}  // namespace

namespace {
/// {"code", "params", "message"} of a reason, params in their order.
json reason_json(const Reason& reason) {
  json params = json::object();
  for (const auto& [k, v] : reason.params) put(params, k, v);
  json out = json::object();
  out.append("code", reason.code);
  out.append("params", std::move(params));
  out.append("message", reason.message);
  return out;
}
}  // namespace

namespace {
json item_json(const CheckItem& i) {
  json j = json::object();
  j.append("area", to_string(i.area));
  j.append("item", i.item);
  j.append("status", to_string(i.status));
  j.append("expected", optional_number(i.expected));
  j.append("measured", optional_number(i.measured));
  j.append("unit", i.unit);
  j.append("deviation", optional_number(i.deviation));
  j.append("reason", reason_json(i.reason));
  return j;
}

json counts_json(int passed, int warned, int failed) {
  json counts = json::object();
  counts.append("pass", passed);
  counts.append("warn", warned);
  counts.append("fail", failed);
  return counts;
}

json report_object(const CheckReport& r) {
  json out = json::object();
  out.append("schema", 1);
  out.append("plan_id", r.plan_id);
  out.append("file", r.file_name);
  out.append("overall", to_string(r.overall));
  out.append("counts", counts_json(r.passed, r.warned, r.failed));
  json items = json::array();
  for (const auto& i : r.items) items.push_back(item_json(i));
  out.append("items", std::move(items));
  json checks = json::array();
  for (const auto& c : r.script_checks) {
    json j = json::object();
    j.append("script", c.script);
    j.append("status", c.status);
    j.append("area", c.area);
    j.append("check", c.check);
    j.append("expected", c.expected);
    j.append("measured", c.measured);
    j.append("code", c.code);
    j.append("detail", c.detail);
    checks.push_back(std::move(j));
  }
  out.append("script_checks", std::move(checks));
  return out;
}
}  // namespace

std::string check_report_json(const CheckReport& r) { return report_object(r).dump(1); }

std::string cluster_report_json(const ClusterReport& c) {
  json out = json::object();
  out.append("schema", 1);
  out.append("kind", "cluster");
  out.append("plan_id", c.plan_id);
  out.append("overall", to_string(c.overall));
  out.append("servers_expected", c.servers_expected);
  out.append("counts", counts_json(c.servers_passed, c.servers_warned, c.servers_failed));
  json items = json::array();
  for (const auto& i : c.items) items.push_back(item_json(i));
  out.append("items", std::move(items));
  json servers = json::array();
  for (const auto& s : c.servers) {
    json j = json::object();
    j.append("host", s.host);
    j.append("file", s.report.file_name);
    j.append("overall", to_string(s.report.overall));
    j.append("report", report_object(s.report));
    servers.push_back(std::move(j));
  }
  out.append("servers", std::move(servers));
  return out.dump(1);
}

std::string scripts_json(const ValidationPlan& plan, const std::vector<ScriptFile>& files) {
  json out = json::object();
  out.append("schema", 1);
  out.append("plan_id", plan_id(plan));
  json ngc = json::object();
  ngc.append("tag", plan.ngc_tag);
  ngc.append("image", plan.registry + "/nvidia/pytorch:" + plan.ngc_tag + "-py3");
  ngc.append("min_driver", plan.ngc_min_driver);
  ngc.append("reason", reason_json(plan.ngc_reason));
  out.append("ngc", std::move(ngc));
  json list = json::array();
  for (const auto& f : files) {
    json j = json::object();
    j.append("name", f.name);
    j.append("executable", f.executable);
    j.append("purpose", f.purpose);
    j.append("root", f.root);
    j.append("text", f.text);
    list.push_back(std::move(j));
  }
  out.append("files", std::move(list));
  return out.dump(1);
}

std::string tag_choice_json(const TagChoice& c) {
  json out = json::object();
  out.append("found", c.found);
  out.append("tag", c.tag);
  out.append("min_driver", c.min_driver);
  out.append("forward_compat", c.forward_compat);
  out.append("status", to_string(c.status));
  out.append("reason", reason_json(c.reason));
  return out.dump(1);
}

}  // namespace advisor::validation
