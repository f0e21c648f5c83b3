// Installed packages from conda-meta: the real environment in ../shared/data/conda/env-py313-osx
// (conda 25.1.2, python 3.13 free-threaded on osx-arm64) and damaged environments made here.
#include "providers/conda/prefix.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/providers/conda/conda_test_support.h"
#include "tests/test_support.h"

namespace extdeps::conda {
namespace {

namespace fs = std::filesystem;
using test::show;
using Strings = std::vector<std::string>;

const InstalledPackage* find(const std::vector<InstalledPackage>& pkgs, const std::string& name) {
  for (const auto& p : pkgs)
    if (p.record.name == name) return &p;
  return nullptr;
}

TEST(CondaPrefix, ReadsEveryRecordOfTheRealEnvironment) {
  EXTDEPS_SHARED_OR_SKIP(prefix, "conda/env-py313-osx");
  EXPECT_TRUE(is_conda_prefix(prefix));
  auto pkgs = read_prefix(prefix);
  ASSERT_TRUE(pkgs.ok()) << pkgs.error().message;
  // 16 *.json files; conda-meta/history is not a record.
  ASSERT_EQ(pkgs->size(), 16u);
  Strings names;
  for (const auto& p : *pkgs) names.push_back(p.record.name);
  EXPECT_EQ(names,
            (Strings{"bzip2", "ca-certificates", "libexpat", "libffi", "liblzma", "libmpdec", "libsqlite", "libzlib",
                     "ncurses", "openssl", "pip", "python", "python_abi", "readline", "tk", "tzdata"}));
  for (const auto& p : *pkgs) {
    EXPECT_TRUE(p.record.installed) << p.record.name;
    EXPECT_EQ(p.record.origin,
              prefix + "/conda-meta/" + p.record.name + "-" + p.record.version + "-" + p.record.build + ".json");
  }
}

TEST(CondaPrefix, ThePythonRecordHasItsRealValues) {
  EXTDEPS_SHARED_OR_SKIP(prefix, "conda/env-py313-osx");
  auto pkgs = read_prefix(prefix);
  ASSERT_TRUE(pkgs.ok()) << pkgs.error().message;
  const InstalledPackage* py = find(*pkgs, "python");
  ASSERT_NE(py, nullptr);
  EXPECT_EQ(py->record.version, "3.13.2");
  EXPECT_EQ(py->record.build, "hfd29fff_1_cp313t");
  EXPECT_EQ(py->record.build_number, 1u);
  EXPECT_EQ(py->record.track_features, 1u);  // "py_freethreading"
  EXPECT_EQ(py->record.arch, "osx-arm64");
  EXPECT_EQ(py->channel, "https://conda.anaconda.org/conda-forge/osx-arm64");
  EXPECT_EQ(py->fn, "python-3.13.2-hfd29fff_1_cp313t.conda");
  EXPECT_EQ(py->url, "https://conda.anaconda.org/conda-forge/osx-arm64/python-3.13.2-hfd29fff_1_cp313t.conda");
  EXPECT_EQ(show(py->record.depends),
            (Strings{"__osx|>=11.0", "bzip2|>=1.0.8,<2.0a0", "libexpat|>=2.6.4,<3.0a0", "libffi|>=3.4,<4.0a0",
                     "liblzma|>=5.6.4,<6.0a0", "libmpdec|>=4.0.0,<5.0a0", "libsqlite|>=3.48.0,<4.0a0",
                     "libzlib|>=1.3.1,<2.0a0", "ncurses|>=6.5,<7.0a0", "openssl|>=3.4.1,<4.0a0",
                     "python_abi|3.13.* *_cp313t", "readline|>=8.2,<9.0a0", "tk|>=8.6.13,<8.7.0a0", "tzdata"}));
  EXPECT_TRUE(py->record.constrains.empty());
}

TEST(CondaPrefix, OtherRecordsKeepConstrainsNoarchAndVirtualPackages) {
  EXTDEPS_SHARED_OR_SKIP(prefix, "conda/env-py313-osx");
  auto pkgs = read_prefix(prefix);
  ASSERT_TRUE(pkgs.ok()) << pkgs.error().message;
  const InstalledPackage* pip = find(*pkgs, "pip");
  EXPECT_EQ(pip->record.arch, "noarch");
  EXPECT_EQ(pip->record.version, "25.0.1");
  EXPECT_EQ(pip->record.build, "pyh145f28c_0");
  EXPECT_EQ(pip->channel, "https://conda.anaconda.org/conda-forge/noarch");
  EXPECT_EQ(show(pip->record.depends), (Strings{"python|>=3.13.0a0"}));
  EXPECT_EQ(show(find(*pkgs, "libzlib")->record.constrains), (Strings{"zlib|1.3.1 *_2"}));
  EXPECT_EQ(show(find(*pkgs, "python_abi")->record.constrains), (Strings{"python|3.13.* *_cp313t"}));
  EXPECT_EQ(find(*pkgs, "python_abi")->record.build_number, 5u);
  EXPECT_EQ(show(find(*pkgs, "bzip2")->record.depends), (Strings{"__osx|>=11.0"}));
  EXPECT_EQ(show(find(*pkgs, "openssl")->record.depends), (Strings{"__osx|>=11.0", "ca-certificates"}));
  EXPECT_EQ(find(*pkgs, "libffi")->fn, "libffi-3.4.2-h3422bc3_5.tar.bz2");
  EXPECT_EQ(find(*pkgs, "tzdata")->record.version, "2025a");
  EXPECT_EQ(find(*pkgs, "tk")->record.build_number, 1u);
}

std::string make_prefix() {
  std::string prefix = extdeps::test::temp_dir() + "/env";
  fs::create_directories(prefix + "/conda-meta");
  return prefix;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

TEST(CondaPrefix, ADamagedRecordIsAnErrorNamingTheFile) {
  std::string prefix = make_prefix();
  write(prefix + "/conda-meta/history", "not json at all\n");
  write(
      prefix + "/conda-meta/zlib-1.3.1-h0_2.json",
      R"({"name": "zlib", "version": "1.3.1", "build": "h0_2", "build_number": 2, "depends": ["libzlib 1.3.1 h0_2"]})");
  auto ok = read_prefix(prefix);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  ASSERT_EQ(ok->size(), 1u);
  EXPECT_EQ(show(ok->front().record.depends), (Strings{"libzlib|1.3.1 h0_2"}));
  EXPECT_EQ(ok->front().record.arch, "");  // no subdir recorded

  std::string bad = prefix + "/conda-meta/abc-1.0-0.json";
  write(bad, R"({"name": "abc", "version": "1.0", "build": "0", "files": ["bin/abc")");
  auto r = read_prefix(prefix);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message, bad +
                                   ": data ends early at byte offset 67 (expected ',' or ']'; the file may be "
                                   "truncated)");

  write(bad, R"({"name": "abc", "version": "1.0", "depends": []})");
  EXPECT_EQ(read_prefix(prefix).error().message,
            bad + R"(: the package record has no "build" at byte offset 0 (expected name, version and build strings))");
  write(bad, R"({"name": "abc", "version": "1.0", "build": "0", "build_number": 1.5})");
  EXPECT_EQ(read_prefix(prefix).error().message,
            bad + ": build_number is 1.5 at byte offset 64 (expected a non-negative integer)");
  write(bad, R"(["abc"])");
  EXPECT_EQ(read_prefix(prefix).error().message,
            bad + ": the file holds an array at byte offset 0 (expected an object: a conda package record)");
  write(bad, R"({"name": "abc", "version": "1.0", "build": "0"} {})");
  EXPECT_EQ(read_prefix(prefix).error().message,
            bad + ": unexpected '{' at byte offset 48 (expected the end of the data)");
}

TEST(CondaPrefix, AFolderWithoutCondaMetaIsNotAnEnvironment) {
  std::string dir = extdeps::test::temp_dir();
  EXPECT_FALSE(is_conda_prefix(dir));
  EXPECT_FALSE(is_conda_prefix(""));
  auto r = read_prefix(dir);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, dir + "/conda-meta: no such folder (expected a conda environment at " + dir + ")");
  EXPECT_EQ(r.error().code, ExitCode::environment);
  std::string empty = make_prefix();
  auto none = read_prefix(empty);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

}  // namespace
}  // namespace extdeps::conda
