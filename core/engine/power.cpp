// SPDX-License-Identifier: MIT
#include "engine/power.hpp"

#include <algorithm>
#include <cmath>

#include "types/checked.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {
std::string kw(double watts) { return format_number(std::round(watts / 10) / 100) + " kW"; }
int racks_for(int servers, int per_rack) { return (servers + per_rack - 1) / per_rack; }
}  // namespace

double server_watts_full_load(const ServerPowerInputs& in) {
  return in.gpus * in.gpu_tdp_watts * (1 + in.cooling_conversion_fraction) + in.host_fixed_watts;
}

double fleet_watts_full_load(const ServerPowerInputs& server, int gpus, int gpus_per_server) {
  ServerPowerInputs full = server;
  full.gpus = gpus_per_server;
  const int full_servers = gpus / gpus_per_server;
  const int rest = gpus % gpus_per_server;
  double total = full_servers * server_watts_full_load(full);
  if (rest > 0) {
    ServerPowerInputs last = server;
    last.gpus = rest;
    total += server_watts_full_load(last);
  }
  return total;
}

RackFit fit_racks(double rack_kw, double server_watts, int rack_units_usable, int server_rack_units,
                  int servers, std::string_view rack_path) {
  RackFit f;
  f.rack_kw = rack_kw;
  const int max_units = static_cast<int>(limits::kMaxUnits);
  // A tiny tolerance so that 4 x 2.5 kW fits a 10 kW rack despite rounding.
  f.servers_per_rack_by_power = checked_int(std::floor(rack_kw * 1000 / server_watts + 1e-9),
                                            rack_path, "servers per rack by power", 0, max_units);
  f.servers_per_rack_by_space = rack_units_usable / server_rack_units;
  f.servers_per_rack = std::min(f.servers_per_rack_by_power, f.servers_per_rack_by_space);
  f.fits = f.servers_per_rack >= 1;
  if (f.fits) {
    f.racks_per_server = 1;
    f.racks_needed = racks_for(servers, f.servers_per_rack);
  } else {
    f.racks_per_server = checked_int(std::ceil(server_watts / (rack_kw * 1000) - 1e-9), rack_path,
                                     "rack circuits per server", 0, max_units);
    f.racks_needed = checked_int(double(servers) * std::max(1, f.racks_per_server), rack_path,
                                 "racks needed", 0, max_units);
  }
  return f;
}

OfficeVerdict office_verdict(double server_watts, int servers, double rack_kw_low,
                             double rack_kw_high, int office_racks, int rack_units_usable,
                             int server_rack_units) {
  OfficeVerdict v;
  v.server_watts = server_watts;
  v.total_watts = server_watts * servers;
  v.servers = servers;
  v.rack_kw_low = rack_kw_low;
  v.rack_kw_high = rack_kw_high;
  v.office_racks = office_racks;
  if (server_watts > rack_kw_high * 1000) {
    v.level = "no";
    v.reason_code = "server_exceeds_office_rack";
    return v;
  }
  const RackFit low = fit_racks(rack_kw_low, server_watts, rack_units_usable, server_rack_units,
                                servers, "/power/office_rack_kw");
  const RackFit high = fit_racks(rack_kw_high, server_watts, rack_units_usable, server_rack_units,
                                 servers, "/power/office_rack_kw");
  v.racks_needed = high.racks_needed;
  if (low.fits && low.racks_needed <= office_racks) {
    v.can_host = true;
    v.level = "yes";
    v.reason_code = "fits_office";
  } else if (high.fits && high.racks_needed <= office_racks) {
    v.can_host = true;
    v.level = "marginal";
    v.reason_code = "fits_office_at_high";
  } else {
    v.level = "no";
    v.reason_code = "needs_more_office_racks";
  }
  return v;
}

std::string office_reason_text(const OfficeVerdict& v) {
  const std::string range =
      v.rack_kw_low == v.rack_kw_high
          ? format_number(v.rack_kw_high) + " kW"
          : format_number(v.rack_kw_low) + "-" + format_number(v.rack_kw_high) + " kW";
  const std::string have =
      std::to_string(v.office_racks) + " office rack" + (v.office_racks == 1 ? "" : "s");
  if (v.reason_code == "server_exceeds_office_rack") {
    return "one server draws " + kw(v.server_watts) + " at full load; an office rack gives " +
           range + ", so it needs an IDC rack";
  }
  if (v.reason_code == "fits_office") {
    return std::to_string(v.servers) + " server" + (v.servers == 1 ? " draws " : "s draw ") +
           kw(v.total_watts) + " at full load: fits " + have + " of " +
           format_number(v.rack_kw_low) + " kW (also plan the room's cooling for that heat)";
  }
  if (v.reason_code == "fits_office_at_high") {
    return kw(v.total_watts) + " at full load fits " + have + " only at " +
           format_number(v.rack_kw_high) +
           " kW each; measure your circuits (220 V x 16 A = "
           "3.52 kW) before relying on it";
  }
  return kw(v.total_watts) + " at full load needs " + std::to_string(v.racks_needed) +
         " office racks of " + format_number(v.rack_kw_high) + " kW; you have " +
         std::to_string(v.office_racks);
}

}  // namespace advisor
