// Fuzzes importing a PEP 804 mapping file (extdeps mappings import pep804, and --use-mapping and
// its kin with a .json file): nlohmann-json reads the input, each mapping's specs, specs_from and
// description become a draft table for the ecosystem "debian", written as a mapping table.
// Properties: what it writes loads with load_table with one entry per imported id, each found
// by its id. import_pep804 reads a path: the input is written to the harness's temporary folder.
#include <cstdint>

#include "core/mapping/pep804.h"
#include "tests/fuzz/written_table.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = fuzz::TempDir::write("debian.mapping.json", fuzz::as_text(data, size));
  auto imported = mapping::import_pep804(path, "debian");
  if (!imported) return 0;
  fuzz::check_written_table(imported->table);
  return 0;
}
