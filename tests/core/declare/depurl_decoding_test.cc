// What percent-decoding may not put into a DepURL: control characters (a %0A forges lines of
// the text output and code in a generated shell.nix), bytes that are not UTF-8, and a '/' inside
// a segment (dep:github/apache%2Farrow is not dep:github/apache/arrow).
#include <gtest/gtest.h>

#include "core/declare/declare.h"

namespace extdeps::declare {
namespace {

std::string parse_error(std::string_view text) {
  auto r = parse_depurl(text);
  EXPECT_FALSE(r.ok()) << text << " parsed as " << (r.ok() ? r->id() : "");
  if (r.ok()) return "";
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  return r.error().message;
}

TEST(DepUrlDecoding, ControlCharactersAreRefused) {
  EXPECT_EQ(parse_error("dep:generic/zlib%0Aplanned"),
            "the name 'zlib%0Aplanned' of 'dep:generic/zlib%0Aplanned' decodes to the control character \\x0a");
  EXPECT_EQ(parse_error("dep:generic/a%1B%5B2Jb"),
            "the name 'a%1B%5B2Jb' of 'dep:generic/a%1B%5B2Jb' decodes to the control character \\x1b");
  EXPECT_EQ(parse_error("dep:generic/zlib%00"),
            "the name 'zlib%00' of 'dep:generic/zlib%00' decodes to the control character \\x00");
  EXPECT_EQ(parse_error("dep:github/ap%0Dache/arrow"),
            "the namespace 'ap%0Dache' of 'dep:github/ap%0Dache/arrow' decodes to the control character \\x0d");
  EXPECT_EQ(parse_error("dep:generic/zlib@%0A1.0"),
            "the version of 'dep:generic/zlib@%0A1.0' decodes to the "
            "control character \\x0a");
  EXPECT_EQ(parse_error("dep:generic/zlib?arch=x%7F"),
            "qualifier 'arch' of 'dep:generic/zlib?arch=x%7F' decodes to the control character \\x7f");
}

TEST(DepUrlDecoding, BytesThatAreNotUtf8AreRefused) {
  EXPECT_EQ(parse_error("dep:generic/caf%FF"),
            "the name 'caf%FF' of 'dep:generic/caf%FF' decodes to bytes that are not UTF-8");
  EXPECT_EQ(parse_error("dep:generic/%C0%AF"),  // an overlong '/'
            "the name '%C0%AF' of 'dep:generic/%C0%AF' decodes to bytes that are not UTF-8");
  auto ok = parse_depurl("dep:generic/caf%C3%A9");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->name, "caf\xc3\xa9");
}

TEST(DepUrlDecoding, AnEncodedSlashIsNotASegmentSeparator) {
  EXPECT_EQ(parse_error("dep:github/apache%2Farrow"),
            "name 'apache%2Farrow' of 'dep:github/apache%2Farrow' decodes to a '/'");
  EXPECT_EQ(parse_error("dep:github/apache%2farrow"),
            "name 'apache%2farrow' of 'dep:github/apache%2farrow' decodes to a '/'");
  auto real = parse_depurl("dep:github/apache/arrow");
  ASSERT_TRUE(real.ok());
  EXPECT_EQ(real->id(), "dep:github/apache/arrow");
  // Nor in the subpath, where it was printed back unencoded and read as two segments (the
  // depurl fuzz harness, tests/fuzz/corpus/depurl/finding-subpath-slash).
  EXPECT_EQ(parse_error("dep:github/apache/arrow#cpp/X%2FB"),
            "the subpath segment 'X%2FB' of 'dep:github/apache/arrow#cpp/X%2FB' decodes to a '/'");
}

// Unescaped control characters (a TOML string may hold them) are named, not printed raw.
TEST(DepUrlDecoding, ARawControlCharacterIsShownEscaped) {
  EXPECT_EQ(parse_error("dep:generic/a\x1b"
                        "b"),
            "unexpected character '\\x1b' in the name of 'dep:generic/a\x1b"
            "b'");
}

}  // namespace
}  // namespace extdeps::declare
