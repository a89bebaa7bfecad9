// SPDX-License-Identifier: MIT
// Strings in the result (io/json_writer.cpp): printable text and valid UTF-8 copied as they are,
// the rest escaped by nlohmann/json's serializer; whatever the bytes, the text parses back.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "io/json_writer.hpp"

namespace {

std::string written(const std::string& s) {
  advisor::JsonWriter w;
  w.value(s);
  return w.take();
}

}  // namespace

TEST_CASE("plain text is written as it is, beyond ASCII as \\u escapes: the text is ASCII",
          "[json][strings]") {
  CHECK(written("H100 SXM5 80GB") == "\"H100 SXM5 80GB\"");
  // 显存 (two characters of the Basic Multilingual Plane) and an emoji (a surrogate pair).
  const std::string chinese = "\xe6\x98\xbe\xe5\xad\x98 56.62 GiB \xf0\x9f\x9a\x80";
  const std::string text = written(chinese);
  CHECK(text == "\"\\u663e\\u5b58 56.62 GiB \\ud83d\\ude80\"");
  CHECK(nlohmann::json::parse(text).get<std::string>() == chinese);
  CHECK(written("") == "\"\"");
}

TEST_CASE("quotes, backslashes and control bytes are escaped and read back", "[json][strings]") {
  const std::string hostile =
      std::string("a\"b\\c\nd\te\rf\bg\x01h\x7fi") + std::string(1, '\0') + "j";
  const std::string text = written(hostile);
  CHECK(text.find('\n') == std::string::npos);
  CHECK(text.find("\\\"") != std::string::npos);
  CHECK(text.find("\\u0001") != std::string::npos);
  CHECK(nlohmann::json::parse(text).get<std::string>() == hostile);
}

TEST_CASE("bytes that are not UTF-8 become U+FFFD, never invalid JSON", "[json][strings]") {
  const std::string text = written("ok \xff\xfe end \xe4\xb8");
  const std::string back = nlohmann::json::parse(text).get<std::string>();
  CHECK(back == "ok \xef\xbf\xbd\xef\xbf\xbd end \xef\xbf\xbd");
}

TEST_CASE("a member name that needs escaping is escaped the same way", "[json][strings]") {
  advisor::JsonWriter w;
  w.begin_object();
  w.key(std::string("gpu \"x\""));
  w.value(1.0);
  w.end_object();
  CHECK(nlohmann::json::parse(w.take()) == nlohmann::json{{"gpu \"x\"", 1.0}});
}

TEST_CASE("names and strings across the writer's block edges come out whole", "[json][strings]") {
  // Strings from a few bytes to past the writer's 4 KiB block, each after a member name, so
  // that names and strings land on, just before and just after every block edge.
  advisor::JsonWriter w;
  nlohmann::ordered_json expected = nlohmann::ordered_json::array();  // members in written order
  w.begin_array();
  for (const std::size_t length : {1, 7, 4093, 4094, 4095, 4096, 4097, 10000, 3, 4090}) {
    const std::string plain(length, static_cast<char>('a' + length % 26));
    w.begin_object();
    w.field("name", plain);
    w.field("escaped", "\xe2\x80\x94" + plain);  // a dash: through the library
    w.field("count", static_cast<int>(length));
    w.end_object();
    expected.push_back({{"name", plain},
                        {"escaped", "\xe2\x80\x94" + plain},
                        {"count", static_cast<int>(length)}});
  }
  w.end_array();
  const std::string text = w.take();
  CHECK(nlohmann::ordered_json::parse(text) == expected);
  CHECK(text == expected.dump(-1, ' ', /*ensure_ascii=*/true));
}
