#include "core/fetch/cache_commands.h"

#include <sys/stat.h>

#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "core/fetch/cache_store.h"
#include "core/fetch/file_lock.h"
#include "core/fetch/http_headers.h"
#include "core/fetch/progress.h"

namespace fs = std::filesystem;

namespace extdeps::fetch {

namespace {

// The caches other modules keep under the cache root. Only these are cleaned: --cache-dir may
// name a folder that holds other things.
constexpr const char* kOtherCaches[] = {"solv", "detect"};

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
  std::size_t files = 0;
  std::uint64_t bytes = 0;
};

FolderSummary summarise(const std::string& dir) {
  FolderSummary s;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
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
  if (ec) return environment_error("cannot remove " + path + ": " + ec.message());
  freed += size;
  return {};
}

}  // namespace

Result<void> cache_info(const Context& ctx, const std::string& cache_dir, std::ostream& out) {
  if (cache_dir.empty() && !ctx.cache_enabled())
    return environment_error("no cache folder (set XDG_CACHE_HOME or pass --cache-dir)");
  std::uint64_t total = 0;
  std::error_code ec;
  std::int64_t now = std::chrono::duration_cast<std::chrono::seconds>(ctx.now().time_since_epoch()).count();
  if (!cache_dir.empty()) {
    out << "downloads: " << cache_dir << '\n';
    CacheStore store(cache_dir);
    CacheStore::Listing listing;
    if (fs::exists(cache_dir, ec)) {
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
    if (listing.entries.empty()) out << "  no downloads\n";
    else out << "  " << plural(listing.entries.size(), "download", "downloads") << ", " << size_text(bytes) << '\n';
    std::size_t left = listing.orphans.size() + listing.temps.size();
    if (left > 0)
      out << "  " << plural(left, "leftover file", "leftover files")
          << " (unfinished downloads, entries without metadata), " << size_text(left_bytes)
          << ": `extdeps cache clean` removes them\n";
    total += bytes + left_bytes;
  }
  if (ctx.cache_enabled()) {
    for (const char* name : kOtherCaches) {
      std::string dir = ctx.cache_dir() + "/" + name;
      auto s = summarise(dir);
      out << name << ": " << dir << ": ";
      if (s.files == 0) out << "empty\n";
      else out << plural(s.files, "file", "files") << ", " << size_text(s.bytes) << '\n';
      total += s.bytes;
    }
  }
  out << "total: " << size_text(total) << '\n';
  return {};
}

Result<void> cache_clean(const Context& ctx, const std::string& cache_dir, std::ostream& out) {
  if (cache_dir.empty() && !ctx.cache_enabled())
    return environment_error("no cache folder (set XDG_CACHE_HOME or pass --cache-dir)");
  std::uint64_t total = 0;
  std::error_code ec;
  if (!cache_dir.empty() && fs::exists(cache_dir, ec)) {
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
    out << "removed " << plural(listing.entries.size(), "download", "downloads") << " ("
        << size_text(freed) << ") from " << cache_dir << '\n';
    if (kept > 0)
      out << "kept " << plural(kept, "file", "files") << " of downloads running now\n";
    total += freed;
  }
  if (ctx.cache_enabled()) {
    for (const char* name : kOtherCaches) {
      std::string dir = ctx.cache_dir() + "/" + name;
      if (!fs::exists(dir, ec)) continue;
      std::uint64_t freed = 0;
      std::size_t files = 0;
      std::vector<std::string> paths;
      for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec))
        if (it->is_regular_file(ec)) paths.push_back(it->path().string());
      for (const auto& p : paths) {
        if (auto r = remove_file(p, freed); !r.ok()) return r;
        ++files;
      }
      out << "removed " << plural(files, "file", "files") << " (" << size_text(freed) << ") from " << dir << '\n';
      total += freed;
    }
  }
  out << "freed " << size_text(total) << '\n';
  return {};
}

}  // namespace extdeps::fetch
