// parse_toml_once (core/util/toml_once.h): the declaration a run reads three times is parsed once,
// and a changed text (an edited file in a library session) is parsed again.
#include "core/util/toml_once.h"

#include <gtest/gtest.h>

namespace extdeps {
namespace {

TEST(TomlOnce, TheSameTextIsParsedOnceAndAnEditIsSeen) {
  const std::string path = "/project/pyproject.toml";
  const std::string text = "[external]\nhost-requires = [\"dep:generic/zlib\"]\n";
  auto first = parse_toml_once(text, path);
  auto again = parse_toml_once(text, path);
  EXPECT_EQ(first.get(), again.get());
  EXPECT_EQ((*again)["external"]["host-requires"][0].value<std::string>(), "dep:generic/zlib");

  // The same text under another path is another document (its sources name the path).
  auto elsewhere = parse_toml_once(text, "/other/pyproject.toml");
  EXPECT_NE(elsewhere.get(), first.get());
  EXPECT_EQ(*elsewhere->source().path, "/other/pyproject.toml");

  auto edited = parse_toml_once("[external]\nhost-requires = [\"dep:generic/gdal\"]\n", path);
  EXPECT_EQ((*edited)["external"]["host-requires"][0].value<std::string>(), "dep:generic/gdal");

  // A text that does not parse throws, as toml::parse does, and keeps nothing.
  EXPECT_THROW(parse_toml_once("[external\n", path), toml::parse_error);
  auto after = parse_toml_once("[external]\nhost-requires = [\"dep:generic/gdal\"]\n", path);
  EXPECT_EQ(after.get(), edited.get());
}

}  // namespace
}  // namespace extdeps
