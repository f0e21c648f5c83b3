// Fuzzes the apt provider's reading of dpkg's status file: the same deb822 parser with only
// installed packages kept ("<want> ok installed"), which is what a damaged status file reaches.
#include <cstdint>

#include "providers/apt/apt_provider.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const apt::Architectures archs{"amd64", {"i386"}};
  std::string_view text = fuzz::as_text(data, size);
  auto r = apt::parse_stanzas(text, "/var/lib/dpkg/status", archs, /*installed_only=*/true, [&](PackageRecord&& rec) {
    if (rec.name.empty()) fuzz::fail("a record without a name", text);
  });
  (void)r;
  return 0;
}
