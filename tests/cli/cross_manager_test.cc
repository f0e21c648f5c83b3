// Two managers in one solve: the system's own (dnf on a Fedora root, pacman on an Arch root, both
// built by the real tools: tests/providers/*/make_world.sh) and PyPI (the loopback index of
// tests/data/pypi), in the order --manager gives: what the first one has comes from it, what only
// the second has (the CUDA runtime, as a wheel) from the second, each in its own step.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/cli/cli.h"
#include "tests/providers/pypi/pypi_index_server.h"
#include "tests/support/providers.h"
#include "tests/support/tool_world.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

const char* kPython = "/usr/bin/python3";

struct Plan {
  int rc = 0;
  std::string err;
  nlohmann::json j;
  std::map<std::string, std::string> by;  // need id -> the manager whose step meets it
};

Plan resolve(const std::string& root, const std::string& managers, const std::string& mappings,
             test::HttpServer& server) {
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/pyproject.toml")
      << "[project]\nname = \"cross\"\nversion = \"0\"\n[external]\n"
         "host-requires = [\"dep:generic/zlib\", \"dep:generic/gdal >=3.4\", \"dep:generic/hdf5\"]\n"
         "dependencies = [\"dep:generic/cuda@>=12\"]\n";
  auto ctx = Context::from_process();
  ctx.set_warning_sink(nullptr);
  // A driver of CUDA 12.4, as the pypi CLI tests assume: the plan is for a GPU machine.
  ctx.set_env([](std::string_view name) -> std::optional<std::string> {
    if (name == "EXTDEPS_OVERRIDE_CUDA") return "12.4";
    const char* v = std::getenv(std::string(name).c_str());
    return v ? std::optional<std::string>(v) : std::nullopt;
  });
  std::ostringstream out, err;
  Plan p;
  p.rc =
      cli::run(ctx,
               {"resolve", dir + "/pyproject.toml", "--root", root, "--manager", managers, "--mapping-dir", mappings,
                "--python", kPython, "--index-url", server.url("/simple/"), "--json", "--cache-dir", test::temp_dir()},
               out, err);
  p.err = err.str();
  p.j = nlohmann::json::parse(out.str(), nullptr, false);
  if (p.j.is_discarded()) return p;
  for (const auto& step : p.j["steps"])
    for (const auto& pkg : step["packages"])
      for (const auto& r : p.j["requirements"])
        for (const auto& q : r["packages"])
          if (q["name"] == pkg["name"]) p.by[r["id"]] = step["manager"];
  return p;
}

class CrossManager : public ::testing::Test {
 protected:
  void SetUp() override {
    EXTDEPS_NEEDS_PROVIDER("pypi");
    if (::access(kPython, X_OK) != 0) GTEST_SKIP() << kPython << " is needed (scripts/install-deps.sh installs it)";
    pypi::testing::serve_index(server_);
  }
  test::HttpServer server_;
};

TEST_F(CrossManager, DnfThenPypi) {
  EXTDEPS_NEEDS_PROVIDER("dnf");
  TOOL_WORLD_OR_SKIP(w, "dnf");
  auto p = resolve(w + "/root", "dnf,pypi", test::data_path("dnf/mappings"), server_);
  ASSERT_EQ(p.rc, 0) << p.err << p.j.dump(1);
  ASSERT_EQ(p.j["steps"].size(), 2u) << p.j.dump(1);
  EXPECT_EQ(p.j["steps"][0]["manager"], "dnf");
  EXPECT_EQ(p.j["steps"][1]["manager"], "pypi");
  EXPECT_EQ(p.by["dep:generic/gdal"], "dnf");
  EXPECT_EQ(p.by["dep:generic/hdf5"], "dnf");
  EXPECT_EQ(p.by["dep:generic/cuda"], "pypi");
}

TEST_F(CrossManager, PacmanThenPypi) {
  EXTDEPS_NEEDS_PROVIDER("pacman");
  TOOL_WORLD_OR_SKIP(w, "pacman");
  auto p = resolve(w + "/root", "pacman,pypi", test::data_path("pacman/mappings"), server_);
  ASSERT_EQ(p.rc, 0) << p.err << p.j.dump(1);
  ASSERT_EQ(p.j["steps"].size(), 2u) << p.j.dump(1);
  EXPECT_EQ(p.j["steps"][0]["manager"], "pacman");
  EXPECT_EQ(p.j["steps"][1]["manager"], "pypi");
  EXPECT_EQ(p.by["dep:generic/gdal"], "pacman");
  EXPECT_EQ(p.by["dep:generic/cuda"], "pypi");
}

}  // namespace
}  // namespace extdeps
