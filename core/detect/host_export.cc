// The wheel-variant spelling of the host facts, and what the providers' forms share; see
// host_export.h.
#include "core/detect/host_export.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include "core/detect/cuda_table.h"

namespace extdeps::detect {

namespace {

std::pair<int, int> cuda_major_minor(const std::string& v) {
  int major = 0, minor = 0;
  std::sscanf(v.c_str(), "%d.%d", &major, &minor);
  return {major, minor};
}

}  // namespace

bool has_driver(const HostFacts& f) { return f.cuda.state == CudaState::ok && !f.cuda.cuda_version.empty(); }

bool plain_value(std::string_view v) {
  return std::all_of(v.begin(), v.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '+' ||
           c == '_' || c == '-';
  });
}

std::string cc_text(std::pair<int, int> cc) { return std::to_string(cc.first) + "." + std::to_string(cc.second); }

std::string variant_properties(const HostFacts& f) {
  if (!has_driver(f)) return {};
  // Bounded whatever the facts say (the --host reader checks them too): a minor past 99 or a
  // major far from the table would make the loops below run for ever.
  auto [major, minor] = cuda_major_minor(f.cuda.cuda_version);
  minor = std::clamp(minor, 0, 99);
  major = std::clamp(major, 0, 99);
  const auto& table = cuda_toolkits();
  auto newest_minor = [&](int m) {
    int n = -1;
    for (const auto& t : table)
      if (t.major == m) n = std::max(n, t.minor);
    return n;
  };
  std::string out;
  auto line = [&](const char* feature, const std::string& value) {
    out += std::string("nvidia :: ") + feature + " :: " + value + "\n";
  };
  // A wheel that needs CUDA X.Y or newer runs here for every X.Y up to this driver's.
  for (int m = major; m >= table.front().major; --m)
    for (int n = m == major ? minor : newest_minor(m); n >= 0; --n)
      line("cuda_version_lower_bound", std::to_string(m) + "." + std::to_string(n));
  // One that supports CUDA up to X.Y runs here for every X.Y from this driver's on.
  for (int m = major; m <= table.back().major; ++m)
    for (int n = m == major ? minor : 0; n <= std::max(newest_minor(m), m == major ? minor : 0); ++n)
      line("cuda_version_upper_bound", std::to_string(m) + "." + std::to_string(n));
  // Native code for each GPU, then PTX that every GPU here can JIT (no newer than the oldest).
  std::vector<std::pair<int, int>> seen;
  for (const auto& d : f.cuda.devices) {
    std::pair<int, int> cc{d.cc_major, d.cc_minor};
    if (std::find(seen.begin(), seen.end(), cc) != seen.end()) continue;
    seen.push_back(cc);
    line("sm_arch", std::to_string(cc.first) + std::to_string(cc.second) + "_real");
  }
  if (!seen.empty()) {
    std::set<std::pair<int, int>, std::greater<>> archs;
    for (const auto& t : table)
      for (auto sm : t.sm) archs.insert(cuda_major_minor(std::string(sm)));
    const auto lowest = f.cuda.min_compute_capability();
    for (const auto& a : archs)
      if (a <= lowest) line("sm_arch", std::to_string(a.first) + std::to_string(a.second) + "_virtual");
  }
  return out;
}

}  // namespace extdeps::detect
