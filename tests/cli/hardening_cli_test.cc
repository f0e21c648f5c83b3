// Hostile input through the command line: a DepURL with %FF%FE (which made the JSON writer throw:
// "internal error", no output) is bad input;
// long epochs compare as dpkg compares them; declarations past docs/limits.md exit 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/json/document.h"

#include "tests/support/cli_fixture.h"
#include "tests/support/providers.h"

namespace extdeps {
namespace {

class HardeningCliTest : public test::CliFixture {};

// A DepURL whose escapes decode to bytes that are not UTF-8 is refused where it is written
// (it used to reach the JSON writer, which threw); what else reaches --json with such bytes is
// replaced by U+FFFD (JsonDump.*).
TEST_F(HardeningCliTest, InvalidUtf8InADepUrlIsBadInputNotAnInternalError) {
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/x%FF%FEy\"]\n");
  auto r = run({"resolve", project_, "--json"});
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(
                "extdeps.toml:2:18: the name 'x%FF%FEy' of 'dep:generic/x%FF%FEy' decodes to bytes that are not UTF-8"),
            std::string::npos)
      << r.err;
}

TEST_F(HardeningCliTest, LongEpochsCompareAsDpkgCompares) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXPECT_EQ(run({"version", "compare", "--scheme", "deb", "0000000000000000000:002", "1.0"}).out, ">\n");
  auto r = run({"version", "compare", "--scheme", "deb", "99999999999:1", "1.0"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: invalid deb version '99999999999:1': the epoch is too big\n");
}

TEST_F(HardeningCliTest, AMarkerOf30000ParenthesesExitsTwo) {
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/zlib; " + std::string(30000, '(') +
                                    "os_name == 'posix'" + std::string(30000, ')') + "\"]\n");
  auto r = run({"resolve", project_});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("extdeps.toml:2:18: invalid marker '((("), std::string::npos) << r.err.substr(0, 500);
  EXPECT_NE(r.err.find("more than 100 nested parentheses"), std::string::npos) << r.err.substr(0, 500);
  EXPECT_LT(r.err.size(), 600u);
}

TEST(JsonDump, ReplacesInvalidBytesAndKeepsValidText) {
  nlohmann::json j = {{"name", std::string("a\xFF"
                                           "b")},
                      {"ok", "caf\xC3\xA9"}};
  EXPECT_EQ(json::dump(j, -1),
            "{\"name\":\"a\xEF\xBF\xBD"
            "b\",\"ok\":\"caf\xC3\xA9\"}");
}

}  // namespace
}  // namespace extdeps
