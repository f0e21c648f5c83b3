// Fuzzes importing a rosdep YAML table (extdeps mappings import rosdep): yaml-cpp reads the input,
// each key's rule is found for debian:bookworm as rosdep finds it, and the draft is written as a
// mapping table. Properties: the import never throws, and what it writes loads with load_table
// with one entry per imported key, each found by its id. import_rosdep reads a path: the input is
// written to the harness's temporary folder. The OS is apt's platform (its descriptor), so the
// harness is built only with apt (the include below).
#include <cstdint>

#include "core/mapping/mapping.h"
#include "core/mapping/rosdep.h"
#include "providers/apt/apt_provider.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/written_table.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = fuzz::TempDir::write("base.yaml", fuzz::as_text(data, size));
  auto imported = mapping::import_rosdep(path, "debian:bookworm");
  if (!imported) return 0;
  const std::size_t entries = imported->table.entries.size();
  if (entries != imported->mapped + imported->unavailable)
    fuzz::fail("entries are neither mapped nor unavailable", std::to_string(entries));
  fuzz::check_written_table(imported->table);
  return 0;
}
