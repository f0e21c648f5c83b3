#include "core/detect/host_cache.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/detect/host.h"
#include "tests/test_support.h"

namespace extdeps::detect {
namespace {

namespace fs = std::filesystem;

// A writable machine: the fixture root plus the fixture compilers, and a cache folder.
struct Machine {
  std::string root = test::temp_dir();
  std::string cache = test::temp_dir();
  std::map<std::string, std::string> env = {{"PATH", "/usr/bin"}};
  std::chrono::system_clock::time_point now = std::chrono::system_clock::now();

  Machine() {
    fs::copy(test::data_path("detect/root"), root, fs::copy_options::recursive);
    fs::copy(test::data_path("detect/compilers/usr"), root + "/usr", fs::copy_options::recursive);
  }
  Context context() const {
    auto ctx = Context::for_test(root, env);
    ctx.set_cache_dir(cache);
    ctx.set_clock([t = now] { return t; });
    return ctx;
  }
  HostFacts detect(bool refresh = false) const {
    DetectOptions o;
    o.refresh = refresh;
    o.probe_cuda = false;
    auto f = detect_host(context(), o);
    EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().message);
    return f.ok() ? *f : HostFacts{};
  }
  void write(const std::string& path, const std::string& text) const {
    std::ofstream(root + path, std::ios::trunc) << text;
  }
};

TEST(HostCache, SecondCallIsFromCache) {
  Machine m;
  auto cold = m.detect();
  EXPECT_FALSE(cold.from_cache);
  EXPECT_TRUE(fs::exists(m.cache + "/detect/host.json"));
  auto warm = m.detect();
  EXPECT_TRUE(warm.from_cache);
  EXPECT_EQ(warm.kernel, cold.kernel);
  EXPECT_EQ(warm.libc_version, cold.libc_version);
  EXPECT_EQ(warm.x86_64_level, cold.x86_64_level);
  EXPECT_EQ(warm.compilers.size(), cold.compilers.size());
  EXPECT_EQ(warm.os.version_codename, "bookworm");
}

// The CUDA probe's answer on a machine without the NVIDIA module (most machines, CI's) is cached
// too: it once lacked the driver fingerprint the cache compares, so every run detected afresh.
TEST(HostCache, NoNvidiaModuleIsCachedWithTheProbe) {
  Machine m;
  fs::remove_all(m.root + "/sys/module/nvidia");
  ASSERT_FALSE(fs::exists(m.root + "/proc/driver/nvidia"));
  for (const std::string& exe : {std::string(), std::string("/bin/true")}) {
    fs::remove_all(m.cache);
    auto ctx = m.context();
    if (!exe.empty()) ctx.set_self_exe(exe);
    DetectOptions o;
    o.probe_cuda = true;
    auto cold = detect_host(ctx, o);
    ASSERT_TRUE(cold.ok()) << cold.error().message;
    EXPECT_FALSE(cold->from_cache);
    EXPECT_EQ(cold->cuda.state, CudaState::no_library);
    auto warm = detect_host(ctx, o);
    ASSERT_TRUE(warm.ok());
    EXPECT_TRUE(warm->from_cache) << "self_exe '" << exe << "'";
    EXPECT_EQ(warm->cuda.detail, cold->cuda.detail);
  }
}

TEST(HostCache, WarmRunStartsNoProcess) {
  Machine m;
  auto cold = m.detect();
  ASSERT_FALSE(cold.compilers.empty());
  // With the compilers gone, a run that looked for them would find none.
  fs::remove_all(m.root + "/usr/bin");
  auto warm = m.detect();
  EXPECT_TRUE(warm.from_cache);
  ASSERT_EQ(warm.compilers.size(), cold.compilers.size());
  EXPECT_EQ(warm.compilers[0].version, "12.2.0");
}

// Warm runs read the cache and leave it as it is: no rewrite, so runs in parallel never race on
// it. (How fast a warm run is, is measured by bench/, never by a unit test.)
TEST(HostCache, WarmRunsLeaveTheCacheAsItIs) {
  Machine m;
  auto ctx = m.context();
  DetectOptions o;
  o.probe_cuda = false;
  ASSERT_TRUE(detect_host(ctx, o).ok());
  const std::string file = m.cache + "/detect/host.json";
  ASSERT_TRUE(fs::exists(file));
  std::ifstream in(file);
  const std::string before((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto stamp = fs::last_write_time(file);
  fs::permissions(file, fs::perms::owner_read);
  for (int i = 0; i < 20; ++i) {
    auto warm = detect_host(ctx, o);
    ASSERT_TRUE(warm.ok()) << warm.error().message;
    EXPECT_TRUE(warm->from_cache) << "run " << i;
  }
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(fs::last_write_time(file), stamp);
  std::ifstream again(file);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()), before);
}

TEST(HostCache, RefreshBypasses) {
  Machine m;
  m.detect();
  auto again = m.detect(/*refresh=*/true);
  EXPECT_FALSE(again.from_cache);
  EXPECT_TRUE(m.detect().from_cache);
}

TEST(HostCache, NoCacheNeitherReadsNorWrites) {
  Machine m;
  DetectOptions o;
  o.use_cache = false;
  o.probe_cuda = false;
  ASSERT_TRUE(detect_host(m.context(), o).ok());
  EXPECT_FALSE(fs::exists(m.cache + "/detect/host.json"));
}

TEST(HostCache, ChangedBootIdInvalidates) {
  Machine m;
  m.detect();
  m.write("/proc/sys/kernel/random/boot_id", "0f0e0d0c-0000-4000-8000-000000000001\n");
  EXPECT_FALSE(m.detect().from_cache);
  EXPECT_TRUE(m.detect().from_cache);
}

TEST(HostCache, MissingBootIdNeverHits) {
  Machine m;
  fs::remove(m.root + "/proc/sys/kernel/random/boot_id");
  m.detect();
  EXPECT_FALSE(m.detect().from_cache);
}

TEST(HostCache, ChangedDriverOrPathInvalidates) {
  Machine m;
  m.detect();
  m.write("/sys/module/nvidia/version", "560.35.03\n");
  EXPECT_FALSE(m.detect().from_cache);
  EXPECT_TRUE(m.detect().from_cache);
  m.env["PATH"] = "/usr/bin:/usr/local/bin";
  EXPECT_FALSE(m.detect().from_cache);
}

TEST(HostCache, AnotherSetOfGpusInvalidates) {
  Machine m;
  fs::create_directories(m.root + "/proc/driver/nvidia/gpus/0000:41:00.0");
  m.detect();
  EXPECT_TRUE(m.detect().from_cache);
  fs::create_directories(m.root + "/proc/driver/nvidia/gpus/0000:c1:00.0");
  EXPECT_FALSE(m.detect().from_cache);
  EXPECT_EQ(host_cache_key(m.context()).gpus, "0000:41:00.0,0000:c1:00.0");
}

TEST(HostCache, ADriverLibraryReplacedWithoutARebootInvalidates) {
  // The module version stays; the user-mode library on disk is another file now.
  Machine m;
  std::string lib = test::temp_dir() + "/libnvidia-ml.so.1";
  fs::copy_file(EXTDEPS_FAKE_LIBNVML, lib);
  m.env["EXTDEPS_NVML_LIBRARY"] = lib;
  m.env["EXTDEPS_CUDA_LIBRARY"] = "/nonexistent/libcuda.so.1";
  m.env["EXTDEPS_FAKE_NVML_DEVICES"] = "NVIDIA L4:8.9:24000000000";
  auto detect = [&] {
    auto ctx = m.context();
    ctx.set_self_exe(EXTDEPS_BINARY);
    auto f = detect_host(ctx, DetectOptions{});
    EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().message);
    return f.ok() ? *f : HostFacts{};
  };
  auto cold = detect();
  EXPECT_FALSE(cold.from_cache);
  EXPECT_EQ(cold.cuda.state, CudaState::ok) << cold.cuda.detail;
  EXPECT_TRUE(detect().from_cache);
  std::ofstream(lib, std::ios::app) << "a newer driver";
  EXPECT_FALSE(detect().from_cache);
  EXPECT_TRUE(detect().from_cache);
}

TEST(HostCache, KeyReadsTheDriverVersion) {
  Machine m;
  auto key = host_cache_key(m.context());
  EXPECT_EQ(key.boot_id, "7c1d9a0e-3b0f-4d7e-9a51-2f7b1f9e0c11");
  EXPECT_EQ(key.kernel_driver, "550.54.15");
  fs::remove_all(m.root + "/sys/module/nvidia");
  EXPECT_EQ(host_cache_key(m.context()).kernel_driver, "none");
}

TEST(HostCache, ExpiresAfterTheTtl) {
  Machine m;
  m.detect();
  m.now += std::chrono::hours(23);
  EXPECT_TRUE(m.detect().from_cache);
  m.now += std::chrono::hours(2);
  EXPECT_FALSE(m.detect().from_cache);
  m.env["EXTDEPS_DETECT_TTL"] = "10";
  m.now += std::chrono::seconds(11);
  EXPECT_FALSE(m.detect().from_cache);
}

TEST(HostCache, CorruptFileIsIgnoredAndRewritten) {
  for (const char* garbage : {"{not json", "[]", R"({"format": 1, "key": 3})", R"({"format": "one"})"}) {
    Machine m;
    fs::create_directories(m.cache + "/detect");
    std::ofstream(m.cache + "/detect/host.json") << garbage;
    EXPECT_FALSE(m.detect().from_cache) << garbage;
    EXPECT_TRUE(m.detect().from_cache) << garbage;
  }
  // The cache is sealed (issue 31): one byte of a fact changed in place, the JSON still valid,
  // is detected again, never served; so is a file cut short or of an older format.
  Machine m;
  const auto cold = m.detect();
  const std::string file = m.cache + "/detect/host.json";
  const std::string sealed = test::read_file(file);
  auto at = sealed.find("\"bookworm\"");
  ASSERT_NE(at, std::string::npos);
  std::string flipped = sealed;
  flipped[at + 1] = 'c';  // "cookworm"
  std::ofstream(file, std::ios::trunc | std::ios::binary) << flipped;
  auto again = m.detect();
  EXPECT_FALSE(again.from_cache);
  EXPECT_EQ(again.os.version_codename, "bookworm");
  EXPECT_TRUE(m.detect().from_cache);
  std::ofstream(file, std::ios::trunc | std::ios::binary) << sealed.substr(0, sealed.size() - 10);
  EXPECT_FALSE(m.detect().from_cache);
  std::ofstream(file, std::ios::trunc | std::ios::binary) << sealed.substr(64);  // the body alone, as format 2 was
  EXPECT_FALSE(m.detect().from_cache);
  EXPECT_TRUE(m.detect().from_cache);
  EXPECT_EQ(m.detect().kernel, cold.kernel);
}

TEST(HostCache, OverridesAreAppliedAfterReadingAndNeverCached) {
  Machine m;
  m.env["EXTDEPS_OVERRIDE_GLIBC"] = "2.17";
  auto first = m.detect();
  EXPECT_EQ(first.libc_version, "2.17");
  m.env.erase("EXTDEPS_OVERRIDE_GLIBC");
  auto second = m.detect();
  EXPECT_TRUE(second.from_cache);
  EXPECT_NE(second.libc_version, "2.17");
  EXPECT_TRUE(second.overridden.empty());
  m.env["EXTDEPS_OVERRIDE_LINUX"] = "4.19.0";
  auto third = m.detect();
  EXPECT_TRUE(third.from_cache);
  EXPECT_EQ(third.kernel, "4.19.0");
}

}  // namespace
}  // namespace extdeps::detect
