// SPDX-License-Identifier: MIT
// Nothing a user typed runs: a name reaches a generated script only as quoted data or inside a
// one-line comment. Regression tests of the security review's finding (a newline in a model
// name ended a comment and ran the next line, as root) through the request API, with every
// text field that reaches a script, and the shape checker the `scripts` fuzz target uses.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api.hpp"
#include "io/catalog_json.hpp"
#include "script_shape.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"
#include "validation_api.hpp"

namespace {

using nlohmann::json;

const char* const kHostile[] = {"x\ntouch /tmp/pwned\n#",
                                "x\rimport os; os.system('id')",
                                "$(touch /tmp/pwned)",
                                "`touch /tmp/pwned`",
                                "x'; touch /tmp/pwned; echo '",
                                "x\"; touch /tmp/pwned; echo \"",
                                "a; touch /tmp/pwned",
                                "a\xE2\x80\xA8touch /tmp/pwned",
                                "a\xC2\x85touch",
                                "a\\\ntouch /tmp/pwned",
                                "a\u202Eevil"};

json pinned(json model) {
  return {{"schema", 1},
          {"task", "lora"},
          {"model", std::move(model)},
          {"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 8}}}};
}

json custom_model(const std::string& name) {
  return pinned({{"name", name},
                 {"layers", 32},
                 {"hidden", 4096},
                 {"ffn_hidden", 14336},
                 {"heads", 32},
                 {"kv_heads", 8},
                 {"vocab", 128256}});
}

json pasted_config(const std::string& name) {
  return pinned({{"hf_config",
                  {{"_name_or_path", name},
                   {"model_type", "llama"},
                   {"hidden_size", 4096},
                   {"intermediate_size", 14336},
                   {"num_attention_heads", 32},
                   {"num_key_value_heads", 8},
                   {"num_hidden_layers", 32},
                   {"vocab_size", 128256}}}});
}

/// {file name: text} of the scripts for `request`.
json files_of(const json& request) {
  const json answer = json::parse(advisor::validation_scripts_text(request.dump()));
  INFO(answer.dump().substr(0, 300));
  REQUIRE(answer.contains("files"));
  json out = json::object();
  for (const json& f : answer["files"]) out[f["name"].get<std::string>()] = f["text"];
  return out;
}

bool ends_with(const std::string& s, const char* tail) {
  const std::string t = tail;
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

void same_shapes(const json& benign, const json& hostile) {
  for (const auto& [name, text] : benign.items()) {
    INFO(name << "\n" << hostile[name].get<std::string>().substr(0, 800));
    if (ends_with(name, ".sh"))
      CHECK(fuzz::shell_shape(hostile[name].get<std::string>()) ==
            fuzz::shell_shape(text.get<std::string>()));
    if (ends_with(name, ".py"))
      CHECK(fuzz::python_shape(hostile[name].get<std::string>()) ==
            fuzz::python_shape(text.get<std::string>()));
  }
}

}  // namespace

TEST_CASE("one_line: no control, line-breaking or bidi character survives, bounded",
          "[validation][security]") {
  CHECK(advisor::one_line("a\nb\rc\td\x7F"
                          "e",
                          80) == "a b c d e");
  CHECK(advisor::one_line("a\xE2\x80\xA8"
                          "b\xC2\x85"
                          "c\xE2\x80\xAE"
                          "d\xE2\x81\xA6"
                          "e",
                          80) == "a b c d e");
  CHECK(advisor::one_line("\xFF", 80) == "\xEF\xBF\xBD");
  CHECK(advisor::one_line(std::string(500, 'x'), 10) == "xxxxxxxxxx...");
  CHECK(advisor::one_line("\xE4\xB8\xAD\xE6\x96\x87", 1) ==
        "\xE4\xB8\xAD...");  // never splits a character
}

TEST_CASE("the shape checker sees a comment that became code", "[validation][security]") {
  CHECK(fuzz::shell_shape("A='x y'  # a comment\necho \"$A\"\n") ==
        fuzz::shell_shape("A=x  # other\necho \"$A\"\n"));
  CHECK(fuzz::shell_shape("# a\ntouch x\n") != fuzz::shell_shape("# a touch x\n"));
  CHECK(fuzz::shell_shape("A='$(id)'\n") != fuzz::shell_shape("A=$(id)\n"));
  CHECK(fuzz::shell_shape("cat << EOF\n$(id) 'x\nEOF\necho\n") ==
        fuzz::shell_shape("cat << EOF\nplain\nEOF\necho\n"));
  CHECK(fuzz::python_shape("# x\rimport os\n") != fuzz::python_shape("# x import os\n"));
  CHECK(fuzz::python_shape("A = 'x # y'  # z\n") == fuzz::python_shape("A = \"other\"  # w\n"));
}

TEST_CASE("a model name or a pasted config's name never changes the scripts' commands",
          "[validation][security]") {
  const json benign_model = files_of(custom_model("Benign Model 7B"));
  const json benign_config = files_of(pasted_config("org/benign-7b"));
  for (const char* text : kHostile) {
    INFO("name: " << text);
    same_shapes(benign_model, files_of(custom_model(text)));
    same_shapes(benign_config, files_of(pasted_config(text)));
  }
}

TEST_CASE("a comment carries at most the bounded one-line form of a name",
          "[validation][security]") {
  const std::string name = "evil\n" + std::string(10'000, 'n');
  const json files = files_of(custom_model(name));
  for (const auto& [file, text] : files.items()) {
    INFO(file);
    const std::string t = text.get<std::string>();
    CHECK(t.find("evil\n") == std::string::npos);
    CHECK(t.find(std::string(advisor::limits::kMaxScriptTextChars + 1, 'n')) == std::string::npos);
  }
}

TEST_CASE("a provider part's name reaches the scripts only as a one-line label",
          "[validation][security]") {
  json part;
  const json catalog = json::parse(advisor::builtin_gpus_json());
  for (const json& g : catalog["gpus"])
    if (g["id"] == "h100-sxm-80gb") part = g;
  const auto provider = [&](const std::string& name) {
    json p = part;
    p["name"] = name;
    return json({{"schema", 1},
                 {"name", "IDC"},
                 {"as_of", "2026-12-01"},
                 {"currency", "CNY"},
                 {"gpus", {p}},
                 {"offers", {{{"gpu", "h100-sxm-80gb"}, {"price_cny_per_gpu_hour", 12.0}}}}})
        .dump();
  };
  const std::string request = pinned({{"preset", "llama-3.1-8b"}}).dump();
  // A control character is refused where the document says it (the page shows the name too).
  const json refused =
      json::parse(advisor::validation_scripts_text(request, {{}, provider("H100\ntouch x")}));
  CHECK(refused["error"]["path"] == "/gpus/0/name");
  const json ok = json::parse(
      advisor::validation_scripts_text(request, {{}, provider("$(touch x) `id` 'q\" ;")}));
  REQUIRE(ok.contains("files"));
  const json benign =
      json::parse(advisor::validation_scripts_text(request, {{}, provider("Acme H100")}));
  for (std::size_t i = 0; i < ok["files"].size(); ++i) {
    const std::string name = ok["files"][i]["name"], text = ok["files"][i]["text"];
    const std::string expected = benign["files"][i]["text"];
    INFO(name);
    if (ends_with(name, ".sh")) CHECK(fuzz::shell_shape(text) == fuzz::shell_shape(expected));
    if (ends_with(name, ".py")) CHECK(fuzz::python_shape(text) == fuzz::python_shape(expected));
  }
}
