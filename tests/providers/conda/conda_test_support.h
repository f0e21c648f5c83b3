// Shared by the conda provider's tests: collecting records and showing their relations.
#pragma once

#include <string>
#include <vector>

#include "core/model/record.h"

namespace extdeps::conda::test {

struct Collected {
  std::vector<PackageRecord> records;
  RecordSink sink() {
    return [this](PackageRecord&& r) { records.push_back(std::move(r)); };
  }
  // The record named `name` (and with that build, unless empty), or nullptr.
  const PackageRecord* find(const std::string& name, const std::string& build = "") const {
    for (const auto& r : records)
      if (r.name == name && (build.empty() || r.build == build)) return &r;
    return nullptr;
  }
};

// "name" for DepOp::any, "name|spec" for DepOp::spec (any other op is shown as "name?").
inline std::string show(const NativeDep& d) {
  if (d.op == DepOp::any) return d.version.empty() ? d.name : d.name + "?" + d.version;
  if (d.op == DepOp::spec) return d.name + "|" + d.version;
  return d.name + "?";
}

inline std::vector<std::string> show(const std::vector<NativeDep>& deps) {
  std::vector<std::string> out;
  for (const auto& d : deps) out.push_back(show(d));
  return out;
}

// One DepAlternatives per depends entry: each must hold exactly one NativeDep.
inline std::vector<std::string> show(const std::vector<DepAlternatives>& groups) {
  std::vector<std::string> out;
  for (const auto& g : groups)
    out.push_back(g.size() == 1 ? show(g[0]) : "(" + std::to_string(g.size()) + " alternatives)");
  return out;
}

}  // namespace extdeps::conda::test
