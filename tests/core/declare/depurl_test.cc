#include <gtest/gtest.h>

#include "core/declare/declare.h"

namespace extdeps::declare {
namespace {

DepUrl parse_ok(std::string_view text, bool* legacy = nullptr) {
  auto r = parse_depurl(text, legacy);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : DepUrl{};
}

std::string parse_error(std::string_view text) {
  auto r = parse_depurl(text);
  EXPECT_FALSE(r.ok()) << text << " parsed";
  if (r.ok()) return "";
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  return r.error().message;
}

TEST(DepUrl, VirtualCompiler) {
  DepUrl u = parse_ok("dep:virtual/compiler/c");
  EXPECT_EQ(u.type, "virtual");
  EXPECT_EQ(u.ns, "compiler");
  EXPECT_EQ(u.name, "c");
  EXPECT_EQ(u.version, "");
  EXPECT_TRUE(u.qualifiers.empty());
  EXPECT_EQ(u.id(), "dep:virtual/compiler/c");
  EXPECT_EQ(u.str(), "dep:virtual/compiler/c");
}

TEST(DepUrl, GenericHasNoNamespace) {
  DepUrl u = parse_ok("dep:generic/pkg-config");
  EXPECT_EQ(u.type, "generic");
  EXPECT_EQ(u.ns, "");
  EXPECT_EQ(u.name, "pkg-config");
  EXPECT_EQ(u.id(), "dep:generic/pkg-config");
}

TEST(DepUrl, GithubNamespaceKeepsCase) {
  DepUrl u = parse_ok("dep:github/apache/arrow");
  EXPECT_EQ(u.ns, "apache");
  EXPECT_EQ(u.name, "arrow");
  // The PEP 804 registry spells this id with capitals; mapping tables are keyed on it as written.
  EXPECT_EQ(parse_ok("dep:github/Reference-LAPACK/lapack").id(), "dep:github/Reference-LAPACK/lapack");
}

TEST(DepUrl, SeveralNamespaceSegments) {
  DepUrl u = parse_ok("dep:golang/github.com/junegunn/fzf");
  EXPECT_EQ(u.type, "golang");
  EXPECT_EQ(u.ns, "github.com/junegunn");
  EXPECT_EQ(u.name, "fzf");
  EXPECT_EQ(u.id(), "dep:golang/github.com/junegunn/fzf");
}

TEST(DepUrl, SchemeIsCaseInsensitiveAndTypeLowerCased) {
  DepUrl u = parse_ok("DEP:Generic/zlib");
  EXPECT_EQ(u.type, "generic");
  EXPECT_EQ(u.id(), "dep:generic/zlib");
}

TEST(DepUrl, VersionRangeAfterAt) {
  DepUrl u = parse_ok("dep:generic/openjpeg@>=2.0");
  EXPECT_EQ(u.name, "openjpeg");
  EXPECT_EQ(u.version, ">=2.0");
  EXPECT_EQ(u.id(), "dep:generic/openjpeg");
  EXPECT_EQ(u.str(), "dep:generic/openjpeg@>=2.0");
  EXPECT_EQ(parse_ok("dep:generic/llvm@<20").version, "<20");
  EXPECT_EQ(parse_ok("dep:virtual/interface/lapack@>=3.7.1").version, ">=3.7.1");
}

TEST(DepUrl, PercentDecoding) {
  // An npm scope's '@' and a range's operators written percent-encoded.
  DepUrl u = parse_ok("dep:npm/%40angular/core@%3E%3D17.0");
  EXPECT_EQ(u.ns, "@angular");
  EXPECT_EQ(u.name, "core");
  EXPECT_EQ(u.version, ">=17.0");
  EXPECT_EQ(u.str(), "dep:npm/%40angular/core@>=17.0");
  DepUrl spaced = parse_ok("dep:generic/my%20lib");
  EXPECT_EQ(spaced.name, "my lib");
  EXPECT_EQ(spaced.str(), "dep:generic/my%20lib");
}

TEST(DepUrl, QualifiersAreSortedWithLowerCaseKeys) {
  DepUrl u = parse_ok("dep:generic/cmake?Repository_URL=https://gitlab.kitware.com/cmake/cmake&arch=x86%5F64");
  ASSERT_EQ(u.qualifiers.size(), 2u);
  EXPECT_EQ(u.qualifiers.at("repository_url"), "https://gitlab.kitware.com/cmake/cmake");
  EXPECT_EQ(u.qualifiers.at("arch"), "x86_64");
  EXPECT_EQ(u.id(), "dep:generic/cmake");
  EXPECT_EQ(u.str(), "dep:generic/cmake?arch=x86_64&repository_url=https://gitlab.kitware.com/cmake/cmake");
}

TEST(DepUrl, EmptyQualifierValueIsDropped) { EXPECT_TRUE(parse_ok("dep:generic/zlib?arch=").qualifiers.empty()); }

TEST(DepUrl, Subpath) {
  DepUrl u = parse_ok("dep:github/apache/arrow@14.0#cpp/./src%20dir/");
  EXPECT_EQ(u.version, "14.0");
  EXPECT_EQ(u.subpath, "cpp/src dir");
  EXPECT_EQ(u.str(), "dep:github/apache/arrow@14.0#cpp/src%20dir");
}

TEST(DepUrl, RoundTrips) {
  for (std::string_view text :
       {"dep:virtual/compiler/c", "dep:virtual/interface/lapack@>=3.7.1", "dep:github/apache/arrow",
        "dep:generic/llvm@<20", "dep:pypi/numpy@2.0", "dep:golang/github.com/junegunn/fzf",
        "dep:npm/%40angular/core@>=17.0,<18", "dep:generic/cmake?repository_url=https://gitlab.kitware.com/cmake/cmake",
        "dep:conda/conda-forge/gdal@==3.8.*?channel=conda-forge#lib", "dep:generic/my%20lib%3Bx"}) {
    DepUrl u = parse_ok(text);
    EXPECT_EQ(u.str(), text);
    DepUrl again = parse_ok(u.str());
    EXPECT_EQ(again.type, u.type);
    EXPECT_EQ(again.ns, u.ns);
    EXPECT_EQ(again.name, u.name);
    EXPECT_EQ(again.version, u.version);
    EXPECT_EQ(again.qualifiers, u.qualifiers);
    EXPECT_EQ(again.subpath, u.subpath);
  }
}

TEST(DepUrl, OlderSpellings) {
  bool legacy = false;
  DepUrl pkg = parse_ok("pkg:generic/ninja", &legacy);
  EXPECT_TRUE(legacy);
  EXPECT_EQ(pkg.id(), "dep:generic/ninja");
  legacy = false;
  DepUrl virt = parse_ok("virtual:compiler/c", &legacy);
  EXPECT_TRUE(legacy);
  EXPECT_EQ(virt.id(), "dep:virtual/compiler/c");
  legacy = true;
  parse_ok("dep:generic/ninja", &legacy);
  EXPECT_FALSE(legacy);
}

TEST(DepUrl, UnknownTypeSuggestsTheClosest) {
  EXPECT_EQ(parse_error("dep:gneric/zlib"), "unknown DepURL type 'gneric' (did you mean 'generic'?)");
  EXPECT_EQ(parse_error("dep:githb/apache/arrow"), "unknown DepURL type 'githb' (did you mean 'github'?)");
  EXPECT_EQ(parse_error("dep:virtaul/compiler/c"), "unknown DepURL type 'virtaul' (did you mean 'virtual'?)");
  EXPECT_EQ(parse_error("dep:homebrew/zlib"),
            "unknown DepURL type 'homebrew' (expected 'virtual', 'generic' or a PURL type such as "
            "'conda', 'github' or 'pypi')");
}

TEST(DepUrl, VirtualNamespaceIsCompilerOrInterface) {
  EXPECT_EQ(parse_error("dep:virtual/compilers/c"),
            "virtual DepURL 'dep:virtual/compilers/c' must have the namespace 'compiler' or "
            "'interface', got 'compilers'");
  EXPECT_EQ(parse_error("dep:virtual/blas"),
            "virtual DepURL 'dep:virtual/blas' must have the namespace 'compiler' or 'interface', "
            "got none");
}

TEST(DepUrl, Errors) {
  EXPECT_EQ(parse_error("dep:this-is-missing-the-type"),
            "DepURL 'dep:this-is-missing-the-type' has no type (expected dep:type/name)");
  EXPECT_EQ(parse_error("zlib"), "expected a DepURL like 'dep:generic/zlib', got 'zlib'");
  EXPECT_EQ(parse_error(""), "expected a DepURL like 'dep:generic/zlib', got an empty string");
  EXPECT_EQ(parse_error("npm:left-pad"), "unknown DepURL scheme 'npm:' in 'npm:left-pad' (expected 'dep:')");
  EXPECT_EQ(parse_error("dep:generic/"), "DepURL 'dep:generic/' has no name (expected dep:generic/name)");
  EXPECT_EQ(parse_error("dep:generic/zlib@"), "DepURL 'dep:generic/zlib@' has an empty version after '@'");
  EXPECT_EQ(parse_error("dep:generic/zl%g1b"),
            "bad percent-escape '%g1' in 'dep:generic/zl%g1b' (expected '%' and two hex digits)");
  EXPECT_EQ(parse_error("dep:generic/gdal>=3.4"),
            "unexpected character '>' in the name of 'dep:generic/gdal>=3.4' (a version range goes "
            "after '@', like dep:generic/gdal@>=3.4)");
  EXPECT_EQ(parse_error("dep:generic/zlib?arch"), "qualifier 'arch' in 'dep:generic/zlib?arch' is not key=value");
  EXPECT_EQ(parse_error("dep:generic/zlib?a=1&A=2"), "qualifier 'a' appears twice in 'dep:generic/zlib?a=1&A=2'");
  EXPECT_EQ(parse_error("dep:github/a%2Fb/c"), "namespace segment 'a%2Fb' of 'dep:github/a%2Fb/c' decodes to a '/'");
}

TEST(DepUrl, DidYouMeanOnlyForNearWords) {
  std::vector<std::string_view> words = {"build-requires", "host-requires", "dependencies"};
  EXPECT_EQ(did_you_mean("build-require", words), "build-requires");
  EXPECT_EQ(did_you_mean("build_requires", words), "build-requires");
  EXPECT_EQ(did_you_mean("HOST-REQUIRES", words), "host-requires");
  EXPECT_EQ(did_you_mean("dependecnies", words), "dependencies");  // a transposition
  EXPECT_EQ(did_you_mean("zzz", words), std::nullopt);
}

}  // namespace
}  // namespace extdeps::declare
