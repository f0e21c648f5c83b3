#include "core/mapping/guess.h"

#include <algorithm>
#include <cctype>

#include "core/mapping/names.h"

namespace extdeps::mapping {

namespace {

// "dep:github/GNOME/LibXml2@2.9" -> "libxml2"; empty for types that name no upstream project.
std::string upstream_name(std::string_view id) {
  id = id.substr(0, std::min(id.size(), id.find_first_of("@?#")));
  if (id.rfind("dep:", 0) != 0) return {};
  const auto slash = id.find('/');
  if (slash == std::string_view::npos) return {};
  const std::string_view type = id.substr(4, slash - 4);
  if (type != "generic" && type != "github" && type != "gitlab" && type != "bitbucket") return {};
  std::string name(id.substr(id.rfind('/') + 1));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

}  // namespace

std::vector<GuessCandidate> guess_candidates(std::string_view id, std::string_view ecosystem,
                                             std::string_view manager, Category category) {
  const std::string name = upstream_name(id);
  if (name.empty()) return {};
  const std::string base = name.size() > 3 && name.rfind("lib", 0) == 0 ? name.substr(3) : name;
  std::vector<GuessCandidate> out;
  auto add = [&](std::string candidate, std::string form) {
    if (std::any_of(out.begin(), out.end(), [&](const GuessCandidate& c) { return c.name == candidate; })) return;
    if (name_problem(manager, candidate)) return;
    out.push_back({std::move(candidate), "named after " + std::string(id) + " (" + std::move(form) + ")"});
  };
  if (ecosystem == "pkgconfig") {
    if (category == Category::run) return {};  // a .pc file proves headers, not what runs
    add(name, "a pkg-config module of that name");
    add(base, "a pkg-config module of that name without 'lib'");
    add("lib" + base, "a pkg-config module of that name with 'lib'");
    return out;
  }
  if (is_apt_manager(manager)) {
    if (category == Category::build) add(name, "a package of that name");
    add("lib" + base + "-dev", "Debian's lib<name>-dev form");
    add(name + "-dev", "Debian's <name>-dev form");
    return out;
  }
  if (is_conda_manager(manager)) {
    add(name, "a package of that name");
    if (category != Category::build) add("lib" + base, "conda-forge's lib<name> form");
    return out;
  }
  return {};
}

}  // namespace extdeps::mapping
