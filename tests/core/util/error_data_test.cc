// Errors as data (issue 15 part 5): the readers that know where an error is fill its place,
// what went wrong, what they expected and a hint, and the message is rendered from them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "core/config/config.h"
#include "core/declare/declare.h"
#include "core/json/byte_source.h"
#include "core/json/json_reader.h"
#include "core/mapping/mapping.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

namespace fs = std::filesystem;

TEST(ErrorData, ErrorAtRendersTheOneLineFromItsParts) {
  Error e = error_at(ExitCode::bad_input, "f.toml:3:7", "offline is 'maybe'", "1 or 0", "write offline = 1");
  EXPECT_EQ(e.message, "f.toml:3:7: offline is 'maybe' (expected 1 or 0); write offline = 1");
  EXPECT_EQ(e.place, "f.toml:3:7");
  EXPECT_EQ(e.what, "offline is 'maybe'");
  EXPECT_EQ(e.expected, "1 or 0");
  EXPECT_EQ(e.hint, "write offline = 1");
  EXPECT_EQ(error_at(ExitCode::environment, "", "no place").message, "no place");
}

TEST(ErrorData, TheDeclarationReaderGivesThePlace) {
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/pyproject.toml") << "[external]\nhost-requires = [3]\n";
  auto d = declare::read_declaration(Context::for_test("/"), dir + "/pyproject.toml");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().place, dir + "/pyproject.toml:2:18");
  EXPECT_EQ(d.error().message, d.error().place + ": " + d.error().what);
  EXPECT_NE(d.error().what.find("expected a string"), std::string::npos) << d.error().what;

  // A TOML syntax error: the hint apart.
  std::ofstream(dir + "/pyproject.toml", std::ios::trunc) << "[external]\nhost-requires = [\"dep:generic/zlib\"\n";
  d = declare::read_declaration(Context::for_test("/"), dir + "/pyproject.toml");
  ASSERT_FALSE(d.ok());
  EXPECT_TRUE(d.error().place.starts_with(dir + "/pyproject.toml:")) << d.error().place;
  EXPECT_FALSE(d.error().hint.empty());
  EXPECT_NE(d.error().message.find(d.error().hint), std::string::npos);
}

TEST(ErrorData, ConfigurationAndMappingTablesGiveThePlace) {
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/pyproject.toml") << "[tool.extdeps]\nallow-insecure-http = \"maybe\"\n";
  auto s = config::read_file(dir + "/pyproject.toml", true);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().place, dir + "/pyproject.toml:2:23");
  EXPECT_EQ(s.error().what, "bad value 'maybe' for allow-insecure-http");
  EXPECT_EQ(s.error().expected, "1 or 0");
  EXPECT_EQ(s.error().message, dir + "/pyproject.toml:2:23: expected 1 or 0, got 'maybe'");

  std::ofstream(dir + "/debian.toml") << "schema = 1\necosystem = \"debian\"\n[[id]]\nid = 3\n";
  auto t = mapping::load_table(dir + "/debian.toml");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().place, dir + "/debian.toml:4:6");
  EXPECT_EQ(t.error().what, "'id' must be a string, got integer");
  EXPECT_EQ(t.error().message, t.error().place + ": " + t.error().what);
}

TEST(ErrorData, TheJsonReaderGivesTheByteOffsetAndWhatItExpected) {
  const std::string file = test::temp_dir() + "/repodata.json";
  std::ofstream(file) << "{\"packages\": [1, }";
  auto source = json::open_file(file);
  ASSERT_TRUE(source.ok());
  json::JsonReader r(**source);
  std::string key;
  ASSERT_TRUE(r.begin_object());
  ASSERT_TRUE(r.next_key(key));
  ASSERT_TRUE(r.begin_array());
  ASSERT_TRUE(r.next_element());
  ASSERT_TRUE(r.skip_value());
  EXPECT_FALSE(r.next_element() && r.skip_value());
  ASSERT_TRUE(r.failed());
  EXPECT_EQ(r.error().place, file + ": byte 17");
  EXPECT_FALSE(r.error().expected.empty());
  EXPECT_NE(r.error().message.find("at byte offset 17"), std::string::npos) << r.error().message;
}

TEST(ErrorData, AtPlaceKeepsTheInnerPartsAndPutsThePlaceInFront) {
  Error inner = error_at(ExitCode::bad_input, "", "unknown operator '=~'", "= < <= > >= !=");
  Error e = at_place(inner, "extdeps-provider-demo: line 3 of its answer to load");
  EXPECT_EQ(e.message,
            "extdeps-provider-demo: line 3 of its answer to load: unknown operator '=~' (expected = < <= > >= !=)");
  EXPECT_EQ(e.place, "extdeps-provider-demo: line 3 of its answer to load");
  EXPECT_EQ(e.what, "unknown operator '=~'");
  EXPECT_EQ(e.expected, "= < <= > >= !=");
  EXPECT_EQ(e.code, ExitCode::bad_input);
  // A plain message becomes the what; a second place leads the first.
  Error twice = at_place(at_place(bad_input("a relation without a name"), "line 2"), "plugin demo");
  EXPECT_EQ(twice.message, "plugin demo: line 2: a relation without a name");
  EXPECT_EQ(twice.place, "plugin demo: line 2");
  EXPECT_EQ(twice.what, "a relation without a name");
  EXPECT_EQ(at_place(inner, "").message, inner.message);
}

// "No code matches on message text": an error is passed on as data, never recognised by its
// words. A scan of the sources for the ways text is matched keeps it so.
TEST(ErrorData, NoCodeDecidesByAnErrorMessageText) {
  const fs::path root = fs::path(EXTDEPS_SOURCE_MAPPINGS_DIR).parent_path();  // the source tree
  const std::regex match(
      R"re(message\s*(?:\(\))?\s*\.\s*(starts_with|ends_with|find|rfind|compare|substr|find_first_of|contains)\s*\()re");
  std::size_t files = 0;
  std::string found;
  for (const char* top : {"core", "providers", "hooks"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      if (e.path().extension() != ".cc" && e.path().extension() != ".h") continue;
      ++files;
      const std::string text = test::read_file(e.path().string());
      for (std::sregex_iterator it(text.begin(), text.end(), match), end; it != end; ++it)
        found += "\n  " + e.path().filename().string() + ": " + it->str();
    }
  }
  EXPECT_GT(files, 100u);
  EXPECT_TRUE(found.empty()) << "code that matches an error's message text:" << found;
}

}  // namespace
}  // namespace extdeps
