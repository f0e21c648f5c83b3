// Fuzzes a PEP 503 HTML project page (parse_html_page): anchors, their attributes and entities,
// data-yanked, data-core-metadata, data-requires-python, relative URLs.
#include <cstdint>

#include "providers/pypi/simple_index.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)pypi::parse_html_page(fuzz::as_text(data, size), "https://pypi.org/simple/nvidia-cudnn-cu12/");
  return 0;
}
