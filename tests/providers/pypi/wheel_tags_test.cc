// Wheel file names and compatibility tags, checked against Python's own packaging.tags on this
// machine's interpreter.
#include "providers/pypi/wheel_tags.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/detect/process.h"
#include "providers/pypi/interpreter.h"
#include "tests/test_support.h"

namespace extdeps::pypi {
namespace {

using Strings = std::vector<std::string>;

TEST(PypiWheelName, ParsesRealNamesAndCompressedTagSets) {
  auto w =
      parse_wheel_filename("nvidia_cuda_runtime_cu12-12.6.77-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl");
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_EQ(w->distribution, "nvidia_cuda_runtime_cu12");
  EXPECT_EQ(w->version, "12.6.77");
  EXPECT_EQ(w->build, "");
  EXPECT_EQ(w->python, Strings{"py3"});
  EXPECT_EQ(w->abi, Strings{"none"});
  EXPECT_EQ(w->platform, (Strings{"manylinux2014_x86_64", "manylinux_2_17_x86_64"}));

  auto ninja = parse_wheel_filename("ninja-1.11.1.1-py2.py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl");
  ASSERT_TRUE(ninja.ok());
  EXPECT_EQ(ninja->python, (Strings{"py2", "py3"}));
  auto built = parse_wheel_filename("numpy-2.1.3-1-cp311-cp311-manylinux_2_17_x86_64.whl");
  ASSERT_TRUE(built.ok());
  EXPECT_EQ(built->build, "1");
  EXPECT_EQ(built->abi, Strings{"cp311"});

  EXPECT_EQ(parse_wheel_filename("ninja-1.11.1.tar.gz").error().message,
            "ninja-1.11.1.tar.gz: not a wheel (expected a file name ending in .whl)");
  EXPECT_EQ(parse_wheel_filename("ninja-1.11-py3-any.whl").error().message,
            "ninja-1.11-py3-any.whl: expected name-version[-build]-python-abi-platform.whl");
  EXPECT_EQ(parse_wheel_filename("x-1-b1-py3-none-any.whl").error().message,
            "x-1-b1-py3-none-any.whl: the build tag 'b1' does not start with a digit");
  EXPECT_FALSE(parse_wheel_filename("x--py3-none-any.whl").ok());
}

TEST(PypiWheelName, GlibcAndMuslOfPlatformTags) {
  using P = std::pair<int, int>;
  EXPECT_EQ(manylinux_glibc("manylinux1_x86_64"), P(2, 5));
  EXPECT_EQ(manylinux_glibc("manylinux2010_i686"), P(2, 12));
  EXPECT_EQ(manylinux_glibc("manylinux2014_aarch64"), P(2, 17));
  EXPECT_EQ(manylinux_glibc("manylinux_2_28_x86_64"), P(2, 28));
  EXPECT_EQ(manylinux_glibc("manylinux_2_x_x86_64"), std::nullopt);
  EXPECT_EQ(manylinux_glibc("linux_x86_64"), std::nullopt);
  EXPECT_EQ(manylinux_glibc("win_amd64"), std::nullopt);
  EXPECT_EQ(musllinux_version("musllinux_1_2_x86_64"), P(1, 2));
  EXPECT_EQ(musllinux_version("manylinux_2_28_x86_64"), std::nullopt);
}

TEST(PypiWheelTags, RankPrefersTheInterpreterAbiThenAbi3ThenPurePython) {
  TagTarget t;
  t.major = 3;
  t.minor = 12;
  t.abi = "cp312";
  t.arch = "x86_64";
  TagRanker r(compatible_tags(t));
  auto rank = [&](const char* name) { return r.rank(parse_wheel_filename(name).value()); };
  auto own = rank("a-1-cp312-cp312-manylinux_2_17_x86_64.whl");
  auto abi3 = rank("a-1-cp39-abi3-manylinux_2_17_x86_64.whl");
  auto pure = rank("a-1-py3-none-manylinux2014_x86_64.whl");
  auto any = rank("a-1-py3-none-any.whl");
  ASSERT_TRUE(own && abi3 && pure && any);
  EXPECT_LT(*own, *abi3);
  EXPECT_LT(*abi3, *pure);
  EXPECT_LT(*pure, *any);
  // A newer manylinux ranks higher (whether the host's glibc runs it is the solve's business).
  EXPECT_LT(*rank("a-1-py3-none-manylinux_2_28_x86_64.whl"), *pure);
  EXPECT_FALSE(rank("a-1-cp311-cp311-manylinux_2_17_x86_64.whl"));  // another Python's ABI
  EXPECT_FALSE(rank("a-1-py3-none-win_amd64.whl"));
  EXPECT_FALSE(rank("a-1-py3-none-manylinux2014_aarch64.whl"));
  EXPECT_FALSE(rank("a-1-py3-none-musllinux_1_2_x86_64.whl"));
  EXPECT_FALSE(rank("a-1-py2-none-any.whl"));
  // A compressed set counts by its best member.
  EXPECT_EQ(rank("a-1-py3-none-win_amd64.manylinux2014_x86_64.whl"), pure);
}

TEST(PypiWheelTags, MuslAndFreeThreadedTargets) {
  TagTarget musl;
  musl.arch = "aarch64";
  musl.libc = "musl";
  musl.abi = "cp312";
  auto tags = compatible_tags(musl);
  EXPECT_EQ(tags.front(), "cp312-cp312-musllinux_1_2_aarch64");
  EXPECT_NE(std::find(tags.begin(), tags.end(), "cp312-cp312-musllinux_1_0_aarch64"), tags.end());
  EXPECT_EQ(std::find(tags.begin(), tags.end(), "py3-none-manylinux2014_aarch64"), tags.end());

  TagTarget ft;
  ft.minor = 13;
  ft.abi = "cp313t";
  ft.abi3 = false;
  ft.arch = "x86_64";
  auto ftags = compatible_tags(ft);
  EXPECT_EQ(ftags.front(), "cp313-cp313t-manylinux_2_50_x86_64");
  for (const auto& t : ftags) EXPECT_EQ(t.find("abi3"), std::string::npos) << t;
}

// packaging.tags.sys_tags() of the machine's own Python, against ours for the same interpreter
// on this glibc: the same tags in the same order, once ours drop the manylinux tags of a newer
// glibc (packaging leaves those out; we keep them for the solve to refuse with a reason).
TEST(PypiWheelTags, AgreeWithPythonPackagingOnThisMachine) {
  const std::string python = "/usr/bin/python3";
  auto probe = detect::run_capture(Context::from_process(), {python, "-c", "import packaging.tags"}, 20000);
  if (!probe || probe->exit_status != 0)
    GTEST_SKIP() << python << " with python3-packaging is needed (scripts/install-deps.sh installs both)";
  auto theirs = detect::run_capture(
      Context::from_process(), {python, "-c", "from packaging import tags\nfor t in tags.sys_tags(): print(t)"}, 20000);
  ASSERT_TRUE(theirs.ok());
  auto libc = detect::run_capture(Context::from_process(),
                                  {python, "-c", "import platform; print(platform.libc_ver()[1])"}, 20000);
  ASSERT_TRUE(libc.ok());
  int gmajor = 0, gminor = 0;
  ASSERT_EQ(std::sscanf(libc->out.c_str(), "%d.%d", &gmajor, &gminor), 2) << libc->out;

  Context ctx = Context::for_test("/");
  ctx.set_cache_dir(test::temp_dir());
  auto in = find_interpreter(ctx, python);
  ASSERT_TRUE(in.ok()) << in.error().message;
  detect::HostFacts host;
  host.libc = "glibc";
  auto ours = compatible_tags(tag_target(*in, &host));
  Strings kept;
  for (const auto& t : ours) {
    auto g = manylinux_glibc(t.substr(t.rfind('-') + 1));
    if (!g || *g <= std::make_pair(gmajor, gminor)) kept.push_back(t);
  }
  Strings expected;
  std::istringstream lines(theirs->out);
  for (std::string l; std::getline(lines, l);) expected.push_back(l);
  ASSERT_GT(expected.size(), 100u);
  EXPECT_EQ(kept, expected);
}

}  // namespace
}  // namespace extdeps::pypi
