#include "core/detect/cpu.h"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

namespace extdeps::detect {

namespace {

// The x86-64 psABI levels, each adding to the one before.
constexpr std::array<std::string_view, 7> kV2 = {"cx16", "lahf_lm", "popcnt", "sse3", "sse4.1", "sse4.2", "ssse3"};
constexpr std::array<std::string_view, 9> kV3 = {"avx", "avx2",  "bmi1",  "bmi2",   "f16c",
                                                 "fma", "lzcnt", "movbe", "osxsave"};
constexpr std::array<std::string_view, 5> kV4 = {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"};

template <size_t N>
bool has_all(const std::set<std::string, std::less<>>& have, const std::array<std::string_view, N>& need) {
  return std::all_of(need.begin(), need.end(), [&](std::string_view f) { return have.count(f); });
}

std::string level_of(const std::set<std::string, std::less<>>& have) {
  if (!has_all(have, kV2)) return "x86-64-v1";
  if (!has_all(have, kV3)) return "x86-64-v2";
  if (!has_all(have, kV4)) return "x86-64-v3";
  return "x86-64-v4";
}

#if defined(__x86_64__)
std::set<std::string, std::less<>> cpuid_features() {
  std::set<std::string, std::less<>> f;
  unsigned a = 0, b = 0, c = 0, d = 0;
  unsigned max_leaf = __get_cpuid_max(0, nullptr);
  if (max_leaf < 1 || !__get_cpuid(1, &a, &b, &c, &d)) return f;
  auto bit = [](unsigned reg, int n) { return (reg >> n) & 1u; };
  if (bit(c, 0)) f.insert("sse3");
  if (bit(c, 9)) f.insert("ssse3");
  if (bit(c, 12)) f.insert("fma");
  if (bit(c, 13)) f.insert("cx16");
  if (bit(c, 19)) f.insert("sse4.1");
  if (bit(c, 20)) f.insert("sse4.2");
  if (bit(c, 22)) f.insert("movbe");
  if (bit(c, 23)) f.insert("popcnt");
  if (bit(c, 28)) f.insert("avx");
  if (bit(c, 29)) f.insert("f16c");
  // The OS must save the ymm (and for AVX-512 the opmask and zmm) registers: XCR0 says so.
  unsigned xcr0 = 0;
  if (bit(c, 27)) {
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = lo;
    if ((xcr0 & 0x6) == 0x6) f.insert("osxsave");
  }
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    if (bit(b, 3)) f.insert("bmi1");
    if (bit(b, 5)) f.insert("avx2");
    if (bit(b, 8)) f.insert("bmi2");
    if ((xcr0 & 0xe6) == 0xe6) {
      if (bit(b, 16)) f.insert("avx512f");
      if (bit(b, 17)) f.insert("avx512dq");
      if (bit(b, 28)) f.insert("avx512cd");
      if (bit(b, 30)) f.insert("avx512bw");
      if (bit(b, 31)) f.insert("avx512vl");
    }
  }
  if (__get_cpuid_max(0x80000000, nullptr) >= 0x80000001 && __get_cpuid(0x80000001, &a, &b, &c, &d)) {
    if (bit(c, 0)) f.insert("lahf_lm");
    if (bit(c, 5)) f.insert("lzcnt");
  }
  return f;
}
#endif

#if defined(__aarch64__)
// Bit n of AT_HWCAP / AT_HWCAP2 is named by entry n (arch/arm64/include/uapi/asm/hwcap.h).
constexpr std::array<std::string_view, 32> kHwcap = {
    "fp",    "asimd",    "evtstrm", "aes",   "pmull",  "sha1",  "sha2", "crc32", "atomics", "fphp",    "asimdhp",
    "cpuid", "asimdrdm", "jscvt",   "fcma",  "lrcpc",  "dcpop", "sha3", "sm3",   "sm4",     "asimddp", "sha512",
    "sve",   "asimdfhm", "dit",     "uscat", "ilrcpc", "flagm", "ssbs", "sb",    "paca",    "pacg"};
constexpr std::array<std::string_view, 20> kHwcap2 = {
    "dcpodp",   "sve2",     "sveaes",  "svepmull", "svebitperm", "svesha3", "svesm4", "flagm2", "frint", "svei8mm",
    "svef32mm", "svef64mm", "svebf16", "i8mm",     "bf16",       "dgh",     "rng",    "bti",    "mte",   "ecv"};
#endif

}  // namespace

std::string x86_64_level_of(const std::vector<std::string>& cpuinfo_flags) {
  std::set<std::string, std::less<>> have;
  for (const auto& raw : cpuinfo_flags) {
    std::string f = raw;
    if (f == "pni") f = "sse3";
    else if (f == "sse4_1") f = "sse4.1";
    else if (f == "sse4_2") f = "sse4.2";
    else if (f == "abm") f = "lzcnt";
    have.insert(f);
  }
  // Linux lists avx only when the OS saves the ymm state, so avx stands for osxsave here.
  if (have.count("avx")) have.insert("osxsave");
  return level_of(have);
}

CpuFacts detect_cpu() {
  CpuFacts cpu;
#if defined(__x86_64__)
  auto have = cpuid_features();
  cpu.x86_64_level = level_of(have);
  for (auto f : kV2)
    if (have.count(f)) cpu.features.emplace_back(f);
  for (auto f : kV3)
    if (have.count(f)) cpu.features.emplace_back(f);
  for (auto f : kV4)
    if (have.count(f)) cpu.features.emplace_back(f);
#elif defined(__aarch64__)
  unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
  for (size_t i = 0; i < kHwcap.size(); ++i)
    if (hw & (1ul << i)) cpu.features.emplace_back(kHwcap[i]);
  for (size_t i = 0; i < kHwcap2.size(); ++i)
    if (hw2 & (1ul << i)) cpu.features.emplace_back(kHwcap2[i]);
#endif
  return cpu;
}

}  // namespace extdeps::detect
