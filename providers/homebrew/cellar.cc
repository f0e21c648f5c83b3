// What is installed: the kegs of the Cellar (Cellar/NAME/PKG_VERSION) and their receipts.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/json/document.h"
#include "core/util/limits.h"
#include "core/util/regular_file.h"
#include "providers/homebrew/homebrew_provider.h"
#include "providers/homebrew/homebrew_version.h"

namespace extdeps::homebrew {

namespace fs = std::filesystem;

Result<void> read_receipt(const std::string& path, Keg& keg) {
  auto text = read_regular_file(path, limits::kMaxFieldLength, Links::follow);
  if (!text)
    return error_at(ExitCode::environment, path, "cannot read the install receipt (" + text.error().what + ")");
  nlohmann::json j;
  if (auto bad = json::parse_document(*text, j))
    return error_at(ExitCode::bad_input, path + ": byte offset " + std::to_string(bad->offset), bad->what,
                    "JSON, as brew writes INSTALL_RECEIPT.json");
  if (!j.is_object())
    return error_at(ExitCode::bad_input, path, "not a JSON object", "the object brew writes as INSTALL_RECEIPT.json");
  if (auto it = j.find("poured_from_bottle"); it != j.end() && it->is_boolean())
    keg.poured_from_bottle = it->get<bool>();
  if (auto it = j.find("aliases"); it != j.end() && it->is_array())
    for (const auto& a : *it)
      if (a.is_string()) keg.aliases.push_back(a.get<std::string>());
  if (auto it = j.find("runtime_dependencies"); it != j.end()) {
    if (!it->is_array() && !it->is_null())
      return error_at(ExitCode::bad_input, path, "runtime_dependencies is not an array",
                      "an array of {full_name, version, ...}");
    if (it->is_array())
      for (const auto& d : *it) {
        auto name = json::string_at(d, "full_name");
        if (!name || name->empty())
          return error_at(ExitCode::bad_input, path, "a runtime dependency without full_name",
                          "{\"full_name\": \"openssl@3\", \"version\": \"3.3.1\", ...}");
        // A tap's formula is "user/tap/name"; its keg is named by the last part.
        auto slash = name->rfind('/');
        keg.runtime_dependencies.push_back(slash == std::string::npos ? *name : name->substr(slash + 1));
      }
  }
  return {};
}

Result<std::vector<Keg>> read_cellar(const std::string& prefix) {
  std::vector<Keg> out;
  const fs::path cellar = fs::path(prefix) / "Cellar";
  std::error_code ec;
  if (!fs::is_directory(cellar, ec)) return out;
  std::vector<fs::path> names;
  for (fs::directory_iterator it(cellar, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec)) names.push_back(it->path());
  if (ec) return error_at(ExitCode::environment, cellar.string(), "cannot list the Cellar: " + ec.message());
  std::sort(names.begin(), names.end());
  for (const auto& dir : names) {
    const std::string name = dir.filename().string();
    // opt/NAME -> ../Cellar/NAME/PKG_VERSION: the keg brew uses.
    std::string current;
    fs::path target = fs::read_symlink(fs::path(prefix) / "opt" / name, ec);
    if (!ec) current = target.filename().string();
    ec.clear();
    const bool linked = fs::exists(fs::path(prefix) / "var/homebrew/linked" / name, ec) ||
                        fs::is_symlink(fs::path(prefix) / "var/homebrew/linked" / name, ec);
    std::vector<Keg> kegs;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path receipt = it->path() / "INSTALL_RECEIPT.json";
      std::error_code e2;
      if (!fs::is_regular_file(receipt, e2)) continue;  // brew's own rule: no receipt, not installed
      Keg k;
      k.name = name;
      k.pkg_version = it->path().filename().string();
      k.receipt = receipt.string();
      k.current = k.pkg_version == current;
      if (auto r = read_receipt(k.receipt, k); !r) return r.error();
      kegs.push_back(std::move(k));
    }
    if (kegs.empty()) continue;
    // The one opt/ points at, else the newest (brew's rule when opt/ is missing).
    auto best = std::find_if(kegs.begin(), kegs.end(), [](const Keg& k) { return k.current; });
    if (best == kegs.end())
      best = std::max_element(kegs.begin(), kegs.end(), [](const Keg& a, const Keg& b) {
        return version::homebrew_compare(a.pkg_version, b.pkg_version) < 0;
      });
    best->linked = linked;
    out.push_back(std::move(*best));
  }
  return out;
}

}  // namespace extdeps::homebrew
