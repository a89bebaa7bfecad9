// SPDX-License-Identifier: MIT
#include "report.hpp"

#include <algorithm>
#include <string>

namespace gpu_advisor_cli {

using nlohmann::json;

namespace {

const json& field(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

/// A coded sentence in words: <prefix><code> with its parameters, else the core's English
/// (`fallback`), marked as such so a reader sees which lines have no words in the language.
std::string sentence(const Messages& words, const std::string& prefix, const json& code,
                     const json& params, const json& fallback) {
  if (code.is_string() && words.has(prefix + code.get<std::string>()))
    return words.render(prefix + code.get<std::string>(),
                        params.is_object() ? params : json::object());
  return "[en] " + (fallback.is_string() ? fallback.get<std::string>() : code.dump());
}

std::string label(const Messages& words, const std::string& prefix, const json& code) {
  const std::string id = code.is_string() ? code.get<std::string>() : code.dump();
  return words.has(prefix + id) ? words.render(prefix + id, json::object()) : id;
}

void heading(std::string& out, const Messages& words, const char* key) {
  out += "\n" + words.render(key, json::object()) + "\n";
}

/// "4 × NVIDIA A100 PCIe 40GB · Reserve monthly · ¥5,723 per run · 27 days"
void headline(std::string& out, const Messages& words, const json& plan) {
  out += words.render("answer.role.best", json::object()) + ": ";
  out += words.number(field(plan, "gpus").is_number() ? field(plan, "gpus").get<double>() : 0, "");
  out +=
      " \u00d7 " + (field(plan, "name").is_string() ? field(plan, "name").get<std::string>() : "");
  out += " \u00b7 " + label(words, "deploy.", field(plan, "deployment"));
  const json& cost = field(plan, "cost");
  if (field(cost, "cny").is_number()) {
    out += " \u00b7 " + words.number(field(cost, "cny").get<double>(), "cny");
    const json& basis = field(cost, "basis");
    if (basis.is_string()) out += label(words, "basis.", basis.get<std::string>() + ".suffix");
  }
  if (field(plan, "hours").is_number())
    out += " \u00b7 " + words.number(field(plan, "hours").get<double>(), "duration");
  out += "\n";
}

void plan_lines(std::string& out, const Messages& words, const json& plan) {
  for (const json& r : field(plan, "reasons")) {
    out += "  - " + label(words, "step.", field(r, "step")) + ": ";
    out +=
        sentence(words, "reason.", field(r, "code"), field(r, "params"), field(r, "text")) + "\n";
  }
  for (const json& x : field(plan, "risks")) {
    out += "  ! " + label(words, "risk.", field(x, "code")) + ": ";
    out +=
        sentence(words, "riskmsg.", field(x, "reason"), field(x, "params"), field(x, "message")) +
        "\n";
  }
}

void warning_lines(std::string& out, const Messages& words, const json& result) {
  json all = json::array();
  for (const json& w : field(result, "warnings")) all.push_back(w);
  for (const json& w : field(field(field(result, "recommendation"), "best"), "warnings"))
    if (std::find(all.begin(), all.end(), w) == all.end()) all.push_back(w);
  if (all.empty()) return;
  heading(out, words, "panel.warnings");
  for (const json& w : all)
    out += "  - " +
           sentence(words, "warnmsg.", field(w, "code"), field(w, "params"), field(w, "message")) +
           "\n";
}

/// The GPU's name as the options list writes it, else its id.
std::string gpu_name(const json& result, const json& id) {
  for (const json& o : field(result, "options"))
    if (field(o, "gpu") == id && field(o, "name").is_string())
      return field(o, "name").get<std::string>();
  return id.is_string() ? id.get<std::string>() : "";
}

/// Which plan the figures below describe: the recommended one when nothing is pinned, else
/// the pinned hardware (which the recommendation above may differ from).
void described_plan(std::string& out, const Messages& words, const json& result) {
  const json& described = field(result, "sections_describe");
  const json& layout = field(field(result, "memory"), "layout");
  const bool recommended = described.is_object();
  const json& gpus = recommended ? field(described, "gpus") : field(layout, "count");
  const json& gpu = recommended ? field(described, "gpu") : field(layout, "gpu");
  if (!gpus.is_number() || !gpu.is_string()) return;
  out += "\n" +
         words.render(
             recommended ? "section.describes_recommended" : "cli.describes_pinned",
             json{{"gpus", words.number(gpus.get<double>(), "")}, {"gpu", gpu_name(result, gpu)}}) +
         "\n";
}

void assumption_lines(std::string& out, const Messages& words, const json& result) {
  described_plan(out, words, result);
  json notes = json::array();
  for (const char* section : {"training", "inference"})
    for (const json& n : field(field(result, section), "assumption_notes")) notes.push_back(n);
  if (!notes.empty()) {
    heading(out, words, "speed.assumptions");
    for (const json& n : notes)
      out += "  - " +
             sentence(words, "assume.", field(n, "code"), field(n, "params"), field(n, "text")) +
             "\n";
  }
  const json& memory = field(field(result, "memory"), "assumptions");
  if (memory.empty()) return;
  heading(out, words, "step.memory");
  for (const json& a : memory)
    out += "  - " +
           sentence(words, "memnote.", field(a, "code"), field(a, "params"), field(a, "text")) +
           "\n";
}

/// "8 GB/s" for an expected or measured figure with its unit's label; "—" when absent.
std::string figure(const Messages& words, const json& value, const json& unit) {
  if (value.is_null()) return "\u2014";
  std::string out = value.is_number()   ? words.number(value.get<double>(), "")
                    : value.is_string() ? value.get<std::string>()
                                        : value.dump();
  if (!unit.is_string() || unit.get<std::string>().empty()) return out;
  // A counted unit agrees with its number ("1 server", "2 servers": vunit.* plurals on n).
  const std::string key = "vunit." + unit.get<std::string>();
  out += " " + (words.has(key)
                    ? words.render(key, value.is_number() ? json{{"n", value}} : json::object())
                    : unit.get<std::string>());
  return out;
}

/// The error envelope: what is wrong in words, where, and the core's own English sentence.
std::string error_report(const json& error, const Messages& words) {
  std::string out = words.render("error.title", json::object()) + ": ";
  out += label(words, "error.", field(error, "code")) + "\n";
  out += "  " + words.render("error.path", json::object()) + ": " +
         (field(error, "path").is_string() ? field(error, "path").get<std::string>() : "") + "\n";
  out += "  [en] " +
         (field(error, "message").is_string() ? field(error, "message").get<std::string>() : "") +
         "\n";
  return out;
}

/// A check item's reason in words: vreason.<code>, or for a script's own line the words of its
/// line code (vline.<line_code>, as the page's validation panel reads it).
std::string check_reason(const Messages& words, const json& reason) {
  const json& params = field(reason, "params");
  const json& line = field(params, "line_code");
  if (field(reason, "code") == "script_line" && line.is_string() &&
      words.has("vline." + line.get<std::string>()))
    return sentence(words, "vline.", line, params, field(reason, "message"));
  return sentence(words, "vreason.", field(reason, "code"), params, field(reason, "message"));
}

}  // namespace

std::string check_report(const json& report, const Messages& words) {
  if (field(report, "error").is_object()) return error_report(field(report, "error"), words);
  const json& counts = field(report, "counts");
  std::string out = label(words, "vstatus.", field(report, "overall")) + " \u00b7 ";
  out += words.render("validation.counts", json{{"pass", field(counts, "pass")},
                                                {"warn", field(counts, "warn")},
                                                {"fail", field(counts, "fail")}});
  const json& file = field(report, "file");
  if (file.is_string() && !file.get<std::string>().empty())
    out += " \u00b7 " + file.get<std::string>();
  out += "\n";
  for (const json& it : field(report, "items")) {
    const json& reason = field(it, "reason");
    out += "  [" + label(words, "vstatus.", field(it, "status")) + "] " +
           label(words, "step.", field(it, "area")) + " \u00b7 " +
           label(words, "vitem.", field(it, "item"));
    if (!field(it, "expected").is_null() || !field(it, "measured").is_null())
      out += ": " + figure(words, field(it, "expected"), field(it, "unit")) + " \u2192 " +
             figure(words, field(it, "measured"), field(it, "unit"));
    out += " \u2014 " + check_reason(words, reason) + "\n";
  }
  // A cluster's check: each server's own report after the cluster's verdict.
  for (const json& server : field(report, "servers")) {
    const json& host = field(server, "host");
    out += "\n" +
           (host.is_string() && !host.get<std::string>().empty() ? host.get<std::string>() + " "
                                                                 : std::string()) +
           (field(server, "file").is_string() ? field(server, "file").get<std::string>() : "") +
           "\n";
    out += check_report(field(server, "report"), words);
  }
  return out;
}

std::string advice_report(const json& result, const Messages& words) {
  std::string out;
  const json& error = field(result, "error");
  if (error.is_object()) return error_report(error, words);
  const json& best = field(field(result, "recommendation"), "best");
  if (best.is_object()) {
    headline(out, words, best);
    plan_lines(out, words, best);
  }
  warning_lines(out, words, result);
  assumption_lines(out, words, result);
  return out;
}

}  // namespace gpu_advisor_cli
