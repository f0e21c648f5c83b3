// Fuzzes version ranges: parse_range on the first line, range_contains with the second line as
// the version. Property: an accepted range renders (str()) to text that parses to the same range.
#include <cstdint>

#include "core/declare/declare.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parts = fuzz::split(fuzz::as_text(data, size), '\n', 2);
  auto range = declare::parse_range(parts[0]);
  if (!range) return 0;
  std::string printed = range->str();
  auto again = declare::parse_range(printed);
  if (!again) fuzz::fail("a range's rendering does not parse", parts[0], printed);
  if (again->str() != printed) fuzz::fail("a range's rendering reads back differently", printed, again->str());
  if (parts.size() > 1) (void)declare::range_contains(*range, parts[1]);
  return 0;
}
