#include "core/declare/purl_types.h"

#include <unordered_map>

namespace extdeps {

const PurlType* purl_type(std::string_view name) {
  // Looked up once per id compared when a table's lookup misses: a hash, not a scan.
  static const std::unordered_map<std::string_view, const PurlType*> by_name = [] {
    std::unordered_map<std::string_view, const PurlType*> out;
    for (const PurlType& t : purl_types()) out.emplace(t.name, &t);
    return out;
  }();
  auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

const PurlType* purl_type_of(std::string_view id) {
  if (id.substr(0, 4) == "dep:") id.remove_prefix(4);
  const auto slash = id.find('/');
  if (slash == std::string_view::npos) return nullptr;
  return purl_type(id.substr(0, slash));
}

const std::vector<std::string_view>& purl_type_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    for (const PurlType& t : purl_types()) out.push_back(t.name);
    return out;
  }();
  return names;
}

std::string purl_type_examples() {
  std::vector<std::string_view> shown;
  for (const PurlType& t : purl_types())
    if (t.example) shown.push_back(t.name);
  std::string out;
  for (std::size_t i = 0; i < shown.size(); ++i)
    out += (i == 0 ? "" : i + 1 == shown.size() ? " or " : ", ") + ("'" + std::string(shown[i]) + "'");
  return out;
}

}  // namespace extdeps
