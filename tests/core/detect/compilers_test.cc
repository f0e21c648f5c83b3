#include "core/detect/compilers.h"

#include <gtest/gtest.h>

#include <chrono>

#include "tests/test_support.h"

namespace extdeps::detect {
namespace {

TEST(HostCompilers, ParsesVersionLines) {
  EXPECT_EQ(parse_compiler_version("cc", "cc (Debian 12.2.0-14) 12.2.0\nCopyright"), "12.2.0");
  EXPECT_EQ(parse_compiler_version("gfortran", "GNU Fortran (Debian 12.2.0-14) 12.2.0\n"), "12.2.0");
  EXPECT_EQ(parse_compiler_version("rustc", "rustc 1.95.0 (59807616e 2026-04-14)\n"), "1.95.0");
  EXPECT_EQ(parse_compiler_version("cc", "Debian clang version 14.0.6\nTarget: x86_64"), "14.0.6");
  EXPECT_EQ(parse_compiler_version("c++", "g++ (GCC) 13.2.1 20230801\n"), "13.2.1");
  EXPECT_EQ(parse_compiler_version("nvcc",
                                   "nvcc: NVIDIA (R) Cuda compiler driver\n"
                                   "Cuda compilation tools, release 13.0, V13.0.48\n"),
            "13.0.48");
  EXPECT_EQ(parse_compiler_version("nvcc", "Cuda compilation tools, release 11.8\n"), "11.8");
  EXPECT_EQ(parse_compiler_version("cc", "no version here\n"), "");
}

TEST(HostCompilers, FindsFixtureCompilersOnPath) {
  auto ctx = Context::for_test(test::data_path("detect/compilers"), {{"PATH", "/nowhere:/usr/bin"}});
  auto found = detect_compilers(ctx, 2000);
  std::map<std::string, Compiler> by_name;
  for (const auto& c : found) by_name[c.name] = c;
  ASSERT_TRUE(by_name.count("cc"));
  EXPECT_EQ(by_name["cc"].path, "/usr/bin/cc");
  EXPECT_EQ(by_name["cc"].version, "12.2.0");
  EXPECT_EQ(by_name["rustc"].version, "1.95.0");
  EXPECT_FALSE(by_name.count("gfortran")) << "a compiler whose --version fails is left out";
  EXPECT_FALSE(by_name.count("c++"));
  // nvcc is not on PATH: found in /usr/local/cuda-12.4/bin.
  ASSERT_TRUE(by_name.count("nvcc"));
  EXPECT_EQ(by_name["nvcc"].path, "/usr/local/cuda-12.4/bin/nvcc");
  EXPECT_EQ(by_name["nvcc"].version, "12.4.131");
}

TEST(HostCompilers, ASlowCompilerIsKilledAndLeftOut) {
  auto ctx = Context::for_test(test::data_path("detect/compilers"), {{"PATH", "/slow/bin"}});
  auto start = std::chrono::steady_clock::now();
  auto found = detect_compilers(ctx, 200);
  auto took = std::chrono::steady_clock::now() - start;
  for (const auto& c : found) EXPECT_NE(c.name, "c++");
  EXPECT_LT(took, std::chrono::seconds(3));
}

TEST(HostCompilers, NoPathNoCompilers) {
  auto ctx = Context::for_test(test::data_path("detect/root"));
  EXPECT_TRUE(detect_compilers(ctx, 2000).empty());
}

}  // namespace
}  // namespace extdeps::detect
