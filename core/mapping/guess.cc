#include "core/mapping/guess.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/mapping/names.h"

namespace extdeps::mapping {

namespace {

// PURL types whose last segment is a project's name: what a distribution package is named after.
constexpr std::array<std::string_view, 8> kNamedTypes = {"generic", "github", "gitlab", "bitbucket",
                                                         "cargo",   "golang", "npm",    "pypi"};

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
  const std::string type = type_of(id);
  if (std::find(kNamedTypes.begin(), kNamedTypes.end(), type) == kNamedTypes.end()) return {};
  std::string name(id.substr(id.rfind('/') + 1));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

std::vector<GuessCandidate> guess_candidates(std::string_view id, std::string_view ecosystem,
                                             std::string_view manager, Category category) {
  std::string name = guess_name(id);
  if (name.empty()) return {};
  const bool pypi = type_of(id) == "pypi";
  std::vector<GuessCandidate> out;
  auto add = [&](std::string candidate, std::string form, Kind kind = Kind::package, bool dev = false) {
    if (std::any_of(out.begin(), out.end(), [&](const GuessCandidate& c) {
          return c.name == candidate && c.kind == kind && c.dev_packages == dev;
        }))
      return;
    // A provide is looked up, not installed: pkgconfig(zlib) is no package name, its provider is.
    if (kind != Kind::provides && name_problem(manager, candidate)) return;
    out.push_back({std::move(candidate), "named after " + std::string(id) + " (" + std::move(form) + ")", kind, dev});
  };
  if (ecosystem == "pkgconfig") {
    if (category == Category::run || pypi) return {};  // a .pc file proves headers, not what runs
    const std::string base = name.size() > 3 && name.rfind("lib", 0) == 0 ? name.substr(3) : name;
    add(name, "a pkg-config module of that name");
    add(base, "a pkg-config module of that name without 'lib'");
    add("lib" + base, "a pkg-config module of that name with 'lib'");
    return out;
  }
  if (is_apt_manager(manager)) {
    // Debian names are lower case with '-' where projects write '_' (policy 5.6.1).
    std::replace(name.begin(), name.end(), '_', '-');
    if (pypi) {  // Debian's Python modules are python3-<name> (Debian Python policy 2.2)
      add("python3-" + name, "Debian's python3-<name> form");
      return out;
    }
    const std::string base = name.size() > 3 && name.rfind("lib", 0) == 0 ? name.substr(3) : name;
    const bool host = category == Category::host;
    auto lib_dev = [&] {
      add("lib" + base + "-dev", "Debian's lib<name>-dev form");
      for (char n = '0'; n <= '9'; ++n) add("lib" + base + n + "-dev", "Debian's lib<name>N-dev form");
      add(name + "-dev", "Debian's <name>-dev form");
    };
    if (!host) add(name, "a package of exactly that name");
    // Debian versions some source names: enchant-2, gtk+3.0's kin, libgd2.
    const std::string from_source = std::string("binary packages built from the source package of that name, ") +
                                    (host ? "the -dev ones" : "not the -dev ones");
    add(name, from_source, Kind::source, host);
    for (char n = '1'; n <= '9'; ++n) {
      add(name + "-" + n, from_source, Kind::source, host);
      add(name + n, from_source, Kind::source, host);
    }
    if (category == Category::run) {
      for (char n = '0'; n <= '9'; ++n) add("lib" + base + n, "Debian's lib<name>N form of a runtime library");
    }
    lib_dev();
    if (host) add(name, "a package of exactly that name");
    add(name, "a package that provides that name", Kind::provides);
    return out;
  }
  if (manager == "dnf" || manager == "yum" || manager == "zypper") {
    if (pypi) {  // Fedora's and openSUSE's Python modules are python3-<name>
      add("python3-" + name, "the python3-<name> form");
      return out;
    }
    const std::string base = name.size() > 3 && name.rfind("lib", 0) == 0 ? name.substr(3) : name;
    if (category == Category::host) {
      // What ships the .pc file: rpm's automatic Provides: pkgconfig(NAME) is the evidence.
      add("pkgconfig(" + name + ")", "a package that provides pkgconfig(<name>)", Kind::provides);
      if (base != name) add("pkgconfig(" + base + ")", "a package that provides pkgconfig(<name> without 'lib')", Kind::provides);
      else add("pkgconfig(lib" + base + ")", "a package that provides pkgconfig(lib<name>)", Kind::provides);
      add(name + "-devel", "the <name>-devel form");
      add("lib" + base + "-devel", "the lib<name>-devel form");
    }
    add(name, "a package of exactly that name");
    add(name, "a package that provides that name", Kind::provides);
    return out;
  }
  if (manager == "pacman" || manager == "brew") {
    // Arch and Homebrew ship headers with the library: one package of the project's name.
    if (pypi) {
      if (manager == "pacman") add("python-" + name, "Arch's python-<name> form");
      return out;
    }
    add(name, "a package of exactly that name");
    if (manager == "pacman") add(name, "a package that provides that name", Kind::provides);
    return out;
  }
  if (is_conda_manager(manager)) {
    if (pypi) return {};
    const std::string base = name.size() > 3 && name.rfind("lib", 0) == 0 ? name.substr(3) : name;
    add(name, "a package of that name");
    if (category != Category::build) add("lib" + base, "conda-forge's lib<name> form");
    return out;
  }
  return {};
}

std::string guess_rules(std::string_view id, std::string_view ecosystem, std::string_view manager,
                        Category category) {
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
