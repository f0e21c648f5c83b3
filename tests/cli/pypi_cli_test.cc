// CUDA from wheels, from the command line: `--manager pypi` against the test index on 127.0.0.1
// (tests/providers/pypi/pypi_index_server.h), for this machine's own /usr/bin/python3, with the
// driver and glibc of the plan set by overrides.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/detect/process.h"
#include "tests/providers/pypi/pypi_index_server.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/providers.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

using nlohmann::json;

const char* kPython = "/usr/bin/python3";

class PypiCliTest : public test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    EXTDEPS_NEEDS_PROVIDER("pypi");
    if (::access(kPython, X_OK) != 0) GTEST_SKIP() << kPython << " is needed (scripts/install-deps.sh installs it)";
    pypi::testing::serve_index(server_);
  }

  test::CliRun resolve(std::map<std::string, std::string> env, std::vector<std::string> more = {}) {
    std::vector<std::string> args = {"resolve",   project_,      "--json",
                                     "--manager", "pypi",        "--python",
                                     python_,     "--index-url", server_.url("/simple/")};
    args.insert(args.end(), more.begin(), more.end());
    return run(args, env);
  }

  // A virtual environment of the machine's own Python with nvidia-cuda-runtime-cu12 12.4.127
  // "installed": its dist-info written as pip writes it. Returns the site-packages folder, empty
  // when venv does not work here.
  std::string venv_with_cuda_runtime(const std::string& venv) {
    auto made = detect::run_capture(Context::from_process(), {kPython, "-m", "venv", "--without-pip", venv}, 60000);
    if (!made || made->exit_status != 0) return {};
    std::string site;
    for (const auto& e : fs::directory_iterator(venv + "/lib")) site = e.path().string() + "/site-packages";
    std::string info = site + "/nvidia_cuda_runtime_cu12-12.4.127.dist-info";
    fs::create_directories(info);
    std::ofstream(info + "/METADATA") << "Metadata-Version: 2.1\nName: nvidia-cuda-runtime-cu12\nVersion: 12.4.127\n"
                                         "Summary: CUDA Runtime native Libraries\nRequires-Python: >=3\n\n";
    return site;
  }

  std::string python_ = kPython;
  test::HttpServer server_;
};

const char* kCuda = R"([external]
dependencies = ["dep:generic/cuda@>=12"]
)";

TEST_F(PypiCliTest, CudaTwelveWithADriverOfTwelveFourPlansTheCu12RuntimeWheel) {
  write_project("extdeps.toml", kCuda);
  auto r = resolve({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}});
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  auto plan = json::parse(r.out);
  const auto& req = plan["requirements"][0];
  EXPECT_EQ(req["status"], "planned");
  ASSERT_EQ(req["packages"].size(), 1u);
  // CUDA 13 needs a 13 driver; of CUDA 12, the newest (12.6 runs on a 12.4 driver: minor
  // version compatibility).
  EXPECT_EQ(req["packages"][0]["name"], "nvidia-cuda-runtime-cu12");
  EXPECT_EQ(req["packages"][0]["version"], "12.6.77");
  ASSERT_EQ(plan["steps"].size(), 1u);
  const auto& step = plan["steps"][0];
  EXPECT_EQ(step["manager"], "pypi");
  EXPECT_EQ(step["requires_elevation"], false);
  EXPECT_EQ(step["command"], json({python_, "-m", "pip", "install", "--index-url", server_.url("/simple/"), "--",
                                   "nvidia-cuda-runtime-cu12==12.6.77"}));
  // With a CUDA 13 driver the CUDA 13 wheel wins; uv renders its own command.
  auto r13 = resolve({{"EXTDEPS_OVERRIDE_CUDA", "13.0"}, {"EXTDEPS_PYPI_FRONTEND", "uv"}});
  ASSERT_EQ(r13.rc, 0) << r13.err;
  auto p13 = json::parse(r13.out);
  EXPECT_EQ(p13["requirements"][0]["packages"][0]["name"], "nvidia-cuda-runtime");
  EXPECT_EQ(p13["steps"][0]["command"], json({"uv", "pip", "install", "--python", python_, "--index-url",
                                              server_.url("/simple/"), "--", "nvidia-cuda-runtime==13.0.96"}));
}

// A warm resolve gives the plan of the cold one from the crawl's memo (providers/pypi/README.md);
// --no-cache neither reads nor writes one.
TEST_F(PypiCliTest, AWarmResolveGivesTheColdPlanAndNoCacheKeepsNoMemo) {
  write_project("extdeps.toml", kCuda);
  auto memos = [&] {
    std::size_t n = 0;
    std::error_code ec;
    for (auto it = fs::directory_iterator(cache_ + "/pypi/crawls", ec); !ec && it != fs::directory_iterator(); ++it)
      n += it->path().extension() == ".crawl";
    return n;
  };
  auto none = resolve({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}}, {"--no-cache"});
  ASSERT_EQ(none.rc, 0) << none.err;
  EXPECT_EQ(memos(), 0u);
  auto cold = resolve({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}});
  ASSERT_EQ(cold.rc, 0) << cold.err;
  EXPECT_EQ(memos(), 1u);
  int pages = server_.count("/simple/nvidia-cuda-runtime-cu12/");
  auto warm = resolve({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}});
  ASSERT_EQ(warm.rc, 0) << warm.err;
  EXPECT_EQ(warm.out, cold.out);
  EXPECT_EQ(none.out, cold.out);
  EXPECT_EQ(server_.count("/simple/nvidia-cuda-runtime-cu12/"), pages + 1);
  EXPECT_EQ(memos(), 1u);
}

TEST_F(PypiCliTest, WithoutADriverARunNeedIsUnsatisfiableAndSaysWhy) {
  write_project("extdeps.toml", kCuda);
  auto r = resolve({{"EXTDEPS_OVERRIDE_CUDA", ""}, {"EXTDEPS_PROBE_TIMEOUT", "0"}}, {"--no-cache"});
  // No driver on this machine (or the probe says none within no time): no run plan.
  ASSERT_EQ(r.rc, 1) << r.err << r.out;
  auto plan = json::parse(r.out);
  EXPECT_EQ(plan["requirements"][0]["status"], "unsatisfiable");
  std::string message = plan["requirements"][0]["message"];
  EXPECT_NE(message.find("NVIDIA driver"), std::string::npos) << message;
  // For building only, the wheels are fine.
  write_project("extdeps.toml", R"([external]
host-requires = ["dep:generic/cuda@>=12"]
)");
  auto host = resolve({{"EXTDEPS_OVERRIDE_CUDA", ""}});
  ASSERT_EQ(host.rc, 0) << host.err << host.out;
  EXPECT_NE(host.out.find("planned for building only"), std::string::npos) << host.out;
}

TEST_F(PypiCliTest, AGlibcTooOldForTheWheelsManylinuxTagIsTheReason) {
  write_project("extdeps.toml", R"([external]
dependencies = ["dep:generic/cuda@>=12.4"]
)");
  auto r = resolve({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}, {"EXTDEPS_OVERRIDE_GLIBC", "2.12"}}, {"--explain"});
  ASSERT_EQ(r.rc, 1) << r.err << r.out;
  auto plan = json::parse(r.out);
  std::string message = plan["requirements"][0]["message"];
  EXPECT_NE(message.find("nvidia-cuda-runtime-cu12 12.4.127 (pypi) needs glibc >=2.17 and this machine has glibc 2.12"),
            std::string::npos)
      << message;
  // 12.1 runs on glibc 2.5 (manylinux1): a range that admits it is met.
  write_project("extdeps.toml", kCuda);
  auto old = resolve({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}, {"EXTDEPS_OVERRIDE_GLIBC", "2.12"}});
  ASSERT_EQ(old.rc, 0) << old.err << old.out;
  EXPECT_EQ(json::parse(old.out)["requirements"][0]["packages"][0]["version"], "12.1.105");
}

TEST_F(PypiCliTest, DependenciesOfWheelsArePlannedTogether) {
  write_project("extdeps.toml", R"([external]
dependencies = ["dep:generic/cudnn", "dep:generic/cusolver@>=12"]
)");
  auto r = resolve({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}});
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  auto plan = json::parse(r.out);
  std::map<std::string, std::string> planned;
  for (const auto& p : plan["steps"][0]["packages"]) planned[p["name"]] = p["version"];
  // cuDNN 9.5 wants cuBLAS; cuSOLVER wants cuBLAS, nvJitLink and cuSPARSE: one of each.
  EXPECT_EQ(planned["nvidia-cudnn-cu12"], "9.5.1.17");
  EXPECT_TRUE(planned.count("nvidia-cublas-cu12"));
  EXPECT_TRUE(planned.count("nvidia-nvjitlink-cu12"));
  EXPECT_TRUE(planned.count("nvidia-cusparse-cu12"));
  EXPECT_TRUE(planned.count("nvidia-cusolver-cu12"));
  EXPECT_TRUE(planned.count("nvidia-cuda-runtime-cu12"));
}

TEST_F(PypiCliTest, AVenvHasWhatIsInstalledAndTheSystemPythonIsExternallyManaged) {
  std::string venv = test::temp_dir() + "/venv";
  if (venv_with_cuda_runtime(venv).empty()) GTEST_SKIP() << "python3 -m venv does not work here";
  write_project("extdeps.toml", kCuda);
  python_ = venv + "/bin/python";
  auto r = resolve({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}});
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  auto plan = json::parse(r.out);
  EXPECT_EQ(plan["requirements"][0]["status"], "satisfied");
  EXPECT_EQ(plan["requirements"][0]["packages"][0]["version"], "12.4.127");
  EXPECT_TRUE(plan["steps"].empty());
  for (const auto& w : r.warnings) EXPECT_EQ(w.find("externally managed"), std::string::npos) << w;

  // Debian's own python3 is externally managed (PEP 668): said, with the choices.
  python_ = kPython;
  if (!fs::exists("/usr/lib/python3/dist-packages") ||
      detect::run_capture(Context::from_process(),
                          {kPython, "-c",
                           "import sysconfig,os,sys;sys.exit(0 if "
                           "os.path.isfile(os.path.join(sysconfig.get_path('stdlib'),'EXTERNALLY-MANAGED')) else 1)"},
                          20000)
              ->exit_status != 0)
    GTEST_SKIP() << kPython << " is not externally managed here";
  auto sys = resolve({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}});
  ASSERT_EQ(sys.rc, 0) << sys.err;
  bool said = false;
  for (const auto& w : sys.warnings)
    if (w.find("is externally managed (PEP 668") != std::string::npos && w.find("python3 -m venv") != std::string::npos)
      said = true;
  EXPECT_TRUE(said) << testing::PrintToString(sys.warnings) << sys.err;
}

TEST_F(PypiCliTest, EnvFindsTheLibrariesAndHeadersOfAnInstalledWheel) {
  std::string venv = test::temp_dir() + "/venv";
  std::string site = venv_with_cuda_runtime(venv);
  if (site.empty()) GTEST_SKIP() << "python3 -m venv does not work here";
  // The wheel's files, and its RECORD as pip writes it.
  std::string info = site + "/nvidia_cuda_runtime_cu12-12.4.127.dist-info";
  fs::create_directories(site + "/nvidia/cuda_runtime/lib");
  fs::create_directories(site + "/nvidia/cuda_runtime/include");
  std::ofstream(site + "/nvidia/cuda_runtime/lib/libcudart.so.12") << "";
  std::ofstream(site + "/nvidia/cuda_runtime/include/cuda_runtime_api.h") << "";
  std::ofstream(info + "/RECORD") << "nvidia/__init__.py,sha256=x,0\n"
                                     "nvidia/cuda_runtime/include/cuda_runtime_api.h,sha256=x,1\n"
                                     "nvidia/cuda_runtime/lib/libcudart.so.12,sha256=x,2\n"
                                     "nvidia_cuda_runtime_cu12-12.4.127.dist-info/METADATA,sha256=x,3\n"
                                     "nvidia_cuda_runtime_cu12-12.4.127.dist-info/RECORD,,\n";
  write_project("extdeps.toml", R"([external]
host-requires = ["dep:generic/cudart@>=12"]
)");
  auto r = run({"env", project_, "--format", "json", "--manager", "pypi", "--python", venv + "/bin/python",
                "--index-url", server_.url("/simple/")},
               {{"EXTDEPS_OVERRIDE_CUDA", "12.4"}});
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  auto j = json::parse(r.out);
  std::string all = j.dump();
  EXPECT_NE(all.find(site + "/nvidia/cuda_runtime/lib"), std::string::npos) << all;
  EXPECT_NE(all.find(site + "/nvidia/cuda_runtime/include"), std::string::npos) << all;
  EXPECT_NE(all.find("LD_LIBRARY_PATH"), std::string::npos) << all;
}

TEST_F(PypiCliTest, AnIndexThatFailsIsNamed) {
  write_project("extdeps.toml", kCuda);
  server_.route("/simple/nvidia-cuda-runtime-cu12/", {.status = 500, .body = "down", .fail_first = 0});
  auto r = resolve({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}});
  EXPECT_EQ(r.rc, 3);
  EXPECT_EQ(r.err.rfind("error: " + server_.url("/simple/nvidia-cuda-runtime-cu12/") + ": HTTP 500", 0), 0u) << r.err;
}

}  // namespace
}  // namespace extdeps
