// conda-meta files are read with the same JSON reader as repodata: their "files" and
// "paths_data" lists (a megabyte for ncurses) are skipped without a copy.
#include "providers/conda/prefix.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/json/byte_source.h"
#include "core/json/json_reader.h"
#include "providers/conda/package_json.h"

namespace extdeps::conda {

using json::json_kind_name;
using json::JsonKind;
using json::JsonReader;
using json::open_file;

namespace fs = std::filesystem;

bool is_conda_prefix(const std::string& prefix) {
  std::error_code ec;
  return !prefix.empty() && fs::is_directory(fs::path(prefix) / "conda-meta", ec);
}

Result<InstalledPackage> read_conda_meta(const std::string& path) {
  auto source = open_file(path);
  if (!source) return source.error();
  JsonReader in(**source);
  PackageJson pkg;
  auto kind = in.peek();
  if (kind && *kind != JsonKind::object)
    in.fail("the file holds " + std::string(json_kind_name(*kind)) + in.at(in.offset()) +
            " (expected an object: a conda package record)");
  if (in.failed() || !read_package(in, "", pkg) || !in.expect_end()) return in.error();
  InstalledPackage out;
  out.record = std::move(pkg.record);
  out.record.arch = std::move(pkg.subdir);
  out.record.origin = path;
  out.record.installed = true;
  out.channel = std::move(pkg.channel);
  out.fn = std::move(pkg.fn);
  out.url = std::move(pkg.url);
  return out;
}

Result<std::vector<InstalledPackage>> read_prefix(const std::string& prefix) {
  fs::path meta = fs::path(prefix) / "conda-meta";
  std::error_code ec;
  if (!fs::is_directory(meta, ec))
    return error_at(ExitCode::environment, meta.string(), "no such folder", "a conda environment at " + prefix);
  std::vector<std::string> files;
  for (fs::directory_iterator it(meta, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0 && !it->is_directory(ec))
      files.push_back(it->path().string());
  }
  if (ec) return error_at(ExitCode::environment, meta.string(), "cannot list: " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<InstalledPackage> out;
  out.reserve(files.size());
  for (const auto& f : files) {
    auto pkg = read_conda_meta(f);
    if (!pkg) return pkg.error();
    out.push_back(std::move(*pkg));
  }
  return out;
}

}  // namespace extdeps::conda
