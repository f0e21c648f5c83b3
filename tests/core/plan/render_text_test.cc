// The text output never prints a raw control character: a line break in a native name, a
// version or a note from a table would forge a line of the plan, an ESC would drive the terminal.
#include "core/plan/render.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/util/printable.h"
#include "core/util/text.h"

namespace extdeps::plan {
namespace {

TEST(RenderText, ControlCharactersAreShownEscaped) {
  Outcome o;
  RequirementOutcome r;
  r.requirement.url.type = "generic";
  r.requirement.url.name = "zlib";
  r.status = Status::planned;
  r.packages.push_back({"apt", "debian", "zlib1g-dev", "1.0\n  satisfied     dep:generic/openssl", false, ""});
  o.requirements.push_back(r);
  RequirementOutcome bad = r;
  bad.status = Status::unsatisfiable;
  bad.message = "note: \x1b[2Jcleared";
  o.requirements.push_back(bad);
  o.warnings.push_back("a\rb");
  o.problems.push_back({"dep:generic/zlib",
                        std::string("x\0y\xff", 4),
                        {"d\x9b"
                         "e"}});
  std::ostringstream out;
  print_text(o, {}, out);
  std::string text = out.str();
  EXPECT_EQ(text.find("\n  satisfied     dep:generic/openssl"), std::string::npos) << text;
  EXPECT_NE(text.find("zlib1g-dev 1.0\\x0a  satisfied"), std::string::npos) << text;
  EXPECT_NE(text.find("note: \\x1b[2Jcleared"), std::string::npos) << text;
  EXPECT_NE(text.find("warning: a\\x0db"), std::string::npos) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
}

TEST(RenderText, PrintableTextKeepsUtf8AndEscapesTheRest) {
  EXPECT_EQ(printable_text("caf\xc3\xa9 \xe2\x9c\x93"), "caf\xc3\xa9 \xe2\x9c\x93");
  EXPECT_EQ(printable_text(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable_text("a\xff"), "a\\xff");
  EXPECT_EQ(printable_text("\xc2\x9b"
                           "31m"),
            "\\u009b31m");                              // the 8-bit CSI
  EXPECT_EQ(printable_text("\xc0\xaf"), "\\xc0\\xaf");  // overlong
  EXPECT_EQ(printable_text("tab\there"), "tab\\x09here");
}

}  // namespace
}  // namespace extdeps::plan
