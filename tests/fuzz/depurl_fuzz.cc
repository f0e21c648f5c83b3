// Fuzzes the DepURL parser (parse_depurl) and the specifier parser built on it
// (parse_requirement). Property: an accepted DepURL renders (str()) to text that parses back to
// the same DepURL, so what extdeps prints and caches can be read again.
#include <cstdint>

#include "core/declare/declare.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::as_text(data, size);
  bool legacy = false;
  if (auto url = declare::parse_depurl(text, &legacy)) {
    std::string printed = url->str();
    auto again = declare::parse_depurl(printed);
    if (!again) fuzz::fail("a DepURL's rendering does not parse", text, printed);
    if (again->str() != printed) fuzz::fail("a DepURL's rendering reads back differently", printed, again->str());
    (void)url->id();
  }
  (void)declare::parse_requirement(text, &legacy);
  return 0;
}
