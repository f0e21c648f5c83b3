// The nix provider from the command line where a case needs a loopback server: an index over
// HTTP and then offline (the plans, formats and their errors are cases under tests/cases/nix/).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/cli_fixture.h"
#include "tests/support/http_server.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

using nlohmann::json;

class NixCliTest : public test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    EXTDEPS_NEEDS_PROVIDER("nix");
  }
  test::CliRun resolve(std::vector<std::string> more, const std::string& managers = "nix") {
    std::vector<std::string> args = {"resolve", project_, "--manager", managers, "--nix-index", index_};
    args.insert(args.end(), more.begin(), more.end());
    return run(args, {{"EXTDEPS_NIX_SYSTEM", "x86_64-linux"}, {"HOME", "/home/nobody"}, {"PATH", ""}});
  }
  std::string index_ = test::data_path("nix/nix-env-qaP.json");
};

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

}  // namespace
}  // namespace extdeps
