// Fuzzes reading the pypi crawl's memo body (providers/pypi/crawl_memo.h): the input is a body as
// encode_memo writes it, for the key its first string names (so fuzzing reaches past the key).
// Nothing it reads may crash or allocate past the input's size, and a memo that reads is encoded
// again to the same bytes.
#include <charconv>
#include <cstdint>

#include "providers/pypi/crawl_memo.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body = fuzz::as_text(data, size);
  std::string_view key;
  std::size_t n = 0;
  auto [p, ec] = std::from_chars(body.data(), body.data() + body.size(), n);
  const std::size_t head = static_cast<std::size_t>(p - body.data()) + 1;
  if (ec == std::errc() && p < body.data() + body.size() && *p == ':' && n <= body.size() - head)
    key = body.substr(head, n);
  auto memo = pypi::parse_memo(body, key);
  if (!memo) return 0;
  if (pypi::encode_memo(key, *memo) != body) fuzz::fail("a memo that was read does not encode to its bytes", body);
  return 0;
}
