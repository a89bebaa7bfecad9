// SPDX-License-Identifier: MIT
#include "io/cost_settings_json.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>
#include <string_view>

#include "io/json_reader.hpp"
#include "io/request_json.hpp"
#include "types/catalog.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

constexpr double kMaxMoney = 1e12;
constexpr double kMaxJobHours = 1e6;  // a job longer than a century is a typo
constexpr double kMaxJobGpus = 100'000;
constexpr double kMaxMonthlyGpuHours = 1e9;
// Lower bounds where a smaller positive value is a typo whose reciprocal would overflow the
// figures (racks per server, cards, cost per GPU-hour): a rack circuit of 100 W, one hour of
// use a year (1.14e-4 of the year), 1% utilisation targets, a thousandth of a token per second.
constexpr double kMinRackKw = 0.1;
constexpr double kMinUtilization = 1e-4;
constexpr double kMinTargetUtilization = 0.01;
constexpr double kMinTokensPerSecond = 1e-3;

std::optional<int> opt_int(FieldReader& r, const char* key, std::int64_t min, std::int64_t max) {
  auto v = r.nullable_integer(key, min, max);
  if (!v) return std::nullopt;
  return static_cast<int>(*v);
}

PowerSettings read_power(const JsonValue* j) {
  const JsonValue empty = JsonValue::object();
  FieldReader r(j ? *j : empty, "/power");
  PowerSettings s;
  s.facility = r.choice("facility", kFacilityNames, s.facility);
  s.facility_stated = r.has("facility");
  s.gpus_per_server = opt_int(r, "gpus_per_server", 1, 64);
  s.host_watts = r.nullable_number("host_watts", 0, 1e6);
  s.training_load_factor = r.nullable_number("training_load_factor", 0, 1, true);
  s.idle_load_factor = r.nullable_number("idle_load_factor", 0, 1);
  s.rack_kw = r.nullable_number("rack_kw", kMinRackKw, 1000);
  s.rack_units_usable = opt_int(r, "rack_units_usable", 1, 100);
  s.server_rack_units = opt_int(r, "server_rack_units", 1, 60);
  s.office_rack_kw = r.nullable_number("office_rack_kw", kMinRackKw, 1000);
  s.office_racks = static_cast<int>(r.integer("office_racks", 1, 1000, 1));
  s.pue = r.nullable_number("pue", 1, 5);
  r.reject_unknown();
  ADVISOR_REQUIRE(!(s.rack_kw && s.facility == Facility::kOffice), "inconsistent", "/power/rack_kw",
                  "/power/rack_kw sizes IDC racks; for an office set /power/office_rack_kw");
  return s;
}

PriceOverrides read_prices(const JsonValue* j, const Catalog& catalog) {
  const JsonValue empty = JsonValue::object();
  FieldReader r(j ? *j : empty, "/cost/prices");
  PriceOverrides p;
  p.gpu_purchase_cny = r.nullable_number("gpu_purchase_cny", 0, kMaxMoney);
  p.rental_cny_per_gpu_hour = r.nullable_number("rental_cny_per_gpu_hour", 0, 1e6);
  p.rental_monthly_cny_per_gpu = r.nullable_number("rental_monthly_cny_per_gpu", 0, 1e9);
  p.server_platform_cny = r.nullable_number("server_platform_cny", 0, kMaxMoney);
  p.electricity_flat_cny_per_kwh = r.nullable_number("electricity_flat_cny_per_kwh", 0, 100);
  p.electricity_peak_cny_per_kwh = r.nullable_number("electricity_peak_cny_per_kwh", 0, 100);
  p.electricity_valley_cny_per_kwh = r.nullable_number("electricity_valley_cny_per_kwh", 0, 100);
  p.colocation_cny_per_rack_month = r.nullable_number("colocation_cny_per_rack_month", 0, 1e9);
  p.colocation_cny_per_kw_month = r.nullable_number("colocation_cny_per_kw_month", 0, 1e9);
  p.network_cny_per_mbps_month = r.nullable_number("network_cny_per_mbps_month", 0, 1e9);
  p.egress_cny_per_tb = r.nullable_number("egress_cny_per_tb", 0, 1e9);
  p.staff_cny_per_year = r.nullable_number("staff_cny_per_year", 0, kMaxMoney);
  p.usd_to_cny = r.nullable_number("usd_to_cny", 0, 1000, true);
  if (const JsonValue* gpus = r.object("gpus")) {
    for (std::size_t i = 0; i < gpus->size(); ++i) {
      const std::string& id = gpus->key(i);
      const std::string path = r.path_of("gpus") + "/" + pointer_token(id);
      ADVISOR_REQUIRE(catalog.find_gpu(id) != nullptr, "unknown_gpu", path,
                      path + ": " + in_quotes(id) + " is not a GPU id in the catalog");
      FieldReader g((*gpus)[i], path);
      PriceOverrides::Gpu o;
      o.purchase_cny = g.nullable_number("purchase_cny", 0, kMaxMoney);
      o.rental_cny_per_gpu_hour = g.nullable_number("rental_cny_per_gpu_hour", 0, 1e6);
      g.reject_unknown();
      p.gpus[id] = o;
    }
  }
  r.reject_unknown();
  return p;
}

constexpr double kMaxLeadTimeDays = 3650;  // ten years
constexpr double kMaxFinancingRate = 1;    // 100% a year

/// Tax, financing and lead times: VAT deductible or not, a financing rate and term (the term
/// only with a rate), and the lead times that replace the catalog's.
void read_tax_financing_lead(FieldReader& r, CostSettings& s) {
  s.vat_deductible = r.boolean("vat_deductible", s.vat_deductible);
  s.financing_rate = r.nullable_number("financing_rate", 0, kMaxFinancingRate);
  s.financing_term_years = opt_int(r, "financing_term_years", 1, 30);
  s.purchase_lead_time_days = r.nullable_number("purchase_lead_time_days", 0, kMaxLeadTimeDays);
  s.move_in_days = r.nullable_number("move_in_days", 0, kMaxLeadTimeDays);
  s.rental_lead_time_days = r.nullable_number("rental_lead_time_days", 0, kMaxLeadTimeDays);
  ADVISOR_REQUIRE_OR_RETURN(!(s.financing_term_years && !s.financing_rate), "inconsistent",
                            "/cost/financing_term_years",
                            "/cost/financing_term_years applies with /cost/financing_rate (absent: "
                            "paid in cash)");
}

CostSettings read_cost(const JsonValue* j, const Catalog& catalog) {
  const JsonValue empty = JsonValue::object();
  FieldReader r(j ? *j : empty, "/cost");
  CostSettings s;
  s.site = r.string("site", std::string("shenzhen"));
  s.life_years = opt_int(r, "life_years", 1, 30);
  s.residual_fraction = r.nullable_number("residual_fraction", 0, 0.99);
  s.utilization = r.nullable_number("utilization", 0, 1);
  ADVISOR_REQUIRE(!(s.utilization && *s.utilization > 0 && *s.utilization < kMinUtilization),
                  "out_of_range", r.path_of("utilization"),
                  r.path_of("utilization") + " must be 0 or between " +
                      format_number(kMinUtilization) + " (about an hour a year) and 1, got " +
                      format_number(*s.utilization));
  s.valley_shift_share = r.nullable_number("valley_shift_share", 0, 1);
  s.tariff = r.choice("tariff", kTariffNames, s.tariff);
  s.colocation_pricing =
      r.choice("colocation_pricing", kColocationPricingNames, s.colocation_pricing);
  s.colocation_includes_electricity =
      r.boolean("colocation_includes_electricity", s.colocation_includes_electricity);
  // Absent: the facility's line (none in an office, BGP in an IDC).
  if (r.has("network_line")) {
    s.network_line = r.choice("network_line", kNetworkLineNames);
  } else if (FieldLog::recording()) {
    FieldSpec spec{r.path_of("network_line"), "choice", {}, {}, false, nullptr, {}};
    for (const Named<NetworkLine>& n : kNetworkLineNames) spec.choices.push_back(n.name);
    FieldLog::note(std::move(spec));
  }
  s.network_mbps = r.nullable_number("network_mbps", 0, 1e7);
  s.operations = r.choice("operations", kOperationsNames, s.operations);
  s.operations_capex_share = r.nullable_number("operations_capex_share", 0, 1);
  s.staff_fte = r.nullable_number("staff_fte", 0, 1e4);
  s.spares_share = r.nullable_number("spares_share", 0, 1);
  s.reserved_discount = r.nullable_number("reserved_discount", 0, 0.99);
  s.egress_tb_per_month = r.nullable_number("egress_tb_per_month", 0, 1e9);
  s.owned_max_utilization = r.nullable_number("owned_max_utilization", kMinTargetUtilization, 1);
  s.run_gpu_hours = r.nullable_number("run_gpu_hours", 0, 1e12, true);
  s.tokens_per_second = r.nullable_number("tokens_per_second", kMinTokensPerSecond, 1e12);
  if (const JsonValue* d = r.raw("monthly_demand_gpu_hours")) {
    const std::string p = r.path_of("monthly_demand_gpu_hours");
    ADVISOR_REQUIRE(d->is_array() && d->size() == 12, "wrong_type", p,
                    p + " must be a list of 12 numbers (GPU-hours in each month of a year)");
    std::array<double, 12> months{};
    for (std::size_t i = 0; i < 12; ++i) {
      const std::string ip = p + "/" + std::to_string(i);
      const JsonValue& v = (*d)[i];
      ADVISOR_REQUIRE(v.is_number(), "wrong_type", ip,
                      ip + " must be a number, got " + v.type_name());
      const double x = v.number();
      ADVISOR_REQUIRE(std::isfinite(x) && x >= 0 && x <= kMaxMonthlyGpuHours, "out_of_range", ip,
                      ip + " must be >= 0 and <= " + format_number(kMaxMonthlyGpuHours) + ", got " +
                          format_number(x));
      months[i] = x;
    }
    s.monthly_demand_gpu_hours = months;
  }
  read_tax_financing_lead(r, s);
  s.prices = read_prices(r.object("prices"), catalog);
  r.reject_unknown();
  ADVISOR_REQUIRE(!(s.operations == Operations::kCapexShare && s.staff_fte), "inconsistent",
                  "/cost/staff_fte", "/cost/staff_fte applies when /cost/operations is \"staff\"");
  ADVISOR_REQUIRE(!(s.operations == Operations::kStaff && s.operations_capex_share), "inconsistent",
                  "/cost/operations_capex_share",
                  "/cost/operations_capex_share applies when /cost/operations is "
                  "\"capex_share\"");
  return s;
}

// ---------------------------------------------------------------------------------------------
// CSV

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Splits one CSV line (RFC 4180 quoting within the line).
std::vector<std::string> split_line(const std::string& line, char delimiter, bool* bad_quote) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == delimiter) {
      fields.push_back(trim(field));
      field.clear();
    } else {
      field += c;
    }
  }
  *bad_quote = quoted;
  fields.push_back(trim(field));
  return fields;
}

/// A plain decimal number ("12", "0.5", "1e3"); no NaN, infinity, hex or trailing text.
bool parse_decimal(const std::string& text, double* out) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
          c == '+' || c == '-'))
      return false;
  }
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

int days_in_month(int year, int month) {
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

/// "2026-09", "2026-09-14", "2026/09/14" -> "2026-09"; "" when not a date (2026-02-30 is not).
std::string month_of(const std::string& text, bool with_day) {
  std::string t = text;
  std::replace(t.begin(), t.end(), '/', '-');
  const std::size_t first = t.find('-');
  if (first != 4 || !all_digits(t.substr(0, 4))) return "";
  const std::size_t second = t.find('-', first + 1);
  const std::string mm =
      t.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
  if (!all_digits(mm) || mm.size() > 2) return "";
  const int month = std::stoi(mm);
  if (month < 1 || month > 12) return "";
  if (with_day) {
    if (second == std::string::npos) return "";
    const std::string dd = t.substr(second + 1);
    if (!all_digits(dd) || dd.size() > 2 || std::stoi(dd) < 1 ||
        std::stoi(dd) > days_in_month(std::stoi(t.substr(0, 4)), month))
      return "";
  } else if (second != std::string::npos) {
    return "";
  }
  return t.substr(0, 4) + "-" + (mm.size() == 1 ? "0" + mm : mm);
}

double job_gpus(double v, const std::string& p) {
  ADVISOR_REQUIRE(std::floor(v) == v, "not_integer", p,
                  p + " must be a whole number of GPUs, got " + format_number(v));
  ADVISOR_REQUIRE(
      v >= 1 && v <= kMaxJobGpus, "out_of_range", p,
      p + " must be between 1 and " + format_number(kMaxJobGpus) + ", got " + format_number(v));
  return v;
}

double job_hours(double v, const std::string& p) {
  ADVISOR_REQUIRE(
      v > 0 && v <= kMaxJobHours, "out_of_range", p,
      p + " must be > 0 and <= " + format_number(kMaxJobHours) + " hours, got " + format_number(v));
  return v;
}

/// The job history's limits (types/limits.hpp), checked row by row so that the error names the
/// row that breaks one: rows, distinct GPU types, months from the first to the last dated job.
class HistoryBounds {
 public:
  void add(const JobRow& row, const std::string& row_path, const std::string& type_path,
           const std::string& month_path) {
    ADVISOR_REQUIRE_OR_RETURN(
        ++rows_ <= limits::kMaxJobRows, "limit_exceeded", row_path,
        row_path + ": more than " + std::to_string(limits::kMaxJobRows) +
            " job rows, the limit (sum the small jobs of a month into one row)");
    if (types_.insert(row.gpu_type).second) {
      ADVISOR_REQUIRE_OR_RETURN(
          types_.size() <= limits::kMaxJobGpuTypes, "limit_exceeded", type_path,
          type_path + " " + in_quotes(row.gpu_type) + " is GPU type number " +
              std::to_string(types_.size()) + "; the limit is " +
              std::to_string(limits::kMaxJobGpuTypes) + " types in one history");
    }
    if (row.month.empty()) return;
    const int m = std::stoi(row.month.substr(0, 4)) * 12 + std::stoi(row.month.substr(5, 2)) - 1;
    if (!any_month_) first_ = last_ = m;
    any_month_ = true;
    first_ = std::min(first_, m);
    last_ = std::max(last_, m);
    const int span = last_ - first_ + 1;
    ADVISOR_REQUIRE_OR_RETURN(span <= limits::kMaxMonthsSpanned, "limit_exceeded", month_path,
                              month_path + " " + row.month + " makes the history span " +
                                  std::to_string(span) + " months; the limit is " +
                                  std::to_string(limits::kMaxMonthsSpanned) +
                                  " (the result lists every month of the window)");
  }

 private:
  std::size_t rows_ = 0;
  std::set<std::string> types_;
  bool any_month_ = false;
  int first_ = 0, last_ = 0;
};

std::vector<JobRow> read_jobs_array(const JsonValue& list, const std::string& path, bool* dated) {
  ADVISOR_REQUIRE(
      list.is_array() && !list.empty(), "wrong_type", path,
      path + " must be a non-empty list of {job, gpu_type, gpus, hours[, month | date]}");
  std::vector<JobRow> rows;
  HistoryBounds bounds;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string p = path + "/" + std::to_string(i);
    FieldReader r(list[i], p);
    JobRow row;
    row.job = r.string("job", std::string());
    row.gpu_type = r.string("gpu_type");
    ADVISOR_REQUIRE(!trim(row.gpu_type).empty(), "missing_field", r.path_of("gpu_type"),
                    r.path_of("gpu_type") + " must name the GPU type");
    row.gpu_type = trim(row.gpu_type);
    row.gpu_type_path = r.path_of("gpu_type");
    row.gpus = job_gpus(r.number("gpus", -1e300, 1e300), r.path_of("gpus"));
    row.hours = job_hours(r.number("hours", -1e300, 1e300), r.path_of("hours"));
    ADVISOR_REQUIRE(!(r.has("month") && r.has("date")), "inconsistent", r.path_of("date"),
                    p + " gives both month and date; keep one");
    if (r.has("month") || r.has("date")) {
      const bool is_date = r.has("date");
      const char* key = is_date ? "date" : "month";
      const std::string text = r.string(key);
      row.month = month_of(text, is_date);
      ADVISOR_REQUIRE(!row.month.empty(), "bad_date", r.path_of(key),
                      r.path_of(key) + " must be " + (is_date ? "YYYY-MM-DD" : "YYYY-MM") +
                          ", got " + in_quotes(text));
    }
    r.reject_unknown();
    if (i == 0) *dated = !row.month.empty();
    ADVISOR_REQUIRE(*dated == !row.month.empty(), "inconsistent", p,
                    p + (*dated ? " lacks the month or date the first row has"
                                : " has a month or date but the first row has none"));
    bounds.add(row, p, r.path_of("gpu_type"), r.path_of(r.has("date") ? "date" : "month"));
    if (problem_reported()) return {};  // the rest of up to kMaxJobRows rows is no use now
    rows.push_back(row);
  }
  return rows;
}

CapacitySettings read_capacity(const JsonValue* j) {
  CapacitySettings s;
  if (j == nullptr) return s;
  FieldReader r(*j, "/capacity");
  const JsonValue* csv = r.raw("jobs_csv");
  const JsonValue* jobs = r.raw("jobs");
  ADVISOR_REQUIRE(!(csv && jobs), "inconsistent", "/capacity/jobs",
                  "/capacity takes jobs_csv or jobs, not both");
  if (csv) {
    ADVISOR_REQUIRE(csv->is_string(), "wrong_type", "/capacity/jobs_csv",
                    "/capacity/jobs_csv must be the CSV text");
    s.jobs = parse_jobs_csv(csv->string(), "/capacity/jobs_csv", &s.dated);
  } else if (jobs) {
    s.jobs = read_jobs_array(*jobs, "/capacity/jobs", &s.dated);
    s.path = "/capacity/jobs";
  }
  s.given = csv != nullptr || jobs != nullptr;
  s.months = opt_int(r, "months", 1, 120);
  s.target_utilization = r.nullable_number("target_utilization", kMinTargetUtilization, 1);
  s.buffer = r.nullable_number("buffer", 0, 10);
  r.reject_unknown();
  ADVISOR_REQUIRE(s.given || !(s.months || s.target_utilization || s.buffer), "missing_field",
                  "/capacity/jobs_csv",
                  "/capacity needs the job history: jobs_csv (text) or jobs (rows)");
  ADVISOR_REQUIRE(!(s.months && s.dated), "inconsistent", "/capacity/months",
                  "/capacity/months applies when the jobs carry no month or date (the window "
                  "is then taken from the dates)");
  return s;
}

}  // namespace

std::vector<JobRow> parse_jobs_csv(const std::string& text, const std::string& path, bool* dated) {
  // Rows are the text's lines (the header is row 1), as a spreadsheet numbers them.
  std::vector<std::pair<int, std::string>> lines;
  {
    // A UTF-8 byte order mark (what Excel writes first) is not part of the header's first name.
    constexpr std::string_view kBom = "\xEF\xBB\xBF";
    std::size_t start = text.compare(0, kBom.size(), kBom) == 0 ? kBom.size() : 0;
    int number = 1;
    // The header, the row limit and one row beyond it (reported below) are all that is kept.
    // Lines end with \n, \r\n or a lone \r (old Mac spreadsheets).
    while (start <= text.size() && lines.size() < limits::kMaxJobRows + 2) {
      std::size_t end = text.find_first_of("\r\n", start);
      if (end == std::string::npos) end = text.size();
      std::string line = text.substr(start, end - start);
      if (!trim(line).empty()) lines.emplace_back(number, line);
      ++number;
      start = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
    }
  }
  ADVISOR_REQUIRE(
      !lines.empty(), "missing_field", path,
      path + " is empty: paste a header row (job,gpu_type,gpus,hours[,month]) and the jobs");
  const std::string header_line = lines.front().second;
  const std::string header_path = path + "/row " + std::to_string(lines.front().first);
  // Spreadsheets paste tab-separated text; files are comma-separated.
  const char delimiter =
      header_line.find('\t') != std::string::npos && header_line.find(',') == std::string::npos
          ? '\t'
          : ',';
  bool bad_quote = false;
  std::vector<std::string> header = split_line(header_line, delimiter, &bad_quote);
  ADVISOR_REQUIRE(!bad_quote, "bad_csv", header_path, header_path + " has an unclosed quote");
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string name = lower(header[i]);
    ADVISOR_REQUIRE(column.count(name) == 0 || name.empty(), "bad_csv", header_path,
                    header_path + " names the column " + in_quotes(name) + " twice");
    column[name] = i;
  }
  std::string found;
  for (const std::string& h : header) found += (found.empty() ? "" : ", ") + h;
  for (const char* required : {"job", "gpu_type", "gpus", "hours"}) {
    ADVISOR_REQUIRE(
        column.count(required) != 0, "missing_column", header_path + "/" + required,
        header_path + "/" + required + ": the header (" + header_path.substr(path.size() + 1) +
            ") lacks the column \"" + required +
            "\"; needed: job, gpu_type, gpus, hours (and optionally month or date); found: " +
            in_quotes(found));
  }
  ADVISOR_REQUIRE(!(column.count("month") && column.count("date")), "inconsistent", header_path,
                  header_path + " has both month and date columns; keep one");
  const bool has_month = column.count("month") != 0;
  const bool has_date = column.count("date") != 0;
  *dated = has_month || has_date;
  const std::size_t width = header.size();

  std::vector<JobRow> rows;
  HistoryBounds bounds;
  for (std::size_t n = 1; n < lines.size(); ++n) {
    const std::string row_path = path + "/row " + std::to_string(lines[n].first);
    std::vector<std::string> f = split_line(lines[n].second, delimiter, &bad_quote);
    ADVISOR_REQUIRE(!bad_quote, "bad_csv", row_path, row_path + " has an unclosed quote");
    ADVISOR_REQUIRE(f.size() == width, "bad_csv", row_path,
                    row_path + " has " + std::to_string(f.size()) + " fields; the header has " +
                        std::to_string(width));
    auto cell = [&](const char* name) -> const std::string& { return f[column.at(name)]; };
    auto cell_path = [&](const char* name) { return row_path + "/" + name; };
    auto number = [&](const char* name) -> double {
      double v = 0;
      const std::string& t = cell(name);
      ADVISOR_REQUIRE(!t.empty(), "missing_field", cell_path(name),
                      cell_path(name) + " is empty; it must be a number");
      ADVISOR_REQUIRE(parse_decimal(t, &v), "wrong_type", cell_path(name),
                      cell_path(name) + " must be a number, got " + in_quotes(t));
      return v;
    };
    JobRow row;
    row.job = cell("job");
    row.gpu_type = cell("gpu_type");
    ADVISOR_REQUIRE(!row.gpu_type.empty(), "missing_field", cell_path("gpu_type"),
                    cell_path("gpu_type") + " is empty; it must name the GPU type");
    row.gpu_type_path = cell_path("gpu_type");
    row.gpus = job_gpus(number("gpus"), cell_path("gpus"));
    row.hours = job_hours(number("hours"), cell_path("hours"));
    if (*dated) {
      const char* name = has_month ? "month" : "date";
      const std::string& t = cell(name);
      row.month = month_of(t, has_date);
      ADVISOR_REQUIRE(!row.month.empty(), "bad_date", cell_path(name),
                      cell_path(name) + " must be " + (has_date ? "YYYY-MM-DD" : "YYYY-MM") +
                          ", got " + in_quotes(t));
    }
    bounds.add(row, row_path, cell_path("gpu_type"), cell_path(has_date ? "date" : "month"));
    if (problem_reported()) return {};  // the rest of up to kMaxJobRows rows is no use now
    rows.push_back(row);
  }
  ADVISOR_REQUIRE(!rows.empty(), "missing_field", path, path + " has a header but no job rows");
  return rows;
}

CostRequest parse_cost_request(const JsonValue& sections, const Catalog& catalog) {
  FieldReader r(sections, "");
  CostRequest c;
  c.power = read_power(r.object("power"));
  c.cost = read_cost(r.object("cost"), catalog);
  c.capacity = read_capacity(r.object("capacity"));
  const PriceOverrides& p = c.cost.prices;
  if (c.power.facility == Facility::kOffice) {
    const char* idc_only =
        c.cost.colocation_includes_electricity ? "/cost/colocation_includes_electricity"
        : p.colocation_cny_per_rack_month      ? "/cost/prices/colocation_cny_per_rack_month"
        : p.colocation_cny_per_kw_month        ? "/cost/prices/colocation_cny_per_kw_month"
                                               : nullptr;
    ADVISOR_REQUIRE(idc_only == nullptr, "inconsistent", idc_only,
                    std::string(idc_only) + " applies to an IDC; /power/facility is \"office\"");
  }
  ADVISOR_REQUIRE(!(p.colocation_cny_per_rack_month && !c.power.rack_kw), "inconsistent",
                  "/cost/prices/colocation_cny_per_rack_month",
                  "/cost/prices/colocation_cny_per_rack_month needs the rack it prices: set "
                  "/power/rack_kw too");
  ADVISOR_REQUIRE(!(p.colocation_cny_per_rack_month &&
                    c.cost.colocation_pricing != ColocationPricing::kPerRack),
                  "inconsistent", "/cost/prices/colocation_cny_per_rack_month",
                  "/cost/prices/colocation_cny_per_rack_month applies when "
                  "/cost/colocation_pricing is \"per_rack\"");
  ADVISOR_REQUIRE(
      !(p.colocation_cny_per_kw_month && c.cost.colocation_pricing != ColocationPricing::kPerKw),
      "inconsistent", "/cost/prices/colocation_cny_per_kw_month",
      "/cost/prices/colocation_cny_per_kw_month applies when "
      "/cost/colocation_pricing is \"per_kw\"");
  ADVISOR_REQUIRE(!((p.electricity_peak_cny_per_kwh || p.electricity_valley_cny_per_kwh) &&
                    c.cost.tariff == TariffKind::kFlat),
                  "inconsistent",
                  p.electricity_peak_cny_per_kwh ? "/cost/prices/electricity_peak_cny_per_kwh"
                                                 : "/cost/prices/electricity_valley_cny_per_kwh",
                  "peak and valley prices apply to /cost/tariff \"time_of_use\"");
  return c;
}

}  // namespace advisor
