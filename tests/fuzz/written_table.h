// What the import harnesses (rosdep_import, pep804_import) check of the table an import drafts:
// written as a mapping table, it loads with load_table, with the same number of entries, each
// found by its id.
#pragma once

#include <string>

#include "core/mapping/mapping.h"
#include "core/mapping/write_table.h"
#include "tests/fuzz/fuzz_support.h"

namespace extdeps::fuzz {

inline void check_written_table(const mapping::DraftTable& draft) {
  const std::size_t entries = draft.entries.size();
  const std::string text = mapping::write_table(draft);
  const std::string written = TempDir::write("debian.toml", text);
  auto table = mapping::load_table(written);
  if (!table) fail("a written table does not load", table.error().message, text);
  if (table->entries.size() != entries) fail("a written table lost entries", text);
  for (const mapping::Entry& e : table->entries)
    if (!table->find(e.id)) fail("an entry of a written table is not found by its id", e.id);
}

}  // namespace extdeps::fuzz
