// The version schemes are listed once (version::scheme_names): every scheme the model has is
// named there and parses back, and the texts that list them (compare's --scheme help, its error,
// a plugin description's error) say every one.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/cli/cli.h"
#include "core/version/version.h"
#include "tests/test_support.h"

namespace extdeps::version {
namespace {

TEST(SchemeNames, EverySchemeIsNamedOnceAndEveryListSaysThemAll) {
  for (VersionScheme s : {VersionScheme::deb, VersionScheme::rpm, VersionScheme::pep440, VersionScheme::conda,
                          VersionScheme::nix, VersionScheme::pacman, VersionScheme::homebrew}) {
    const auto name = scheme_name(s);
    EXPECT_NE(std::find(scheme_names().begin(), scheme_names().end(), name), scheme_names().end()) << name;
    EXPECT_EQ(parse_scheme(name), s) << name;
  }
  for (auto name : scheme_names()) EXPECT_TRUE(parse_scheme(name).has_value()) << name;
  EXPECT_EQ(scheme_names_text(), "deb, rpm, pkgconfig, pep440, conda, nix, pacman or homebrew");

  auto ctx = Context::for_test("/");
  std::ostringstream out, err;
  EXPECT_EQ(cli::run(ctx, {"version", "compare", "--help"}, out, err), 0);
  EXPECT_NE(out.str().find(scheme_names_text()), std::string::npos) << out.str();
  std::ostringstream out2, err2;
  EXPECT_EQ(cli::run(ctx, {"version", "compare", "--scheme", "brew", "1", "2"}, out2, err2), 2);
  EXPECT_EQ(err2.str(), "error: unknown version scheme 'brew' (expected " + scheme_names_text() + ")\n");

  // The README's line for the command lists them too.
  std::ifstream readme(std::string(EXTDEPS_TEST_DATA) + "/../../README.md");
  std::string line, listed;
  while (std::getline(readme, line))
    if (auto at = line.find("version compare --scheme "); at != std::string::npos) listed = line.substr(at + 25);
  listed = listed.substr(0, listed.find(' '));
  std::string expected;
  for (auto name : scheme_names()) expected += (expected.empty() ? "" : "|") + std::string(name);
  EXPECT_EQ(listed, expected);
}

}  // namespace
}  // namespace extdeps::version
