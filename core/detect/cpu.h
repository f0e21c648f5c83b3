// What the CPU can run: the x86-64 psABI micro-architecture level (cpuid) or, on aarch64, the
// HWCAP feature names the kernel reports (getauxval).
#pragma once

#include <string>
#include <vector>

namespace extdeps::detect {

struct CpuFacts {
  std::string x86_64_level;           // "x86-64-v3"; empty off x86-64
  std::vector<std::string> features;  // the level features present (x86-64) or HWCAP names
};

// The CPU this process runs on.
CpuFacts detect_cpu();

// The level reached by a set of feature names (lower-case, /proc/cpuinfo spelling: "avx2",
// "sse4_1", "lzcnt" as "abm", ...): "x86-64-v1" .. "x86-64-v4". Used by tests to cross-check.
std::string x86_64_level_of(const std::vector<std::string>& cpuinfo_flags);

}  // namespace extdeps::detect
