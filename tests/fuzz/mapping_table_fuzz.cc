// Fuzzes loading a mapping table (mappings/*.toml through load_table: the header, entries,
// alternatives, version rules and their regular expressions, per-release overrides), then looks
// every entry up by its id as the solver does and applies each alternative's version rule to a
// native version. load_table reads a path: the input is written to
// the harness's temporary folder.
#include <cstdint>

#include "core/mapping/mapping.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string path = fuzz::TempDir::write("debian.toml", fuzz::as_text(data, size));
  auto table = mapping::load_table(path);
  if (!table) return 0;
  for (const mapping::Entry& e : table->entries) {
    if (!table->find(e.id)) fuzz::fail("an entry of a loaded table is not found by its id", e.id);
    (void)e.all_packages();
    for (const auto& [category, alternatives] : e.by_category)
      for (const mapping::Alternative& alt : alternatives)
        (void)mapping::upstream_version(alt.version, "1:3.6.2+dfsg-1+b2");
  }
  return 0;
}
