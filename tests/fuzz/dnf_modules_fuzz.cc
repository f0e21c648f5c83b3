// Fuzzes a dnf repository's modules.yaml (dnf::read_modules): the pre-scan that keeps yaml-cpp
// 0.7 from looping on a ',' where a document's node would begin, then yaml-cpp itself. A loop is
// a finding through libFuzzer's -timeout. Property: every stream read has a name and a stream.
#include <cstdint>
#include <string>

#include "providers/dnf/dnf_provider.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = fuzz::as_text(data, size);
  dnf::ModuleIndex index;
  if (!dnf::read_modules(input, "modules.yaml", index)) return 0;
  for (const auto& s : index.streams)
    if (s.name.empty() || s.stream.empty()) fuzz::fail("a module stream without a name or a stream", input);
  for (const auto& [module, stream] : index.defaults)
    if (module.empty() || stream.empty()) fuzz::fail("a default stream without a module or a stream", input);
  return 0;
}
