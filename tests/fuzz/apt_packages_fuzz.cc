// Fuzzes the apt provider's reading of a Packages list (deb822 stanzas, every relation field,
// Multi-Arch names). An input that starts like a compressed stream (gzip, xz, zstd, lz4) goes
// through decompress_index first, as a list apt keeps compressed does.
#include <cstdint>
#include <cstring>

#include "providers/apt/apt_provider.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

namespace {

// The file name whose extension makes decompress_index pick the decoder for these bytes.
const char* compressed_name(std::string_view b) {
  auto starts = [&](const char* magic, size_t n) { return b.size() >= n && std::memcmp(b.data(), magic, n) == 0; };
  if (starts("\x1f\x8b", 2)) return "Packages.gz";
  if (starts("\xfd"
             "7zXZ",
             5))
    return "Packages.xz";
  if (starts("\x28\xb5\x2f\xfd", 4)) return "Packages.zst";
  if (starts("\x04\x22\x4d\x18", 4)) return "Packages.lz4";
  return nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const apt::Architectures archs{"amd64", {"i386"}};
  std::string_view text = fuzz::as_text(data, size);
  std::string plain;
  if (const char* name = compressed_name(text)) {
    auto decoded = apt::decompress_index(text, name);
    if (!decoded) return 0;
    plain = std::move(*decoded);
    text = plain;
  }
  auto r = apt::parse_stanzas(text, "Packages", archs, /*installed_only=*/false, [&](PackageRecord&& rec) {
    if (rec.name.empty()) fuzz::fail("a record without a name", text);
  });
  (void)r;
  return 0;
}
