// SPDX-License-Identifier: MIT
// nvidia-smi CSV logs -> per-GPU burn-in statistics. The same definitions as the awk in
// 40_burnin.sh (tests compare the two): nearest-rank percentiles, shares of samples.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "types/errors.hpp"
#include "validation/measurements.hpp"

namespace advisor::validation {
namespace {

std::string trim(const std::string& s) {
  std::size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  std::size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (true) {
    std::size_t j = line.find(sep, i);
    out.push_back(line.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return out;
}

struct Column {
  std::string name;  // without the unit
  std::string unit;  // "W" from "power.draw [W]"; "" when none
};

Column parse_column(const std::string& raw) {
  std::string s = trim(raw);
  Column c;
  std::size_t b = s.find(" [");
  if (b != std::string::npos && s.back() == ']') {
    c.unit = s.substr(b + 2, s.size() - b - 3);
    s = trim(s.substr(0, b));
  }
  c.name = s;
  return c;
}

/// The unit a column must be in ("" = unitless); nullptr for columns this reader ignores.
const char* expected_unit(const std::string& name) {
  static const std::map<std::string, const char*> units = {
      {"index", ""},
      {"power.draw", "W"},
      {"power.limit", "W"},
      {"temperature.gpu", ""},
      {"temperature.memory", ""},
      {"clocks.sm", "MHz"},
      {"clocks.mem", "MHz"},
      {"utilization.gpu", "%"},
      {"memory.used", "MiB"},
      {"ecc.errors.uncorrected.volatile.total", ""},
      {"pcie.link.gen.current", ""},
      {"clocks_throttle_reasons.active", ""},
      {"clocks_event_reasons.active", ""},
  };
  auto it = units.find(name);
  return it == units.end() ? nullptr : it->second;
}

bool not_available(const std::string& v) {
  return v.empty() || v == "[N/A]" || v == "N/A" || v == "[Not Supported]" ||
         v == "Not Supported" || v == "[Unknown Error]";
}

struct Sample {
  std::optional<double> power, limit, temperature, ecc, utilization, pcie;
  std::optional<unsigned long long> reasons;
};

std::size_t rank(int q, std::size_t n) {
  std::size_t k = (static_cast<std::size_t>(q) * n + 99) / 100;
  return k < 1 ? 1 : k;
}

}  // namespace

bool looks_like_gpu_csv(const std::string& text) {
  std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos || text[start] == '{') return false;
  std::string first = text.substr(start, text.find('\n', start) - start);
  bool has_index = false, has_timestamp = false;
  for (const auto& raw : split(first, ',')) {
    Column c = parse_column(raw);
    if (c.name == "index") has_index = true;
    if (c.name == "timestamp") has_timestamp = true;
  }
  return has_index && has_timestamp;
}

Measurements summarize_gpu_csv(const std::string& text, const std::string& file) {
  const std::string base = "/" + file;
  std::vector<std::string> lines = split(text, '\n');
  std::size_t h = 0;
  while (h < lines.size() && trim(lines[h]).empty()) ++h;
  if (h == lines.size())
    throw InputError("csv_empty", base, file + " is empty");
  std::string header_line = trim(lines[h]);
  std::vector<Column> cols;
  for (const auto& raw : split(header_line, ',')) cols.push_back(parse_column(raw));
  auto find = [&](const std::string& name) -> int {
    for (std::size_t i = 0; i < cols.size(); ++i)
      if (cols[i].name == name) return static_cast<int>(i);
    return -1;
  };
  if (find("index") < 0 || find("timestamp") < 0)
    throw InputError("csv_not_nvidia_smi", base + "/header",
                     file + " line " + std::to_string(h + 1) +
                         " is not an nvidia-smi CSV header (it needs timestamp and index columns; "
                         "log with nvidia-smi --query-gpu=timestamp,index,... --format=csv)");
  for (const auto& c : cols) {
    const char* unit = expected_unit(c.name);
    if (unit && !c.unit.empty() && c.unit != unit)
      throw InputError("csv_wrong_unit", base + "/header/" + c.name,
                       c.name + " is logged in [" + c.unit + "]; this reader needs [" + unit + "]");
  }
  std::vector<std::string> missing;
  for (const char* required : {"index", "power.draw"})
    if (find(required) < 0) missing.push_back(required);
  if (!missing.empty()) {
    std::string have;
    for (const auto& c : cols) have += (have.empty() ? "" : ", ") + c.name;
    std::string need;
    for (const auto& m : missing) need += (need.empty() ? "" : ", ") + m;
    throw InputError("csv_missing_column", base + "/header",
                     file + " has no " + need + " column (it has: " + have + ")");
  }
  const int c_index = find("index"), c_power = find("power.draw"), c_limit = find("power.limit"),
            c_temp = find("temperature.gpu"), c_ecc = find("ecc.errors.uncorrected.volatile.total"),
            c_util = find("utilization.gpu"), c_pcie = find("pcie.link.gen.current");
  int c_reasons = find("clocks_throttle_reasons.active");
  if (c_reasons < 0) c_reasons = find("clocks_event_reasons.active");

  std::map<int, std::vector<Sample>> by_gpu;
  for (std::size_t li = h + 1; li < lines.size(); ++li) {
    std::string line = trim(lines[li]);
    if (line.empty() || line == header_line) continue;
    const std::string row = base + "/row " + std::to_string(li + 1);
    std::vector<std::string> f = split(line, ',');
    if (f.size() < cols.size())
      throw InputError("csv_truncated", row + "/" + cols[f.size()].name,
                       file + " row " + std::to_string(li + 1) + " has " + std::to_string(f.size()) +
                           " of " + std::to_string(cols.size()) + " columns (no " + cols[f.size()].name +
                           "): the file is cut short; copy it again, or drop that row");
    if (f.size() > cols.size())
      throw InputError("csv_bad_row", row,
                       file + " row " + std::to_string(li + 1) + " has " + std::to_string(f.size()) +
                           " columns, the header " + std::to_string(cols.size()));
    auto number = [&](int c) -> std::optional<double> {
      if (c < 0) return std::nullopt;
      std::string v = trim(f[c]);
      if (not_available(v)) return std::nullopt;
      const char* unit = expected_unit(cols[c].name);
      char* end = nullptr;
      double x = std::strtod(v.c_str(), &end);
      std::string rest = trim(std::string(end));
      if (end == v.c_str() || !std::isfinite(x))
        throw InputError("csv_bad_value", row + "/" + cols[c].name,
                         cols[c].name + " is \"" + v + "\", not a number");
      if (!rest.empty() && (!unit || rest != unit))
        throw InputError("csv_wrong_unit", row + "/" + cols[c].name,
                         cols[c].name + " is \"" + v + "\": unit " + rest + ", expected " +
                             (unit && *unit ? unit : "none"));
      return x;
    };
    std::optional<double> index = number(c_index);
    if (!index || *index < 0 || *index != std::floor(*index))
      throw InputError("csv_bad_value", row + "/index", "index is \"" + trim(f[c_index]) + "\", not a GPU index");
    Sample s;
    s.power = number(c_power);
    s.limit = number(c_limit);
    s.temperature = number(c_temp);
    s.ecc = number(c_ecc);
    s.utilization = number(c_util);
    s.pcie = number(c_pcie);
    if (c_reasons >= 0) {
      std::string v = trim(f[c_reasons]);
      if (!not_available(v)) {
        std::string hex = v.rfind("0x", 0) == 0 || v.rfind("0X", 0) == 0 ? v.substr(2) : v;
        char* end = nullptr;
        unsigned long long mask = std::strtoull(hex.c_str(), &end, 16);
        if (hex.empty() || *end != '\0')
          throw InputError("csv_bad_value", row + "/" + cols[c_reasons].name,
                           cols[c_reasons].name + " is \"" + v + "\", not a hex bitmask");
        s.reasons = mask;
      }
    }
    by_gpu[static_cast<int>(*index)].push_back(s);
  }
  if (by_gpu.empty())
    throw InputError("csv_no_samples", base, file + " has a header but no samples");

  Measurements m;
  m.file_name = file;
  for (const auto& [gpu, samples] : by_gpu) {
    GpuPowerStats st;
    st.index = gpu;
    st.samples = static_cast<int>(samples.size());
    std::vector<double> power;
    int thermal = 0, brake = 0, cap = 0;
    for (const Sample& s : samples) {
      if (s.power) power.push_back(*s.power);
      if (s.limit && (!st.power_limit_w || *s.limit > *st.power_limit_w)) st.power_limit_w = s.limit;
      if (s.temperature && (!st.temperature_c_max || *s.temperature > *st.temperature_c_max))
        st.temperature_c_max = s.temperature;
      if (s.ecc && (!st.ecc_uncorrected_max || *s.ecc > *st.ecc_uncorrected_max)) st.ecc_uncorrected_max = s.ecc;
      if (s.utilization && *s.utilization >= 50 && s.pcie &&
          (!st.pcie_gen_min_busy || *s.pcie < *st.pcie_gen_min_busy))
        st.pcie_gen_min_busy = static_cast<int>(*s.pcie);
      unsigned long long r = s.reasons.value_or(0);
      if (r & (0x8 | 0x20 | 0x40)) ++thermal;
      if (r & 0x80) ++brake;
      if (r & 0x4) ++cap;
    }
    if (!power.empty()) {
      std::sort(power.begin(), power.end());
      st.power_draw_w_p50 = power[rank(50, power.size()) - 1];
      st.power_draw_w_p99 = power[rank(99, power.size()) - 1];
    }
    st.thermal_throttle_fraction = static_cast<double>(thermal) / st.samples;
    st.power_brake_fraction = static_cast<double>(brake) / st.samples;
    st.power_cap_fraction = static_cast<double>(cap) / st.samples;
    m.power.push_back(st);
  }
  m.gpus_logged = static_cast<int>(m.power.size());
  return m;
}

}  // namespace advisor::validation
