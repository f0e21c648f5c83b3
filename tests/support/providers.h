// What the tests need to know of a build that left providers out (EXTDEPS_PROVIDER_<NAME>=OFF):
// a test file that includes a provider's own header goes with it (tests/CMakeLists.txt); a core
// test that only needs a provider to be there asks here and skips, saying why.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "core/provider/descriptor.h"
#include "tests/test_support.h"

namespace extdeps::test {

// The compiled-in descriptor named `name` ("apt"), or of the ecosystem `name` ("debian"); null
// when the build left it out.
inline const ProviderDescriptor* compiled_in(std::string_view name) {
  for (const ProviderDescriptor* d : compiled_in_descriptors())
    if (d->name == name || d->ecosystem == name) return d;
  return nullptr;
}

// The provider of the project the build left out first ("apt"); empty when it has them all.
inline std::string left_out_provider() {
  std::string_view all = build::every_provider;
  while (!all.empty()) {
    const std::string_view p = all.substr(0, all.find(';'));
    if (!compiled_in(p)) return std::string(p);
    all.remove_prefix(std::min(all.size(), p.size() + 1));
  }
  return {};
}

}  // namespace extdeps::test

// Skips the current test (from a test body or a fixture's SetUp) when the build left the
// provider `name` out.
#define EXTDEPS_NEEDS_PROVIDER(name) \
  if (!::extdeps::test::compiled_in(name)) GTEST_SKIP() << "built without the " << (name) << " provider"

// Skips the current test when the build left any provider out: for output that lists them all.
#define EXTDEPS_NEEDS_EVERY_PROVIDER()                                                      \
  if (const std::string left_out = ::extdeps::test::left_out_provider(); !left_out.empty()) \
  GTEST_SKIP() << "built without the " << left_out << " provider (the output lists every provider)"
