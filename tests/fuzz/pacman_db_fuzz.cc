// Fuzzes the pacman provider's reading of a sync database: the tar reader (ustar headers,
// checksums, sizes, GNU long names, pax records) and the desc files inside, as the decompressed
// bytes of a damaged or hostile <repo>.db reach them.
#include <cstdint>

#include "core/util/compressed_reader.h"
#include "providers/pacman/pacman_provider.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes = fuzz::as_text(data, size);
  auto reader = CompressedReader::over(bytes, "fuzz.db");  // no compression extension: plain tar
  auto r = pacman::read_sync_db(*reader, "fuzz.db", "x86_64", [&](PackageRecord&& rec) {
    if (rec.name.empty() || rec.version.empty()) fuzz::fail("a record without a name or a version", bytes);
    if (!rec.arch.empty() && rec.arch != "x86_64" && rec.arch != "any") fuzz::fail("another architecture kept", bytes);
  });
  (void)r;
  return 0;
}
