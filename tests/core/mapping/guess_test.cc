// The names a guess looks for, per ecosystem and category, in order (core/mapping/guess.h).
#include "core/mapping/guess.h"

#include <gtest/gtest.h>

#include <algorithm>
#include "tests/support/providers.h"

namespace extdeps::mapping {
namespace {

using Kind = GuessCandidate::Kind;
using V = std::vector<std::string>;

// "name" for a package, "src:name" / "src:name (dev)" for a source, "provides:name".
V names(std::string_view id, std::string_view eco, std::string_view manager, Category c) {
  V out;
  for (const auto& g : guess_candidates(id, eco, manager, c)) {
    if (g.kind == Kind::package) out.push_back(g.name);
    if (g.kind == Kind::source) out.push_back("src:" + g.name + (g.dev_packages ? " (dev)" : ""));
    if (g.kind == Kind::provides) out.push_back("provides:" + g.name);
  }
  return out;
}

// Where `name` comes in `v`; v.size() when absent.
size_t at(const V& v, const std::string& name) { return std::find(v.begin(), v.end(), name) - v.begin(); }

TEST(GuessCandidates, AptTriesTheExactNameThenTheSourceThenLibNameDevThenProvides) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  // A program need: the package of that name first (4ti2, not lib4ti2-dev), then the source's
  // non-dev packages, the lib<name>-dev forms last.
  auto build = names("dep:generic/4ti2", "debian", "apt", Category::build);
  EXPECT_EQ(build.front(), "4ti2");
  EXPECT_LT(at(build, "4ti2"), at(build, "src:4ti2"));
  EXPECT_LT(at(build, "src:4ti2"), at(build, "lib4ti2-dev"));
  EXPECT_EQ(build.back(), "provides:4ti2");
  // A library need: the source's -dev packages first, then lib<name>-dev and lib<name>N-dev,
  // then <name>-dev, and only then a package of exactly that name.
  auto host = names("dep:generic/cddlib", "debian", "apt", Category::host);
  EXPECT_EQ(host.front(), "src:cddlib (dev)");
  EXPECT_LT(at(host, "src:cddlib-2 (dev)"), at(host, "libcddlib-dev"));
  EXPECT_LT(at(host, "libcddlib-dev"), at(host, "libcddlib2-dev"));
  EXPECT_LT(at(host, "libcddlib2-dev"), at(host, "cddlib-dev"));
  EXPECT_LT(at(host, "cddlib-dev"), at(host, "cddlib"));
  // A run need: the program, the source's non-dev packages, then a runtime library.
  auto run = names("dep:generic/foo", "debian", "apt", Category::run);
  EXPECT_EQ(run.front(), "foo");
  EXPECT_LT(at(run, "src:foo"), at(run, "libfoo1"));
  EXPECT_LT(at(run, "libfoo1"), at(run, "libfoo-dev"));
  // lib is not doubled; '_' becomes '-' as Debian names have it.
  auto lib = names("dep:generic/libfoo", "debian", "apt", Category::host);
  EXPECT_NE(at(lib, "libfoo-dev"), lib.size());
  EXPECT_EQ(at(lib, "liblibfoo-dev"), lib.size());
  auto underscore = names("dep:generic/latte_int", "debian", "apt", Category::host);
  EXPECT_NE(at(underscore, "liblatte-int-dev"), underscore.size());
}

TEST(GuessCandidates, OtherPurlTypesAreGuessedFromTheirLastSegment) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXPECT_EQ(names("dep:cargo/ripgrep", "debian", "apt", Category::run).front(), "ripgrep");
  EXPECT_EQ(names("dep:golang/github.com/junegunn/fzf", "debian", "apt", Category::run).front(), "fzf");
  EXPECT_EQ(names("dep:github/AbiWord/Enchant", "debian", "apt", Category::run).front(), "enchant");
  EXPECT_EQ(names("dep:npm/typescript", "debian", "apt", Category::build).front(), "typescript");
  EXPECT_EQ(names("dep:pypi/numpy", "debian", "apt", Category::run), (V{"python3-numpy"}));
  EXPECT_EQ(guess_name("dep:github/Owner/LibBar@>=2?x=y"), "libbar");
  EXPECT_EQ(guess_name("dep:virtual/compiler/c"), "");
  EXPECT_EQ(guess_name("dep:cran/nat"), "");
}

TEST(GuessCandidates, CondaForgeAndPkgconfig) {
  EXTDEPS_NEEDS_PROVIDER("conda");
  EXTDEPS_NEEDS_PROVIDER("pkgconf");
  EXPECT_EQ(names("dep:generic/foo", "conda-forge", "conda", Category::host), (V{"foo", "libfoo"}));
  EXPECT_EQ(names("dep:generic/libfoo", "conda-forge", "conda", Category::host), (V{"libfoo"}));
  EXPECT_EQ(names("dep:generic/foo", "conda-forge", "conda", Category::build), (V{"foo"}));
  EXPECT_EQ(names("dep:generic/libfoo", "pkgconfig", "", Category::host), (V{"libfoo", "foo"}));
  EXPECT_EQ(names("dep:generic/foo", "pkgconfig", "", Category::build), (V{"foo", "libfoo"}));
  // A .pc file proves what is built against, not what runs.
  EXPECT_EQ(names("dep:generic/foo", "pkgconfig", "", Category::run), V{});
}

// rpm: a library's .pc file is the evidence (rpm's automatic Provides: pkgconfig(NAME)), then the
// -devel forms; pacman and Homebrew ship headers with the library, one package of its name.
TEST(GuessCandidates, RpmPacmanAndHomebrew) {
  EXTDEPS_NEEDS_PROVIDER("dnf");
  EXTDEPS_NEEDS_PROVIDER("pacman");
  EXTDEPS_NEEDS_PROVIDER("homebrew");
  EXPECT_EQ(names("dep:generic/libxml2", "fedora", "dnf", Category::host),
            (V{"provides:pkgconfig(libxml2)", "provides:pkgconfig(xml2)", "libxml2-devel", "libxml2",
               "src:libxml2 (dev)", "provides:libxml2"}));
  EXPECT_EQ(names("dep:generic/zlib", "opensuse", "zypper", Category::host),
            (V{"provides:pkgconfig(zlib)", "provides:pkgconfig(libzlib)", "zlib-devel", "libzlib-devel", "zlib",
               "src:zlib (dev)", "provides:zlib"}));
  EXPECT_EQ(names("dep:generic/cmake", "fedora", "dnf", Category::build), (V{"cmake", "src:cmake", "provides:cmake"}));
  // A run need: the source rpm's packages (the library its -devel requires first), then Fedora's
  // <name>-libs and lib<name> forms of a runtime library.
  EXPECT_EQ(names("dep:generic/zstd", "fedora", "dnf", Category::run),
            (V{"zstd", "src:zstd", "zstd-libs", "libzstd", "provides:zstd"}));
  EXPECT_EQ(names("dep:pypi/numpy", "fedora", "dnf", Category::host), (V{"python3-numpy"}));
  EXPECT_EQ(names("dep:generic/zstd", "arch", "pacman", Category::host), (V{"zstd", "provides:zstd"}));
  EXPECT_EQ(names("dep:pypi/numpy", "arch", "pacman", Category::host), (V{"python-numpy"}));
  EXPECT_EQ(names("dep:generic/gdal", "homebrew", "brew", Category::host), (V{"gdal"}));
}

TEST(GuessCandidates, NothingForVirtualIdsOrUnknownManagersAndTheRulesAreNamed) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXPECT_EQ(names("dep:virtual/interface/blas", "debian", "apt", Category::host), V{});
  EXPECT_EQ(names("dep:virtual/compiler/c", "pkgconfig", "", Category::build), V{});
  EXPECT_EQ(names("dep:pypi/numpy", "conda-forge", "conda", Category::host), V{});
  EXPECT_EQ(names("dep:generic/foo", "nixpkgs", "nix", Category::host), V{});
  auto why = guess_candidates("dep:generic/foo", "debian", "apt", Category::build);
  ASSERT_FALSE(why.empty());
  EXPECT_EQ(why[0].why, "named after dep:generic/foo (a package of exactly that name)");
  EXPECT_EQ(guess_rules("dep:generic/foo", "debian", "apt", Category::host),
            "binary packages built from the source package of that name, the -dev ones; Debian's "
            "lib<name>-dev form; Debian's lib<name>N-dev form; Debian's <name>-dev form; a package of "
            "exactly that name; a package that provides that name");
  EXPECT_EQ(guess_rules("dep:virtual/compiler/c", "debian", "apt", Category::host), "");
}

}  // namespace
}  // namespace extdeps::mapping
