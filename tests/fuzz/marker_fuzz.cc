// Fuzzes PEP 508 markers: check_marker and evaluate_marker on the input, against a fixed Linux
// environment. Property: a marker that evaluates also checks (evaluation may still fail on a
// checked marker, comparing texts that are not versions with '<').
#include <cstdint>

#include "core/declare/declare.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const declare::MarkerEnv env = {
      {"os_name", "posix"},
      {"sys_platform", "linux"},
      {"platform_machine", "x86_64"},
      {"platform_system", "Linux"},
      {"platform_release", "6.1.0-13-amd64"},
      {"platform_version", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1"},
      {"python_version", "3.11"},
      {"python_full_version", "3.11.2"},
      {"implementation_name", "cpython"},
      {"platform_python_implementation", "CPython"},
      {"implementation_version", "3.11.2"},
      {"extra", "test"},
  };
  std::string_view text = fuzz::as_text(data, size);
  auto checked = declare::check_marker(text);
  auto value = declare::evaluate_marker(text, env);
  if (value && !checked) fuzz::fail("a marker evaluates but does not check", text, checked.error().message);
  return 0;
}
