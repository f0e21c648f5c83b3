#include "providers/pypi/site_packages.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/util/file_stamp.h"
#include "core/util/regular_file.h"
#include "core/util/text.h"
#include "providers/pypi/core_metadata.h"

namespace extdeps::pypi {

namespace {

namespace fs = std::filesystem;

// The metadata file of a folder entry, or "" when the entry is not a distribution's.
std::string metadata_file(const fs::directory_entry& e) {
  std::string name = e.path().filename().string();
  std::error_code ec;
  if (name.ends_with(".dist-info") && e.is_directory(ec)) return (e.path() / "METADATA").string();
  if (name.ends_with(".egg-info")) {
    if (e.is_directory(ec)) return (e.path() / "PKG-INFO").string();
    if (e.is_regular_file(ec)) return e.path().string();
  }
  return {};
}

std::vector<fs::directory_entry> entries(const std::string& dir) {
  std::vector<fs::directory_entry> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) out.push_back(*it);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });
  return out;
}

}  // namespace

std::vector<DepAlternatives> relations_of(const std::vector<std::string>& requires_dist,
                                          const declare::MarkerEnv& env) {
  std::vector<DepAlternatives> out;
  for (const auto& r : active_requirements(requires_dist, env)) {
    NativeDep d{r.name, r.specifier.empty() ? DepOp::any : DepOp::spec, r.specifier};
    out.push_back({d});
  }
  return out;
}

Result<std::vector<PackageRecord>> read_site_packages(const std::vector<std::string>& site_dirs,
                                                      const declare::MarkerEnv& env) {
  std::vector<PackageRecord> out;
  std::set<std::string> seen;
  for (const auto& dir : site_dirs) {
    for (const auto& e : entries(dir)) {
      std::string file = metadata_file(e);
      if (file.empty()) continue;
      auto text = read_regular_file(file, std::size_t{16} << 20, Links::follow);
      if (!text)
        return error_at(ExitCode::environment, file,
                        "cannot read the installed distribution's metadata (" + text.error().what + ")");
      auto m = parse_core_metadata(*text, file);
      if (!m) return m.error();
      std::string name = normalize_name(m->name);
      if (!seen.insert(name).second) continue;
      PackageRecord r;
      r.name = name;
      r.version = m->version;
      r.depends = relations_of(m->requires_dist, env);
      r.origin = file;
      r.installed = true;
      out.push_back(std::move(r));
    }
  }
  return out;
}

InstalledFiles installed_files(const std::string& metadata_path) {
  InstalledFiles out;
  fs::path info = fs::path(metadata_path).parent_path();
  if (info.extension() != ".dist-info") return out;
  fs::path site = info.parent_path();
  auto record = read_regular_file((info / "RECORD").string(), std::size_t{64} << 20, Links::follow);
  std::istringstream in(record.ok() ? std::move(*record) : std::string());
  std::set<std::string> libs, includes, bins;
  for (std::string line; std::getline(in, line);) {
    // RECORD is CSV: path,hash,size; a path with a comma is quoted.
    std::string path;
    if (!line.empty() && line[0] == '"') {
      auto end = line.find('"', 1);
      if (end == std::string::npos) continue;
      path = line.substr(1, end - 1);
    } else {
      path = line.substr(0, line.find(','));
    }
    if (path.empty() || path.starts_with("../") || path.starts_with("/")) continue;  // scripts outside site-packages
    fs::path p = site / path;
    std::string file = p.filename().string();
    std::string dir = p.parent_path().lexically_normal().string();
    if (file.ends_with(".so") || file.find(".so.") != std::string::npos) libs.insert(dir);
    if (auto at = path.find("/include/"); at != std::string::npos)
      includes.insert((site / path.substr(0, at + 8)).lexically_normal().string());
    if (p.parent_path().filename() == "bin") {
      bins.insert(dir);
      if (file == "nvcc") out.cuda_root = p.parent_path().parent_path().lexically_normal().string();
    }
  }
  out.lib_dirs.assign(libs.begin(), libs.end());
  out.include_dirs.assign(includes.begin(), includes.end());
  out.bin_dirs.assign(bins.begin(), bins.end());
  return out;
}

std::string site_packages_identity(const std::vector<std::string>& site_dirs) {
  std::string key;
  for (const auto& dir : site_dirs) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) continue;
    key += dir + " " + std::to_string(mtime_ns(st)) + "\n";
    for (const auto& e : entries(dir)) {
      std::string file = metadata_file(e);
      if (auto stamp = file.empty() ? std::nullopt : file_stamp(file))
        key += e.path().filename().string() + " " + *stamp + "\n";
    }
  }
  return key;
}

}  // namespace extdeps::pypi
