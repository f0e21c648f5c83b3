// What providers hand to the solver: plain records in a package manager's own names and versions.
// No libsolv type appears here (DESIGN.md decision 6).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace extdeps {

// `spec`: `version` holds a match expression in the provider's own syntax that one operator and
// version cannot say (conda's "numpy >=1.20,<2.0a0 py310*" keeps ">=1.20,<2.0a0 py310*"). The
// solver asks the provider to compile it (Provider::compile_spec) and matches it lazily against
// the candidates of `name`.
enum class DepOp : std::uint8_t { any, eq, lt, le, gt, ge, ne, spec };

// One native relation: "libc6 (>= 2.34)", or a plain "zlib1g-dev".
struct NativeDep {
  std::string name;
  DepOp op = DepOp::any;
  std::string version;  // native version string (or the spec text); empty when op == any
};

// "a | b (>= 1)": satisfied by any one alternative.
using DepAlternatives = std::vector<NativeDep>;

struct PackageRecord {
  std::string name;     // native name, unqualified for the native architecture
  std::string version;  // native version string, as the manager prints it
  std::string arch;     // e.g. amd64, all; empty where the manager has none
  std::vector<NativeDep> provides;
  std::vector<DepAlternatives> depends;  // all must hold (apt: Pre-Depends + Depends)
  // rpm's boolean dependencies that alternatives cannot say ("(plugin if host)", "(a with b)",
  // nested ones), as written; all must hold too. The solver reads them (core/solve/rich_dep.h).
  std::vector<std::string> rich_depends;
  std::vector<NativeDep> conflicts;  // none may be installed (apt: Conflicts + Breaks)
  // When a package of that name is in the plan or installed, it must match (conda `constrains`);
  // no package of that name is pulled in by it.
  std::vector<NativeDep> constrains;
  std::string build;            // conda: the build string ("py310h5eee18b_0"); empty elsewhere
  unsigned build_number = 0;    // conda: preferred higher for the same version
  unsigned track_features = 0;  // conda: how many track_features it has; each lowers preference
  std::string origin;           // where it came from: an index path, a .pc file, a status file
  bool installed = false;
  // Packages of one family stand in for one another where a mapping names one of them (nix:
  // attributes that share a pname, openssl and openssl_3_3), the one named first. `set` is the
  // group a package belongs to (nix: its package set, cudaPackages_12_4): a mapping that names
  // several packages takes them all from the set of the stand-in. Empty where a manager has none.
  std::string family;
  std::string set;
};

// Providers stream records into a sink instead of building a vector: the full bookworm index is
// 63k records and most of their text is not kept.
using RecordSink = std::function<void(PackageRecord&&)>;

}  // namespace extdeps
