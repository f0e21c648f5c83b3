// Fuzzes the nix provider's index reader (read_index): nix-env -qaP --json output, a channel's
// packages.json and nix search output, told apart by the reader itself, with meta.platforms
// patterns checked against x86_64-linux.
#include <cstdint>

#include "core/json/byte_source.h"
#include "providers/nix/index.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const nix::Platform platform("x86_64-linux");
  auto source = json::over_memory(fuzz::as_text(data, size), "index.json");
  nix::IndexOptions options;
  options.platform = &platform;
  auto r = nix::read_index(*source, options, [&](nix::Attribute&& a) {
    if (a.path.empty()) fuzz::fail("an attribute without a path", a.name);
    (void)nix::why_not_candidate(a, platform);
  });
  (void)r;
  return 0;
}
