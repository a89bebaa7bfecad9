// SPDX-License-Identifier: MIT
// nvidia-smi CSV logs -> per-GPU burn-in statistics. The same definitions as the awk in
// 40_burnin.sh (tests compare the two): nearest-rank percentiles, shares of samples.
//
// The log is untrusted text (a file dropped on the page): it is read line by line without a copy
// of its lines, every number is checked against its column's range before it is used or cast,
// GPU indices are bounded by limits::kMaxGpusPerServer and the rows by kMaxGpuCsvRows, so memory
// stays at one power reading per sample (for the percentiles) however the file is made.
#include "validation/gpu_csv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"
#include "validation/measurements.hpp"

namespace advisor::validation {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";  // what Excel and some editors write first

std::string_view trim(std::string_view s) {
  const std::size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

/// The lines of `text`, ended by \n, \r\n or a lone \r (a log saved by an old Mac editor).
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {
    if (text_.substr(0, kUtf8Bom.size()) == kUtf8Bom) text_.remove_prefix(kUtf8Bom.size());
  }
  bool next(std::string_view* line) {
    if (at_ > text_.size() || (at_ == text_.size() && number_ > 0)) return false;
    const std::size_t end = std::min(text_.find_first_of("\r\n", at_), text_.size());
    *line = text_.substr(at_, end - at_);
    at_ = end + (text_.compare(end, 2, "\r\n") == 0 ? 2 : 1);
    ++number_;
    return true;
  }
  std::size_t number() const { return number_; }  // of the line last returned, from 1

 private:
  std::string_view text_;
  std::size_t at_ = 0;
  std::size_t number_ = 0;
};

std::vector<std::string_view> split(std::string_view line, char sep) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0;;) {
    const std::size_t j = line.find(sep, i);
    out.push_back(line.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    if (j == std::string_view::npos) return out;
    i = j + 1;
  }
}

struct Column {
  std::string name;  // without the unit
  std::string unit;  // "W" from "power.draw [W]"; "" when none
};

Column parse_column(std::string_view raw) {
  std::string_view s = trim(raw);
  Column c;
  const std::size_t b = s.find(" [");
  if (b != std::string_view::npos && s.back() == ']') {
    c.unit = std::string(s.substr(b + 2, s.size() - b - 3));
    s = trim(s.substr(0, b));
  }
  c.name = std::string(s);
  return c;
}

/// A column this reader uses: its unit and the range a real reading lies in (a value outside
/// is a located error, never cast or summed).
struct Known {
  const char* name;
  const char* unit;  // "" = unitless
  double min, max;
};
constexpr double kMaxWatts = 1e7;  // a mW log of a 5 kW part is 5e6: let the unit check name it
constexpr Known kKnown[] = {
    {"index", "", 0, limits::kMaxGpusPerServer - 1},
    {"power.draw", "W", 0, kMaxWatts},
    {"power.limit", "W", 0, kMaxWatts},
    {"temperature.gpu", "", -50, 200},
    {"temperature.memory", "", -50, 200},
    {"clocks.sm", "MHz", 0, 1e5},
    {"clocks.mem", "MHz", 0, 1e5},
    {"utilization.gpu", "%", 0, 100},
    {"memory.used", "MiB", 0, 1e8},
    {"ecc.errors.uncorrected.volatile.total", "", 0, 1e15},
    {"pcie.link.gen.current", "", 1, 8},
    {"pcie.link.gen.max", "", 1, 8},
    {"pcie.link.width.current", "", 1, 32},
    {"pcie.link.width.max", "", 1, 32},
    {"clocks_throttle_reasons.active", "", 0, 0},
    {"clocks_event_reasons.active", "", 0, 0},
};

const Known* known(const std::string& name) {
  for (const Known& k : kKnown)
    if (name == k.name) return &k;
  return nullptr;
}

bool not_available(std::string_view v) {
  return v.empty() || v == "[N/A]" || v == "N/A" || v == "[Not Supported]" ||
         v == "Not Supported" || v == "[Unknown Error]";
}

std::size_t rank(int q, std::size_t n) {
  std::size_t k = (static_cast<std::size_t>(q) * n + 99) / 100;
  return k < 1 ? 1 : k;
}

/// What the reader keeps of one GPU's samples: its power readings and running figures.
struct GpuLog {
  int samples = 0;
  std::vector<double> power;
  int thermal = 0, brake = 0, cap = 0;
  GpuPowerStats stats;
};

void keep_max(std::optional<double>& slot, double v) {
  if (!slot || v > *slot) slot = v;
}

class Reader {
 public:
  Reader(std::string base, std::string file) : base_(std::move(base)), file_(std::move(file)) {}

  /// Reads the header; false when it reported a problem (no row is read then).
  bool header(std::string_view line, std::size_t number) {
    header_ = std::string(trim(line));
    for (std::string_view raw : split(header_, ',')) {
      cols_.push_back(parse_column(raw));
      if (cols_.size() > kMaxColumns || cols_.back().name.size() > limits::kMaxKeyBytes)
        return report_problem(
            "csv_not_nvidia_smi", base_ + "/header",
            file_ + " line " + std::to_string(number) +
                " is not an nvidia-smi CSV header (too many or too long column names)");
    }
    if (find("index") < 0 || find("timestamp") < 0)
      return report_problem(
          "csv_not_nvidia_smi", base_ + "/header",
          file_ + " line " + std::to_string(number) +
              " is not an nvidia-smi CSV header (it needs timestamp and index columns; "
              "log with nvidia-smi --query-gpu=timestamp,index,... --format=csv)");
    for (const Column& c : cols_) {
      const Known* k = known(c.name);
      if (k && !c.unit.empty() && c.unit != k->unit)
        return report_problem(
            "csv_wrong_unit", base_ + "/header/" + c.name,
            c.name + " is logged in [" + c.unit + "]; this reader needs [" + k->unit + "]");
    }
    if (!require_columns()) return false;
    index_ = find("index"), power_ = find("power.draw"), limit_ = find("power.limit");
    temp_ = find("temperature.gpu"), ecc_ = find("ecc.errors.uncorrected.volatile.total");
    util_ = find("utilization.gpu"), pcie_ = find("pcie.link.gen.current");
    width_ = find("pcie.link.width.current"), width_max_ = find("pcie.link.width.max");
    reasons_ = find("clocks_throttle_reasons.active");
    if (reasons_ < 0) reasons_ = find("clocks_event_reasons.active");
    return true;
  }

  /// Reads one row; false when it reported a problem (the rows after it are not read).
  bool row(std::string_view raw, std::size_t number) {
    const std::string_view line = trim(raw);
    if (line.empty() || line == header_) return true;
    if (++rows_ > limits::kMaxGpuCsvRows)
      return report_problem(
          "limit_exceeded", base_,
          file_ + " has more than " + std::to_string(limits::kMaxGpuCsvRows) +
              " samples, the limit: log at a longer --interval, or check a part of it");
    row_ = base_ + "/row " + std::to_string(number);
    fields_ = split(line, ',');
    if (fields_.size() != cols_.size()) return wrong_width(number);  // its fields are not read
    const std::optional<double> index = number_at(index_);  // bounded to [0, 63] by its range
    if (problem_reported()) return false;  // the index is out of range or not a number
    // An index logged as N/A or blank names no GPU either.
    if (!index || *index != static_cast<int>(*index))
      return report_problem(
          "csv_bad_value", row_ + "/index",
          "index is " + in_quotes(std::string(trim(fields_[index_]))) + ", not a GPU index");
    GpuLog& g = logs_[static_cast<int>(*index)];
    ++g.samples;
    if (auto p = number_at(power_)) g.power.push_back(*p);
    if (auto l = number_at(limit_)) keep_max(g.stats.power_limit_w, *l);
    if (auto t = number_at(temp_)) keep_max(g.stats.temperature_c_max, *t);
    if (auto e = number_at(ecc_)) keep_max(g.stats.ecc_uncorrected_max, *e);
    const auto u = number_at(util_), gen = number_at(pcie_);
    if (u && *u >= 50 && gen && (!g.stats.pcie_gen_min_busy || *gen < *g.stats.pcie_gen_min_busy))
      g.stats.pcie_gen_min_busy = static_cast<int>(*gen);  // bounded to [1, 8] by its range
    // Width too only while busy, as 40_burnin.sh does; bounded to [1, 32] by its range.
    const auto width = number_at(width_), width_max = number_at(width_max_);
    if (u && *u >= 50 && width &&
        (!g.stats.pcie_width_min_busy || *width < *g.stats.pcie_width_min_busy))
      g.stats.pcie_width_min_busy = static_cast<int>(*width);
    if (width_max &&
        (!g.stats.pcie_width_max_logged || *width_max > *g.stats.pcie_width_max_logged))
      g.stats.pcie_width_max_logged = static_cast<int>(*width_max);
    const unsigned long long r = reasons();
    if (r & (0x8 | 0x20 | 0x40)) ++g.thermal;
    if (r & 0x80) ++g.brake;
    if (r & 0x4) ++g.cap;
    return !problem_reported();
  }

  Measurements finish() {
    Measurements m;
    m.file_name = file_;
    for (int i = 0; i < limits::kMaxGpusPerServer; ++i) {
      GpuLog& g = logs_[i];
      if (g.samples == 0) continue;
      GpuPowerStats st = g.stats;
      st.index = i;
      st.samples = g.samples;
      if (!g.power.empty()) {
        std::sort(g.power.begin(), g.power.end());
        st.power_draw_w_p50 = g.power[rank(50, g.power.size()) - 1];
        st.power_draw_w_p99 = g.power[rank(99, g.power.size()) - 1];
      }
      st.thermal_throttle_fraction = static_cast<double>(g.thermal) / g.samples;
      st.power_brake_fraction = static_cast<double>(g.brake) / g.samples;
      st.power_cap_fraction = static_cast<double>(g.cap) / g.samples;
      m.power.push_back(st);
    }
    if (m.power.empty())
      return report_problem("csv_no_samples", base_, file_ + " has a header but no samples");
    m.gpus_logged = static_cast<int>(m.power.size());
    return m;
  }

 private:
  int find(const std::string& name) const {
    for (std::size_t i = 0; i < cols_.size(); ++i)
      if (cols_[i].name == name) return static_cast<int>(i);
    return -1;
  }

  /// False when it reported a required column missing.
  bool require_columns() const {
    std::string need;
    for (const char* required : {"index", "power.draw"})
      if (find(required) < 0) need += (need.empty() ? "" : ", ") + std::string(required);
    if (need.empty()) return true;
    std::string have;
    for (const auto& c : cols_) have += (have.empty() ? "" : ", ") + c.name;
    return report_problem("csv_missing_column", base_ + "/header",
                          file_ + " has no " + need + " column (it has: " + in_quotes(have) + ")");
  }

  /// Reports a row of another width than the header; false.
  bool wrong_width(std::size_t number) const {
    const std::string n = std::to_string(number);
    if (fields_.size() < cols_.size())
      return report_problem("csv_truncated", row_ + "/" + cols_[fields_.size()].name,
                            file_ + " row " + n + " has " + std::to_string(fields_.size()) +
                                " of " + std::to_string(cols_.size()) + " columns (no " +
                                cols_[fields_.size()].name +
                                "): the file is cut short; copy it again, or drop that row");
    return report_problem("csv_bad_row", row_,
                          file_ + " row " + n + " has " + std::to_string(fields_.size()) +
                              " columns, the header " + std::to_string(cols_.size()));
  }

  /// Column c of the current row as a number in its range; nullopt when absent or N/A, or after
  /// reporting it out of range, not a number or in another unit.
  std::optional<double> number_at(int c) const {
    if (c < 0) return std::nullopt;
    const std::string_view v = trim(fields_[c]);
    if (not_available(v)) return std::nullopt;
    const Known& k = *known(cols_[c].name);
    const std::string text(v.substr(0, kMaxNumberChars));
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    const std::string_view rest = trim(std::string_view(text).substr(end - text.c_str()));
    const std::string at = row_ + "/" + cols_[c].name;
    if (end == text.c_str() || !std::isfinite(x) || v.size() > kMaxNumberChars)
      return report_problem("csv_bad_value", at,
                            cols_[c].name + " is " + in_quotes(std::string(v)) + ", not a number");
    if (!rest.empty() && rest != k.unit)
      return report_problem("csv_wrong_unit", at,
                            cols_[c].name + " is " + in_quotes(std::string(v)) + ": unit " +
                                in_quotes(std::string(rest)) + ", expected " +
                                (*k.unit ? k.unit : "none"));
    if (x < k.min || x > k.max)
      return report_problem("csv_bad_value", at,
                            cols_[c].name + " is " + in_quotes(std::string(v)) + ", outside " +
                                format_number(k.min) + "-" + format_number(k.max) +
                                (c == index_ ? " (a GPU index in one server)" : ""));
    return x;
  }

  unsigned long long reasons() const {
    if (reasons_ < 0) return 0;
    const std::string_view v = trim(fields_[reasons_]);
    if (not_available(v)) return 0;
    const std::string_view hex = v.substr(0, 2) == "0x" || v.substr(0, 2) == "0X" ? v.substr(2) : v;
    constexpr std::size_t kMaxHexDigits = 16;  // 64 bits
    if (hex.empty() || hex.size() > kMaxHexDigits ||
        hex.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos)
      return report_problem(
          "csv_bad_value", row_ + "/" + cols_[reasons_].name,
          cols_[reasons_].name + " is " + in_quotes(std::string(v)) + ", not a hex bitmask");
    return std::strtoull(std::string(hex).c_str(), nullptr, 16);
  }

  static constexpr std::size_t kMaxColumns = 200;     // nvidia-smi has ~180 query fields
  static constexpr std::size_t kMaxNumberChars = 32;  // "1234.56 W" with room; longer is not one

  std::string base_, file_;
  std::string header_;
  std::vector<Column> cols_;
  int index_ = -1, power_ = -1, limit_ = -1, temp_ = -1, ecc_ = -1, util_ = -1, pcie_ = -1,
      width_ = -1, width_max_ = -1, reasons_ = -1;
  std::size_t rows_ = 0;
  std::string row_;
  std::vector<std::string_view> fields_;
  GpuLog logs_[limits::kMaxGpusPerServer];
};

}  // namespace

bool looks_like_gpu_csv(const std::string& text) {
  Lines lines(text);
  std::string_view first;
  while (lines.next(&first))
    if (!trim(first).empty()) break;
  if (first.empty() || trim(first).front() == '{') return false;
  bool has_index = false, has_timestamp = false;
  for (std::string_view raw : split(first, ',')) {
    const Column c = parse_column(raw);
    has_index = has_index || c.name == "index";
    has_timestamp = has_timestamp || c.name == "timestamp";
  }
  return has_index && has_timestamp;
}

Measurements summarize_gpu_csv(const std::string& text, const std::string& file) {
  const std::string base = "/" + file;
  if (text.size() > limits::kMaxGpuCsvBytes)
    return report_problem("limit_exceeded", base,
                          file + " is over " + std::to_string(limits::kMaxGpuCsvBytes >> 20) +
                              " MiB, the limit for a log read back: log at a longer --interval");
  Lines lines(text);
  std::string_view line;
  while (lines.next(&line) && trim(line).empty()) {
  }
  if (trim(line).empty()) return report_problem("csv_empty", base, file + " is empty");
  Reader reader(base, file);
  if (!reader.header(line, lines.number())) return {};
  while (lines.next(&line))
    if (!reader.row(line, lines.number())) return {};  // the first bad row is the answer
  return reader.finish();
}

}  // namespace advisor::validation
