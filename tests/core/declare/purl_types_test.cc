// The PURL types core accepts come from schema/purl-types.txt (the build writes them into
// generated/purl_types.cc): the table is the file, line for line, and each property does what
// the file says it does.
#include "core/declare/purl_types.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/declare/declare.h"
#include "core/mapping/guess.h"
#include "core/mapping/spelling.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

TEST(PurlTypes, TheTableIsTheSchemaFile) {
  const auto file = std::filesystem::path(EXTDEPS_SOURCE_MAPPINGS_DIR).parent_path() / "schema" / "purl-types.txt";
  std::ifstream in(file);
  ASSERT_TRUE(in) << file;
  std::vector<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string name, property;
    words >> name;
    names.push_back(name);
    std::set<std::string> props;
    while (words >> property) props.insert(property);
    const PurlType* t = purl_type(name);
    ASSERT_NE(t, nullptr) << name;
    EXPECT_EQ(t->named, props.count("named") == 1) << name;
    EXPECT_EQ(t->lowercase, props.count("lowercase") == 1) << name;
    EXPECT_EQ(t->one_dash, props.count("one-dash") == 1) << name;
    EXPECT_EQ(t->example, props.count("example") == 1) << name;
  }
  ASSERT_EQ(purl_types().size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(purl_types()[i].name, names[i]);
  EXPECT_EQ(names.front(), "virtual");
  EXPECT_EQ(purl_type("PyPI"), nullptr) << "types are looked up as written (lower case)";
  EXPECT_EQ(purl_type_of("dep:pypi/numpy"), purl_type("pypi"));
  EXPECT_EQ(purl_type_of("no-slash"), nullptr);
}

TEST(PurlTypes, EachPropertyDoesWhatTheFileSays) {
  // one-dash and lowercase (pypi): PEP 503's name, case folded.
  EXPECT_EQ(mapping::spelling_key("dep:pypi/Foo_Bar.baz"), "dep:pypi/foo-bar-baz");
  EXPECT_TRUE(mapping::type_folds_case("dep:pypi/X"));
  // lowercase alone (github): case folded, separators kept.
  EXPECT_EQ(mapping::spelling_key("dep:github/Kitware/C_Make"), "dep:github/kitware/c_make");
  EXPECT_TRUE(mapping::type_folds_case("dep:github/Kitware/CMake"));
  EXPECT_FALSE(mapping::type_folds_case("dep:generic/XCB"));
  // named: a guess starts from the last segment of such a type only.
  EXPECT_EQ(mapping::guess_name("dep:cargo/Serde"), "serde");
  EXPECT_EQ(mapping::guess_name("dep:maven/org.apache/commons"), "");
  // example: what the message for an unknown type names.
  auto bad = declare::parse_depurl("dep:nosuchtype/x");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("such as " + purl_type_examples()), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace extdeps
