#include "core/mapping/guess.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/declare/purl_types.h"
#include "core/mapping/names.h"
#include "core/provider/descriptor.h"

namespace extdeps::mapping {

namespace {

std::string type_of(std::string_view id) {
  const auto slash = id.find('/');
  return std::string(id.substr(4, slash - 4));
}

using Kind = GuessCandidate::Kind;

}  // namespace

std::string guess_name(std::string_view id) {
  id = id.substr(0, std::min(id.size(), id.find_first_of("@?#")));
  if (id.rfind("dep:", 0) != 0) return {};
  if (id.find('/') == std::string_view::npos) return {};
  // Only a type whose last segment is a project's name: what a distribution package is named after.
  const PurlType* type = purl_type(type_of(id));
  if (!type || !type->named) return {};
  std::string name(id.substr(id.rfind('/') + 1));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

std::string without_lib(std::string_view name) {
  return std::string(name.size() > 3 && name.rfind("lib", 0) == 0 ? name.substr(3) : name);
}

std::vector<GuessCandidate> guess_candidates(std::string_view id, std::string_view ecosystem, std::string_view manager,
                                             Category category) {
  const std::string name = guess_name(id);
  if (name.empty()) return {};
  const std::string type = type_of(id);
  const ProviderDescriptor* rule = manager.empty() ? nullptr : descriptor_for_manager(manager);
  if (manager.empty()) {
    for (const ProviderDescriptor* d : provider_descriptors())
      if (d->ecosystem == ecosystem && d->manager.empty()) rule = d;
  }
  if (!rule || !rule->guess) return {};
  std::vector<GuessCandidate> out;
  for (auto& f : rule->guess({.name = name, .type = type, .category = category})) {
    if (std::any_of(out.begin(), out.end(), [&](const GuessCandidate& c) {
          return c.name == f.name && c.kind == f.kind && c.dev_packages == f.dev_packages;
        }))
      continue;
    // A provide is looked up, not installed: pkgconfig(zlib) is no package name, its provider is.
    if (f.kind != Kind::provides && name_problem(manager, f.name)) continue;
    out.push_back(
        {std::move(f.name), "named after " + std::string(id) + " (" + std::move(f.form) + ")", f.kind, f.dev_packages});
  }
  return out;
}

std::string guess_rules(std::string_view id, std::string_view ecosystem, std::string_view manager, Category category) {
  std::vector<std::string> forms;
  for (const auto& c : guess_candidates(id, ecosystem, manager, category)) {
    // "named after X (FORM)" -> FORM, each once.
    const auto open = c.why.rfind(" (");
    std::string form = open == std::string::npos ? c.why : c.why.substr(open + 2, c.why.size() - open - 3);
    if (std::find(forms.begin(), forms.end(), form) == forms.end()) forms.push_back(std::move(form));
  }
  std::string out;
  for (const auto& f : forms) out += (out.empty() ? "" : "; ") + f;
  return out;
}

}  // namespace extdeps::mapping
