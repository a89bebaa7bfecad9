// SPDX-License-Identifier: MIT
// Fabrics as sold (issue 25 item 5): the network between servers is the one each class of
// server is sold with unless the request says otherwise; a training plan across consumer servers
// is slowed by it and flagged, on the pinned plan and on the recommendation's; MoE training
// splits its experts over GPUs (expert parallelism) where that is faster (docs/speed.md 2.2, 2.3).
#include <catch2/catch.hpp>
#include <string>

#include "engine/comm.hpp"
#include "helpers.hpp"
#include "plan/plan_warnings.hpp"

using nlohmann::json;

namespace {

json advise_json(const json& request,
                 const advisor::Catalog& catalog = advisor::builtin_catalog()) {
  bool ok = false;
  const json out = json::parse(advisor::advise_text(request.dump(), catalog, &ok));
  INFO(out.dump().substr(0, 600));
  REQUIRE(ok);
  return out;
}

bool has_warning(const json& warnings, const std::string& code) {
  for (const json& w : warnings)
    if (w["code"] == code) return true;
  return false;
}

const json* note(const json& notes, const std::string& code) {
  for (const json& n : notes)
    if (n["code"] == code) return &n;
  return nullptr;
}

/// A 13B pretrain, as the review found it: 64 rented RTX 4090s over 8 servers.
json pretrain_13b_on(const char* gpu, int count, const json& cluster = json()) {
  json j = test::request("pretrain", "llama-2-13b",
                         {{"training", {{"tokens", 3e11}, {"sequence_length", 4096}}},
                          {"hardware", {{"gpu", gpu}, {"count", count}}}});
  if (!cluster.is_null()) j["cluster"] = cluster;
  return j;
}

std::string network_of(const char* gpu_id) {
  const advisor::Catalog& c = advisor::builtin_catalog();
  const advisor::Fabric f =
      advisor::make_fabric(*c.find_gpu(gpu_id), advisor::ClusterSettings{}, c.performance, 8);
  return std::string(f.network_id);
}

}  // namespace

TEST_CASE("each server class gets the network it is sold with", "[fabric]") {
  CHECK(network_of("h100-sxm-80gb") == "ib_ndr400");
  CHECK(network_of("b200-180gb") == "ib_ndr400");
  CHECK(network_of("a100-sxm-80gb") == "ib_hdr200");
  CHECK(network_of("l40s-48gb") == "roce_100");
  CHECK(network_of("a100-pcie-80gb") == "roce_100");
  CHECK(network_of("rtx6000ada-48gb") == "ethernet_25_per_server");
  CHECK(network_of("rtx4090-24gb") == "ethernet_25_per_server");
  CHECK(network_of("rtx5090-32gb") == "ethernet_25_per_server");
  // One 25 GbE port shared by the server's 8 GPUs, without RDMA: sockets' extra latency.
  const advisor::Catalog& c = advisor::builtin_catalog();
  const advisor::Fabric f = advisor::make_fabric(*c.find_gpu("rtx4090-24gb"),
                                                 advisor::ClusterSettings{}, c.performance, 8);
  CHECK(f.network_gbps == Approx(25.0 / 8 / 8));
  CHECK_FALSE(f.network_rdma);
  CHECK(f.network_extra_hop_us > 0);
  CHECK(f.server_class == "geforce");
  CHECK(advisor::network_busbw(f, 8) == Approx(25.0 / 8 * 0.6));
}

TEST_CASE("a 13B pretrain on 64 RTX 4090s over 8 servers is slowed and flagged", "[fabric]") {
  const json now = advise_json(pretrain_13b_on("rtx4090-24gb", 64));
  // What the advisor used to assume for every PCIe server: 100 Gb/s RoCE per GPU.
  const json before =
      advise_json(pretrain_13b_on("rtx4090-24gb", 64, {{"inter_node_network", "roce_100"}}));
  const json& link = now["interconnect"]["inter_node"];
  CHECK(link["kind"] == "ethernet_25_per_server");
  CHECK(link["chosen_by_advisor"] == true);
  CHECK(link["rdma"] == false);
  CHECK(link["server_class"] == "geforce");
  CHECK(link["gbit_per_s_per_server"].get<double>() == Approx(25));
  CHECK(now["training"]["hours"].get<double>() > 1.3 * before["training"]["hours"].get<double>());
  CHECK(now["training"]["mfu"].get<double>() < before["training"]["mfu"].get<double>());
  CHECK(has_warning(now["warnings"], "no_rdma_across_servers"));
  CHECK_FALSE(has_warning(before["warnings"], "no_rdma_across_servers"));
  // The assumption says which network was assumed and why (the server class).
  const json* links = note(now["training"]["assumption_notes"], "training_links");
  REQUIRE(links != nullptr);
  CHECK((*links)["params"]["server_class"] == "geforce");
  CHECK((*links)["params"]["network_assumed"] == 1);
  CHECK((*links)["params"]["rdma"] == 0);
  // One server: no network between servers, no flag.
  const json one = advise_json(pretrain_13b_on("rtx4090-24gb", 8));
  CHECK_FALSE(has_warning(one["warnings"], "no_rdma_across_servers"));
}

TEST_CASE("a request that states an RDMA network for consumer servers gets it", "[fabric]") {
  const json r =
      advise_json(pretrain_13b_on("rtx4090-24gb", 64, {{"inter_node_network", "roce_200"}}));
  const json& link = r["interconnect"]["inter_node"];
  CHECK(link["kind"] == "roce_200");
  CHECK(link["chosen_by_advisor"] == false);
  CHECK(link["rdma"] == true);
  CHECK(link["server_class"].is_null());
  CHECK_FALSE(has_warning(r["warnings"], "no_rdma_across_servers"));
  // A stated line rate per GPU is RDMA too.
  const json custom =
      advise_json(pretrain_13b_on("rtx4090-24gb", 64, {{"inter_node_gbit_per_s_per_gpu", 100}}));
  CHECK(custom["interconnect"]["inter_node"]["rdma"] == true);
  CHECK_FALSE(has_warning(custom["warnings"], "no_rdma_across_servers"));
}

TEST_CASE("an 8x H100 HGX plan and a multi-server HGX plan are unchanged", "[fabric]") {
  for (int count : {8, 32}) {
    INFO(count);
    const json now = advise_json(pretrain_13b_on("h100-sxm-80gb", count));
    const json stated =
        advise_json(pretrain_13b_on("h100-sxm-80gb", count, {{"inter_node_network", "ib_ndr400"}}));
    CHECK(now["interconnect"]["inter_node"]["kind"] == "ib_ndr400");
    CHECK(now["interconnect"]["inter_node"]["server_class"] == "hgx_pcie5");
    CHECK(now["training"]["hours"].get<double>() ==
          Approx(stated["training"]["hours"].get<double>()).epsilon(1e-12));
    CHECK_FALSE(has_warning(now["warnings"], "no_rdma_across_servers"));
  }
}

TEST_CASE("the recommendation's plan carries the warnings it earns", "[fabric][recommend]") {
  // A catalog of consumer cards only: the answer must spread over servers and say what that
  // costs.
  advisor::Catalog consumer = advisor::builtin_catalog();
  std::erase_if(consumer.gpus, [](const advisor::GpuSpec& g) { return g.id != "rtx4090-24gb"; });
  json job = test::request("pretrain", "llama-2-13b",
                           {{"training", {{"tokens", 3e11}, {"sequence_length", 4096}}},
                            {"goal", {{"objective", "fastest"}, {"china_only", false}}}});
  const json r = advise_json(job, consumer);
  const json& best = r["recommendation"]["best"];
  REQUIRE(best.is_object());
  REQUIRE(best["gpus"].get<int>() > 8);
  CHECK(has_warning(best["warnings"], "no_peer_to_peer"));
  CHECK(has_warning(best["warnings"], "no_rdma_across_servers"));
  // Pinned back: the same plan, the same warnings.
  job["hardware"] = {{"gpu", best["gpu"]}, {"count", best["gpus"]}};
  const json pinned = advise_json(job, consumer);
  CHECK(pinned["training"]["hours"].get<double>() ==
        Approx(best["hours"].get<double>()).epsilon(1e-9));
  for (const json& w : best["warnings"]) {
    INFO(w["code"]);
    CHECK(has_warning(pinned["warnings"], w["code"]));
  }
}

TEST_CASE("candidate_warnings: the words of a plan across TCP servers", "[fabric]") {
  const advisor::Catalog& c = advisor::builtin_catalog();
  advisor::CandidatePlan p;
  p.gpu = c.find_gpu("rtx4090-24gb");
  p.gpus = 64;
  p.servers = 8;
  p.hours = 100;
  p.network_rdma = false;
  p.network_assumed = true;
  p.network_name = "25 GbE per server, TCP (no RDMA)";
  p.server_class = "geforce";
  p.exposed_communication_share = 0.4;
  const auto ws =
      advisor::candidate_warnings(p, test::parse(test::request("pretrain", "llama-2-13b")), {});
  bool found = false;
  for (const advisor::Warning& w : ws) {
    if (w.code != "no_rdma_across_servers") continue;
    found = true;
    CHECK(w.path == "/cluster/inter_node_network");
    CHECK(w.message.find("8 servers") != std::string::npos);
  }
  CHECK(found);
}

TEST_CASE("MoE training splits its experts where that is faster", "[fabric][moe]") {
  // With full checkpointing, as MoE pretraining recipes run: without it the expert split has
  // no room on 8 cards (planning_room_fraction) and tensor parallel 8 is kept.
  const json job = test::request(
      "pretrain", "qwen3-30b-a3b",
      {{"training",
        {{"tokens", 1e11}, {"sequence_length", 4096}, {"activation_checkpointing", "full"}}},
       {"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 8}}}});
  const json chosen = advise_json(job);
  json no_ep = job;
  no_ep["parallelism"] = {{"ep", 1}};
  const json stated = advise_json(no_ep);
  CHECK(stated["memory"]["layout"]["ep"] == 1);
  CHECK(chosen["memory"]["layout"]["ep"].get<int>() > 1);
  CHECK(chosen["training"]["hours"].get<double>() < stated["training"]["hours"].get<double>());
  CHECK(chosen["training"]["communication"]["expert_parallel_s"].get<double>() > 0);
  CHECK(chosen["resolved_inputs"]["/parallelism/ep"] == chosen["memory"]["layout"]["ep"]);
  // The form leaves ep to the advisor.
  const json schema = test::to_nlohmann(advisor::form_schema(advisor::builtin_catalog()));
  for (const json& f : schema)
    if (f["path"] == "/parallelism/ep") CHECK(f["default"].is_null());
}

TEST_CASE("expert parallelism only where the stack has it, and pinned back is a fixed point",
          "[fabric][moe][recommend]") {
  // The HF Trainer stacks run every expert on every rank: no expert parallelism chosen.
  const json ft = advise_json(test::request(
      "full_finetune", "qwen3-30b-a3b", {{"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 8}}}}));
  CHECK(ft["memory"]["layout"]["ep"] == 1);
  const json mg = advise_json(test::request(
      "full_finetune", "qwen3-30b-a3b",
      {{"stack", "megatron"}, {"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 8}}}}));
  CHECK(mg["memory"]["layout"]["ep"].get<int>() > 1);
  // The recommendation of a MoE pretrain, pinned back: the same split and time.
  json job = test::request("pretrain", "qwen3-30b-a3b",
                           {{"training", {{"tokens", 1e11}, {"sequence_length", 4096}}}});
  const json r = advise_json(job);
  const json& best = r["recommendation"]["best"];
  REQUIRE(best.is_object());
  job["hardware"] = {{"gpu", best["gpu"]}, {"count", best["gpus"]}};
  const json pinned = advise_json(job);
  CHECK(pinned["memory"]["layout"]["ep"] == best["layout"]["ep"]);
  CHECK(pinned["memory"]["layout"]["tp"] == best["layout"]["tp"]);
  CHECK(pinned["memory"]["layout"]["pp"] == best["layout"]["pp"]);
  CHECK(pinned["training"]["hours"].get<double>() ==
        Approx(best["hours"].get<double>()).epsilon(1e-9));
}

TEST_CASE("an all-to-all across servers crosses each GPU's own share of the network",
          "[fabric][moe]") {
  const advisor::Catalog& c = advisor::builtin_catalog();
  const advisor::Fabric f = advisor::make_fabric(*c.find_gpu("h100-sxm-80gb"),
                                                 advisor::ClusterSettings{}, c.performance, 8);
  const double bytes = 1e9;
  // 16 GPUs over 2 servers: half of each GPU's bytes leave the server through its 400G NIC.
  const double t = advisor::all_to_all_time_s(bytes, 16, 8, f, c.performance);
  const double net_gbps = 400.0 / 8 * 0.85;
  CHECK(t == Approx(0.5 * bytes / (net_gbps * 1e9)).epsilon(0.01));
  // Inside one server it is bound by NVLink, far faster.
  CHECK(advisor::all_to_all_time_s(bytes, 8, 8, f, c.performance) < t / 4);
}
