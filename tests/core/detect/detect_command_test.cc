// `extdeps detect` through cli::run, as a user runs it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/cli/cli.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

struct Ran {
  int code = 0;
  std::string out, err;
};

// The fixture root; cuda overridden so no driver probe child is started from the test binary.
Ran detect(std::vector<std::string> args, std::map<std::string, std::string> env = {}, const std::string& cache = "") {
  env.emplace("EXTDEPS_OVERRIDE_CUDA", "");
  env.emplace("PATH", "/usr/bin");
  auto ctx = Context::for_test(test::data_path("detect/root"), env);
  if (!cache.empty()) ctx.set_cache_dir(cache);
  args.insert(args.begin(), "detect");
  std::ostringstream out, err;
  int code = cli::run(ctx, args, out, err);
  return {code, out.str(), err.str()};
}

TEST(DetectCommand, TextNamesEachFact) {
  auto r = detect({});
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char* label : {"os:", "arch:", "kernel:", "libc:", "compilers:", "cuda:", "overridden:", "cached:"})
    EXPECT_NE(r.out.find(label), std::string::npos) << label << " in\n" << r.out;
  EXPECT_NE(r.out.find("Debian GNU/Linux 12 (bookworm) [debian 12]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cuda:       no-library (source: override)"), std::string::npos) << r.out;
}

TEST(DetectCommand, TextSaysWhenCached) {
  auto cache = test::temp_dir();
  auto cold = detect({}, {}, cache);
  EXPECT_NE(cold.out.find("cached:     no, detected now"), std::string::npos) << cold.out;
  auto warm = detect({}, {}, cache);
  EXPECT_NE(warm.out.find("cached:     yes, " + cache + "/detect/host.json"), std::string::npos) << warm.out;
  auto refreshed = detect({"--refresh"}, {}, cache);
  EXPECT_NE(refreshed.out.find("cached:     no, detected now"), std::string::npos);
  auto uncached = detect({"--no-cache"}, {}, cache);
  EXPECT_NE(uncached.out.find("cached:     no (cache not used)"), std::string::npos);
}

TEST(DetectCommand, Json) {
  auto r = detect({"--json"}, {{"EXTDEPS_OVERRIDE_OS", "ubuntu:24.04"}});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["os"]["id"], "ubuntu");
  EXPECT_EQ(j["cuda"]["state"], "no-library");
  EXPECT_EQ(j["overridden"], nlohmann::json({"os", "cuda"}));
  EXPECT_EQ(j["from_cache"], false);
}

TEST(DetectCommand, BadOverrideIsExit2) {
  auto r = detect({}, {{"EXTDEPS_OVERRIDE_CUDA_ARCH", "ampere"}});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "error: invalid EXTDEPS_OVERRIDE_CUDA_ARCH='ampere': expected a compute capability like "
            "8.6 or sm_86\n");
}

TEST(DetectCommand, JsonValidatesAgainstTheSchema) {
  const std::string python = "/usr/bin/python3";
  if (!std::filesystem::exists(python) || std::system((python + " -c 'import jsonschema' 2>/dev/null").c_str()) != 0)
    GTEST_SKIP() << "no jsonschema for /usr/bin/python3";
  const std::string schema = std::string(EXTDEPS_TEST_DATA) + "/../../schema/detect.schema.json";
  auto dir = test::temp_dir();
  int n = 0;
  for (auto env : std::vector<std::map<std::string, std::string>>{{},
                                                                  {{"EXTDEPS_OVERRIDE_CUDA", "12.4"},
                                                                   {"EXTDEPS_OVERRIDE_CUDA_ARCH", "sm_90"},
                                                                   {"EXTDEPS_OVERRIDE_GLIBC", ""},
                                                                   {"EXTDEPS_OVERRIDE_ARCH", "arm64"},
                                                                   {"EXTDEPS_OVERRIDE_LINUX", "6.8.0"},
                                                                   {"EXTDEPS_OVERRIDE_OS", "ubuntu:24.04"}}}) {
    auto r = detect({"--json"}, env);
    ASSERT_EQ(r.code, 0) << r.err;
    std::string file = dir + "/detect" + std::to_string(n++) + ".json";
    std::ofstream(file) << r.out;
    std::string cmd = python +
                      " -c 'import json,sys,jsonschema; "
                      "jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' " +
                      schema + " " + file;
    EXPECT_EQ(std::system(cmd.c_str()), 0) << r.out;
  }
}

}  // namespace
}  // namespace extdeps
