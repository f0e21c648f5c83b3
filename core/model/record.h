// What providers hand to the solver: plain records in a package manager's own names and versions.
// No libsolv type appears here (DESIGN.md decision 6).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace extdeps {

// How a provider's native version strings are ordered (core/version/).
enum class VersionScheme { deb, rpm, pep440 };

enum class DepOp : std::uint8_t { any, eq, lt, le, gt, ge, ne };

// One native relation: "libc6 (>= 2.34)", or a plain "zlib1g-dev".
struct NativeDep {
  std::string name;
  DepOp op = DepOp::any;
  std::string version;  // native version string; empty when op == any
};

// "a | b (>= 1)": satisfied by any one alternative.
using DepAlternatives = std::vector<NativeDep>;

struct PackageRecord {
  std::string name;            // native name, unqualified for the native architecture
  std::string version;         // native version string, as the manager prints it
  std::string arch;            // e.g. amd64, all; empty where the manager has none
  std::vector<NativeDep> provides;
  std::vector<DepAlternatives> depends;  // all must hold (apt: Pre-Depends + Depends)
  std::vector<NativeDep> conflicts;       // none may be installed (apt: Conflicts + Breaks)
  std::string origin;          // where it came from: an index path, a .pc file, a status file
  bool installed = false;
};

// Providers stream records into a sink instead of building a vector: the full bookworm index is
// 63k records and most of their text is not kept.
using RecordSink = std::function<void(PackageRecord&&)>;

}  // namespace extdeps
