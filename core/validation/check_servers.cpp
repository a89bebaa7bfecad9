// SPDX-License-Identifier: MIT
// A cluster's read-back: one result file per server, each checked against the plan, merged into
// one verdict (the files of the servers that did not send one are a FAIL, not a pass).
#include "validation/check_servers.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "validation/check.hpp"
#include "validation/check_builder.hpp"

namespace advisor::validation {

namespace {

/// "a, b, c": the hosts named, in order.
std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

/// The items about the set of files: missing, duplicate and extra servers.
void server_count_items(const ClusterReport& c, std::vector<CheckItem>& out) {
  CheckReport scratch;
  items::Builder b(scratch);
  std::vector<std::string> hosts, duplicates;
  std::set<std::string> seen;
  int distinct = 0;
  for (const ServerReport& s : c.servers) {
    hosts.push_back(s.host.empty() ? s.report.file_name : s.host);
    if (s.host.empty() || seen.insert(s.host).second)
      ++distinct;
    else
      duplicates.push_back(s.host);
  }
  const std::string expected = std::to_string(c.servers_expected);
  const std::string received = std::to_string(distinct);
  for (const std::string& host : duplicates)
    b.add(Area::interconnect, "servers", Status::fail,
          {"server_duplicate",
           {{"host", host}},
           "two result files come from " + host +
               ": one server counted twice; pass each server's own validation-result.json"});
  if (distinct < c.servers_expected)
    b.add(Area::interconnect, "servers", Status::fail,
          {"server_missing",
           {{"received", received}, {"expected", expected}, {"hosts", joined(hosts)}},
           received + " of " + expected + " servers sent a result file (" + joined(hosts) +
               "): run the scripts and 90_summary.sh on the others and check every server's "
               "validation-result.json together"},
          c.servers_expected, distinct, "servers");
  else if (distinct > c.servers_expected)
    b.add(Area::interconnect, "servers", Status::warn,
          {"server_extra",
           {{"received", received}, {"expected", expected}},
           received + " result files for a plan of " + expected +
               " servers: a file of another cluster, or the plan has fewer servers than bought"},
          c.servers_expected, distinct, "servers");
  else
    b.add(Area::interconnect, "servers", Status::pass, items::ok(), c.servers_expected, distinct,
          "servers");
  for (auto& i : scratch.items) out.push_back(std::move(i));
}

}  // namespace

ClusterReport check_servers(const ValidationPlan& plan, const std::vector<Measurements>& files,
                            const CostInputs& cost) {
  ClusterReport c;
  c.plan_id = plan_id(plan);
  c.servers_expected = plan.servers;
  bool inter_node = false, any_result_file = false;
  for (const Measurements& m : files) {
    c.servers.push_back({m.host, check_measurements(plan, m, cost)});
    inter_node = inter_node || m.inter_node_busbw_gbps.has_value();
    any_result_file = any_result_file || !m.plan_id.empty();
  }
  server_count_items(c, c.items);
  if (plan.servers > 1 && any_result_file && !inter_node) {
    CheckReport scratch;
    items::Builder(scratch).add(
        Area::interconnect, "inter_node_busbw", Status::fail,
        {"inter_node_not_measured",
         {},
         "no server's file has the cross-server all-reduce: run MASTER_ADDR=<server 0> "
         "NODE_RANK=<i> ./30_nccl.sh on every server at once, then 90_summary.sh on server 0"});
    c.items.push_back(std::move(scratch.items.front()));
  }
  for (const ServerReport& s : c.servers) {
    c.overall = std::max(c.overall, s.report.overall);
    ++(s.report.overall == Status::fail   ? c.servers_failed
       : s.report.overall == Status::warn ? c.servers_warned
                                          : c.servers_passed);
  }
  for (const CheckItem& i : c.items) c.overall = std::max(c.overall, i.status);
  return c;
}

}  // namespace advisor::validation
