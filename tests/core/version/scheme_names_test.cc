// The version schemes are listed once (provider::version_schemes: core's and the providers'):
// every scheme a descriptor names is listed and found by its name, the names are unique, and the
// texts that list them (compare's --scheme help, its error, the README) say every one.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/cli/cli.h"
#include "core/provider/descriptor.h"
#include "core/version/version.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps::version {
namespace {

TEST(SchemeNames, EverySchemeIsNamedOnceAndEveryListSaysThemAll) {
  EXTDEPS_NEEDS_EVERY_PROVIDER();  // its output lists them all
  const auto schemes = version_schemes();
  ASSERT_GE(schemes.size(), 2u);
  EXPECT_EQ(schemes[0], &segments_scheme);
  EXPECT_EQ(schemes[1], &pep440_scheme);
  for (const ProviderDescriptor* d : compiled_in_descriptors()) {
    ASSERT_NE(d->scheme, nullptr) << d->name;
    EXPECT_NE(std::find(schemes.begin(), schemes.end(), d->scheme), schemes.end()) << d->name;
  }
  std::string names;
  for (const Scheme* s : schemes) {
    EXPECT_EQ(version_scheme_named(s->name), s) << s->name;
    EXPECT_FALSE(s->name.empty());
    names += (names.empty() ? "" : ", ") + std::string(s->name);
  }
  EXPECT_EQ(version_scheme_named("spack"), nullptr);
  EXPECT_EQ(version_scheme_named("RPM"), nullptr);
  EXPECT_EQ(version_scheme_named(""), nullptr);
  const auto last = names.rfind(", ");
  if (last != std::string::npos) names.replace(last, 2, " or ");
  EXPECT_EQ(version_scheme_names_text(), names);

  auto ctx = Context::for_test("/");
  std::ostringstream out, err;
  EXPECT_EQ(cli::run(ctx, {"version", "compare", "--help"}, out, err), 0);
  EXPECT_NE(out.str().find(version_scheme_names_text()), std::string::npos) << out.str();
  std::ostringstream out2, err2;
  EXPECT_EQ(cli::run(ctx, {"version", "compare", "--scheme", "brew", "1", "2"}, out2, err2), 2);
  EXPECT_EQ(err2.str(), "error: unknown version scheme 'brew' (expected " + version_scheme_names_text() + ")\n");

  // The README's line for the command lists them too.
  std::ifstream readme(std::string(EXTDEPS_TEST_DATA) + "/../../README.md");
  std::string line, listed;
  while (std::getline(readme, line))
    if (auto at = line.find("version compare --scheme "); at != std::string::npos) listed = line.substr(at + 25);
  listed = listed.substr(0, listed.find(' '));
  std::string expected;
  for (const Scheme* s : schemes) expected += (expected.empty() ? "" : "|") + std::string(s->name);
  EXPECT_EQ(listed, expected);
}

}  // namespace
}  // namespace extdeps::version
