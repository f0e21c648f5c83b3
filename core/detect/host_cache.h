// The on-disk cache of HostFacts (<cache>/detect/host.json). An entry is valid while the boot, the
// loaded NVIDIA kernel driver, the GPUs it bound, PATH and the extdeps version are the same, the
// driver libraries the probe loaded are the same files (size and mtime: a driver upgraded without
// a reboot is seen), and it is younger than the TTL (24 h; EXTDEPS_DETECT_TTL seconds).
// Overrides are never cached.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "core/context/context.h"
#include "core/detect/host.h"
#include "core/util/result.h"

namespace extdeps::detect {

struct HostCacheKey {
  std::string boot_id;        // <root>/proc/sys/kernel/random/boot_id
  std::string kernel_driver;  // the NVIDIA kernel module's version, or "none"
  std::string gpus;           // the PCI addresses the module bound (/proc/driver/nvidia/gpus)
  std::string path;           // PATH
  std::string version;        // extdeps
  std::string root;           // the context's file system root
};

HostCacheKey host_cache_key(const Context& ctx);

struct CachedHost {
  HostFacts facts;
  bool cuda_probed = false;  // whether facts.cuda came from the driver probe
};

std::string host_cache_file(const Context& ctx);

// The cached facts when the entry is valid for key; nullopt when absent, stale, for another key,
// or unreadable (a corrupt file is treated as absent and rewritten by the next store).
std::optional<CachedHost> load_host_cache(const Context& ctx, const HostCacheKey& key, std::chrono::seconds ttl);

// Writes atomically (temp file + rename).
Result<void> store_host_cache(const Context& ctx, const HostCacheKey& key, const CachedHost& entry);

}  // namespace extdeps::detect
