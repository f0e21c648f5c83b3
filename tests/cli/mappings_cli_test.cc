// `extdeps mappings lint|coverage|verify|import|export`, and the guesses `resolve` makes for ids
// no table knows, run in-process over the fixture machine (tests/support/cli_fixture.h): exit
// codes, the file:line:col of problems, the JSON forms.
#include "core/cli/cli.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/cli_fixture.h"
#include "tests/support/http_server.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

class MappingsCli : public test::CliFixture {
 protected:
  std::string write_table(const std::string& dir, const std::string& name, const std::string& text) {
    fs::create_directories(dir);
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  }
};

const char* kHeader = "schema = 1\necosystem = \"debian\"\nmanager = \"apt\"\nversion = \"deb-upstream\"\n";

TEST_F(MappingsCli, LintOfTheShippedTablesIsClean) {
  auto r = run({"mappings", "lint"});
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("ok: 5 tables, ", 0), 0u) << r.out;
}

TEST_F(MappingsCli, LintExitsOneWithFileLineCol) {
  const std::string dir = test::temp_dir();
  const std::string f = write_table(dir, "debian.toml", std::string(kHeader) +
                                                            "\n[[id]]\nid = \"dep:generic/zlib\"\nhost = [\"zlib1g-dev\"]\n"
                                                            "\n[[id]]\nid = \"dep:generic/cmake\"\nbuild = [\"cmake\"]\n");
  auto r = run({"mappings", "lint", f});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, f + ":10:1: dep:generic/cmake is out of order: entries are sorted by id (it belongs before "
                       "dep:generic/zlib, line 6)\n1 problem in 1 table\n");
  write_table(dir, "debian.toml", "schema = 1\necosystem = \"debian\"\nmanager = \"apt\"\n[[id]]\nid = 3\n");
  r = run({"mappings", "lint", dir});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, f + ":5:6: 'id' must be a string, got integer\n1 problem in 1 table\n");
}

TEST_F(MappingsCli, LintOfAPathThatIsNotThereIsBadInput) {
  auto r = run({"mappings", "lint", project_ + "/nothing.toml"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: " + project_ + "/nothing.toml: no such file or folder\n");
}

TEST_F(MappingsCli, CoverageAsTextAndJson) {
  auto r = run({"mappings", "coverage", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_GE(j["count"].get<int>(), 250);
  EXPECT_EQ(j["ecosystems"], (nlohmann::json{"debian", "conda-forge", "pkgconfig", "nixpkgs", "pypi"}));
  r = run({"mappings", "coverage"});
  ASSERT_EQ(r.rc, 0);
  EXPECT_NE(r.out.find("\ndep:generic/zlib "), std::string::npos);
}

// Users add ids without editing the shipped tables: --mapping-dir, or mapping-dirs in their
// configuration (relative to the file), both for coverage and for resolve.
TEST_F(MappingsCli, ExtraMappingFoldersFromTheCommandLineAndTheConfiguration) {
  const std::string extra = test::temp_dir() + "/site";
  write_table(extra, "debian.toml", std::string(kHeader) + "\n[[id]]\nid = \"dep:generic/site-lib\"\nhost = [\"libnsl-dev\"]\n");
  auto r = run({"mappings", "coverage", "--json", "--mapping-dir", extra});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("\"dep:generic/site-lib\""), std::string::npos);
  const std::string config_home = test::temp_dir();
  fs::create_directories(config_home + "/extdeps");
  fs::create_directories(config_home + "/extdeps/site");
  fs::copy(extra + "/debian.toml", config_home + "/extdeps/site/debian.toml");
  std::ofstream(config_home + "/extdeps/config.toml") << "mapping-dirs = [\"site\"]\n";
  r = run({"mappings", "coverage", "--json"}, {{"XDG_CONFIG_HOME", config_home}});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("\"dep:generic/site-lib\""), std::string::npos);
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/site-lib\"]\n");
  r = run({"resolve", project_, "--json", "--manager", "apt"}, {{"XDG_CONFIG_HOME", config_home}});
  auto j = nlohmann::json::parse(r.out);
  EXPECT_NE(j["requirements"][0]["status"], "unmapped") << r.out;
  EXPECT_FALSE(j["requirements"][0].contains("guess"));
  EXPECT_EQ(j["requirements"][0]["packages"][0]["name"], "libnsl-dev");
}

TEST_F(MappingsCli, VerifyAgainstTheMachinesAptLists) {
  const std::string dir = test::temp_dir();
  write_table(dir, "debian.toml", std::string(kHeader) + "\n[[id]]\nid = \"dep:generic/zlib\"\nhost = [\"zlib1g-dev\"]\nrun = [\"zlib1g\"]\n");
  auto r = run({"mappings", "verify", "--ecosystem", "debian"}, {{"EXTDEPS_MAPPINGS_DIR", dir}});
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("ok: debian: checked 2 names of 1 ids against this machine's apt lists"), std::string::npos)
      << r.out;
  write_table(dir, "debian.toml", std::string(kHeader) + "\n[[id]]\nid = \"dep:generic/zlib\"\nhost = [\"zlib-ng-dev\"]\n");
  r = run({"mappings", "verify", "--ecosystem", "debian"}, {{"EXTDEPS_MAPPINGS_DIR", dir}});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), dir + "/debian.toml:6:1: dep:generic/zlib: zlib-ng-dev is not in the index");
}

TEST_F(MappingsCli, VerifyNeedsAnIndexItCanRead) {
  auto r = run({"mappings", "verify", "--ecosystem", "pkgconfig"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: no index to verify the pkgconfig table against: verify reads apt lists (apt tables) "
                   "and conda repodata (conda tables)\n");
  r = run({"mappings", "verify", "--ecosystem", "gentoo"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: no mapping table for ecosystem 'gentoo' (known: conda-forge, debian, nixpkgs, pkgconfig, pypi)\n");
  r = run({"mappings", "verify", "--ecosystem", "conda-forge"});
  EXPECT_EQ(r.rc, 2);
  r = run({"mappings", "verify"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("--ecosystem is required"), std::string::npos) << r.err;
}

// A channel's repodata by URL goes through the fetcher (and its cache): here a real conda-forge
// repodata served on 127.0.0.1.
TEST_F(MappingsCli, VerifyCondaForgeAgainstRepodataByUrl) {
  EXTDEPS_SHARED_OR_SKIP(repodata, "conda/conda-forge-numpy-linux-64.json");
  test::HttpServer server;
  test::Route route;
  route.body = test::read_file(repodata);
  server.route("/conda-forge/linux-64/repodata.json", route);
  const std::string url = server.url("/conda-forge/linux-64/repodata.json");
  auto r = run({"mappings", "verify", "--ecosystem", "conda-forge", "--repodata", url});
  // The repodata has numpy's closure only: the names it has are found, the rest is missing.
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.out.find("conda-forge: checked "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": dep:generic/zstd: zstd is not in the index"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(": dep:generic/zlib: libzlib is not in the index"), std::string::npos) << r.out;
  EXPECT_EQ(server.count("/conda-forge/linux-64/repodata.json"), 1);
  r = run({"mappings", "verify", "--ecosystem", "conda-forge", "--repodata", url + ".missing"});
  EXPECT_EQ(r.rc, 3) << r.err;
  EXPECT_NE(r.err.find(url + ".missing"), std::string::npos) << r.err;
}

TEST_F(MappingsCli, ImportWritesTablesThatLintClean) {
  EXTDEPS_SHARED_OR_SKIP(ubuntu, "pep804/ubuntu.mapping.json");
  EXTDEPS_SHARED_OR_SKIP(base, "rosdep/base.yaml");
  const std::string out = test::temp_dir();
  auto r = run({"mappings", "import", "pep804", ubuntu, "-o", out + "/ubuntu.toml"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "");
  r = run({"mappings", "import", "rosdep", base, "--os", "debian:bookworm"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out.rfind("# Imported from the rosdep table base.yaml for debian:bookworm", 0), 0u);
  EXPECT_NE(r.err.find("rosdep: 1295 keys; "), std::string::npos) << r.err;
  std::ofstream(out + "/rosdep.toml") << r.out;
  for (const char* t : {"/ubuntu.toml", "/rosdep.toml"}) {
    auto lint = run({"mappings", "lint", out + t});
    EXPECT_EQ(lint.rc, 0) << lint.out;
  }
  r = run({"mappings", "import", "rosdep", base});
  EXPECT_EQ(r.rc, 2);
  r = run({"mappings", "import", "rosdep", base, "--os", "debian"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: --os 'debian': expected debian:CODENAME or ubuntu:CODENAME (e.g. debian:bookworm)\n");
}

TEST_F(MappingsCli, ExportPep804) {
  auto r = run({"mappings", "export", "pep804", "--ecosystem", "conda-forge"});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["package_managers"][0]["name"], "conda");
  EXPECT_GE(j["mappings"].size(), 300u);
  r = run({"mappings", "export", "pep804", "--ecosystem", "pkgconfig"});
  EXPECT_EQ(r.rc, 2);
}

// An id no table maps: what is named after it is planned, marked as a guess with its evidence
// in the text and in the JSON; --no-guess leaves it unmapped.
TEST_F(MappingsCli, ResolveGuessesForAnUnmappedIdAndSaysSo) {
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/libnsl\"]\n"
                                "build-requires = [\"dep:generic/mawk\"]\n");
  auto r = run({"resolve", project_, "--json"});
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> by_id;
  for (const auto& x : j["requirements"]) by_id[x["id"]] = x;
  const auto& nsl = by_id["dep:generic/libnsl"];
  EXPECT_EQ(nsl["packages"][0]["name"], "libnsl-dev");
  EXPECT_EQ(nsl["guess"]["evidence"][0].get<std::string>().rfind("debian package libnsl-dev is ", 0), 0u) << nsl.dump();
  EXPECT_EQ(by_id["dep:generic/mawk"]["packages"][0]["name"], "mawk");
  EXPECT_EQ(by_id["dep:generic/mawk"]["status"], "satisfied");
  ASSERT_TRUE(j.contains("warnings"));
  EXPECT_NE(j["warnings"].dump().find("dep:generic/libnsl is in no mapping table: libnsl-dev is a guess"),
            std::string::npos) << j["warnings"].dump();
  r = run({"resolve", project_});
  EXPECT_NE(r.out.find("[guess: no mapping table knows it]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("      guessed: debian package mawk is installed (" + root_ +
                       "/var/lib/dpkg/status), named after dep:generic/mawk (a package of exactly that name)"),
            std::string::npos) << r.out;
  r = run({"resolve", project_, "--json", "--no-guess"});
  EXPECT_EQ(r.rc, 1);
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["requirements"][0]["status"], "unmapped");
  EXPECT_FALSE(j["requirements"][0].contains("guess"));
}

// A pkg-config module the tables list, named as the id: the id is taken to be that entry's, a
// guess that says so, already met by the installed module.
TEST_F(MappingsCli, APkgConfigModuleNamedAfterTheIdIsAGuessToo) {
  const std::string pc = "/usr/lib/x86_64-linux-gnu/pkgconfig";
  fs::create_directories(root_ + pc);
  fs::copy(test::data_path("pkgconf/root/usr/lib/x86_64-linux-gnu/pkgconfig/libpng16.pc"), root_ + pc + "/libpng16.pc");
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/libpng16\"]\n");
  auto r = run({"resolve", project_, "--json"}, {{"PKG_CONFIG_LIBDIR", pc}});
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  const auto& x = j["requirements"][0];
  EXPECT_EQ(x["status"], "satisfied");
  EXPECT_EQ(x["packages"][0]["ecosystem"], "pkgconfig");
  EXPECT_EQ(x["packages"][0]["name"], "libpng16");
  EXPECT_EQ(x["canonical_id"], "dep:generic/libpng");
  EXPECT_EQ(x["guess"]["evidence"][0], "the pkg-config module libpng16.pc is dep:generic/libpng's (pkgconfig table), "
                                       "so dep:generic/libpng16 is taken to be dep:generic/libpng");
  EXPECT_NE(j["warnings"].dump().find("dep:generic/libpng16 is in no mapping table: the pkg-config module libpng16.pc"),
            std::string::npos) << j["warnings"].dump();
}

}  // namespace
}  // namespace extdeps

namespace extdeps {
namespace {

// A guessed need in --json follows schema/plan.schema.json (Python's jsonschema).
TEST_F(MappingsCli, AGuessInJsonFollowsThePlanSchema) {
  if (std::system("/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 with jsonschema is missing (Debian: python3-jsonschema)";
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/libnsl\", \"dep:generic/zlib\"]\n");
  auto r = run({"resolve", project_, "--json"});
  ASSERT_EQ(r.rc, 0) << r.out;
  ASSERT_NE(r.out.find("\"guess\""), std::string::npos);
  const std::string doc = test::temp_dir() + "/plan.json";
  std::ofstream(doc) << r.out;
  const std::string schema = std::string(EXTDEPS_SOURCE_MAPPINGS_DIR) + "/../schema/plan.schema.json";
  const std::string check = "/usr/bin/python3 -c 'import json,sys,jsonschema; "
                            "jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' " +
                            schema + " " + doc;
  EXPECT_EQ(std::system(check.c_str()), 0) << r.out;
}

}  // namespace
}  // namespace extdeps
