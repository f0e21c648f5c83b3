// `extdeps env` over the fixture machine (tests/support/cli_fixture.h: real bookworm lists and
// dpkg status, libxml2-dev taken out), with real .pc files and a real conda environment
// (conda-meta records) written by the tests.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/context/context.h"
#include "core/detect/host.h"
#include "core/env/collect.h"
#include "providers/pkgconf/pkgconf_provider.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace extdeps::test {
namespace {

constexpr const char* kMet = R"([external]
build-requires = ["dep:virtual/compiler/c", "dep:generic/pkg-config"]
host-requires = ["dep:generic/zlib", "dep:generic/openssl@>=3"]
)";

class EnvCommandTest : public CliFixture {
 protected:
  // A library installed by hand under a prefix of its own: header, archive and greet.pc.
  std::string make_prefix(const std::string& prefix) {
    fs::create_directories(prefix + "/include");
    fs::create_directories(prefix + "/lib/pkgconfig");
    std::ofstream(prefix + "/include/greet.h") << "const char* greet(void);\n";
    std::ofstream(prefix + "/lib/pkgconfig/greet.pc")
        << "prefix=" << prefix << "\nincludedir=${prefix}/include\nlibdir=${prefix}/lib\n\n"
        << "Name: greet\nDescription: says hello\nVersion: 1.2.0\n"
        << "Libs: -L${libdir} -lgreet\nCflags: -I${includedir}\n";
    return prefix + "/lib/pkgconfig";
  }
  // Mapping tables that know dep:generic/extdeps-test-greet: pkg-config module greet, conda
  // package greet.
  std::string greet_tables() {
    std::string dir = temp_dir();
    std::ofstream(dir + "/pkgconfig.toml")
        << "schema = 1\necosystem = \"pkgconfig\"\ndescription = \"test\"\n\n"
           "[[id]]\nid = \"dep:generic/extdeps-test-greet\"\nmodules = [\"greet\"]\n";
    std::ofstream(dir + "/conda-forge.toml") << "schema = 1\necosystem = \"conda-forge\"\nmanager = "
                                                "\"conda\"\ndescription = \"test\"\nversion = \"native\"\n\n"
                                                "[[id]]\nid = \"dep:generic/extdeps-test-greet\"\nhost = [\"greet\"]\n";
    return dir;
  }
};

TEST_F(EnvCommandTest, AModuleOnTheDefaultSearchPathNeedsNothing) {
  // greet.pc in a folder of libpkgconf's compiled-in search path, under the fixture root.
  auto defaults = pkgconf::default_search_path();
  ASSERT_FALSE(defaults.empty());
  std::string machine_dir = defaults.back();
  fs::create_directories(root_ + machine_dir);
  std::ofstream(root_ + machine_dir + "/greet.pc")
      << "prefix=/usr\nincludedir=${prefix}/include\nlibdir=${prefix}/lib\n\n"
      << "Name: greet\nDescription: says hello\nVersion: 1.2.0\nLibs: -lgreet\n";
  write_project("extdeps.toml", "[external]\nhost-requires = [\"dep:generic/extdeps-test-greet\"]\n");
  auto r = run({"env", project_, "--mapping-dir", greet_tables()}, {{"PKG_CONFIG_LIBDIR", machine_dir}});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(EnvCommandTest, ACondaEnvironmentGivesItsPrefix) {
  EXTDEPS_NEEDS_PROVIDER("conda");
  // A conda environment with greet installed (its conda-meta record), and a channel that has it.
  std::string env = temp_dir() + "/envs/work";
  fs::create_directories(env + "/conda-meta");
  fs::create_directories(env + "/include");
  fs::create_directories(env + "/lib/pkgconfig");
  fs::create_directories(env + "/bin");
  json rec{{"name", "greet"},          {"version", "1.2.0"},   {"build", "h0_0"}, {"build_number", 0},
           {"depends", json::array()}, {"subdir", "linux-64"}, {"license", "MIT"}};
  std::string channel = temp_dir();
  fs::create_directories(channel + "/linux-64");
  fs::create_directories(channel + "/noarch");
  std::ofstream(channel + "/linux-64/repodata.json") << json{
      {"info", {{"subdir", "linux-64"}}},
      {"packages", json::object()},
      {"packages.conda", {{"greet-1.2.0-h0_0.conda", rec}}}}.dump();
  std::ofstream(channel + "/noarch/repodata.json") << json{
      {"info", {{"subdir", "noarch"}}},
      {"packages", json::object()},
      {"packages.conda", json::object()}}.dump();
  rec["channel"] = "file://" + channel + "/linux-64";
  std::ofstream(env + "/conda-meta/greet-1.2.0-h0_0.json") << rec.dump();

  write_project("extdeps.toml", "[external]\nbuild-requires = [\"dep:generic/extdeps-test-greet\"]\n");
  auto r = run({"env", project_, "--mapping-dir", greet_tables(), "--manager", "conda", "--channel",
                "file://" + channel, "--format", "json"},
               {{"CONDA_PREFIX", env}, {"CONDA_SUBDIR", "linux-64"}, {"PATH", "/usr/bin"}});
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  auto doc = json::parse(r.out);
  std::map<std::string, std::vector<std::string>> vars;
  for (const auto& v : doc["variables"]) {
    EXPECT_EQ(v["kind"], "path-list");
    EXPECT_EQ(v["needs"], json::array({"dep:generic/extdeps-test-greet"}));
    vars[v["name"]] = v["entries"].get<std::vector<std::string>>();
  }
  EXPECT_EQ(vars, (std::map<std::string, std::vector<std::string>>{
                      {"CMAKE_PREFIX_PATH", {env}},
                      {"CPATH", {env + "/include"}},
                      {"LD_LIBRARY_PATH", {env + "/lib"}},
                      {"LIBRARY_PATH", {env + "/lib"}},
                      {"PATH", {env + "/bin"}},  // a build need: its tools
                      {"PKG_CONFIG_PATH", {env + "/lib/pkgconfig"}},
                  }));
}

// --format json validates against schema/env.schema.json (which refers to plan.schema.json), met
// and missing alike; checked by Python's jsonschema, skipped, saying why, where it is missing.
TEST_F(EnvCommandTest, JsonFollowsTheEnvSchema) {
  EXTDEPS_NEEDS_PROVIDER("apt");  // --manager apt
  if (std::system("/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 with jsonschema is missing (Debian: python3-jsonschema)";
  std::string schemas = std::string(EXTDEPS_SOURCE_MAPPINGS_DIR) + "/../schema";
  std::string script = temp_dir() + "/validate.py";
  std::ofstream(script)
      << "import json, sys, jsonschema\n"
         "env = json.load(open(sys.argv[1] + '/env.schema.json'))\n"
         "plan = json.load(open(sys.argv[1] + '/plan.schema.json'))\n"
         "resolver = jsonschema.RefResolver.from_schema(env, store={plan['$id']: plan})\n"
         "jsonschema.Draft202012Validator(env, resolver=resolver).validate(json.load(open(sys.argv[2])))\n";
  std::string prefix = temp_dir() + "/opt/greet";
  std::string pc_dir = make_prefix(prefix);
  write_project("extdeps.toml",
                "[external]\nhost-requires = [\"dep:generic/extdeps-test-greet\", \"dep:generic/libxml2\", "
                "\"dep:github/apache/arrow\"]\n");
  auto r = run({"env", project_, "--mapping-dir", greet_tables(), "--manager", "apt", "--format", "json"},
               {{"PKG_CONFIG_PATH", pc_dir}});
  ASSERT_EQ(r.rc, 1) << r.err;
  auto doc = json::parse(r.out);
  EXPECT_EQ(doc["variables"].size(), 5u);
  EXPECT_EQ(doc["missing"].size(), 2u);
  std::string file = temp_dir() + "/env.json";
  std::ofstream(file) << r.out;
  EXPECT_EQ(std::system(("/usr/bin/python3 " + script + " " + schemas + " " + file).c_str()), 0) << r.out;
  // A document that breaks it is caught (the check checks).
  doc["variables"][0]["kind"] = "list";
  std::ofstream(file) << doc.dump();
  EXPECT_NE(std::system(("/usr/bin/python3 " + script + " " + schemas + " " + file + " 2>/dev/null").c_str()), 0);
}

// A CUDA toolkit: CUDA_HOME and CUDAToolkit_ROOT are the folder above nvcc's bin/, symlinks
// resolved; its bin/ goes on PATH only when it is not there.
TEST(EnvCollect, ACudaToolkitGivesItsRoot) {
  std::string root = temp_dir();
  fs::create_directories(root + "/usr/lib/nvidia-cuda-toolkit/bin");
  fs::create_directories(root + "/usr/bin");
  fs::create_directories(root + "/usr/local/cuda-12.4/bin");
  std::ofstream(root + "/usr/lib/nvidia-cuda-toolkit/bin/nvcc") << "#!/bin/sh\n";
  std::ofstream(root + "/usr/local/cuda-12.4/bin/nvcc") << "#!/bin/sh\n";
  fs::create_symlink("../lib/nvidia-cuda-toolkit/bin/nvcc", root + "/usr/bin/nvcc");
  auto ctx = Context::for_test(root, {{"PATH", "/usr/bin:/bin"}});
  EXPECT_EQ(env::cuda_root_of(ctx, "/usr/bin/nvcc"), "/usr/lib/nvidia-cuda-toolkit");
  EXPECT_EQ(env::cuda_root_of(ctx, "/usr/local/cuda-12.4/bin/nvcc"), "/usr/local/cuda-12.4");
  EXPECT_EQ(env::cuda_root_of(ctx, "/opt/none/bin/nvcc"), "");

  // Met by the nvcc the detection layer found (the "host" ecosystem's nvcc, its path as origin).
  plan::Outcome o;
  plan::RequirementOutcome r;
  r.requirement.url.type = "virtual";
  r.requirement.url.ns = "compiler";
  r.requirement.url.name = "cuda";
  r.requirement.category = Category::build;
  r.status = plan::Status::satisfied;
  r.packages.push_back({"host", "host", "nvcc", "12.4.131", true, "/usr/local/cuda-12.4/bin/nvcc"});
  o.requirements.push_back(r);
  std::vector<std::unique_ptr<Provider>> none;
  BuildEnv e = env::collect(ctx, o, none, nullptr);
  ASSERT_NE(e.find("CUDA_HOME"), nullptr);
  EXPECT_EQ(e.find("CUDA_HOME")->value, "/usr/local/cuda-12.4");
  EXPECT_EQ(e.find("CUDAToolkit_ROOT")->value, "/usr/local/cuda-12.4");
  ASSERT_NE(e.find("PATH"), nullptr);
  EXPECT_EQ(e.find("PATH")->entries, std::vector<std::string>{"/usr/local/cuda-12.4/bin"});

  // Met by a package (Debian's toolkit): the nvcc the detection layer found, already on PATH.
  o.requirements[0].packages = {
      {"apt", "debian", "nvidia-cuda-toolkit", "11.8.89~11.8.0-5~deb12u1", true, "/var/lib/dpkg/status"}};
  detect::HostFacts host;
  host.compilers.push_back({"nvcc", "/usr/bin/nvcc", "11.8.89"});
  e = env::collect(ctx, o, none, &host);
  EXPECT_EQ(e.find("CUDA_HOME")->value, "/usr/lib/nvidia-cuda-toolkit");
  EXPECT_EQ(e.find("PATH"), nullptr);

  // A need that is not met gives nothing.
  o.requirements[0].status = plan::Status::planned;
  EXPECT_TRUE(env::collect(ctx, o, none, &host).empty());
}

}  // namespace
}  // namespace extdeps::test
