#include "core/detect/host_cache.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/detect/cuda_probe.h"
#include "core/detect/host_json.h"
#include "core/json/document.h"
#include "core/util/regular_file.h"
#include "core/util/sealed_file.h"

namespace extdeps::detect {

namespace {

constexpr int kFormat = 3;  // 2: the driver fingerprint and the GPU list; 3: sealed
constexpr std::string_view kSealKind = "host";

std::string first_line(const std::string& path) {
  std::istringstream in(read_small_file_or_empty(path));
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

nlohmann::json key_json(const HostCacheKey& k) {
  return {{"boot_id", k.boot_id}, {"kernel_driver", k.kernel_driver},
          {"gpus", k.gpus},       {"path", k.path},
          {"version", k.version}, {"root", k.root}};
}

}  // namespace

static std::optional<CachedHost> read_entry(const Context& ctx, const HostCacheKey& key, std::chrono::seconds ttl,
                                            const nlohmann::json& j);

HostCacheKey host_cache_key(const Context& ctx) {
  HostCacheKey k;
  k.boot_id = first_line(ctx.host_path("/proc/sys/kernel/random/boot_id"));
  k.kernel_driver = nvidia_kernel_driver(ctx);
  if (k.kernel_driver.empty()) k.kernel_driver = "none";
  k.gpus = nvidia_gpu_list(ctx);
  k.path = ctx.env("PATH").value_or("");
  k.version = EXTDEPS_VERSION;
  k.root = ctx.root();
  return k;
}

std::string host_cache_file(const Context& ctx) { return ctx.cache_dir() + "/detect/host.json"; }

std::optional<CachedHost> load_host_cache(const Context& ctx, const HostCacheKey& key, std::chrono::seconds ttl) {
  if (!ctx.cache_enabled()) return std::nullopt;
  // A cache file: never a link, a FIFO or a device, and bounded (docs/limits.md).
  auto text = read_regular_file(host_cache_file(ctx), 1 << 20, Links::refuse);
  if (!text.ok()) return std::nullopt;
  // Sealed (core/util/sealed_file.h): a flipped byte, a cut, another version's file is detected
  // again, never served as a fact.
  auto body = sealed::unseal(kSealKind, *text);
  if (!body.ok()) return std::nullopt;
  try {
    return read_entry(ctx, key, ttl, json::parse_or_discarded(*body));
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // a field of the wrong type: as good as absent
  }
}

static std::optional<CachedHost> read_entry(const Context& ctx, const HostCacheKey& key, std::chrono::seconds ttl,
                                            const nlohmann::json& j) {
  if (!j.is_object() || j.value("format", 0) != kFormat) return std::nullopt;
  // A boot id that cannot be read never matches: without it a reboot would go unnoticed.
  if (key.boot_id.empty() || !j.contains("key") || j.at("key") != key_json(key)) return std::nullopt;
  auto written = j.value("written_at", std::int64_t{-1});
  auto now = std::chrono::duration_cast<std::chrono::seconds>(ctx.now().time_since_epoch()).count();
  if (written < 0 || now < written - 60 || now - written > ttl.count()) return std::nullopt;
  if (!j.contains("facts")) return std::nullopt;
  auto facts = host_facts_from_json(j.at("facts"));
  if (!facts.ok()) return std::nullopt;
  CachedHost entry{std::move(facts).value(), j.value("cuda_probed", false)};
  // The libraries the probe loaded, replaced since (an upgrade without a reboot): probe again.
  if (entry.cuda_probed && entry.facts.cuda.fingerprint != driver_fingerprint(entry.facts.cuda)) return std::nullopt;
  entry.facts.overridden.clear();
  return entry;
}

Result<void> store_host_cache(const Context& ctx, const HostCacheKey& key, const CachedHost& entry) {
  if (!ctx.cache_enabled()) return {};
  namespace fs = std::filesystem;
  const std::string file = host_cache_file(ctx);
  std::error_code ec;
  fs::create_directories(fs::path(file).parent_path(), ec);
  if (ec) {
    const std::string dir = fs::path(file).parent_path().string();
    Error e = environment_error("cannot create " + dir + ": " + ec.message());
    e.place = dir;
    e.what = "cannot create (" + ec.message() + ")";
    return e;
  }
  auto facts = to_json(entry.facts);
  facts.erase("from_cache");
  facts.erase("overridden");
  nlohmann::json j = {
      {"format", kFormat},
      {"key", key_json(key)},
      {"written_at", std::chrono::duration_cast<std::chrono::seconds>(ctx.now().time_since_epoch()).count()},
      {"cuda_probed", entry.cuda_probed},
      {"facts", facts}};
  if (auto w = sealed::write_atomically(file, kSealKind, extdeps::json::dump(j, 1) + "\n"); !w.ok()) return w.error();
  return {};
}

}  // namespace extdeps::detect
