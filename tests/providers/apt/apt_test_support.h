// Shared by the apt provider's tests: collecting records and finding them.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/model/record.h"

namespace extdeps::apt::test {

struct Collected {
  std::vector<PackageRecord> records;
  RecordSink sink() {
    return [this](PackageRecord&& r) { records.push_back(std::move(r)); };
  }
  // The record named `name` whose origin ends with `origin_suffix` ("" for any), or nullptr.
  const PackageRecord* find(const std::string& name, const std::string& origin_suffix = "") const {
    for (const auto& r : records)
      if (r.name == name && r.origin.size() >= origin_suffix.size() &&
          r.origin.compare(r.origin.size() - origin_suffix.size(), origin_suffix.size(), origin_suffix) == 0)
        return &r;
    return nullptr;
  }
};

inline std::string show(const NativeDep& d) {
  static const char* ops[] = {"", " (= ", " (<< ", " (<= ", " (>> ", " (>= "};
  std::string s = d.name;
  if (d.op != DepOp::any) s += ops[static_cast<int>(d.op)] + d.version + ")";
  return s;
}

// "a (>= 1) | b" per group, for readable expectations.
inline std::vector<std::string> show(const std::vector<DepAlternatives>& groups) {
  std::vector<std::string> out;
  for (const auto& g : groups) {
    std::string s;
    for (const auto& d : g) s += (s.empty() ? "" : " | ") + show(d);
    out.push_back(s);
  }
  return out;
}

inline std::vector<std::string> show(const std::vector<NativeDep>& deps) {
  std::vector<std::string> out;
  for (const auto& d : deps) out.push_back(show(d));
  return out;
}

}  // namespace extdeps::apt::test
