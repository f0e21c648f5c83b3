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

// What a package of a source is for, as its manager's naming says (ProviderDescriptor::
// package_role): a guess from a source package takes the development packages for a host need,
// and for a build or run need never the documentation, debugging or translation packages; a run
// need takes neither programs nor plugins either.
enum class PackageRole {
  runtime,  // a shared library, or a package that is the project itself
  dev,      // headers and link-time files (Debian's -dev)
  tool,     // programs that come with a library (-bin, -tools, -utils)
  plugin,   // loaded by something else (an NSS or PAM module, a -plugin package)
  support,  // documentation, debugging symbols, translations, examples, shared data
};

// What a provider's guess rule (ProviderDescriptor::guess) is asked about.
struct GuessSubject {
  std::string_view name;  // the project's name, lower case (guess_name)
  std::string_view type;  // the id's type: "generic" for dep:generic/..., the PURL type otherwise
  Category category = Category::host;
};

// One name a provider's guess rule tries, in the provider's words: `form` is how the name was
// made ("Debian's lib<name>-dev form"); guess_candidates adds the id ("named after ID (FORM)").
struct GuessForm {
  std::string name;
  std::string form;
  GuessCandidate::Kind kind = GuessCandidate::Kind::package;
  bool dev_packages = false;
};

// `name` without a leading "lib" where something is left after it ("libxml2" -> "xml2", "lib" ->
// "lib"): the base that lib<name> forms are made from.
std::string without_lib(std::string_view name);

// In order of preference: the forms the rule of the provider behind `manager` (or, for a table
// without a manager, behind `ecosystem`) makes of the id's name, each once, less those its
// manager's name rule refuses (a provide is looked up, not installed, and is kept). Nothing for
// ids that name no upstream project (dep:virtual/..., which need a maintained mapping) or where
// the provider has no rule.
std::vector<GuessCandidate> guess_candidates(std::string_view id, std::string_view ecosystem, std::string_view manager,
                                             Category category);

// The rules guess_candidates tries for one ecosystem and category, in words, for "nothing here
// is named after it (tried: ...)"; empty when it tries none.
std::string guess_rules(std::string_view id, std::string_view ecosystem, std::string_view manager, Category category);

// The name a guess starts from: the last path segment, lower-cased, without version,
// qualifiers or subpath ("dep:github/GNOME/LibXml2@2.9" -> "libxml2"); empty for a type that
// names no upstream project (virtual) or is unknown here.
std::string guess_name(std::string_view id);

}  // namespace extdeps::mapping
