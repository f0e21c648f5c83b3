// Plans for another machine (issue 17): `extdeps detect --save FILE` on a GPU machine (the real
// binary over the fake NVML or the fake Driver API), its JSON checked against
// schema/detect.schema.json, and `resolve --host FILE` on this GPU-less machine picking what that
// machine needs; `detect --format conda|uv|variants`.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/detect/host.h"
#include "core/detect/host_export.h"
#include "core/provider/descriptor.h"
#include "tests/providers/pypi/pypi_index_server.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

using nlohmann::json;

const std::string kSchema = std::string(EXTDEPS_TEST_DATA) + "/../../schema/detect.schema.json";

bool have_jsonschema() { return std::system("/usr/bin/python3 -c 'import jsonschema' 2>/dev/null") == 0; }

// `extdeps detect` as a GPU machine runs it: the built binary, a clean environment, the driver
// libraries the fakes. Returns the exit status; the facts go to `save`.
int detect_on_gpu_machine(const std::string& save, const std::map<std::string, std::string>& env,
                          const std::string& out_file) {
  std::string cmd = "env -i PATH=/usr/bin:/bin XDG_CACHE_HOME=" + test::temp_dir();
  for (const auto& [k, v] : env) cmd += " '" + k + "=" + v + "'";
  cmd += std::string(" ") + EXTDEPS_BINARY + " detect --json --no-cache --save " + save + " > " + out_file;
  return std::system(cmd.c_str());
}

void expect_valid(const std::string& file) {
  std::string cmd =
      "/usr/bin/python3 -c 'import json,sys,jsonschema; "
      "jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' " +
      kSchema + " " + file;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << test::read_file(file);
}

TEST(DetectJson, FromTheFakeNvmlEveryDeviceAndItsComputeCapabilityValidates) {
  if (!have_jsonschema()) GTEST_SKIP() << "no jsonschema for /usr/bin/python3";
  std::string dir = test::temp_dir();
  ASSERT_EQ(detect_on_gpu_machine(dir + "/saved.json",
                                  {{"EXTDEPS_NVML_LIBRARY", EXTDEPS_FAKE_LIBNVML},
                                   {"EXTDEPS_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"},
                                   {"EXTDEPS_FAKE_NVML_CUDA", "12080"},
                                   {"EXTDEPS_FAKE_NVML_DRIVER", "570.124.06"},
                                   {"EXTDEPS_FAKE_NVML_DEVICES",
                                    "NVIDIA A100-SXM4-80GB:8.0:85899345920:1;NVIDIA H100 80GB HBM3:9.0:85899345920:0"}},
                                  dir + "/out.json"),
            0);
  expect_valid(dir + "/out.json");
  expect_valid(dir + "/saved.json");
  auto j = json::parse(test::read_file(dir + "/out.json"));
  EXPECT_EQ(j["cuda"]["state"], "ok");
  EXPECT_EQ(j["cuda"]["source"], "nvml");
  EXPECT_EQ(j["cuda"]["cuda_version"], "12.8");
  EXPECT_EQ(j["cuda"]["user_driver"], "570.124.06");
  EXPECT_EQ(j["cuda"]["cuda_arch"], "8.0");
  ASSERT_EQ(j["cuda"]["devices"].size(), 2u);
  EXPECT_EQ(j["cuda"]["devices"][0]["compute_capability"], "8.0");
  EXPECT_EQ(j["cuda"]["devices"][0]["mig"], "enabled");
  EXPECT_EQ(j["cuda"]["devices"][1]["compute_capability"], "9.0");
  EXPECT_EQ(json::parse(test::read_file(dir + "/saved.json"))["cuda"], j["cuda"]);
}

TEST(DetectJson, FromTheFakeDriverApiEveryDeviceAndItsComputeCapabilityValidates) {
  if (!have_jsonschema()) GTEST_SKIP() << "no jsonschema for /usr/bin/python3";
  std::string dir = test::temp_dir();
  ASSERT_EQ(detect_on_gpu_machine(dir + "/saved.json",
                                  {{"EXTDEPS_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"},
                                   {"EXTDEPS_CUDA_LIBRARY", EXTDEPS_FAKE_LIBCUDA},
                                   {"EXTDEPS_FAKE_CUDA_DRIVER", "12040"},
                                   {"EXTDEPS_FAKE_CUDA_DEVICES", "NVIDIA L4:8.9:24000000000;Tesla T4:7.5:16000000000"}},
                                  dir + "/out.json"),
            0);
  expect_valid(dir + "/out.json");
  auto j = json::parse(test::read_file(dir + "/out.json"));
  EXPECT_EQ(j["cuda"]["state"], "ok");
  EXPECT_EQ(j["cuda"]["source"], "cuda");
  EXPECT_EQ(j["cuda"]["cuda_version"], "12.4");
  EXPECT_EQ(j["cuda"]["cuda_arch"], "7.5");
  ASSERT_EQ(j["cuda"]["devices"].size(), 2u);
  EXPECT_EQ(j["cuda"]["devices"][0]["compute_capability"], "8.9");
  EXPECT_EQ(j["cuda"]["devices"][1]["compute_capability"], "7.5");
}

class HostFileTest : public test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "/usr/bin/python3 is needed";
    pypi::testing::serve_index(server_);
    write_project("extdeps.toml", "[external]\ndependencies = [\"dep:generic/cuda@>=12\"]\n");
  }

  // A GPU machine's saved facts: a driver for `cuda` and GPUs of these compute capabilities.
  std::string gpu_machine(const std::string& cuda, const std::string& devices) {
    std::string dir = test::temp_dir();
    EXPECT_EQ(detect_on_gpu_machine(dir + "/gpu-host.json",
                                    {{"EXTDEPS_NVML_LIBRARY", EXTDEPS_FAKE_LIBNVML},
                                     {"EXTDEPS_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"},
                                     {"EXTDEPS_FAKE_NVML_CUDA", cuda},
                                     {"EXTDEPS_FAKE_NVML_DEVICES", devices}},
                                    dir + "/out.json"),
              0);
    return dir + "/gpu-host.json";
  }

  // A resolve with pypi against the test index; without pypi in the build, one of the default
  // managers (what reads the --host file comes before any manager's part).
  test::CliRun resolve(std::vector<std::string> more, std::map<std::string, std::string> env = {}) {
    std::vector<std::string> args = {"resolve", project_, "--json", "--no-cache"};
    if (test::compiled_in("pypi"))
      args.insert(args.end(),
                  {"--manager", "pypi", "--python", "/usr/bin/python3", "--index-url", server_.url("/simple/")});
    args.insert(args.end(), more.begin(), more.end());
    // This machine has no driver, whatever the test machine is.
    env.emplace("EXTDEPS_CUDA_LIBRARY", "/nonexistent/libcuda.so.1");
    env.emplace("EXTDEPS_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1");
    return run(args, env);
  }

  test::HttpServer server_;
};

TEST_F(HostFileTest, APlanForTheGpuMachineMadeOnThisOnePicksWhatItNeeds) {
  EXTDEPS_NEEDS_PROVIDER("pypi");
  // Here: no driver, so no run plan.
  auto here = resolve({});
  EXPECT_EQ(here.rc, 1) << here.err << here.out;
  // For a CUDA 13 machine with a Turing and a Hopper GPU: the CUDA 13 runtime wheel.
  auto turing = resolve({"--host", gpu_machine("13000", "Tesla T4:7.5:16000000000;NVIDIA H100:9.0:85899345920")});
  ASSERT_EQ(turing.rc, 0) << turing.err << turing.out;
  auto plan = json::parse(turing.out);
  EXPECT_EQ(plan["requirements"][0]["packages"][0]["name"], "nvidia-cuda-runtime");
  EXPECT_EQ(plan["requirements"][0]["packages"][0]["version"], "13.0.96");
  // The same driver with a Pascal GPU beside the Hopper: CUDA 13 no longer builds for sm_61, so
  // the newest CUDA 12 wheel.
  auto pascal = resolve({"--host", gpu_machine("13000", "Tesla P100:6.0:16000000000;NVIDIA H100:9.0:85899345920")});
  ASSERT_EQ(pascal.rc, 0) << pascal.err << pascal.out;
  auto p = json::parse(pascal.out);
  EXPECT_EQ(p["requirements"][0]["packages"][0]["name"], "nvidia-cuda-runtime-cu12");
  EXPECT_EQ(p["requirements"][0]["packages"][0]["version"], "12.6.77");
}

TEST_F(HostFileTest, ABadHostFileIsBadInputNamingIt) {
  std::string file = test::temp_dir() + "/host.json";
  std::ofstream(file) << "{\"os\": 1}";
  auto r = resolve({"--host", file});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("error: " + file + ": malformed host facts"), std::string::npos) << r.err;
  auto missing = resolve({"--host", file + ".absent"});
  EXPECT_EQ(missing.rc, 2);
  EXPECT_NE(missing.err.find("cannot read host facts " + file + ".absent"), std::string::npos) << missing.err;
}

// Issue 31: a FIFO given as --host blocked for ever; a file nested 300000 deep crashed.
TEST_F(HostFileTest, AHostFileThatIsNotAFileOrNestsTooDeepIsBadInput) {
  const std::string dir = test::temp_dir();
  const std::string fifo = dir + "/host.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = resolve({"--host", fifo});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("error: cannot read host facts " + fifo + ": is a FIFO, not a regular file"), std::string::npos)
      << r.err;
  const std::string deep = dir + "/deep.json";
  std::ofstream(deep) << "{\"os\": " << std::string(300000, '[') << std::string(300000, ']') << "}";
  auto d = resolve({"--host", deep});
  EXPECT_EQ(d.rc, 2);
  EXPECT_NE(d.err.find("error: " + deep + ": byte 206: arrays and objects nested deeper than 200"), std::string::npos)
      << d.err;
}

// Issue 31: `detect --host F --format variants` never ended for cuda_version 12.2147483647 and
// wrote 2^31 lines for 2147483647.0; a compute capability of 1000.0 is no GPU's either.
TEST_F(HostFileTest, ImplausibleCudaFactsAreBadInputNotLoops) {
  const std::string host = gpu_machine("12040", "NVIDIA L4:8.9:24000000000");
  const std::string saved = test::read_file(host);
  const std::string dir = test::temp_dir();
  struct Case {
    std::string from, to, message;
  };
  for (const auto& c : std::vector<Case>{
           {"\"cuda_version\": \"12.4\"", "\"cuda_version\": \"12.2147483647\"", "cuda_version '12.2147483647'"},
           {"\"cuda_version\": \"12.4\"", "\"cuda_version\": \"2147483647.0\"", "cuda_version '2147483647.0'"},
           {"\"cc_major\": 8", "\"cc_major\": 1000", "compute capability 1000.9"},
       }) {
    auto at = saved.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.from << " in " << saved;
    std::string edited = saved;
    edited.replace(at, c.from.size(), c.to);
    const std::string file = dir + "/edited.json";
    std::ofstream(file) << edited;
    auto r = run({"detect", "--host", file, "--format", "variants"});
    EXPECT_EQ(r.rc, 2) << c.to << ": " << r.out.substr(0, 200);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_LT(r.out.size(), 4096u);
  }
}

// Issue 31: `detect --format conda` wrote --host strings raw; a line break in libc_version
// forged a shell line. A value that is not plain text is left out, never written.
TEST_F(HostFileTest, ExportedLinesCannotBeForgedThroughTheFacts) {
  const std::string host = gpu_machine("12040", "NVIDIA L4:8.9:24000000000");
  std::string saved = test::read_file(host);
  auto glibc = saved.find("\"libc_version\": \"");
  ASSERT_NE(glibc, std::string::npos) << saved;
  saved.insert(glibc + std::string("\"libc_version\": \"").size(), "2.36\\ntouch /tmp/forged\\n");
  auto level = saved.find("\"x86_64_level\": \"");
  if (level != std::string::npos) saved.insert(level + std::string("\"x86_64_level\": \"").size(), "v2;rm -rf ~;");
  const std::string file = test::temp_dir() + "/forged.json";
  std::ofstream(file) << saved;
  for (const std::string format : {"conda", "uv", "variants"}) {
    if (format != "variants" && !host_format_named(format)) continue;  // a provider's, left out of the build
    auto r = run({"detect", "--host", file, "--format", format});
    ASSERT_EQ(r.rc, 0) << format << ": " << r.err;
    EXPECT_EQ(r.out.find("touch"), std::string::npos) << format << ":\n" << r.out;
    EXPECT_EQ(r.out.find("rm -rf"), std::string::npos) << format << ":\n" << r.out;
    for (std::size_t start = 0; start < r.out.size();) {
      auto end = r.out.find('\n', start);
      const std::string line = r.out.substr(start, end - start);
      EXPECT_TRUE(line.find('=') != std::string::npos || line.starts_with("nvidia :: ")) << format << ": " << line;
      start = end == std::string::npos ? r.out.size() : end + 1;
    }
  }
  if (!test::compiled_in("conda")) return;
  auto conda = run({"detect", "--host", file, "--format", "conda"});
  EXPECT_NE(conda.out.find("CONDA_OVERRIDE_CUDA=12.4\n"), std::string::npos) << conda.out;
  EXPECT_EQ(conda.out.find("CONDA_OVERRIDE_GLIBC"), std::string::npos) << conda.out;
}

// Issue 31: `detect --host F` and `check` printed control characters raw: an ESC in a --host
// file's text or in a project's path reached the terminal. They are shown as \\x1b.
TEST_F(HostFileTest, ControlCharactersAreShownNotSent) {
  const std::string host = gpu_machine("12040", "NVIDIA L4:8.9:24000000000");
  std::string saved = test::read_file(host);
  const std::string key = "\"pretty_name\": \"";
  auto at = saved.find(key);
  ASSERT_NE(at, std::string::npos) << saved;
  saved.insert(at + key.size(), "\\u001b[2J\\u001b]0;owned\\u0007");
  const std::string dir = test::temp_dir() + "/esc\x1b[31m";
  fs::create_directories(dir);
  std::ofstream(dir + "/host.json") << saved;
  auto r = run({"detect", "--host", dir + "/host.json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\x1b"), std::string::npos) << r.out;
  const std::string project = dir + "/project";
  fs::create_directories(project);
  std::ofstream(project + "/extdeps.toml") << "[external]\nhost-requires = [\"dep:generic/zlib\"]\n";
  auto c = run({"check", project, "--manager", "apt"});
  EXPECT_EQ(c.out.find('\x1b'), std::string::npos) << c.out;
  EXPECT_EQ(c.err.find('\x1b'), std::string::npos) << c.err;
}

TEST_F(HostFileTest, DetectFormatsOfTheSavedFacts) {
  std::string host = gpu_machine("12080", "NVIDIA L4:8.9:24000000000;Tesla T4:7.5:16000000000");
  if (test::compiled_in("conda")) {
    auto conda = run({"detect", "--host", host, "--format", "conda"});
    ASSERT_EQ(conda.rc, 0) << conda.err;
    EXPECT_NE(conda.out.find("CONDA_OVERRIDE_CUDA=12.8\n"), std::string::npos) << conda.out;
    EXPECT_NE(conda.out.find("CONDA_OVERRIDE_CUDA_ARCH=7.5\n"), std::string::npos) << conda.out;
    EXPECT_NE(conda.out.find("CONDA_OVERRIDE_GLIBC="), std::string::npos) << conda.out;
  }
  if (test::compiled_in("pypi")) {
    auto uv = run({"detect", "--host", host, "--format", "uv"});
    ASSERT_EQ(uv.rc, 0) << uv.err;
    // No kernel module in the facts (the test machine has none): the user-mode driver's version.
    EXPECT_EQ(uv.out, "UV_CUDA_DRIVER_VERSION=550.54.15\n");
  }
  auto variants = run({"detect", "--host", host, "--format", "variants"});
  ASSERT_EQ(variants.rc, 0) << variants.err;
  EXPECT_EQ(variants.out.rfind("nvidia :: cuda_version_lower_bound :: 12.8\n"
                               "nvidia :: cuda_version_lower_bound :: 12.7\n",
                               0),
            0u)
      << variants.out;
  EXPECT_NE(variants.out.find("nvidia :: cuda_version_lower_bound :: 11.0\n"), std::string::npos);
  EXPECT_EQ(variants.out.find("nvidia :: cuda_version_lower_bound :: 12.9"), std::string::npos);
  EXPECT_NE(variants.out.find("nvidia :: cuda_version_upper_bound :: 12.8\nnvidia :: cuda_version_upper_bound :: 12.9\n"
                              "nvidia :: cuda_version_upper_bound :: 13.0\n"),
            std::string::npos)
      << variants.out;
  EXPECT_NE(variants.out.find("nvidia :: sm_arch :: 89_real\nnvidia :: sm_arch :: 75_real\n"
                              "nvidia :: sm_arch :: 75_virtual\nnvidia :: sm_arch :: 72_virtual\n"),
            std::string::npos)
      << variants.out;
  EXPECT_EQ(variants.out.find("86_virtual"), std::string::npos) << "PTX newer than the oldest GPU cannot run on it";
  auto bad = run({"detect", "--format", "yaml"});
  EXPECT_EQ(bad.rc, 2);
  if (test::compiled_in("conda") && test::compiled_in("pypi"))
    EXPECT_EQ(bad.err, "error: unknown format 'yaml' (expected text, json, variants, conda or uv)\n");
  else EXPECT_TRUE(bad.err.starts_with("error: unknown format 'yaml' (expected text, json")) << bad.err;
}

// What a provider's host format (ProviderDescriptor::host_formats) writes for the facts.
std::string written(std::string_view format, const detect::HostFacts& f) {
  const HostFormat* h = host_format_named(format);
  return h ? h->write(f) : "(no " + std::string(format) + " format in this build)";
}

TEST(HostExport, NoDriverSaysSoToEachTool) {
  if (!host_format_named("conda") || !host_format_named("uv")) GTEST_SKIP() << "built without conda or pypi";
  detect::HostFacts f;
  f.libc = "glibc";
  f.libc_version = "2.36";
  f.kernel = "6.1.0-18-amd64";
  f.x86_64_level = "x86-64-v3";
  EXPECT_EQ(written("conda", f),
            "CONDA_OVERRIDE_CUDA=\nCONDA_OVERRIDE_GLIBC=2.36\nCONDA_OVERRIDE_LINUX=6.1.0\n"
            "CONDA_OVERRIDE_ARCHSPEC=x86_64_v3\n");
  EXPECT_EQ(written("uv", f), "");
  EXPECT_EQ(detect::variant_properties(f), "");
  // With only a CUDA version (an override), uv gets that release's driver.
  f.cuda.state = detect::CudaState::ok;
  f.cuda.cuda_version = "12.4";
  EXPECT_EQ(written("uv", f), "UV_CUDA_DRIVER_VERSION=550.54.15\n");
}

}  // namespace
}  // namespace extdeps
