// Fuzzes importing a PEP 804 mapping file (extdeps mappings import pep804, and --use-mapping and
// its kin with a .json file): nlohmann-json reads the input, each mapping's specs, specs_from and
// description become a draft table for the ecosystem "debian", written as a mapping table.
// Properties: what it writes loads with load_table with one entry per imported id, each found
// by its id. import_pep804 reads a path: the input is written to the harness's temporary folder.
#include <cstdint>

#include "core/mapping/mapping.h"
#include "core/mapping/pep804.h"
#include "core/mapping/write_table.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = fuzz::TempDir::write("debian.mapping.json", fuzz::as_text(data, size));
  auto imported = mapping::import_pep804(path, "debian");
  if (!imported) return 0;
  const std::size_t entries = imported->table.entries.size();
  const std::string text = mapping::write_table(imported->table);
  const std::string written = fuzz::TempDir::write("debian.toml", text);
  auto table = mapping::load_table(written);
  if (!table) fuzz::fail("a written table does not load", table.error().message, text);
  if (table->entries.size() != entries) fuzz::fail("a written table lost entries", text);
  for (const mapping::Entry& e : table->entries)
    if (!table->find(e.id)) fuzz::fail("an entry of a written table is not found by its id", e.id);
  return 0;
}
