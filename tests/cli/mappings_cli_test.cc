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
#include "tests/support/providers.h"
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

TEST_F(MappingsCli, CoverageAsTextAndJson) {
  EXTDEPS_NEEDS_EVERY_PROVIDER();  // its output lists them all
  auto r = run({"mappings", "coverage", "--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_GE(j["count"].get<int>(), 250);
  EXPECT_EQ(j["ecosystems"], (nlohmann::json{"debian", "conda-forge", "pkgconfig", "nixpkgs", "pypi", "arch", "fedora",
                                             "homebrew", "opensuse"}));
}

// A channel's repodata by URL goes through the fetcher (and its cache): here a real conda-forge
// repodata served on 127.0.0.1.
TEST_F(MappingsCli, VerifyCondaForgeAgainstRepodataByUrl) {
  EXTDEPS_NEEDS_PROVIDER("conda");
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
  EXTDEPS_NEEDS_PROVIDER("apt");  // rosdep's debian is apt's platform
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
}

TEST_F(MappingsCli, ExportPep804) {
  auto r = run({"mappings", "export", "pep804", "--ecosystem", "conda-forge"});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["package_managers"][0]["name"], "conda");
  EXPECT_GE(j["mappings"].size(), 300u);
  // The table is named: there is no default ecosystem, and an unknown one lists those there are.
  r = run({"mappings", "export", "pep804"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: --ecosystem is required (see extdeps help)\n");
  r = run({"mappings", "export", "pep804", "--ecosystem", "gentoo"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err.rfind("error: no mapping table for ecosystem 'gentoo' (known: ", 0), 0u) << r.err;
}

// PEP 804 v2: `--release` writes the table as that release sees it under the versioned id, and
// `--known-ecosystems` sets its entry in a known-ecosystems.json, keeping the file's others. The
// expected names are trixie's (its Packages list has libssl3t64 and no libssl3).
TEST_F(MappingsCli, ExportPep804ForOneReleaseIntoKnownEcosystems) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXTDEPS_SHARED_OR_SKIP(real, "pep804/known-ecosystems.json");
  EXTDEPS_SHARED_OR_SKIP(schema, "pep804/known-ecosystems.schema.json");
  const std::string dir = test::temp_dir();
  fs::copy_file(real, dir + "/known-ecosystems.json");
  auto r = run({"mappings", "export", "pep804", "--ecosystem", "debian", "--release", "13", "-o",
                dir + "/debian+13.mapping.json", "--known-ecosystems", dir + "/known-ecosystems.json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto mapping = nlohmann::json::parse(std::ifstream(dir + "/debian+13.mapping.json"));
  EXPECT_EQ(mapping["name"], "debian+13");
  bool saw = false;
  for (const auto& m : mapping["mappings"]) {
    if (m["id"] != "dep:generic/openssl") continue;
    saw = true;
    EXPECT_EQ(m["specs"]["run"], (nlohmann::json{"libssl3t64"}));
  }
  EXPECT_TRUE(saw);
  auto known = nlohmann::json::parse(std::ifstream(dir + "/known-ecosystems.json"));
  EXPECT_EQ(known["ecosystems"]["debian+13"]["mapping"], "file://" + dir + "/debian+13.mapping.json");
  EXPECT_EQ(known["ecosystems"].size(), 14u);  // the 13 the real file lists, and this one
  EXPECT_EQ(known["ecosystems"]["ubuntu"], nlohmann::json::parse(std::ifstream(real))["ecosystems"]["ubuntu"]);
  EXPECT_EQ(test::json_schema_problem(schema, dir + "/known-ecosystems.json"), "");
  // A given URL is the entry's, and the plain table's export replaces nothing else.
  r = run({"mappings", "export", "pep804", "--ecosystem", "debian", "-o", dir + "/debian.mapping.json",
           "--known-ecosystems", dir + "/known-ecosystems.json", "--mapping-url", "https://example.org/debian.json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  known = nlohmann::json::parse(std::ifstream(dir + "/known-ecosystems.json"));
  EXPECT_EQ(known["ecosystems"]["debian"]["mapping"], "https://example.org/debian.json");
  EXPECT_EQ(known["ecosystems"].size(), 15u);
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(dir + "/debian.mapping.json"))["name"], "debian (bookworm)");
}

TEST_F(MappingsCli, ExportPep804RefusesACodenameAndABadKnownEcosystemsFile) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  const std::string dir = test::temp_dir();
  auto r = run({"mappings", "export", "pep804", "--ecosystem", "debian", "--release", "trixie"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err,
            "error: release 'trixie' is not an os-release VERSION_ID (13, 24.04): PEP 804's versioned ecosystem "
            "ids name the VERSION_ID, not the codename\n");
  // A known-ecosystems file of the wrong shape is named, and neither file is written.
  std::ofstream(dir + "/known.json") << R"({"ecosystems": {"arch": {"url": "x"}}})";
  r = run({"mappings", "export", "pep804", "--ecosystem", "debian", "-o", dir + "/out.json", "--known-ecosystems",
           dir + "/known.json"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err,
            "error: " + dir + "/known.json: ecosystems.arch: expected an object with a string \"mapping\" (its URL)\n");
  EXPECT_FALSE(fs::exists(dir + "/out.json"));
  std::ofstream(dir + "/broken.json") << R"({"ecosystems": {)";
  r = run({"mappings", "export", "pep804", "--ecosystem", "debian", "-o", dir + "/out.json", "--known-ecosystems",
           dir + "/broken.json"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err.rfind("error: " + dir + "/broken.json: not JSON at byte offset 16", 0), 0u) << r.err;
  // Where the URL would come from.
  r = run({"mappings", "export", "pep804", "--ecosystem", "debian", "--known-ecosystems", dir + "/k.json"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err,
            "error: --known-ecosystems names the mapping's URL: give --output FILE (its file:// URL) or "
            "--mapping-url URL\n");
  EXPECT_FALSE(fs::exists(dir + "/k.json"));
}

// The overrides on the command line, in their variables and in a configuration file reach the
// plan (over the fixture's real bookworm lists, which hold gcc and gcc-12 and no clang): an
// override in PEP 804's form that pins the C compiler to gcc-12; a missing file is bad input
// that names the setting.
TEST_F(MappingsCli, MappingOverridesReachThePlan) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/gcc-12.json") << R"({"schema_version": 1, "mappings": [
    {"id": "dep:virtual/compiler/c", "description": "GCC 12 override", "specs": "gcc-12"}]})";
  write_project("extdeps.toml", "[external]\nbuild-requires = [\"dep:virtual/compiler/c\"]\n");
  auto compiler = [](const test::CliRun& r) {
    auto j = nlohmann::json::parse(r.out);
    for (const auto& n : j["requirements"])
      if (n["id"] == "dep:virtual/compiler/c") return n["packages"].dump();
    return std::string("(no need)");
  };
  auto plain = run({"resolve", project_, "--manager", "apt", "--json"});
  ASSERT_EQ(plain.rc, 0) << plain.err;
  EXPECT_NE(compiler(plain).find("\"gcc\""), std::string::npos) << compiler(plain);
  auto patched =
      run({"resolve", project_, "--manager", "apt", "--json", "--patch-mapping", "debian=" + dir + "/gcc-12.json"});
  ASSERT_EQ(patched.rc, 0) << patched.err;
  EXPECT_NE(compiler(patched).find("\"gcc-12\""), std::string::npos) << compiler(patched);
  EXPECT_EQ(compiler(patched).find("\"gcc\""), std::string::npos) << compiler(patched);
  // A repeatable option takes one value each time: the folder after it is the command's.
  auto before_folder =
      run({"resolve", "--patch-mapping", "debian=" + dir + "/gcc-12.json", "--manager", "apt", project_, "--json"});
  EXPECT_EQ(before_folder.out, patched.out) << before_folder.err;
  auto by_variable = run({"resolve", project_, "--manager", "apt", "--json"},
                         {{"EXTDEPS_PATCH_MAPPING", "debian=" + dir + "/gcc-12.json"}});
  EXPECT_EQ(by_variable.out, patched.out);
  write_project("extdeps.toml",
                "[external]\nbuild-requires = [\"dep:virtual/compiler/c\"]\n\n[tool.extdeps]\n"
                "patch-mapping = [\"debian=" +
                    dir + "/gcc-12.json\"]\n");
  auto by_file = run({"resolve", project_, "--manager", "apt", "--json"});
  EXPECT_EQ(compiler(by_file), compiler(patched)) << by_file.err;
  auto missing = run({"resolve", project_, "--manager", "apt", "--use-mapping", "debian=" + dir + "/none.json"});
  EXPECT_EQ(missing.rc, 2);
  EXPECT_EQ(missing.err, "error: --use-mapping: no mapping file " + dir + "/none.json\n");
}

// PEP 804's "local or remote mapping": a URL is read through the download cache, so a second,
// --offline run needs no network; a missing one is named with its URL. Served on 127.0.0.1.
TEST_F(MappingsCli, AMappingOverrideByUrl) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  test::HttpServer server;
  test::Route route;
  route.body = R"({"schema_version": 1, "mappings": [
    {"id": "dep:virtual/compiler/c", "description": "GCC 12 override", "specs": "gcc-12"}]})";
  server.route("/mappings/debian.mapping.json", route);
  const std::string url = server.url("/mappings/debian.mapping.json");
  write_project("extdeps.toml", "[external]\nbuild-requires = [\"dep:virtual/compiler/c\"]\n");
  auto r = run({"resolve", project_, "--manager", "apt", "--json", "--patch-mapping", url});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto packages = [](const test::CliRun& run) {
    auto j = nlohmann::json::parse(run.out);
    return j["requirements"][0]["packages"][0]["name"].get<std::string>();
  };
  EXPECT_EQ(packages(r), "gcc-12");  // the file's name says its ecosystem
  EXPECT_EQ(server.count("/mappings/debian.mapping.json"), 1);
  auto offline = run({"resolve", project_, "--manager", "apt", "--json", "--offline", "--patch-mapping", url});
  ASSERT_EQ(offline.rc, 0) << offline.err;
  EXPECT_EQ(packages(offline), "gcc-12");
  EXPECT_EQ(server.count("/mappings/debian.mapping.json"), 1);
  // A broken body is named by its URL and byte offset, not by the cache's file.
  route.body = R"({"mappings": [)";
  server.route("/mappings/broken.mapping.json", route);
  r = run({"resolve", project_, "--manager", "apt", "--patch-mapping",
           "debian=" + server.url("/mappings/broken.mapping.json")});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err.rfind("error: " + server.url("/mappings/broken.mapping.json") + ": not JSON at byte offset 14", 0),
            0u)
      << r.err;
  r = run({"resolve", project_, "--manager", "apt", "--extend-mapping", "debian=" + url + ".missing"});
  EXPECT_EQ(r.rc, 3) << r.err;
  EXPECT_NE(r.err.find(url + ".missing"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace extdeps
