// Fuzzes the dnf provider's reading of rpm-md metadata: primary.xml through libxml2's streaming
// reader into records (versions, relations, rich dependencies, file provides), and the same bytes
// as a repomd.xml, a metalink and a modules.yaml, as a damaged or hostile repository's metadata
// reaches them.
#include <cstdint>

#include "core/solve/rich_dep.h"
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
    for (const auto& text : rec.rich_depends) {
      auto rich = solve::parse_rich_dep(text);
      std::vector<std::string> names;
      if (rich) solve::rich_names(*rich, names);
      for (const auto& n : names)
        if (n.empty()) fuzz::fail("a rich dependency naming nothing", bytes);
    }
  });
  (void)r;
  // The same bytes as a metalink, a repomd.xml's modules, and a modules.yaml.
  auto mirrors = dnf::metalink_urls(bytes, "metalink");
  if (mirrors)
    for (const auto& m : *mirrors)
      if (m.empty()) fuzz::fail("an empty mirror from a metalink", bytes);
  (void)dnf::modules_location(bytes, "repomd.xml");
  dnf::ModuleIndex modules;
  if (dnf::read_modules(bytes, "modules.yaml", modules)) {
    dnf::ModularFilter filter(modules, {});
    PackageRecord probe;
    probe.name = "nodejs";
    probe.version = "1:18-1";
    probe.arch = "x86_64";
    (void)filter.hides(probe);
  }
  auto href = dnf::primary_location(bytes, "repomd.xml");
  if (href && (href->empty() || href->front() == '/' || href->find("..") != std::string::npos))
    fuzz::fail("a primary location outside the repository", bytes);
  return 0;
}
