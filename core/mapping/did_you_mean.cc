// "Did you mean": close known ids for an unknown one, by edit distance on the whole id and on
// its name part, so both "dep:generic/libxml" and "dep:generic/blas" (for
// dep:virtual/interface/blas) find what was meant.
#include <algorithm>
#include <cctype>
#include <tuple>

#include "core/mapping/mapping.h"

#include "core/util/limits.h"
#include "core/util/text.h"

namespace extdeps::mapping {

namespace {

// The last path segment without version, qualifiers or subpath: "dep:github/Kitware/CMake" ->
// "cmake" (lower-cased).
std::string name_part(std::string_view id) {
  id = id.substr(0, std::min(id.size(), id.find_first_of("@?#")));
  const auto slash = id.rfind('/');
  if (slash != std::string_view::npos) id.remove_prefix(slash + 1);
  return to_lower(id);
}

// "dep:virtual/compiler/cpp" -> "dep:virtual/compiler" (lower-cased): ids of one namespace are
// the likelier meaning of a near miss.
std::string namespace_part(std::string_view id) {
  id = id.substr(0, std::min(id.size(), id.find_first_of("@?#")));
  const auto slash = id.rfind('/');
  return to_lower(slash == std::string_view::npos ? std::string_view() : id.substr(0, slash));
}

// "libxml2" and "xml2", "libjpeg" and "jpeg" are the same library to people.
std::string_view without_lib(std::string_view name) {
  return name.size() > 3 && name.rfind("lib", 0) == 0 ? name.substr(3) : name;
}

// How far off a candidate may be: about a third of the length, at least 1, at most 3.
std::size_t allowed(std::size_t length) { return std::clamp<std::size_t>(length / 3, 1, 3); }

}  // namespace

// Levenshtein distance where swapping two neighbours also counts as one edit (the "optimal
// string alignment" variant): "hots" is one typo away from "host", not two.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cur[j] = std::min(cur[j], before[j - 2] + 1);
      }
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> did_you_mean(std::string_view id, const std::vector<std::string>& known, std::size_t limit) {
  // A text far longer than any id is near none of them; comparing it would cost its length times
  // every id's (a 10 MB name: minutes and gigabytes).
  if (id.size() > limits::kMaxSuggestLength) return {};
  const std::string whole = to_lower(id);
  const std::string name = name_part(id);
  // Typos in "dep:generic/" weigh like typos in the rest: the allowance follows what comes after.
  const auto slash = whole.find('/');
  const std::string_view after_type =
      slash == std::string::npos ? std::string_view(whole) : std::string_view(whole).substr(slash + 1);
  const std::string ns = namespace_part(id);
  // (score, whole-id distance, prefix, id): the smaller of the two distances, one more for
  // another namespace (so the same namespace wins a tie, and an exact name elsewhere still beats
  // two typos here), ties broken by the whole-id distance, then by whether the candidate's name
  // goes on from the unknown one ("libxml" is more likely libxml2 cut short than libkml
  // mistyped). Aliases are known ids too, so a near miss of an alias is offered as the alias.
  std::vector<std::tuple<std::size_t, std::size_t, bool, std::string>> scored;
  for (const auto& k : known) {
    if (k == id) continue;
    const std::size_t dw = edit_distance(whole, to_lower(k));
    const std::string kn = name_part(k);
    const std::size_t dn = std::min(edit_distance(name, kn), edit_distance(without_lib(name), without_lib(kn)));
    const bool close_whole = dw <= allowed(after_type.size());
    const bool close_name = !name.empty() && dn <= allowed(std::max(name.size(), kn.size()));
    if (!close_whole && !close_name) continue;
    scored.emplace_back(std::min(dw, dn) + (namespace_part(k) != ns ? 1 : 0), dw, kn.rfind(name, 0) != 0, k);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (const auto& s : scored) {
    if (out.size() == limit) break;
    out.push_back(std::get<3>(s));
  }
  return out;
}

}  // namespace extdeps::mapping
