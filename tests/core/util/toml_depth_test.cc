// The TOML depth guard, and the three readers that run it before toml++ (declarations are in
// tests/core/declare/limits_test.cc): a key of 40,000 dotted parts is an error at its place.
#include "core/util/toml_depth.h"

#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/config/config.h"
#include "core/mapping/mapping.h"
#include "core/util/limits.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

std::string dotted(std::size_t parts) {
  std::string key = "a";
  for (std::size_t i = 1; i < parts; ++i) key += ".a";
  return key;
}

std::string write_file(const std::string& name, const std::string& text) {
  std::string path = test::temp_dir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(TomlDepth, KeysWithinTheLimitPass) {
  EXPECT_FALSE(toml_too_deep(dotted(limits::kMaxTomlDepth) + " = 1\n", "f.toml"));
  EXPECT_FALSE(toml_too_deep("[" + dotted(limits::kMaxTomlDepth - 1) + "]\nx = 1.5\n", "f.toml"));
  // Dots in strings, comments and values are no key parts.
  const std::string many(100000, '.');
  EXPECT_FALSE(toml_too_deep("x = \"" + many + "\"\ny = '" + many + "'\n# " + many + "\nz = \"\"\"\n" + many +
                                 "\"\"\"\nw = [" + std::string(1000, ' ') + "1.5, 2.5, 3.5]\n",
                             "f.toml"));
  EXPECT_FALSE(toml_too_deep("\"a.b\".c.\"d\\\".e\" = 1\n", "f.toml"));
}

TEST(TomlDepth, The129thPartIsTheError) {
  auto e = toml_too_deep("x = 1\n" + dotted(limits::kMaxTomlDepth + 1) + " = 1\n", "f.toml");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, ExitCode::bad_input);
  EXPECT_EQ(e->message, "f.toml:2:256: a key of more than 128 dotted parts and brackets (extdeps reads at most 128)");
  // A table header: its bracket counts too.
  e = toml_too_deep("[" + dotted(limits::kMaxTomlDepth) + "]\n", "f.toml");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message.substr(0, 12), "f.toml:1:255");
  // Inline tables and arrays nest as deep as their brackets.
  e = toml_too_deep("x = " + std::string(200, '[') + std::string(200, ']') + "\n", "f.toml");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message.substr(0, 12), "f.toml:1:132");
}

TEST(TomlDepth, A40000PartKeyInAMappingTableIsAnError) {
  std::string path = write_file("debian.toml", "[" + dotted(40000) + "]\n");
  auto t = mapping::load_table(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ExitCode::bad_input);
  EXPECT_EQ(t.error().message,
            path + ":1:255: a key of more than 128 dotted parts and brackets (extdeps reads at most 128)");
}

TEST(TomlDepth, A40000PartKeyInAConfigurationFileIsAnError) {
  std::string path = write_file("config.toml", dotted(40000) + " = 1\n");
  auto s = config::read_file(path, false);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ExitCode::bad_input);
  EXPECT_EQ(s.error().message,
            path + ":1:256: a key of more than 128 dotted parts and brackets (extdeps reads at most 128)");
}

}  // namespace
}  // namespace extdeps
