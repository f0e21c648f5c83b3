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
  EXPECT_EQ(r.err, "error: --ecosystem is required (see extdeps --help)\n");
  r = run({"mappings", "export", "pep804", "--ecosystem", "gentoo"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err.rfind("error: no mapping table for ecosystem 'gentoo' (known: ", 0), 0u) << r.err;
}

}  // namespace
}  // namespace extdeps
