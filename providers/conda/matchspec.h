// conda's MatchSpec as repodata writes it in `depends` and `constrains`: "python >=3.10,<3.11.0a0",
// "python_abi 3.10.* *_cp310", "_libgcc_mutex 0.1 conda_forge", "blas * openblas",
// "numpy[version='>=1.20,<2']". Versions are ordered and prefix-tested by providers/conda/conda_version.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/provider/provider.h"
#include "core/util/result.h"
#include "providers/conda/conda_version.h"

namespace extdeps::conda {

// A version expression: one test, or the and (',') / or ('|') of expressions. ',' binds tighter
// than '|'; parentheses group.
struct VersionExpr {
  enum class Kind : std::uint8_t {
    any,              // "*"
    equal,            // "1.2", "==1.2": conda's equality, so 1.2 == 1.2.0
    not_equal,        // "!=1.2"
    less,             // "<1.2"
    less_equal,       // "<=1.2"
    greater,          // ">1.2"
    greater_equal,    // ">=1.2", ">=1.2.*"
    starts_with,      // "1.2.*", "1.2*", "=1.2" (a spec's lone "=1.2" reads as "1.2*")
    not_starts_with,  // "!=1.2.*"
    compatible,       // "~=1.2.3": >= 1.2.3 and starts with 1.2
    glob,             // "1.*.3": '*' matches any text of the version as written
    all_of,           // "a,b"
    any_of,           // "a|b"
  };
  Kind kind = Kind::any;
  // A test as conda prints it (">=3.10", "1.26.*", "1.*.3"); empty for all_of and any_of.
  std::string text;
  version::CondaVersion operand;      // equal .. compatible: the version on the right
  version::CondaVersion prefix;       // compatible: what the version must start with
  std::vector<VersionExpr> children;  // all_of, any_of

  // `version` as written; `parsed` is its parse, or null where it is not a conda version (then
  // only any and glob can hold).
  bool matches(std::string_view version, const version::CondaVersion* parsed) const;
  // The expression as conda prints it: tests joined by ',' and '|', an or inside an and in
  // parentheses.
  std::string to_string() const;
};

struct MatchSpec {
  std::string name;                    // lower case; empty from parse_version_build
  std::optional<VersionExpr> version;  // absent: every version
  std::optional<std::string> build;    // absent: every build; '*' in it matches any text

  // Does a package with this version and build string (PackageRecord::version, ::build) match?
  bool matches(std::string_view version, std::string_view build) const;
  // "python >=3.10,<3.11.0a0", "numpy 1.26.*", "blas * openblas"; parse_matchspec reads it back
  // to an equal spec.
  std::string text() const;
};

// "name [version [build]]" with conda's rules (conda.models.match_spec):
//  - the name runs up to the first blank or one of "=<>!~["; it is lower-cased;
//  - the rest splits into version and build string at the first ' ' or '=', from the left, that
//    no operator character ("=!|,<>~") precedes and after which none of "-=,|<>~" follows
//    ("1.2.3=0", ">=1.0 , < 2.0 py34_0"); blanks inside the version are dropped;
//  - a version "=1.2" means "1.2.*" when no build string follows and exactly 1.2 when one does;
//    "==1.2" means 1.2; a bare "1.2" means 1.2 (== 1.2.0, != 1.2.1);
//  - the version is an expression: tests joined by ',' (and) and '|' (or, weaker), parentheses
//    group; a test is "*", an operator (== != < <= > >= = ~=) and a version, "1.2.*" or "1.2*"
//    (starts with 1.2), "!=1.2.*", or a glob with '*' inside ("1.*.3", on the version's text);
//  - the build string matches exactly, or as a glob where it has '*' ("*_cp310");
//  - "[key=value, ...]" at the end sets version and build (quoted or not) over the positional ones;
//  - '#' starts a comment.
// Unlike conda, parentheses in the positional form group (conda drops a "(...)" there as an
// options section), and a '=' after '(' is an operator, not the build separator.
// Rejected with a message: an empty or missing name, channels ("conda-forge::numpy"), name
// globs, regular expressions ("^1\.2.*$"), bracket keys other than version and build
// (build_number, channel, ...), conditional specs ("... if ..."), "feature@" specs, file names,
// a build string with characters other than letters, digits, "_.+*", more than one build string.
// A message names the text and the 1-based column:
//   invalid match spec 'numpy >=1.2,,<2': empty version at column 12
// conda package names as channels publish them (conda normalises names to lower case): lower
// case letters, digits, '-', '_' and '.', not starting with '-' or '.' ("_openmp_mutex" is real).
// A MatchSpec ("libblas * *_openblas") is not a name.
bool is_conda_name(std::string_view name);

Result<MatchSpec> parse_matchspec(std::string_view text);

// The same without the name: what split_name leaves and a DepOp::spec relation holds
// (">=1.20,<2.0a0 py310*", "[version='>=1.20']"). An empty text matches everything.
Result<MatchSpec> parse_version_build(std::string_view text);

// "numpy >=1.20,<2" -> {"numpy", ">=1.20,<2"}; "numpy[version='>=1']" -> {"numpy",
// "[version='>=1']"}; "zlib" -> {"zlib", ""}. The name is lower-cased; blanks around both parts
// are dropped. Nothing is checked: parse_version_build checks the rest.
std::pair<std::string, std::string> split_name(std::string_view text);

// A compiled DepOp::spec relation for the solver.
class CondaSpecMatcher : public SpecMatcher {
 public:
  explicit CondaSpecMatcher(MatchSpec spec) : spec_(std::move(spec)) {}
  bool matches(std::string_view version, std::string_view build) const override {
    return spec_.matches(version, build);
  }
  const MatchSpec& spec() const { return spec_; }

 private:
  MatchSpec spec_;
};

// parse_version_build, wrapped for Provider::compile_spec.
Result<std::unique_ptr<SpecMatcher>> compile_conda_spec(std::string_view version_build);

}  // namespace extdeps::conda
