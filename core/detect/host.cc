#include "core/detect/host.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#include "core/config/values.h"
#include "core/detect/compilers.h"
#include "core/detect/cpu.h"
#include "core/detect/cuda_probe.h"
#include "core/detect/host_cache.h"
#include "core/detect/host_json.h"
#include "core/detect/overrides.h"
#include "core/json/document.h"
#include "core/provider/descriptor.h"
#include "core/util/regular_file.h"
#include "core/util/subprocess.h"

namespace extdeps::detect {

namespace {

constexpr std::chrono::seconds kDefaultTtl{24 * 60 * 60};

// A seconds option (probe-timeout, detect-ttl), whole seconds; `fallback` when it is not set.
Result<long long> option_seconds(const Context& ctx, std::string_view name, long long fallback) {
  auto s = config::seconds(ctx, name);
  if (!s.ok()) return s.error();
  return *s ? static_cast<long long>(std::ceil(**s)) : fallback;
}

// macOS has no os-release: `sw_vers -productVersion` says the release ("14.5"), as id "macos"
// (the name EXTDEPS_OVERRIDE_OS=macos:14 uses). An empty version when sw_vers cannot be run.
OsRelease macos_release(const Context& ctx, int timeout_ms) {
  OsRelease os;
  os.id = "macos";
  ProcessRequest req;
  req.argv = {"/usr/bin/sw_vers", "-productVersion"};
  req.timeout_ms = timeout_ms;
  req.max_output = 4096;
  auto r = ctx.processes().run(req);
  if (r.ok() && r->ok()) {
    std::string v = r->out;
    while (!v.empty() && (v.back() == '\n' || v.back() == '\r' || v.back() == ' ')) v.pop_back();
    os.version_id = v;
  }
  os.pretty_name = os.version_id.empty() ? "macOS" : "macOS " + os.version_id;
  return os;
}

// What is detected without the driver probe; overrides are not applied here.
Result<HostFacts> detect_machine(const Context& ctx, int timeout_ms) {
  HostFacts f;
  f.os = read_os_release(ctx);
  const Context::Uname& u = ctx.uname();
  if (u.machine.empty()) return error_at(ExitCode::environment, "", "uname failed: the kernel named no machine");
  f.machine = u.machine;
  f.kernel = u.release;
  const bool darwin = u.system == "Darwin";
  if (darwin) f.os = macos_release(ctx, timeout_ms);
  auto cpu = detect_cpu();
  f.x86_64_level = std::move(cpu.x86_64_level);
  f.cpu_features = std::move(cpu.features);
#if defined(__GLIBC__)
  f.libc = "glibc";
  f.libc_version = gnu_get_libc_version();
#else
  if (!darwin) f.libc = "musl";
#endif
  if (darwin) f.kernel.clear();  // Darwin's version is not a Linux kernel's (__linux)
  f.compilers = detect_compilers(ctx, timeout_ms);
  return f;
}

}  // namespace

std::pair<int, int> CudaFacts::min_compute_capability() const {
  std::pair<int, int> lowest{0, 0};
  for (const auto& d : devices) {
    std::pair<int, int> cc{d.cc_major, d.cc_minor};
    if (lowest == std::pair{0, 0} || cc < lowest) lowest = cc;
  }
  return lowest;
}

CudaFacts cuda_facts(const Context& ctx, const DetectOptions& options) {
  auto probed = probe_cuda(ctx, options.probe_timeout_ms);
  if (probed.ok()) return std::move(probed).value();
  // No child could be started: that is a state of this machine, not a failed detection.
  CudaFacts c;
  c.state = CudaState::crashed;
  c.kernel_driver = nvidia_kernel_driver(ctx);
  c.detail = probed.error().message;
  return c;
}

namespace {
constexpr std::size_t kMaxHostFileBytes = 1 << 20;
}  // namespace

Result<HostFacts> read_host_file(const std::string& path) {
  // The user's own argument: a link is followed, but a FIFO or device is refused, not waited on.
  auto text = read_regular_file(path, kMaxHostFileBytes, Links::follow, ExitCode::bad_input);
  if (!text.ok()) {
    Error e = text.error();
    e.message = "cannot read host facts " + e.message;
    return e;
  }
  nlohmann::json j;
  if (auto bad = json::parse_document(*text, j))
    return error_at(ExitCode::bad_input, path + ": byte " + std::to_string(bad->offset), bad->what,
                    "what `extdeps detect --save` writes");
  auto facts = host_facts_from_json(j);
  if (!facts.ok()) {
    Error e = at_place(facts.error(), path);
    e.code = ExitCode::bad_input;
    return e;
  }
  facts->from_cache = false;
  facts->overridden.clear();
  return facts;
}

Result<HostFacts> detect_host(const Context& ctx, const DetectOptions& in) {
  auto overrides = read_overrides(ctx);
  if (!overrides.ok()) return overrides.error();
  // Another machine's facts: nothing here is detected; overrides still apply on top.
  if (!in.host_file.empty()) {
    auto facts = read_host_file(in.host_file);
    if (!facts.ok()) return facts.error();
    apply_overrides(*overrides, *facts);
    return facts;
  }
  DetectOptions options = in;
  auto probe_s = option_seconds(ctx, "probe-timeout", -1);
  if (!probe_s.ok()) return probe_s.error();
  if (*probe_s >= 0) options.probe_timeout_ms = static_cast<int>(std::min(*probe_s, 3600LL) * 1000);
  auto ttl = option_seconds(ctx, "detect-ttl", kDefaultTtl.count());
  if (!ttl.ok()) return ttl.error();

  const bool caching = options.use_cache && ctx.cache_enabled();
  HostCacheKey key;
  std::optional<CachedHost> entry;
  if (caching) {
    key = host_cache_key(ctx);
    if (!options.refresh) entry = load_host_cache(ctx, key, std::chrono::seconds(*ttl));
  }
  bool changed = false;
  if (entry) {
    entry->facts.from_cache = true;
  } else {
    auto fresh = detect_machine(ctx, std::min(options.probe_timeout_ms, 5000));
    if (!fresh.ok()) return fresh.error();
    entry = CachedHost{std::move(fresh).value(), false};
    changed = true;
  }
  // An overridden cuda is never probed (the probe may be what the user wants to avoid).
  if (options.probe_cuda && !overrides->cuda && !entry->cuda_probed) {
    entry->facts.cuda = cuda_facts(ctx, options);
    entry->cuda_probed = true;
    entry->facts.from_cache = false;
    changed = true;
  }
  if (caching && changed) {
    if (auto stored = store_host_cache(ctx, key, *entry); !stored.ok())
      ctx.warn("host facts were not cached: " + stored.error().message);
  }
  HostFacts facts = std::move(entry->facts);
  apply_overrides(*overrides, facts);
  return facts;
}

std::string system_arch(const HostFacts& facts) {
  for (const ProviderDescriptor* d : provider_descriptors())
    if (d->system_cpu)
      if (std::string cpu = d->system_cpu(facts.os, facts.machine); !cpu.empty()) return cpu;
  return facts.machine;
}

}  // namespace extdeps::detect
