// Honest guesses for an id that no mapping table knows: the names a package or a pkg-config
// module would have if it were named after the id (dep:generic/foo: the pkg-config module foo,
// Debian's libfoo-dev, conda-forge's foo). The solver looks these names up in the real indexes;
// whatever it finds is shown as a guess with this evidence, never as a maintained mapping.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/declare/requirement.h"

namespace extdeps::mapping {

struct GuessCandidate {
  std::string name;  // libfoo-dev
  std::string why;   // "named after dep:generic/foo (Debian's lib<name>-dev form)"
};

// In order of preference. Nothing for ids that name no upstream project (dep:virtual/..., which
// need a maintained mapping) or for ecosystems whose naming is not known here. `manager` is the
// table's manager (apt, conda), empty for the pkgconfig detector.
std::vector<GuessCandidate> guess_candidates(std::string_view id, std::string_view ecosystem,
                                             std::string_view manager, Category category);

}  // namespace extdeps::mapping
