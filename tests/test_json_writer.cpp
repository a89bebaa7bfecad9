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
