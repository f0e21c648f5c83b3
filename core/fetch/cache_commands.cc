#include "core/fetch/cache_commands.h"

#include <sys/stat.h>

#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "core/fetch/cache_names.h"
#include "core/fetch/cache_store.h"
#include "core/fetch/file_lock.h"
#include "core/fetch/http_headers.h"
#include "core/fetch/progress.h"
#include "core/provider/descriptor.h"
#include "core/util/sealed_file.h"

namespace fs = std::filesystem;

namespace extdeps::fetch {

namespace {

// The caches other modules keep under the cache root. Only these are cleaned, and in them only
// the files extdeps writes (by name, and by header where the file has one): --cache-dir may name
// a folder that holds other things, and a user may keep files of their own in it.
bool is_recent(const std::string& path);

struct OtherCache {
  std::string name;
  bool (*ours)(const std::string& path, std::string_view file_name);
};

// <ecosystem>-<16 hex>.<part>.solv with the sealed header (core/util/sealed_file.h).
bool solv_file(const std::string& path, std::string_view name) {
  if (!name.ends_with(".solv")) return false;
  auto dash = name.rfind('-', name.find('.'));
  if (dash == std::string_view::npos || name.size() < dash + 18) return false;
  if (name.substr(dash + 1, 16).find_first_not_of("0123456789abcdef") != std::string_view::npos) return false;
  return sealed::looks_sealed(path, "solv");
}

// host.json, and host.json.tmp.<pid> of a write that was cut off.
bool detect_file(const std::string&, std::string_view name) {
  if (name == "host.json") return true;
  constexpr std::string_view kTemp = "host.json.tmp.";
  return name.starts_with(kTemp) && name.size() > kTemp.size() &&
         name.substr(kTemp.size()).find_first_not_of("0123456789") == std::string_view::npos;
}

// A provider plugin's description (core/plugin/plugin.cc); its writes are cut off as .tmp-<pid>.
bool plugin_file(const std::string&, std::string_view name) { return cache_names::hex_json_file(name, ".tmp-"); }

// The parsed mapping tables (core/mapping/table_cache.h).
bool tables_file(const std::string& path, std::string_view name) {
  return cache_names::sealed_hex_file(path, name, ".tables", "tabl");
}

// Core's caches, then the folders each provider keeps (ProviderDescriptor::cache_folders).
std::vector<OtherCache> other_caches() {
  std::vector<OtherCache> out = {
      {"solv", solv_file}, {"tables", tables_file}, {"detect", detect_file}, {"plugins", plugin_file}};
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const CacheFolder& f : d->cache_folders) out.push_back({std::string(f.folder), f.ours});
  return out;
}

// The regular files directly in `dir` that `cache` wrote (temporary files of sealed writes
// included); symlinks and subfolders are never entered. `kept` counts the others.
std::vector<std::string> own_files(const std::string& dir, const OtherCache& cache, std::size_t& kept) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string path = it->path().string();
    std::string name = it->path().filename().string();
    std::error_code type_ec;
    bool regular = !it->is_symlink(type_ec) && it->is_regular_file(type_ec);
    if (regular && ((sealed::is_temp_name(name) && !is_recent(path)) || cache.ours(path, name))) out.push_back(path);
    else if (!(regular && sealed::is_temp_name(name))) ++kept;
  }
  return out;
}

// A temporary file younger than this may be a download running in another process.
constexpr auto kTempGrace = std::chrono::minutes(10);

std::uint64_t file_size(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

struct FolderSummary {
  bool symlink = false;  // the folder is a symlink: not followed, not counted
  std::size_t files = 0;
  std::uint64_t bytes = 0;
};

// The regular files under `dir`; symlinks, to files or folders, and `dir` itself when it is one,
// are not followed (a symlinked cache folder may point anywhere: `cache info` reads only what is
// there).
FolderSummary summarise(const std::string& dir) {
  FolderSummary s;
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(dir, ec))) {
    s.symlink = true;
    return s;
  }
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_symlink(type_ec) || !it->is_regular_file(type_ec)) continue;
    ++s.files;
    s.bytes += file_size(it->path().string());
  }
  return s;
}

bool is_recent(const std::string& path) {
  std::error_code ec;
  auto t = fs::last_write_time(path, ec);
  // File times are the real clock's, not the Context's.
  return !ec && fs::file_time_type::clock::now() - t < kTempGrace;
}

Result<void> remove_file(const std::string& path, std::uint64_t& freed) {
  std::uint64_t size = file_size(path);
  std::error_code ec;
  fs::remove(path, ec);
  if (ec) {
    Error e = environment_error("cannot remove " + path + ": " + ec.message());
    e.place = path;
    e.what = "cannot remove (" + ec.message() + ")";
    return e;
  }
  freed += size;
  return {};
}

// "no cache folder (set XDG_CACHE_HOME or pass --cache-dir)": nowhere to look, and how to name one.
Error no_cache_folder() {
  Error e = environment_error("no cache folder (set XDG_CACHE_HOME or pass --cache-dir)");
  e.what = "no cache folder";
  e.hint = "set XDG_CACHE_HOME or pass --cache-dir";
  return e;
}

}  // namespace

Result<void> cache_info(const Context& ctx, const std::string& cache_dir, std::ostream& out) {
  if (cache_dir.empty() && !ctx.cache_enabled()) return no_cache_folder();
  std::uint64_t total = 0;
  std::error_code ec;
  std::int64_t now = std::chrono::duration_cast<std::chrono::seconds>(ctx.now().time_since_epoch()).count();
  if (!cache_dir.empty()) {
    out << "downloads: " << cache_dir << '\n';
    CacheStore store(cache_dir);
    CacheStore::Listing listing;
    const bool linked = fs::is_symlink(fs::symlink_status(cache_dir, ec));
    if (linked) {
      out << "  a symlink, not a folder extdeps made; not followed\n";
    } else if (fs::exists(cache_dir, ec)) {
      auto lock = FileLock::acquire(store.lock_path(), FileLock::Mode::shared);
      if (!lock.ok()) return lock.error();
      listing = store.list();
    }
    std::uint64_t bytes = 0;
    for (const auto& e : listing.entries) {
      std::string state = !e.meta.found() ? "not found" : e.meta.fresh(std::nullopt, now) ? "fresh" : "stale";
      std::uint64_t size = e.meta.size + file_size(e.meta_path);
      bytes += size;
      out << "  " << std::left << std::setw(10) << state << std::right << std::setw(8)
          << age_text(std::chrono::seconds(now - e.meta.fetched_at)) << " ago " << std::setw(10)
          << size_text(e.meta.size) << "  " << e.meta.url << '\n';
    }
    std::uint64_t left_bytes = 0;
    for (const auto& p : listing.orphans) left_bytes += file_size(p);
    for (const auto& p : listing.temps) left_bytes += file_size(p);
    if (listing.entries.empty() && !linked) out << "  no downloads\n";
    else out << "  " << plural(listing.entries.size(), "download", "downloads") << ", " << size_text(bytes) << '\n';
    std::size_t left = listing.orphans.size() + listing.temps.size();
    if (left > 0)
      out << "  " << plural(left, "leftover file", "leftover files")
          << " (unfinished downloads, entries without metadata), " << size_text(left_bytes)
          << ": `extdeps cache clean` removes them\n";
    total += bytes + left_bytes;
  }
  if (ctx.cache_enabled()) {
    for (const auto& cache : other_caches()) {
      std::string dir = ctx.cache_dir() + "/" + cache.name;
      auto s = summarise(dir);
      out << cache.name << ": " << dir << ": ";
      if (s.symlink) out << "a symlink, not a folder extdeps made; not followed\n";
      else if (s.files == 0) out << "empty\n";
      else out << plural(s.files, "file", "files") << ", " << size_text(s.bytes) << '\n';
      total += s.bytes;
    }
  }
  out << "total: " << size_text(total) << '\n';
  return {};
}

Result<void> cache_clean(const Context& ctx, const std::string& cache_dir, std::ostream& out) {
  if (cache_dir.empty() && !ctx.cache_enabled()) return no_cache_folder();
  std::uint64_t total = 0;
  std::error_code ec;
  struct stat http_st {};
  bool http_is_link = !cache_dir.empty() && ::lstat(cache_dir.c_str(), &http_st) == 0 && !S_ISDIR(http_st.st_mode);
  if (http_is_link)
    out << "skipped " << cache_dir << ": not a folder extdeps made (a symlink or a file); remove it yourself\n";
  if (!cache_dir.empty() && !http_is_link && fs::exists(cache_dir, ec)) {
    CacheStore store(cache_dir);
    auto lock = FileLock::acquire(store.lock_path(), FileLock::Mode::exclusive);
    if (!lock.ok()) return lock.error();
    auto listing = store.list();
    std::uint64_t freed = 0;
    // Metadata before bodies: an entry is gone the moment its metadata is.
    for (const auto& e : listing.entries)
      if (auto r = remove_file(e.meta_path, freed); !r.ok()) return r;
    for (const auto& e : listing.entries)
      if (auto r = remove_file(e.body_path, freed); !r.ok()) return r;
    for (const auto& p : listing.orphans)
      if (auto r = remove_file(p, freed); !r.ok()) return r;
    std::size_t kept = 0;
    for (const auto& p : listing.temps) {
      if (is_recent(p)) {
        ++kept;
        continue;
      }
      if (auto r = remove_file(p, freed); !r.ok()) return r;
    }
    out << "removed " << plural(listing.entries.size(), "download", "downloads") << " (" << size_text(freed)
        << ") from " << cache_dir << '\n';
    if (kept > 0) out << "kept " << plural(kept, "file", "files") << " of downloads running now\n";
    if (!listing.foreign.empty())
      out << "kept " << plural(listing.foreign.size(), "file", "files") << " in " << cache_dir
          << " that extdeps did not write\n";
    total += freed;
  }
  if (ctx.cache_enabled()) {
    for (const auto& cache : other_caches()) {
      std::string dir = ctx.cache_dir() + "/" + cache.name;
      struct stat st {};
      if (::lstat(dir.c_str(), &st) != 0) continue;
      // A symlinked cache folder may point at anything: it is not followed.
      if (!S_ISDIR(st.st_mode)) {
        out << "skipped " << dir << ": not a folder extdeps made (a symlink or a file); remove it yourself\n";
        continue;
      }
      std::uint64_t freed = 0;
      std::size_t files = 0, kept = 0;
      auto paths = own_files(dir, cache, kept);
      for (const auto& p : paths) {
        if (auto r = remove_file(p, freed); !r.ok()) return r;
        ++files;
      }
      out << "removed " << plural(files, "file", "files") << " (" << size_text(freed) << ") from " << dir << '\n';
      if (kept > 0) out << "kept " << plural(kept, "file", "files") << " in " << dir << " that extdeps did not write\n";
      total += freed;
    }
  }
  out << "freed " << size_text(total) << '\n';
  return {};
}

}  // namespace extdeps::fetch
