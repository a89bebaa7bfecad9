// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace advisor {

/// What one server draws at the wall.
struct ServerPowerInputs {
  double gpu_tdp_watts = 0;
  int gpus = 0;                            // GPUs in this server
  double host_fixed_watts = 0;             // CPUs + memory + NICs + storage
  double cooling_conversion_fraction = 0;  // fans, NVSwitch/baseboard, PSU losses per GPU watt
};

/// Full load: gpus x tdp x (1 + cooling_conversion_fraction) + host_fixed_watts.
double server_watts_full_load(const ServerPowerInputs& in);

/// How many servers one rack holds, by power and by space, and how many racks `servers` need.
struct RackFit {
  double rack_kw = 0;
  int servers_per_rack_by_power = 0;
  int servers_per_rack_by_space = 0;
  int servers_per_rack = 0;  // the smaller of the two
  int racks_needed = 0;
  bool fits = false;  // at least one server fits in one rack
  /// When a single server exceeds the rack: rack circuits bonded per server (each server then
  /// takes ceil(server_kw / rack_kw) rack positions' power).
  int racks_per_server = 0;
};

/// `rack_path` names the input the rack size came from in an error (a count beyond
/// limits::kMaxUnits, e.g. from a provider catalog's 1e-308 W TDP).
RackFit fit_racks(double rack_kw, double server_watts, int rack_units_usable, int server_rack_units,
                  int servers, std::string_view rack_path = "/power/rack_kw");

/// "Can our office host this?" against the source's office racks of 3-4 kW.
/// Whether an office can host the servers, with the figures its reason names. The reason is
/// a code with parameters (office_reason_text() gives the English sentence).
struct OfficeVerdict {
  bool can_host = false;
  // Names from a fixed list (literals): views, so that a verdict, worked out for every plan a
  // search prices, allocates nothing.
  std::string_view level;        // yes | marginal | no
  std::string_view reason_code;  // server_exceeds_office_rack | fits_office |
                                 // fits_office_at_high | needs_more_office_racks
  double server_watts = 0;       // one server, full load
  double total_watts = 0;        // all servers, full load
  int servers = 0;
  double rack_kw_low = 0, rack_kw_high = 0;
  int office_racks = 0;
  int racks_needed = 0;  // at rack_kw_high
};

/// The verdict's reason as one English sentence with its numbers.
std::string office_reason_text(const OfficeVerdict& verdict);

/// `servers` servers of `server_watts` (full load); the office has `office_racks` racks that give
/// between `rack_kw_low` and `rack_kw_high` each (equal when the user measured theirs).
OfficeVerdict office_verdict(double server_watts, int servers, double rack_kw_low,
                             double rack_kw_high, int office_racks, int rack_units_usable,
                             int server_rack_units);

/// Total wall power of `gpus` GPUs packed `gpus_per_server` to a server (the last one may be
/// partly filled), at full load.
double fleet_watts_full_load(const ServerPowerInputs& per_gpu_server, int gpus,
                             int gpus_per_server);

}  // namespace advisor
