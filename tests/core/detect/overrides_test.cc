#include "core/detect/overrides.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/detect/host.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps::detect {
namespace {

// Facts as a machine would give them, then the overrides of env on top.
Result<HostFacts> with_env(std::map<std::string, std::string> env) {
  auto ctx = Context::for_test(test::data_path("detect/root"), std::move(env));
  auto o = read_overrides(ctx);
  if (!o.ok()) return o.error();
  HostFacts f;
  f.os = read_os_release(ctx);
  f.machine = "x86_64";
  f.x86_64_level = "x86-64-v3";
  f.kernel = "6.1.0-18-amd64";
  f.libc = "glibc";
  f.libc_version = "2.36";
  f.cuda.state = CudaState::no_device;
  f.cuda.kernel_driver = "550.54.15";
  apply_overrides(*o, f);
  return f;
}

bool has(const std::vector<std::string>& v, const char* s) { return std::find(v.begin(), v.end(), s) != v.end(); }

TEST(HostOverrides, NoneSetChangesNothing) {
  auto f = with_env({});
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(f->overridden.empty());
  EXPECT_EQ(f->os.id, "debian");
  EXPECT_EQ(f->cuda.state, CudaState::no_device);
}

TEST(HostOverrides, Cuda) {
  auto f = with_env({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->cuda.state, CudaState::ok);
  EXPECT_EQ(f->cuda.cuda_version, "12.4");
  EXPECT_EQ(f->cuda.driver_version, 12040);
  EXPECT_EQ(f->cuda.source, "override");
  EXPECT_EQ(f->cuda.kernel_driver, "550.54.15");
  EXPECT_EQ(f->overridden, std::vector<std::string>{"cuda"});
}

TEST(HostOverrides, EmptyCudaMeansAbsent) {
  auto f = with_env({{"EXTDEPS_OVERRIDE_CUDA", ""}});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->cuda.state, CudaState::no_library);
  EXPECT_EQ(f->cuda.source, "override");
  EXPECT_NE(f->cuda.detail.find("EXTDEPS_OVERRIDE_CUDA"), std::string::npos) << f->cuda.detail;
  EXPECT_TRUE(has(f->overridden, "cuda"));
}

TEST(HostOverrides, CondaVariantsAreHonoured) {
  EXTDEPS_NEEDS_PROVIDER("conda");
  auto f = with_env({{"CONDA_OVERRIDE_CUDA", "11.8"}, {"CONDA_OVERRIDE_GLIBC", "2.17"}});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->cuda.cuda_version, "11.8");
  EXPECT_EQ(f->libc_version, "2.17");
  EXPECT_TRUE(has(f->overridden, "cuda"));
  EXPECT_TRUE(has(f->overridden, "glibc"));
  auto absent = with_env({{"CONDA_OVERRIDE_CUDA", ""}});
  ASSERT_TRUE(absent.ok());
  EXPECT_EQ(absent->cuda.state, CudaState::no_library);
}

TEST(HostOverrides, ExtdepsWinsOverConda) {
  auto f = with_env({{"CONDA_OVERRIDE_CUDA", "11.8"},
                     {"EXTDEPS_OVERRIDE_CUDA", "12.6"},
                     {"CONDA_OVERRIDE_GLIBC", "2.17"},
                     {"EXTDEPS_OVERRIDE_GLIBC", "2.39"}});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->cuda.cuda_version, "12.6");
  EXPECT_EQ(f->libc_version, "2.39");
  // An EXTDEPS_ variable set empty also wins: cuda is absent.
  auto absent = with_env({{"CONDA_OVERRIDE_CUDA", "11.8"}, {"EXTDEPS_OVERRIDE_CUDA", ""}});
  ASSERT_TRUE(absent.ok());
  EXPECT_EQ(absent->cuda.state, CudaState::no_library);
}

TEST(HostOverrides, CudaArch) {
  for (const char* v : {"8.6", "sm_86"}) {
    auto f = with_env({{"EXTDEPS_OVERRIDE_CUDA", "12.4"}, {"EXTDEPS_OVERRIDE_CUDA_ARCH", v}});
    ASSERT_TRUE(f.ok()) << v;
    ASSERT_EQ(f->cuda.devices.size(), 1u) << v;
    EXPECT_EQ(f->cuda.devices[0].cc_major, 8);
    EXPECT_EQ(f->cuda.devices[0].cc_minor, 6);
    EXPECT_TRUE(has(f->overridden, "cuda-arch"));
  }
  auto blackwell = with_env({{"EXTDEPS_OVERRIDE_CUDA_ARCH", "sm_120"}});
  ASSERT_TRUE(blackwell.ok());
  EXPECT_EQ(blackwell->cuda.devices.at(0).cc_major, 12);
  EXPECT_EQ(blackwell->cuda.devices.at(0).cc_minor, 0);
}

TEST(HostOverrides, GlibcLinuxArchOs) {
  auto f = with_env({{"EXTDEPS_OVERRIDE_GLIBC", "2.28"},
                     {"EXTDEPS_OVERRIDE_LINUX", "5.15.0"},
                     {"EXTDEPS_OVERRIDE_ARCH", "arm64"},
                     {"EXTDEPS_OVERRIDE_OS", "ubuntu:24.04"}});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->libc, "glibc");
  EXPECT_EQ(f->libc_version, "2.28");
  EXPECT_EQ(f->kernel, "5.15.0");
  if (test::compiled_in("apt")) EXPECT_EQ(system_arch(*f), "arm64") << "ubuntu names aarch64 as dpkg does";
  EXPECT_EQ(f->machine, "aarch64");
  EXPECT_TRUE(f->x86_64_level.empty()) << "another architecture's cpu level is unknown";
  EXPECT_EQ(f->os.id, "ubuntu");
  EXPECT_EQ(f->os.version_id, "24.04");
  EXPECT_TRUE(f->os.version_codename.empty());
  for (const char* name : {"glibc", "linux", "arch", "os"}) EXPECT_TRUE(has(f->overridden, name)) << name;
}

TEST(HostOverrides, EmptyGlibcAndLinuxMeanAbsent) {
  auto f = with_env({{"EXTDEPS_OVERRIDE_GLIBC", ""}, {"EXTDEPS_OVERRIDE_LINUX", ""}});
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(f->libc.empty());
  EXPECT_TRUE(f->libc_version.empty());
  EXPECT_TRUE(f->kernel.empty());
}

TEST(HostOverrides, EmptyArchAndOsAreIgnored) {
  auto f = with_env({{"EXTDEPS_OVERRIDE_ARCH", ""}, {"EXTDEPS_OVERRIDE_OS", ""}});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->machine, "x86_64");
  EXPECT_EQ(f->os.id, "debian");
  EXPECT_TRUE(f->overridden.empty());
}

TEST(HostOverrides, MalformedValuesAreBadInput) {
  auto cuda = with_env({{"EXTDEPS_OVERRIDE_CUDA", "twelve"}});
  ASSERT_FALSE(cuda.ok());
  EXPECT_EQ(cuda.error().code, ExitCode::bad_input);
  EXPECT_EQ(cuda.error().message,
            "invalid EXTDEPS_OVERRIDE_CUDA='twelve': expected a cuda version like 12.4, or empty "
            "for no cuda");
  EXPECT_FALSE(with_env({{"EXTDEPS_OVERRIDE_CUDA_ARCH", "ampere"}}).ok());
  if (test::compiled_in("conda")) EXPECT_FALSE(with_env({{"CONDA_OVERRIDE_GLIBC", "2.x"}}).ok());
  EXPECT_FALSE(with_env({{"EXTDEPS_OVERRIDE_CUDA", "99999999999.1"}}).ok());
}

TEST(HostOverrides, DetectHostAppliesThemAndSkipsTheProbe) {
  auto ctx = Context::for_test(test::data_path("detect/root"),
                               {{"EXTDEPS_OVERRIDE_CUDA", "12.4"}, {"EXTDEPS_OVERRIDE_GLIBC", "2.31"}});
  DetectOptions o;
  o.use_cache = false;  // probe_cuda stays on: the override must keep it from running
  auto f = detect_host(ctx, o);
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->cuda.source, "override");
  EXPECT_EQ(f->libc_version, "2.31");
  EXPECT_EQ(f->os.version_codename, "bookworm");
}

// --system (EXTDEPS_OVERRIDE_OS) names another system: its ID_LIKE is the one that system's
// os-release has, so its tables and managers are chosen as on it; a mac has no glibc or Linux.
TEST(HostOverrides, AnotherSystemGetsItsIdLike) {
  EXTDEPS_NEEDS_PROVIDER("dnf");  // rocky's ID_LIKE is the dnf descriptor's derived_systems
  EXTDEPS_NEEDS_PROVIDER("apt");  // linuxmint's is apt's
  auto rocky = with_env({{"EXTDEPS_OVERRIDE_OS", "rocky:9.4"}});
  ASSERT_TRUE(rocky.ok());
  EXPECT_EQ(rocky->os.id, "rocky");
  EXPECT_EQ(rocky->os.version_id, "9.4");
  EXPECT_EQ(rocky->os.id_like, (std::vector<std::string>{"rhel", "centos", "fedora"}));
  auto mint = with_env({{"EXTDEPS_OVERRIDE_OS", "linuxmint:22"}});
  EXPECT_EQ(mint->os.id_like, (std::vector<std::string>{"ubuntu", "debian"}));
  auto mac = with_env({{"EXTDEPS_OVERRIDE_OS", "macos:14.5"}});
  EXPECT_EQ(mac->os.id, "macos");
  EXPECT_TRUE(mac->libc.empty());
  EXPECT_TRUE(mac->kernel.empty());
  EXPECT_TRUE(has(mac->overridden, "os"));
}

// Ubuntu's derivatives name the Ubuntu release they are built on: that is their codename here.
TEST(HostOverrides, AnUbuntuDerivativeReadsAsItsUbuntuRelease) {
  const std::string root = test::temp_dir();
  std::filesystem::create_directories(root + "/etc");
  std::ofstream(root + "/etc/os-release") << "NAME=\"Linux Mint\"\nVERSION_ID=\"22\"\nVERSION_CODENAME=wilma\n"
                                             "ID=linuxmint\nID_LIKE=\"ubuntu debian\"\nUBUNTU_CODENAME=noble\n";
  auto ctx = Context::for_test(root, {});
  auto os = read_os_release(ctx);
  EXPECT_EQ(os.id, "linuxmint");
  EXPECT_EQ(os.version_codename, "noble");
}

// The same rule, named by no distribution in core: <ID>_CODENAME of the first ID_LIKE id that has
// one. LMDE 6 (Linux Mint Debian Edition, os-release of lmde-6-cinnamon-64bit.iso) is bookworm;
// Ubuntu's own UBUNTU_CODENAME is its own codename, and a key of a system it is not like is not read.
TEST(HostOverrides, ADerivativeReadsAsTheReleaseOfTheSystemItIsLike) {
  const std::string root = test::temp_dir();
  std::filesystem::create_directories(root + "/etc");
  auto read = [&](const std::string& text) {
    std::ofstream(root + "/etc/os-release") << text;
    return read_os_release(Context::for_test(root, {}));
  };
  auto lmde = read(
      "PRETTY_NAME=\"LMDE 6 (faye)\"\nNAME=\"LMDE\"\nVERSION_ID=\"6\"\nVERSION=\"6 (faye)\"\n"
      "VERSION_CODENAME=faye\nID=linuxmint\nID_LIKE=debian\nDEBIAN_CODENAME=bookworm\n");
  EXPECT_EQ(lmde.version_codename, "bookworm");
  auto ubuntu =
      read("ID=ubuntu\nID_LIKE=debian\nVERSION_ID=\"24.04\"\nVERSION_CODENAME=noble\nUBUNTU_CODENAME=noble\n");
  EXPECT_EQ(ubuntu.version_codename, "noble");
  auto unrelated = read("ID=someos\nID_LIKE=fedora\nVERSION_CODENAME=own\nUBUNTU_CODENAME=noble\n");
  EXPECT_EQ(unrelated.version_codename, "own");
}

}  // namespace
}  // namespace extdeps::detect
