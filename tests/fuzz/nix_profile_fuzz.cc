// Fuzzes what the nix provider reads of installed packages: a profile's manifest.json (versions
// 1 to 3) and the output of `nix-env -q --json`, both on the same bytes.
#include <cstdint>

#include "core/json/byte_source.h"
#include "providers/nix/profile.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::as_text(data, size);
  auto check = [&](PackageRecord&& rec) {
    if (rec.name.empty()) fuzz::fail("an installed record without a name", text);
  };
  auto manifest = json::over_memory(text, "manifest.json");
  (void)nix::read_profile_manifest(*manifest, "manifest.json", check);
  auto env = json::over_memory(text, "nix-env-q.json");
  (void)nix::read_nix_env_installed(*env, "nix-env -q --json", check);
  return 0;
}
