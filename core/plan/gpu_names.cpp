// SPDX-License-Identifier: MIT
#include "plan/gpu_names.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace advisor {

namespace {

// Words that say who makes or markets a part, not which part it is.
constexpr std::string_view kIgnored[] = {"nvidia", "geforce", "tesla", "amd", "huawei", "instinct"};

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string w;
  auto flush = [&] {
    if (w.empty()) return;
    if (std::find(std::begin(kIgnored), std::end(kIgnored), w) == std::end(kIgnored)) {
      // "rtx4090d" and "4090d" are the same part; "80g" is "80gb".
      if (w.rfind("rtx", 0) == 0 && w.size() > 3 && std::isdigit(static_cast<unsigned char>(w[3])))
        w.erase(0, 3);
      if (w.size() > 1 && w.back() == 'g' &&
          std::isdigit(static_cast<unsigned char>(w[w.size() - 2])))
        w += 'b';
      if (w != "rtx") out.push_back(w);
    }
    w.clear();
  };
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else
      flush();
  }
  flush();
  return out;
}

std::string squashed(std::string_view s) {
  std::string out;
  for (const std::string& w : words(s)) out += w;
  return out;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

GpuNameMatch match_gpu_name(std::string_view name, const Catalog& catalog) {
  GpuNameMatch m;
  const std::string wanted = squashed(name);
  if (wanted.empty()) return m;
  for (const GpuSpec& g : catalog.gpus)
    if (squashed(g.id) == wanted || squashed(g.name) == wanted) {
      m.gpu = &g;
      return m;
    }
  const std::vector<std::string> query = words(name);
  std::vector<const GpuSpec*> fits;
  for (const GpuSpec& g : catalog.gpus) {
    std::set<std::string> have;
    for (const std::string& w : words(g.id)) have.insert(w);
    for (const std::string& w : words(g.name)) have.insert(w);
    if (std::all_of(query.begin(), query.end(),
                    [&](const std::string& w) { return have.count(w) > 0; }))
      fits.push_back(&g);
  }
  if (fits.empty()) {
    for (const GpuSpec& g : catalog.gpus)
      if (wanted.size() >= 3 && squashed(g.id).find(wanted) != std::string::npos)
        fits.push_back(&g);
  }
  if (!fits.empty()) {
    m.gpu = fits.front();
    m.alternatives.assign(fits.begin() + 1, fits.end());
  }
  return m;
}

std::vector<std::string> close_gpu_names(std::string_view name, const Catalog& catalog,
                                         std::size_t count) {
  const std::string wanted = squashed(name);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const GpuSpec& g : catalog.gpus) {
    // The part's model word ("h100" of "h100-sxm-80gb") or its whole id, whichever is closer.
    const std::vector<std::string> w = words(g.id);
    std::size_t d = edit_distance(wanted, squashed(g.id));
    if (!w.empty()) d = std::min(d, edit_distance(wanted, w.front()));
    scored.push_back({d, g.id});
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < count; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace advisor
