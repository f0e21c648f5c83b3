// Fuzzes reading a download's metadata file (core/fetch/cache_store.h, meta_file::): what parses
// is written and read back the same; where a new time may be written in place (slot_for), the
// file then reads as the same entry with that time; and the writer's own text always takes a new
// time in place.
#include <cstdint>

#include "core/fetch/cache_store.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;
using fetch::EntryMeta;

namespace {

bool same(const EntryMeta& a, const EntryMeta& b) {
  return a.url == b.url && a.status == b.status && a.etag == b.etag && a.last_modified == b.last_modified &&
         a.content_type == b.content_type && a.lifetime_s == b.lifetime_s && a.age_s == b.age_s &&
         a.fetched_at == b.fetched_at && a.size == b.size;
}

// `text` with time t written in place where slot_for says, checked to read as `want`.
void check_in_place(std::string_view text, EntryMeta want, std::int64_t t, bool must) {
  want.fetched_at = t;
  auto slot = fetch::meta_file::slot_for(text, want);
  if (!slot) {
    if (must) fuzz::fail("the writer's own metadata takes no time in place", text);
    return;
  }
  std::string edited(text);
  edited.replace(*slot, 20, fetch::meta_file::time_text(t));
  auto read = fetch::meta_file::parse(edited);
  if (!read || !same(*read, want)) fuzz::fail("a time written in place reads back as another entry", edited);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in = fuzz::as_text(data, size);
  (void)fetch::meta_file::time_slot(in);
  auto meta = fetch::meta_file::parse(in);
  if (!meta) return 0;
  check_in_place(in, *meta, 1795732587, false);
  const std::string text = fetch::meta_file::text(*meta);
  auto again = fetch::meta_file::parse(text);
  if (!again || !same(*again, *meta)) fuzz::fail("metadata that was read does not read back the same", text);
  if (meta->fetched_at >= 0) check_in_place(text, *meta, 1795732587, true);
  return 0;
}
