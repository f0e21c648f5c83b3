// Fuzzes conda's MatchSpec: the first line is a spec (parse_matchspec, and parse_version_build
// as repodata's depends are compiled), the second a version, the third a build string.
// Property: an accepted spec's text() parses back to a spec with the same text (matchspec.h
// promises it), and both match the version and build the same way.
#include <cstdint>

#include "providers/conda/matchspec.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parts = fuzz::split(fuzz::as_text(data, size), '\n', 3);
  std::string_view version = parts.size() > 1 ? parts[1] : "1.2.3";
  std::string_view build = parts.size() > 2 ? parts[2] : "py310_0";
  if (auto spec = conda::parse_matchspec(parts[0])) {
    std::string text = spec->text();
    auto again = conda::parse_matchspec(text);
    if (!again) fuzz::fail("a MatchSpec's text does not parse", parts[0], text);
    if (again->text() != text) fuzz::fail("a MatchSpec's text reads back differently", text, again->text());
    if (spec->matches(version, build) != again->matches(version, build))
      fuzz::fail("a MatchSpec and its text match differently", text, version);
  }
  if (auto vb = conda::parse_version_build(parts[0])) (void)vb->matches(version, build);
  return 0;
}
