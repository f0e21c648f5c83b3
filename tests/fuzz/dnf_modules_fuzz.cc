// Fuzzes a dnf repository's modules.yaml (dnf::read_modules): extdeps' own reader of the YAML
// modulemd is written in (it replaced yaml-cpp 0.7, which looped without end on 62 shapes this
// harness found; corpus/dnf_modules/loop-*). A loop is a finding through libFuzzer's -timeout.
// Property: every stream read has a name and a stream.
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
