// `extdeps mappings lint` as a library call: the shipped tables lint clean, and each kind of
// problem is reported once, at its file:line:col.
#include "core/mapping/lint.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/mapping/mapping.h"
#include "tests/core/mapping/shipped.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

using namespace table_testing;

std::vector<std::string> lines(const LintReport& r, const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& p : r.problems) {
    std::string s = p.str();
    if (s.rfind(dir + "/", 0) == 0) s = s.substr(dir.size() + 1);
    out.push_back(s);
  }
  return out;
}

class Lint : public ::testing::Test {
 protected:
  void write(const std::string& name, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(dir_ + "/" + name).parent_path());
    std::ofstream(dir_ + "/" + name) << text;
  }
  std::vector<std::string> run(std::vector<std::string> paths = {}) {
    if (paths.empty()) paths = {dir_};
    report_ = lint(paths);
    return lines(report_, dir_);
  }
  std::string dir_ = test::temp_dir();
  LintReport report_;
};

const char* kHeader = "schema = 1\necosystem = \"debian\"\nmanager = \"apt\"\n";

TEST_F(Lint, TheShippedTablesAreClean) {
  auto r = lint({kMappings});
  for (const auto& p : r.problems) ADD_FAILURE() << p.str();
  EXPECT_EQ(r.tables, 9u);
  EXPECT_GE(r.ids, 700u);
}

TEST_F(Lint, EntriesOutOfOrderAreNamedWithWhereTheyBelong) {
  write("debian.toml", std::string(kHeader) +
                           "\n[[id]]\nid = \"dep:generic/b\"\nbuild = [\"bb\"]\n"
                           "\n[[id]]\nid = \"dep:generic/c\"\nbuild = [\"cc\"]\n"
                           "\n[[id]]\nid = \"dep:generic/a\"\nbuild = [\"aa\"]\n");
  EXPECT_EQ(run(), (std::vector<std::string>{
                       "debian.toml:13:1: dep:generic/a is out of order: entries are sorted by id (it belongs "
                       "before dep:generic/b, line 5)"}));
}

TEST_F(Lint, IdsAndAliasesMustBeDepUrls) {
  write("debian.toml", std::string(kHeader) +
                           "\n[[id]]\nid = \"dep:gneric/zlib\"\naliases = [\"dep:Generic/libz\"]\n"
                           "host = [\"zlib1g-dev\"]\n");
  auto got = run();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], "debian.toml:5:1: id 'dep:gneric/zlib': unknown DepURL type 'gneric' (did you mean 'generic'?)");
  EXPECT_EQ(got[1], "debian.toml:5:1: alias 'dep:Generic/libz': write the type in lower case ('generic')");
}

TEST_F(Lint, LoaderProblemsKeepTheirPlace) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  write("debian.toml", std::string(kHeader) + "\n[[id]]\nid = \"dep:generic/zlib\"\nhost = [\"Zlib1g-dev\"]\n");
  EXPECT_EQ(run(), (std::vector<std::string>{"debian.toml:7:9: 'Zlib1g-dev' is not a valid Debian package name"}));
  write("debian.toml", "schema = 1\necosytem = \"debian\"\n");
  EXPECT_EQ(run(), (std::vector<std::string>{"debian.toml:2:1: unknown key 'ecosytem' (did you mean 'ecosystem'?)"}));
  EXPECT_EQ(report_.tables, 1u);
}

TEST_F(Lint, OneIdSpelledTwoWaysAcrossTables) {
  write("debian.toml", std::string(kHeader) +
                           "\n[[id]]\nid = \"dep:generic/cublas\"\naliases = [\"dep:generic/libcublas\"]\n"
                           "host = [\"nvidia-cuda-dev\"]\n");
  write("conda-forge.toml",
        "schema = 1\necosystem = \"conda-forge\"\nmanager = \"conda\"\n"
        "\n[[id]]\nid = \"dep:generic/libcublas\"\nhost = [\"libcublas-dev\"]\n");
  EXPECT_EQ(
      run(),
      (std::vector<std::string>{"conda-forge.toml:5:1: id dep:generic/libcublas is an alias of dep:generic/cublas in " +
                                dir_ + "/debian.toml:5:1: use the same id in every table"}));
}

TEST_F(Lint, APkgconfigIdNoPackageTableKnows) {
  write("debian.toml", std::string(kHeader) + "\n[[id]]\nid = \"dep:generic/zlib\"\nhost = [\"zlib1g-dev\"]\n");
  write("pkgconfig.toml",
        "schema = 1\necosystem = \"pkgconfig\"\n"
        "\n[[id]]\nid = \"dep:generic/libfoo\"\nmodules = [\"foo.pc\"]\n"
        "\n[[id]]\nid = \"dep:generic/zlib\"\nmodules = [\"zlib\"]\n");
  EXPECT_EQ(run(), (std::vector<std::string>{
                       "pkgconfig.toml:4:1: module 'foo.pc' of dep:generic/libfoo is a file name: write 'foo'",
                       "pkgconfig.toml:4:1: dep:generic/libfoo is in no package manager's table: a pkg-config "
                       "module proves a library that some table maps (add the id there)"}));
}

TEST_F(Lint, TheSameIdTwiceInOneFolderAndARepeatedAlternative) {
  write("debian.toml", std::string(kHeader) +
                           "\n[[id]]\nid = \"dep:virtual/interface/blas\"\n"
                           "\n[[id.alternative]]\nhost = [\"libopenblas-dev\"]\n"
                           "\n[[id.alternative]]\nhost = [\"libblas-dev\"]\n"
                           "\n[[id.alternative]]\nhost = [\"libopenblas-dev\"]\n");
  write("more.toml",
        std::string(kHeader) + "\n[[id]]\nid = \"dep:virtual/interface/blas\"\nhost = [\"libblis-dev\"]\n");
  EXPECT_EQ(run(), (std::vector<std::string>{
                       "debian.toml:14:1: alternative 3 of dep:virtual/interface/blas repeats alternative 1 (line 8)",
                       "more.toml:5:1: dep:virtual/interface/blas is also in " + dir_ +
                           "/debian.toml:5:1 (ecosystem 'debian' in the same folder): say it once"}));
}

TEST_F(Lint, AReleaseThatSaysWhatTheEntrySays) {
  write("debian.toml", std::string(kHeader) + "release = \"bookworm\"\n" +
                           "\n[[id]]\nid = \"dep:generic/zlib\"\nhost = [\"zlib1g-dev\"]\n"
                           "\n[id.release.trixie]\nhost = [\"zlib1g-dev\"]\n");
  EXPECT_EQ(run(), (std::vector<std::string>{
                       "debian.toml:10:1: release trixie of dep:generic/zlib says what the entry says: remove it"}));
}

TEST_F(Lint, AMissingPathIsAProblemToo) {
  EXPECT_EQ(run({dir_ + "/nothing.toml"}), (std::vector<std::string>{"nothing.toml: no such file or folder"}));
}

}  // namespace
}  // namespace extdeps::mapping

namespace extdeps::mapping {
namespace {

// The JSON Schema for editors (schema/mapping.schema.json) accepts the shipped tables and the
// release fixture, read as TOML by Python's tomllib and checked by its jsonschema.
TEST(MappingJsonSchema, AcceptsTheShippedTables) {
  if (std::system("/usr/bin/python3 -c 'import jsonschema, tomllib' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 with tomllib and jsonschema is missing (Debian: python3-jsonschema)";
  const std::string schema = kMappings + "/../schema/mapping.schema.json";
  for (const std::string& table : {kMappings + "/debian.toml", kMappings + "/conda-forge.toml",
                                   kMappings + "/pkgconfig.toml", test::data_path("mapping/releases/debian.toml")}) {
    const std::string check =
        "/usr/bin/python3 -c 'import json,sys,tomllib,jsonschema; "
        "jsonschema.validate(tomllib.load(open(sys.argv[2], \"rb\")), json.load(open(sys.argv[1])))' " +
        schema + " " + table;
    EXPECT_EQ(std::system(check.c_str()), 0) << table;
  }
}

}  // namespace
}  // namespace extdeps::mapping
