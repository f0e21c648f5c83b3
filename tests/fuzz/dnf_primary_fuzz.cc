// Fuzzes the dnf provider's reading of rpm-md metadata: primary.xml through libxml2's streaming
// reader into records (versions, relations, rich dependencies, file provides), and the same bytes
// as a repomd.xml, as a damaged or hostile repository's metadata reaches them.
#include <cstdint>

#include "core/util/compressed_reader.h"
#include "providers/dnf/dnf_provider.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes = fuzz::as_text(data, size);
  auto reader = CompressedReader::over(bytes, "primary.xml");
  auto r = dnf::read_primary(*reader, "primary.xml", "x86_64", [&](PackageRecord&& rec) {
    if (rec.name.empty() || rec.version.empty()) fuzz::fail("a record without a name or a version", bytes);
    if (rec.arch == "src") fuzz::fail("a source package kept", bytes);
  });
  (void)r;
  auto href = dnf::primary_location(bytes, "repomd.xml");
  if (href && (href->empty() || href->front() == '/' || href->find("..") != std::string::npos))
    fuzz::fail("a primary location outside the repository", bytes);
  return 0;
}
