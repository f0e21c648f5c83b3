// Honest guesses for an id that no mapping table knows: the names a package or a pkg-config
// module would have if it were named after the id's last path segment (dep:generic/foo,
// dep:cargo/foo, dep:golang/github.com/o/foo, dep:github/o/foo all name "foo"). The solver looks
// these names up in the real indexes; whatever it finds is shown as a guess with this evidence,
// never as a maintained mapping.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/declare/requirement.h"

namespace extdeps::mapping {

struct GuessCandidate {
  // How `name` is looked up in an index.
  enum class Kind {
    package,   // a package of exactly that name
    source,    // the binary packages built from the source package `name` (apt's Source:)
    provides,  // a package that provides `name` without being named so
  };
  std::string name;  // libfoo-dev; for source: foo
  std::string why;   // "named after dep:generic/foo (Debian's lib<name>-dev form)"
  Kind kind = Kind::package;
  // For source: which of the source's binary packages count. Host needs take the -dev ones,
  // build and run needs the others (a program, a runtime library).
  bool dev_packages = false;
};

// In order of preference. Nothing for ids that name no upstream project (dep:virtual/..., which
// need a maintained mapping) or for ecosystems whose naming is not known here. `manager` is the
// table's manager (apt, conda), empty for the pkgconfig detector.
std::vector<GuessCandidate> guess_candidates(std::string_view id, std::string_view ecosystem,
                                             std::string_view manager, Category category);

// The rules guess_candidates tries for one ecosystem and category, in words, for "nothing here
// is named after it (tried: ...)"; empty when it tries none.
std::string guess_rules(std::string_view id, std::string_view ecosystem, std::string_view manager,
                        Category category);

// The name a guess starts from: the last path segment, lower-cased, without version,
// qualifiers or subpath ("dep:github/GNOME/LibXml2@2.9" -> "libxml2"); empty for a type that
// names no upstream project (virtual) or is unknown here.
std::string guess_name(std::string_view id);

}  // namespace extdeps::mapping
