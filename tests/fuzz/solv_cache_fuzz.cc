// Fuzzes loading the solver's .solv cache (core/solve/pool_builder.cc): the input replaces the
// cached "available" file a first load wrote, and a second PoolBuilder loads the provider from
// the cache, as a later run finds a damaged or foreign file. Goes through the public
// add_provider, so whatever checks the loader makes of a cache file are fuzzed with it.
#include <cstdint>
#include <filesystem>

#include "core/context/context.h"
#include "core/provider/provider.h"
#include "core/solve/pool_builder.h"
#include "providers/apt/deb_version.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

namespace {

// A provider with two records and a fixed identity, so both loads use one cache key.
class FixedProvider : public Provider {
 public:
  std::string_view ecosystem() const override { return "debian"; }
  std::string_view manager() const override { return "apt"; }
  const version::Scheme& scheme() const override { return version::deb_scheme; }
  bool available(const Context&) const override { return true; }
  Result<SourceId> identity(const Context&) const override { return SourceId{"fuzz-fixed"}; }
  Result<void> load(const Context&, const RecordSink& available, const RecordSink& installed) override {
    PackageRecord lib;
    lib.name = "libxml2-dev";
    lib.version = "2.9.14+dfsg-1.3";
    lib.arch = "amd64";
    lib.depends.push_back({NativeDep{"libxml2", DepOp::eq, "2.9.14+dfsg-1.3"}});
    available(PackageRecord(lib));
    PackageRecord base;
    base.name = "libxml2";
    base.version = "2.9.14+dfsg-1.3";
    base.installed = true;
    installed(std::move(base));
    return {};
  }
  std::vector<Command> install_commands(const std::vector<PlannedPackage>&) const override { return {}; }
};

// The cache files the first load wrote: <cache>/solv/debian-<key>.{available,installed}.solv.
std::string cached(const std::string& cache, std::string_view part) {
  for (const auto& e : std::filesystem::directory_iterator(cache + "/solv")) {
    std::string name = e.path().filename().string();
    if (name.size() > part.size() && name.ends_with(std::string(part) + ".solv")) return e.path().string();
  }
  fuzz::fail("the first load wrote no cache file", part);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string cache = fuzz::TempDir::path() + "/cache";
  static const std::string available_path = [] {
    Context ctx = Context::for_test("/");
    ctx.set_cache_dir(cache);
    FixedProvider p;
    solve::PoolBuilder first(ctx);
    if (!first.add_provider(p, 1, /*use_cache=*/true)) fuzz::fail("the first load failed");
    return cached(cache, "available");
  }();
  fuzz::TempDir::write("cache/solv/" + std::filesystem::path(available_path).filename().string(),
                       fuzz::as_text(data, size));
  Context ctx = Context::for_test("/");
  ctx.set_cache_dir(cache);
  FixedProvider p;
  solve::PoolBuilder builder(ctx);
  auto loaded = builder.add_provider(p, 1, /*use_cache=*/true);
  if (loaded && loaded->available) {
    for (int s = loaded->available->start; s < loaded->available->end; ++s) {
      (void)builder.native_version(s);
      (void)builder.origin(s);
    }
  }
  return 0;
}
