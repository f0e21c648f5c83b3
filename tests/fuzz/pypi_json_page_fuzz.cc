// Fuzzes a PEP 691 JSON project page (parse_json_page): files, yanked, core-metadata,
// requires-python, and relative URLs resolved against the page's.
#include <cstdint>

#include "providers/pypi/simple_index.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)pypi::parse_json_page(fuzz::as_text(data, size), "https://pypi.org/simple/nvidia-cublas-cu12/");
  return 0;
}
