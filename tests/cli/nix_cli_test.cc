// The nix provider from the command line: --manager nix --nix-index FILE|URL, the plan as text
// and JSON, --format shell.nix and flake.nix, and the errors of --format, over the fixture machine
// (tests/support/cli_fixture.h) whose apt has the rest.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/cli_fixture.h"
#include "tests/support/http_server.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

using nlohmann::json;

class NixCliTest : public test::CliFixture {
 protected:
  test::CliRun resolve(std::vector<std::string> more, const std::string& managers = "nix") {
    std::vector<std::string> args = {"resolve", project_, "--manager", managers, "--nix-index", index_};
    args.insert(args.end(), more.begin(), more.end());
    return run(args, {{"EXTDEPS_NIX_SYSTEM", "x86_64-linux"}, {"HOME", "/home/nobody"}, {"PATH", ""}});
  }
  std::string index_ = test::data_path("nix/nix-env-qaP.json");
};

const char* kProject = R"([external]
build-requires = ["dep:generic/cmake", "dep:virtual/compiler/cuda@<12"]
host-requires = ["dep:generic/openssl@>=3.3", "dep:generic/libxml2"]
)";

TEST_F(NixCliTest, PlansWithNixAsTextAndJson) {
  write_project("extdeps.toml", kProject);
  auto r = resolve({});
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("planned       dep:generic/openssl >=3.3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("openssl_3_3 3.3.1 (nix)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  nix profile install 'nixpkgs#cmake' 'nixpkgs#cudaPackages_11.cuda_nvcc' "
                       "'nixpkgs#openssl_3_3' 'nixpkgs#libxml2'\n"),
            std::string::npos)
      << r.out;
  auto j = resolve({"--json"});
  ASSERT_EQ(j.rc, 0) << j.err;
  auto plan = json::parse(j.out);
  ASSERT_EQ(plan["steps"].size(), 1u);
  EXPECT_EQ(plan["steps"][0]["manager"], "nix");
  EXPECT_EQ(plan["requirements"][1]["packages"][0]["ecosystem"], "nixpkgs");
  EXPECT_EQ(plan["requirements"][1]["packages"][0]["name"], "cudaPackages_11.cuda_nvcc");
}

TEST_F(NixCliTest, FormatShellNixAndFlake) {
  write_project("extdeps.toml", kProject);
  auto r = resolve({"--format", "shell.nix"});
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  EXPECT_EQ(r.out.rfind("# shell.nix for " + project_ + "/extdeps.toml, planned by extdeps for x86_64-linux\n", 0), 0u)
      << r.out;
  EXPECT_NE(r.out.find("{ pkgs ? import <nixpkgs> { } }:\n"), std::string::npos);
  EXPECT_NE(r.out.find("    pkgs.cudaPackages_11.cuda_nvcc  # dep:virtual/compiler/cuda <12 (11.8.89)\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("    pkgs.openssl_3_3  # dep:generic/openssl >=3.3 (3.3.1)\n"), std::string::npos) << r.out;
  auto f = resolve({"--format", "flake.nix"});
  ASSERT_EQ(f.rc, 0) << f.err;
  EXPECT_NE(f.out.find("devShells.${system}.default = pkgs.mkShell {"), std::string::npos) << f.out;
  EXPECT_NE(f.out.find("config.allowUnfree = true;"), std::string::npos) << f.out;
  // text and json are the plan itself.
  auto t = resolve({"--format", "json"});
  ASSERT_EQ(t.rc, 0) << t.err;
  EXPECT_EQ(json::parse(t.out)["status"], "ok");
}

// Needs nix does not meet are named in the file, and the exit code says the plan is incomplete.
TEST_F(NixCliTest, ShellNixNamesWhatOtherManagersMeetAndWhatNothingMeets) {
  write_project("extdeps.toml", R"([external]
host-requires = ["dep:generic/openssl@>=3.3", "dep:generic/openssl@>=9", "dep:generic/libxml2"]
)");
  auto r = resolve({"--format", "shell.nix"}, "nix,apt");
  EXPECT_EQ(r.rc, 1) << r.err << r.out;
  EXPECT_NE(r.out.find("# not met: dep:generic/openssl >=9 (no package manager here provides"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pkgs.openssl_3_3"), std::string::npos) << r.out;
}

TEST_F(NixCliTest, FormatErrorsAreUsageErrors) {
  write_project("extdeps.toml", kProject);
  auto r = resolve({"--format", "Dockerfile"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: unknown format 'Dockerfile' (known: text, json, shell.nix, flake.nix)\n");
  auto both = resolve({"--format", "shell.nix", "--json"});
  EXPECT_EQ(both.rc, 2);
  EXPECT_EQ(both.err, "error: --json and --format shell.nix cannot be used together (see extdeps --help)\n");
  auto apt = run({"resolve", project_, "--manager", "apt", "--format", "shell.nix"}, {{"PATH", ""}});
  EXPECT_EQ(apt.rc, 2);
  EXPECT_EQ(apt.err,
            "error: --format shell.nix renders the nix packages of a plan, and the nix provider is not in use: name it "
            "with --manager nix\n");
}

TEST_F(NixCliTest, IndexOverHttp) {
  if (!test::have_brotli()) GTEST_SKIP() << "the tests were built without libbrotlienc";
  test::HttpServer server;
  server.route("/nixos-24.05/packages.json.br",
               {.body = test::encode(test::Encoding::brotli, test::read_file(test::data_path("nix/packages.json")))});
  write_project("extdeps.toml", "[external]\nbuild-requires = [\"dep:generic/cmake\"]\n");
  index_ = server.url("/nixos-24.05/packages.json.br");
  auto r = resolve({"--json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["steps"][0]["command"].back(), "nixpkgs#cmake");
  // Offline, the cached copy answers.
  auto off = resolve({"--json", "--offline"});
  ASSERT_EQ(off.rc, 0) << off.err;
}

TEST_F(NixCliTest, VersionCompareNix) {
  auto r = run({"version", "compare", "--scheme", "nix", "1.0", "1.0pre1"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, ">\n");
}

}  // namespace
}  // namespace extdeps
