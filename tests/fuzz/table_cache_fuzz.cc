// Fuzzes reading the parsed-tables cache (core/mapping/table_cache.h): the input is a body as
// table_cache::encode writes it, checked against the stamp the body itself names (bytes 4..8 its
// length), so fuzzing reaches the tables. A body that reads is encoded again, and that encoding
// reads back to the same bytes.
#include <cstdint>

#include "core/mapping/table_cache.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body = fuzz::as_text(data, size);
  std::string_view stamp;
  if (size >= 8) {
    const std::size_t n =
        std::size_t{data[4]} | std::size_t{data[5]} << 8 | std::size_t{data[6]} << 16 | std::size_t{data[7]} << 24;
    if (n <= size - 8) stamp = body.substr(8, n);
  }
  auto tables = mapping::table_cache::decode(body, stamp);
  // The same body for a run that asks about a few ids. Entries it skips are neither read nor
  // checked (each entry has its own CRC, checked when it is read), so it may read a body the whole
  // decode refuses; when both read it, what it builds the whole decode has too, entry for entry.
  const std::vector<std::string> ids = {"dep:generic/cmake", "dep:generic/zlib", "dep:generic/arrow"};
  auto some = mapping::table_cache::decode(body, stamp, &ids);
  if (some && tables)
    for (std::size_t i = 0; i < some->tables.size(); ++i)
      for (const auto& e : some->tables[i].entries) {
        const mapping::Entry* whole = tables->tables[i].find(e.id);
        if (!whole || whole->id != e.id || whole->aliases != e.aliases || whole->all_packages() != e.all_packages())
          fuzz::fail("an entry read for a few ids unlike the whole read's");
      }
  if (!tables) return 0;
  const std::string again = mapping::table_cache::encode(stamp, *tables);
  auto reread = mapping::table_cache::decode(again, stamp);
  if (!reread) fuzz::fail("an encoding of tables that were read does not read back");
  if (mapping::table_cache::encode(stamp, *reread) != again) fuzz::fail("the encoding is not stable");
  return 0;
}
