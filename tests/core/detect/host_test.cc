// detect_host against the machine the tests run on: each fact is compared with what the usual
// tool prints.
#include "core/detect/host.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/detect/cpu.h"

namespace extdeps::detect {
namespace {

// stdout of a shell command, trailing newline removed; nullopt when it fails.
std::optional<std::string> shell(const std::string& command) {
  FILE* p = popen((command + " 2>/dev/null").c_str(), "r");
  if (!p) return std::nullopt;
  std::string out;
  char buf[512];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  if (pclose(p) != 0) return std::nullopt;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

Context real_context() {
  std::map<std::string, std::string> env;
  if (const char* path = std::getenv("PATH")) env["PATH"] = path;
  return Context::for_test("/", env);
}

HostFacts detect_here() {
  DetectOptions o;
  o.use_cache = false;
  o.probe_cuda = false;
  auto f = detect_host(real_context(), o);
  EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().message);
  return f.ok() ? *f : HostFacts{};
}

TEST(HostFacts, KernelAndMachineAreUname) {
  auto f = detect_here();
  auto r = shell("uname -r"), m = shell("uname -m");
  ASSERT_TRUE(r && m);
  EXPECT_EQ(f.kernel, *r);
  EXPECT_EQ(f.machine, *m);
  EXPECT_FALSE(f.from_cache);
  EXPECT_TRUE(f.overridden.empty());
}

TEST(HostFacts, GlibcIsWhatLddSays) {
  auto ldd = shell("ldd --version | head -n1");
  if (!ldd || (ldd->find("GLIBC") == std::string::npos && ldd->find("GNU libc") == std::string::npos))
    GTEST_SKIP() << "ldd is not glibc's here";
  auto f = detect_here();
  EXPECT_EQ(f.libc, "glibc");
  EXPECT_EQ(f.libc_version, ldd->substr(ldd->rfind(' ') + 1));
}

TEST(HostFacts, OsIsTheOsReleaseFile) {
  auto f = detect_here();
  EXPECT_EQ(f.os.id, read_os_release(real_context()).id);
}

TEST(HostFacts, X86LevelAgreesWithProcCpuinfo) {
  auto f = detect_here();
  if (f.machine != "x86_64") {
    EXPECT_TRUE(f.x86_64_level.empty());
    GTEST_SKIP() << "not x86-64";
  }
  ASSERT_TRUE(f.x86_64_level == "x86-64-v1" || f.x86_64_level == "x86-64-v2" || f.x86_64_level == "x86-64-v3" ||
              f.x86_64_level == "x86-64-v4")
      << f.x86_64_level;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  std::vector<std::string> flags;
  while (std::getline(in, line))
    if (line.rfind("flags", 0) == 0) {
      std::istringstream words(line.substr(line.find(':') + 1));
      for (std::string w; words >> w;) flags.push_back(w);
      break;
    }
  if (flags.empty()) GTEST_SKIP() << "/proc/cpuinfo has no flags line";
  auto has = [&](const char* f) { return std::find(flags.begin(), flags.end(), f) != flags.end(); };
  EXPECT_EQ(f.x86_64_level, x86_64_level_of(flags));
  if (has("avx2")) {
    EXPECT_GE(f.x86_64_level, "x86-64-v3");
  }
  if (has("avx512f") && has("avx512bw") && has("avx512vl") && has("avx512dq") && has("avx512cd")) {
    EXPECT_EQ(f.x86_64_level, "x86-64-v4");
  }
  if (!has("sse4_2")) {
    EXPECT_EQ(f.x86_64_level, "x86-64-v1");
  }
  // Every feature reported is one cpuinfo lists, in the psABI spelling.
  for (const auto& feature : f.cpu_features) {
    std::string c = feature == "sse3"     ? "pni"
                    : feature == "sse4.1" ? "sse4_1"
                    : feature == "sse4.2" ? "sse4_2"
                    : feature == "lzcnt"  ? "abm"
                                          : feature;
    if (c == "osxsave") continue;  // cpuinfo may not list it; avx stands for it
    EXPECT_TRUE(has(c.c_str())) << feature;
  }
}

TEST(HostFacts, LevelFromFlags) {
  EXPECT_EQ(x86_64_level_of({"fpu", "sse2"}), "x86-64-v1");
  std::vector<std::string> v2 = {"cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3"};
  EXPECT_EQ(x86_64_level_of(v2), "x86-64-v2");
  auto v3 = v2;
  for (const char* f : {"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe"}) v3.push_back(f);
  EXPECT_EQ(x86_64_level_of(v3), "x86-64-v3");
  auto no_movbe = v3;
  no_movbe.erase(std::find(no_movbe.begin(), no_movbe.end(), "movbe"));
  EXPECT_EQ(x86_64_level_of(no_movbe), "x86-64-v2");
  auto v4 = v3;
  for (const char* f : {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"}) v4.push_back(f);
  EXPECT_EQ(x86_64_level_of(v4), "x86-64-v4");
}

TEST(HostFacts, CcIsFoundWithItsVersion) {
  auto dumped = shell("cc -dumpfullversion");
  auto where = shell("command -v cc");
  if (!dumped || !where) GTEST_SKIP() << "no cc on PATH, or not gcc";
  auto f = detect_here();
  auto it = std::find_if(f.compilers.begin(), f.compilers.end(), [](const Compiler& c) { return c.name == "cc"; });
  ASSERT_NE(it, f.compilers.end());
  EXPECT_EQ(it->path, *where);
  EXPECT_EQ(it->version, *dumped);
}

TEST(HostFacts, CudaIsNotProbedWhenAskedNotTo) {
  auto f = detect_here();
  EXPECT_EQ(f.cuda.state, CudaState::no_library);
  EXPECT_TRUE(f.cuda.source.empty());
}

}  // namespace
}  // namespace extdeps::detect
