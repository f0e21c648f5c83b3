// Fuzzes reading a declaration: the bytes as a pyproject.toml, through read_declaration (TOML,
// the [external] keys, optional groups, dependency groups and their includes, every specifier).
// read_declaration reads a path, so the input is written to the harness's temporary folder.
#include <cstdint>

#include "core/context/context.h"
#include "core/declare/declare.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string path = fuzz::TempDir::write("pyproject.toml", fuzz::as_text(data, size));
  Context ctx = Context::for_test("/");  // one per input: warnings gather in it
  auto decl = declare::read_declaration(ctx, path);
  if (!decl) return 0;
  for (const Requirement& r : decl->requirements) {
    // What the rest of the pipeline does with each requirement first.
    (void)r.url.id();
    (void)r.range.str();
    if (!r.marker.empty() && !declare::check_marker(r.marker))
      fuzz::fail("a requirement was accepted with a marker check_marker refuses", r.marker, r.spec);
  }
  return 0;
}
