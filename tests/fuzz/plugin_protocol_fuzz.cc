// Fuzzes the provider plugin protocol's load answer (plugin::parse_load_line): each line of the
// input is one line a plugin wrote. Property: a line read as a record gives a record extdeps can
// solve with: a name and a version, every relation named, an operator exactly where a version is.
#include <cstdint>

#include "core/plugin/plugin.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

namespace {

void check(const NativeDep& d, std::string_view line) {
  if (d.name.empty()) fuzz::fail("a relation without a name", line);
  if ((d.op == DepOp::any) != d.version.empty()) fuzz::fail("an operator without a version, or the reverse", line);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  for (std::string_view line : fuzz::split(fuzz::as_text(data, size), '\n', 64)) {
    auto r = plugin::parse_load_line(line);
    if (!r || !*r) continue;
    const PackageRecord& rec = **r;
    if (rec.name.empty() || rec.version.empty()) fuzz::fail("a record without a name or a version", line);
    for (const auto& alts : rec.depends) {
      if (alts.empty()) fuzz::fail("an empty list of alternatives", line);
      for (const auto& d : alts) check(d, line);
    }
    for (const auto* list : {&rec.provides, &rec.conflicts, &rec.constrains})
      for (const auto& d : *list) check(d, line);
  }
  return 0;
}
