// Fuzzes core metadata (parse_core_metadata: a wheel's METADATA, a PEP 658 .metadata file) and
// the PEP 508 requirements of its Requires-Dist lines (parse_requirement, active_requirements
// with their markers evaluated for a Linux x86_64 CPython).
#include <cstdint>

#include "providers/pypi/core_metadata.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const declare::MarkerEnv env = {
      {"os_name", "posix"},
      {"sys_platform", "linux"},
      {"platform_machine", "x86_64"},
      {"platform_system", "Linux"},
      {"python_version", "3.11"},
      {"python_full_version", "3.11.2"},
      {"implementation_name", "cpython"},
      {"platform_python_implementation", "CPython"},
  };
  std::string_view text = fuzz::as_text(data, size);
  // The whole input as one requirement line too: a METADATA header rarely reaches every branch.
  (void)pypi::parse_requirement(text);
  auto meta = pypi::parse_core_metadata(text, "METADATA");
  if (!meta) return 0;
  for (const std::string& line : meta->requires_dist) (void)pypi::parse_requirement(line);
  int skipped = 0;
  (void)pypi::active_requirements(meta->requires_dist, env, &skipped);
  return 0;
}
