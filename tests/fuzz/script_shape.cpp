// SPDX-License-Identifier: MIT
#include "script_shape.hpp"

#include <cctype>

namespace fuzz {

namespace {

bool word_char(char c) {
  return !(std::isspace(static_cast<unsigned char>(c)) || c == ';' || c == '&' || c == '|' ||
           c == '(' || c == ')' || c == '<' || c == '>');
}

/// A here-document's delimiter after "<<" at text[i] (i past the "<<"); `strip_tabs` for "<<-".
std::string heredoc_word(const std::string& t, std::size_t* i, bool* strip_tabs) {
  *strip_tabs = *i < t.size() && t[*i] == '-';
  if (*strip_tabs) ++*i;
  while (*i < t.size() && t[*i] == ' ') ++*i;
  std::string word;
  while (*i < t.size() && word_char(t[*i])) {
    if (t[*i] != '\'' && t[*i] != '"' && t[*i] != '\\') word += t[*i];
    ++*i;
  }
  return word;
}

/// Skips the here-document body that starts at text[i] (the line after its "<<WORD").
std::size_t skip_heredoc(const std::string& t, std::size_t i, const std::string& word,
                         bool strip_tabs) {
  while (i < t.size()) {
    std::size_t end = t.find('\n', i);
    if (end == std::string::npos) end = t.size();
    std::size_t a = i;
    while (strip_tabs && a < end && t[a] == '\t') ++a;
    if (t.compare(a, end - a, word) == 0) return end;
    i = end + 1;
  }
  return t.size();
}

}  // namespace

std::string shell_shape(const std::string& t) {
  std::string out;
  bool in_word = false;
  std::string heredoc;  // a delimiter whose body starts at the next line end
  bool heredoc_tabs = false;
  auto end_word = [&] {
    if (in_word) out += 'w';
    in_word = false;
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\\') {  // an escaped character is part of a word; an escaped line end joins lines
      if (i + 1 < t.size() && t[i + 1] != '\n') in_word = true;
      ++i;
    } else if (c == '\'') {
      in_word = true;
      const std::size_t close = t.find('\'', i + 1);
      i = close == std::string::npos ? t.size() : close;
    } else if (c == '"') {
      in_word = true;
      for (++i; i < t.size() && t[i] != '"'; ++i) {
        if (t[i] == '\\')
          ++i;
        else if (t[i] == '`')
          out += '`';
        else if (t[i] == '$')
          out += i + 1 < t.size() && (t[i + 1] == '(' || t[i + 1] == '{') ? t[i + 1] : '$';
      }
    } else if (c == '#' && !in_word) {
      while (i + 1 < t.size() && t[i + 1] != '\n') ++i;
    } else if (c == '\n') {
      end_word();
      out += '\n';
      if (!heredoc.empty()) {
        i = skip_heredoc(t, i + 1, heredoc, heredoc_tabs);
        out += "H\n";
        heredoc.clear();
      }
    } else if (c == '<' && t.compare(i, 2, "<<") == 0 && t.compare(i, 3, "<<<") != 0) {
      end_word();
      i += 2;
      heredoc = heredoc_word(t, &i, &heredoc_tabs);
      --i;
      out += "<<";
    } else if (c == '$' || c == '`') {
      in_word = true;
      out += c;
      if (c == '$' && i + 1 < t.size() && (t[i + 1] == '(' || t[i + 1] == '{')) out += t[++i];
    } else if (!word_char(c)) {
      end_word();
      if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    } else {
      in_word = true;
    }
  }
  end_word();
  return out;
}

std::string python_shape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '#') {
      while (i + 1 < s.size() && s[i + 1] != '\n' && s[i + 1] != '\r') ++i;
    } else if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
      out += '\n';
    } else if (c == '\'' || c == '"') {
      const std::string quote =
          s.compare(i, 3, std::string(3, c)) == 0 ? std::string(3, c) : std::string(1, c);
      std::size_t j = i + quote.size();
      while (j < s.size() && s.compare(j, quote.size(), quote) != 0) j += s[j] == '\\' ? 2 : 1;
      i = std::min(s.size(), j + quote.size()) - 1;
      out += 'Q';
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace fuzz
