// conda MatchSpecs: the forms real repodata writes, the semantics conda documents, and every
// depends/constrains string of the shared conda data.
#include "providers/conda/matchspec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "tests/test_support.h"

namespace extdeps::conda {
namespace {

std::string random_text(std::mt19937& rng, std::string_view alphabet, int max_length) {
  std::string out;
  for (int k = static_cast<int>(rng() % static_cast<unsigned>(max_length + 1)); k > 0; --k)
    out += alphabet[rng() % alphabet.size()];
  return out;
}

MatchSpec must_parse(std::string_view text) {
  auto s = parse_matchspec(text);
  EXPECT_TRUE(s.ok()) << text << ": " << (s ? "" : s.error().message);
  return s ? *s : MatchSpec{};
}

std::string error_of(std::string_view text) {
  auto s = parse_matchspec(text);
  return s ? "parsed as '" + s->text() + "'" : s.error().message;
}

struct Shape {
  const char* spec;
  const char* name;
  const char* version;  // VersionExpr::to_string(), "" for none
  const char* build;    // "" for none
};

TEST(MatchSpecParse, RepodataForms) {
  const Shape cases[] = {
      {"python >=3.10,<3.11.0a0", "python", ">=3.10,<3.11.0a0", ""},
      {"libblas >=3.9.0,<4.0a0", "libblas", ">=3.9.0,<4.0a0", ""},
      {"_libgcc_mutex 0.1 conda_forge", "_libgcc_mutex", "0.1", "conda_forge"},
      {"numpy 1.26.*", "numpy", "1.26.*", ""},
      {"python_abi 3.10.* *_cp310", "python_abi", "3.10.*", "*_cp310"},
      {"openmp_impl 9999", "openmp_impl", "9999", ""},
      {"libgcc-ng >=12", "libgcc-ng", ">=12", ""},
      {"pypy3.9 >=7.3.13", "pypy3.9", ">=7.3.13", ""},
      {"__glibc >=2.17,<3.0.a0", "__glibc", ">=2.17,<3.0.a0", ""},
      {"__cuda", "__cuda", "", ""},
      {"blas * openblas", "blas", "*", "openblas"},
      {"foo 1.2|1.4*", "foo", "1.2|1.4.*", ""},
      {"mkl >=2023.2,<2024.0a0", "mkl", ">=2023.2,<2024.0a0", ""},
      {"llvm-openmp >=9.0.1", "llvm-openmp", ">=9.0.1", ""},
      {"zlib", "zlib", "", ""},
      {"numpy-base <0a0", "numpy-base", "<0a0", ""},
      {"zlib 1.2.13 *_5", "zlib", "1.2.13", "*_5"},
      {"numpy[version='>=1.20,<2']", "numpy", ">=1.20,<2", ""},
      {"numpy [version=\">=1.20\", build=py310*]", "numpy", ">=1.20", "py310*"},
      {"numpy >=1.0 [build='py*']", "numpy", ">=1.0", "py*"},
      {"numpy 1.0 py27_0[version=2.0]", "numpy", "2.0", "py27_0"},  // brackets win
      {"numpy[version='=1.2']", "numpy", "1.2.*", ""},
      // conda's own examples for the version/build split and the '=' rules
      {"foo =1.2.3 0", "foo", "1.2.3", "0"},
      {"foo 1.2.3=0", "foo", "1.2.3", "0"},
      {"foo >=1.0 , < 2.0 py34_0", "foo", ">=1.0,<2.0", "py34_0"},
      {"foo >=1.0 , < 2.0 =py34_0", "foo", ">=1.0,<2.0", "py34_0"},
      {"foo =1.2.3 ", "foo", "1.2.3.*", ""},
      {"foo >1.8,<2|==1.7", "foo", ">1.8,<2|==1.7", ""},
      {"foo * openblas_0", "foo", "*", "openblas_0"},
      {"foo * *", "foo", "*", "*"},
      {"foo=1.0=py27_0", "foo", "1.0", "py27_0"},
      {"foo==1.0", "foo", "1.0", ""},
      {"foo=1.0", "foo", "1.0.*", ""},
      {"foo=1.0*", "foo", "1.0.*", ""},
      {"foo>=1.0", "foo", ">=1.0", ""},
      {"Foo  >=1.0  # a comment", "foo", ">=1.0", ""},
      {"numpy=1.11.2=*nomkl*", "numpy", "1.11.2", "*nomkl*"},
      {"foo (1.2|1.4*),!=1.4.1", "foo", "(1.2|1.4.*),!=1.4.1", ""},
      {"foo ((1.5|((1.6|1.7),1.8),1.9|2.0))|2.1", "foo", "1.5|(1.6|1.7),1.8,1.9|2.0|2.1", ""},
      {"foo ~=1.4.5", "foo", "~=1.4.5", ""},
      {"foo !=1.2.*", "foo", "!=1.2.*", ""},
      {"foo 1.*.3", "foo", "1.*.3", ""},
      {"foo (=1.2)=py_0", "foo", "=1.2", "py_0"},  // a '=' after '(' is no separator
      // conda strips the leading '=' first, so "=>1.2" is read as ">1.2*" (and 1.2* sorts
      // below 1.2)
      {"foo =>1.2", "foo", ">1.2*", ""},
  };
  for (const auto& c : cases) {
    auto s = must_parse(c.spec);
    EXPECT_EQ(s.name, c.name) << c.spec;
    EXPECT_EQ(s.version ? s.version->to_string() : "", c.version) << c.spec;
    EXPECT_EQ(s.build.value_or(""), c.build) << c.spec;
    EXPECT_EQ(s.build.has_value(), *c.build != '\0') << c.spec;
    // text() reads back to the same spec.
    auto again = must_parse(s.text());
    EXPECT_EQ(again.text(), s.text()) << c.spec;
  }
  EXPECT_EQ(must_parse("python_abi 3.10.* *_cp310").text(), "python_abi 3.10.* *_cp310");
  EXPECT_EQ(must_parse("foo=1.0").text(), "foo 1.0.*");
  EXPECT_EQ(must_parse("foo >=1.0 , < 2.0 py34_0").text(), "foo >=1.0,<2.0 py34_0");
  EXPECT_EQ(must_parse("foo[build=py*]").text(), "foo * py*");
  EXPECT_EQ(must_parse("zlib").text(), "zlib");
  // Where the positional form would read the text otherwise, the version is in parentheses.
  EXPECT_EQ(must_parse("foo (=1.2) py_0").text(), "foo (=1.2) py_0");
  EXPECT_EQ(must_parse("foo (==1.2)").text(), "foo (==1.2)");
  EXPECT_EQ(must_parse("foo[version='*1!', build=x]").text(), "foo (*1!) x");
}

struct Case {
  const char* spec;
  const char* version;
  const char* build;
  bool expected;
};

TEST(MatchSpecMatch, ConformsToCondaDocs) {
  const Case cases[] = {
      // A bare version is conda's equality (1.2 == 1.2.0); "=1.2" is fuzzy, "==1.2" exact.
      {"foo 1.2", "1.2", "", true},
      {"foo 1.2", "1.2.0", "", true},
      {"foo 1.2", "1.2.1", "", false},
      {"foo 1.2", "1.20", "", false},
      {"foo 1.2A", "1.2a", "", true},  // versions compare case-insensitively
      {"foo =1.2", "1.2", "", true},
      {"foo =1.2", "1.2.1", "", true},
      {"foo =1.2", "1.2a1", "", true},
      {"foo =1.2", "1.20", "", false},
      {"foo =1.2", "1.3", "", false},
      {"foo ==1.2", "1.2.0", "", true},
      {"foo ==1.2", "1.2.1", "", false},
      // The docs: numpy=1.11 matches 1.11.0, 1.11.1, 1.11.2, 1.11.18; numpy==1.11 only 1.11.0.
      {"numpy=1.11", "1.11.18", "", true},
      {"numpy=1.11", "1.11.0", "", true},
      {"numpy==1.11", "1.11.0", "", true},
      {"numpy==1.11", "1.11.18", "", false},
      {"numpy=1.11.1|1.11.3", "1.11.3", "", true},
      {"numpy=1.11.1|1.11.3", "1.11.2", "", false},
      // "1.0|1.4* matches 1.0, 1.4 and 1.4.1b2, but not 1.2"
      {"foo 1.0|1.4*", "1.0", "", true},
      {"foo 1.0|1.4*", "1.4", "", true},
      {"foo 1.0|1.4*", "1.4.1b2", "", true},
      {"foo 1.0|1.4*", "1.2", "", false},
      // "<=1.0 matches 0.9, 0.9.1, and 1.0, but not 1.0.1"
      {"foo <=1.0", "0.9", "", true},
      {"foo <=1.0", "0.9.1", "", true},
      {"foo <=1.0", "1.0", "", true},
      {"foo <=1.0", "1.0.1", "", false},
      // ">1.0b4 will match 1.0b5 and 1.0rc1 but not 1.0b4 or 1.0a5"
      {"foo >1.0b4", "1.0b5", "", true},
      {"foo >1.0b4", "1.0rc1", "", true},
      {"foo >1.0b4", "1.0b4", "", false},
      {"foo >1.0b4", "1.0a5", "", false},
      // ">=2,<3 matches 2.0, 2.1 and 2.9, not 3.0 and 1.0"
      {"foo >=2,<3", "2.0", "", true},
      {"foo >=2,<3", "2.1", "", true},
      {"foo >=2,<3", "2.9", "", true},
      {"foo >=2,<3", "3.0", "", false},
      {"foo >=2,<3", "1.0", "", false},
      // "',' binds tighter than '|': >=1,<2|>3 matches 1, 1.3 and 3.7 but not 2.6"
      {"foo >=1,<2|>3", "1", "", true},
      {"foo >=1,<2|>3", "1.3", "", true},
      {"foo >=1,<2|>3", "3.7", "", true},
      {"foo >=1,<2|>3", "2.6", "", false},
      {"foo (>=1|>3),<2", "2.6", "", false},
      {"foo (1.2|1.4*),!=1.4.1", "1.4.2", "", true},
      {"foo (1.2|1.4*),!=1.4.1", "1.4.1", "", false},
      {"foo (1.2|1.4*),!=1.4.1", "1.2", "", true},
      // The '<X.Ya0' upper bounds of repodata keep pre-releases of X.Y out.
      {"python >=3.10,<3.11.0a0", "3.10.13", "", true},
      {"python >=3.10,<3.11.0a0", "3.11.0rc1", "", false},
      {"python >=3.10,<3.11.0a0", "3.11.0a0", "", false},
      {"python >=3.10,<3.11.0a0", "3.9.18", "", false},
      {"libzlib >=1.2.13,<1.3.0a0", "1.2.13", "", true},
      {"libzlib >=1.2.13,<1.3.0a0", "1.3.0", "", false},
      {"__glibc >=2.17,<3.0.a0", "2.28", "", true},
      {"__glibc >=2.17,<3.0.a0", "3.0", "", false},
      {"numpy-base <0a0", "1.26.4", "", false},
      {"openmp_impl 9999", "9999", "", true},
      {"openmp_impl 9999", "4.5", "", false},
      {"libgcc-ng >=12", "13.2.0", "h807b86a_5", true},
      {"libgcc-ng >=12", "11.2.0", "h807b86a_5", false},
      {"pypy3.9 >=7.3.13", "7.3.13", "", true},
      {"__cuda", "12.4", "0", true},
      {"zlib", "1.3.1", "h8359307_2", true},
      // Prefixes, their negation, '~=' and globs.
      {"numpy 1.26.*", "1.26.4", "", true},
      {"numpy 1.26.*", "1.27.0", "", false},
      {"numpy 1.26.*", "1.260", "", false},
      {"foo 1.2*", "1.2.3", "", true},
      {"foo 1.2*", "1.20", "", false},
      {"foo !=1.2.*", "1.2.3", "", false},
      {"foo !=1.2.*", "1.3", "", true},
      {"foo >=1.2.*", "1.2", "", true},
      {"foo >=1.2.*", "1.1.9", "", false},
      {"foo ~=1.4.5", "1.4.5", "", true},
      {"foo ~=1.4.5", "1.4.9", "", true},
      {"foo ~=1.4.5", "1.4.4", "", false},
      {"foo ~=1.4.5", "1.5.0", "", false},
      {"foo 1.*.3", "1.2.3", "", true},
      {"foo 1.*.3", "1.2.4", "", false},
      {"foo !=1.2", "1.2.0", "", false},
      {"foo !=1.2", "1.2.1", "", true},
      {"foo <1.2", "1.2a", "", true},
      {"foo >1.2", "1.2post1", "", true},
      // Build strings: exact, or '*' globs.
      {"blas * openblas", "2.120", "openblas", true},
      {"blas * openblas", "2.120", "mkl", false},
      {"_libgcc_mutex 0.1 conda_forge", "0.1", "conda_forge", true},
      {"_libgcc_mutex 0.1 conda_forge", "0.1", "main", false},
      {"_libgcc_mutex 0.1 conda_forge", "0.2", "conda_forge", false},
      {"python_abi 3.10.* *_cp310", "3.10", "4_cp310", true},
      {"python_abi 3.10.* *_cp310", "3.10", "4_cp310t", false},
      {"python_abi 3.10.* *_cp310", "3.11", "4_cp310", false},
      {"python 3.12.* *_cpython", "3.12.1", "hd12c33a_0_cpython", true},
      {"python 3.12.* *_cpython", "3.12.1", "hd12c33a_0_cp312", false},
      {"zlib 1.2.13 *_5", "1.2.13", "hd590300_5", true},
      {"zlib 1.2.13 *_5", "1.2.13", "hd590300_15", false},
      {"zlib 1.2.13 *_5", "1.2.13", "hd590300_4", false},
      {"zlib 1.2.13 *_5", "1.2.13", "hd590300_5_x", false},
      // "numpy=1.11.2=*nomkl* matches the NumPy 1.11.2 packages without MKL"; with a build
      // string "=1.11.2" is exact.
      {"numpy=1.11.2=*nomkl*", "1.11.2", "py27_nomkl_0", true},
      {"numpy=1.11.2=*nomkl*", "1.11.2", "py27_0", false},
      {"numpy=1.11.2=*nomkl*", "1.11.20", "py27_nomkl_0", false},
      {"foo=1.0=py27_0", "1.0.1", "py27_0", false},
      {"foo * *", "anything", "at all", true},
      {"foo 1.2 *", "1.2", "", true},
      // Brackets.
      {"numpy[version='>=1.20,<2']", "1.26.4", "", true},
      {"numpy[version='>=1.20,<2']", "2.0.0", "", false},
      {"numpy[version='=1.2']", "1.2.7", "", true},
      {"numpy[build=py310*]", "1.0", "py310h1234_0", true},
      {"numpy[build=py310*]", "1.0", "py311h1234_0", false},
      // A version that is not conda's matches only '*', globs and text tests.
      {"foo >=1", "1.0 beta", "", false},
      {"foo *", "1.0 beta", "", true},
  };
  for (const auto& c : cases) {
    auto s = parse_matchspec(c.spec);
    ASSERT_TRUE(s.ok()) << c.spec << ": " << s.error().message;
    EXPECT_EQ(s->matches(c.version, c.build), c.expected)
        << "'" << c.spec << "' on version '" << c.version << "', build '" << c.build << "'";
  }
}

TEST(MatchSpecParse, RejectsWithPlaceAndReason) {
  EXPECT_EQ(error_of("numpy >=1.2,,<2"), "invalid match spec 'numpy >=1.2,,<2': empty version at column 12");
  EXPECT_EQ(error_of("numpy >=1.2,"), "invalid match spec 'numpy >=1.2,': empty version at column 12");
  EXPECT_EQ(error_of("numpy ,>=1.2"), "invalid match spec 'numpy ,>=1.2': empty version at column 7");
  EXPECT_EQ(error_of("numpy 1.2||1.3"), "invalid match spec 'numpy 1.2||1.3': empty version at column 10");
  EXPECT_EQ(error_of("numpy ()"), "invalid match spec 'numpy ()': empty version at column 7");
  EXPECT_EQ(error_of("numpy (>=1.2"), "invalid match spec 'numpy (>=1.2': unclosed '(' at column 7");
  EXPECT_EQ(error_of("numpy " + std::string(40, '(') + "1" + std::string(40, ')')),
            "invalid match spec 'numpy " + std::string(40, '(') + "1" + std::string(40, ')') +
                "': parentheses nested too deep at column 39");
  EXPECT_EQ(must_parse("numpy " + std::string(20, '(') + "1" + std::string(20, ')')).text(), "numpy 1");
  EXPECT_EQ(error_of("numpy >=1.2)"), "invalid match spec 'numpy >=1.2)': unexpected ')' at column 12");
  EXPECT_EQ(error_of("numpy 1.2(3)"),
            "invalid match spec 'numpy 1.2(3)': unexpected '(' (expected ',' or '|' before it) at "
            "column 10");
  EXPECT_EQ(error_of("numpy >=1.2.."),
            "invalid match spec 'numpy >=1.2..': invalid conda version '1.2..': it has an empty "
            "component at column 9");
  EXPECT_EQ(error_of("numpy >=1.0, <1.2..,!=1.1"),
            "invalid match spec 'numpy >=1.0, <1.2..,!=1.1': invalid conda version '1.2..': it has "
            "an empty component at column 15");
  EXPECT_EQ(error_of("numpy !1.2"), "invalid match spec 'numpy !1.2': invalid operator in '!1.2' at column 7");
  EXPECT_EQ(error_of("numpy >=<1.2"), "invalid match spec 'numpy >=<1.2': invalid operator in '>=<1.2' at column 7");
  EXPECT_EQ(error_of("numpy >="), "invalid match spec 'numpy >=': expected a version after '>=' at column 7");
  EXPECT_EQ(error_of("numpy=="), "invalid match spec 'numpy==': expected a version after '==' at column 6");
  EXPECT_EQ(error_of("numpy ~=1"),
            "invalid match spec 'numpy ~=1': '~=' needs a version with at least two components, "
            "not '1' at column 9");
  EXPECT_EQ(error_of("numpy ~=1.2.*"), "invalid match spec 'numpy ~=1.2.*': '~=' cannot be used with '.*' at column 7");
  EXPECT_EQ(error_of("numpy ^1\\.2.*$"),
            "invalid match spec 'numpy ^1\\.2.*$': regular-expression versions ('^1\\.2.*$') are not "
            "supported at column 7");
  EXPECT_EQ(error_of("numpy 1.2 py 0"),
            "invalid match spec 'numpy 1.2 py 0': more than one build string ('py 0') at column 11");
  EXPECT_EQ(error_of(""), "invalid match spec '': it is empty");
  EXPECT_EQ(error_of("  # only a comment"), "invalid match spec '  # only a comment': it is empty");
  EXPECT_EQ(error_of(">=1.2"), "invalid match spec '>=1.2': expected a package name at column 1");
  EXPECT_EQ(error_of("conda-forge::numpy"),
            "invalid match spec 'conda-forge::numpy': channel and namespace prefixes "
            "('conda-forge::') are not supported at column 12");
  EXPECT_EQ(error_of("num*"), "invalid match spec 'num*': package name globs are not supported at column 4");
  EXPECT_EQ(error_of("pkg[build_number='>=3']"),
            "invalid match spec 'pkg[build_number='>=3']': unsupported key 'build_number' in "
            "brackets (only version and build are) at column 5");
  EXPECT_EQ(error_of("numpy[version='>=1.20"), "invalid match spec 'numpy[version='>=1.20': unclosed ' at column 15");
  EXPECT_EQ(error_of("numpy[version='>=1.20'"),
            "invalid match spec 'numpy[version='>=1.20'': unclosed '[' at column 6");
  EXPECT_EQ(error_of("numpy[version=]"),
            "invalid match spec 'numpy[version=]': empty value for 'version' at column 15");
  EXPECT_EQ(error_of("numpy[version]"),
            "invalid match spec 'numpy[version]': expected '=' after 'version' at column 14");
  EXPECT_EQ(error_of("numpy[build='py-1']"),
            "invalid match spec 'numpy[build='py-1']': invalid character '-' in build string "
            "'py-1' at column 16");
  EXPECT_EQ(error_of("numpy 1.2=py(1)"),
            "invalid match spec 'numpy 1.2=py(1)': invalid character '(' in build string 'py(1)' "
            "at column 13");
  EXPECT_EQ(error_of("numpy[version=1] x"),
            "invalid match spec 'numpy[version=1] x': unexpected text after ']' at column 18");
  EXPECT_EQ(error_of("numpy[version='>= 1.2']"),
            "invalid match spec 'numpy[version='>= 1.2']': unexpected blank in version '>= 1.2' at "
            "column 18");
  EXPECT_EQ(error_of("numpy >=1.2 if python >=3"),
            "invalid match spec 'numpy >=1.2 if python >=3': conditional specs ('if') are not "
            "supported at column 13");
  EXPECT_EQ(error_of("mkl@"), "invalid match spec 'mkl@': feature specs ('name@') are not supported at column 4");
  EXPECT_EQ(error_of("numpy-1.26.4-py312_0.conda"),
            "invalid match spec 'numpy-1.26.4-py312_0.conda': a package file name is not a match "
            "spec here at column 1");
}

TEST(MatchSpecParse, SplitName) {
  using P = std::pair<std::string, std::string>;
  EXPECT_EQ(split_name("numpy >=1.20,<2"), P("numpy", ">=1.20,<2"));
  EXPECT_EQ(split_name("  python_abi 3.10.* *_cp310 "), P("python_abi", "3.10.* *_cp310"));
  EXPECT_EQ(split_name("numpy[version='>=1.20,<2']"), P("numpy", "[version='>=1.20,<2']"));
  EXPECT_EQ(split_name("numpy>=1.20"), P("numpy", ">=1.20"));
  EXPECT_EQ(split_name("numpy=1.2=py_0"), P("numpy", "=1.2=py_0"));
  EXPECT_EQ(split_name("Zlib"), P("zlib", ""));
  EXPECT_EQ(split_name(""), P("", ""));
}

TEST(MatchSpecParse, VersionBuildAlone) {
  auto s = parse_version_build(">=1.20,<2.0a0 py310*");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->name, "");
  EXPECT_EQ(s->text(), ">=1.20,<2.0a0 py310*");
  EXPECT_TRUE(s->matches("1.26.4", "py310h5eee18b_0"));
  EXPECT_FALSE(s->matches("1.26.4", "py311h5eee18b_0"));
  EXPECT_FALSE(s->matches("2.0.0", "py310h5eee18b_0"));
  auto fuzzy = parse_version_build("=1.2");
  ASSERT_TRUE(fuzzy.ok());
  EXPECT_EQ(fuzzy->text(), "1.2.*");
  auto all = parse_version_build("");
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->matches("0", ""));
  EXPECT_EQ(parse_version_build("1.2,,3").error().message, "invalid match spec '1.2,,3': empty version at column 4");
}

TEST(MatchSpecParse, CompiledMatcherForTheSolver) {
  auto m = compile_conda_spec(">=1.20,<2.0a0 py310*");
  ASSERT_TRUE(m.ok()) << m.error().message;
  const SpecMatcher& matcher = **m;
  EXPECT_TRUE(matcher.matches("1.26.4", "py310h5eee18b_0"));
  EXPECT_FALSE(matcher.matches("1.19", "py310h5eee18b_0"));
  auto bracket = compile_conda_spec("[version='>=1.20,<2']");
  ASSERT_TRUE(bracket.ok()) << bracket.error().message;
  EXPECT_TRUE((*bracket)->matches("1.20", "x"));
  auto bad = compile_conda_spec(">=1.2,,<2");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "invalid match spec '>=1.2,,<2': empty version at column 6");
  EXPECT_EQ(bad.error().code, ExitCode::bad_input);
}

TEST(MatchSpecParse, NoiseIsParsedOrRejectedNeverMisread) {
  // Random text over the spec alphabet: each string either fails with a message or parses to a
  // spec whose text reads back to the same text and matches the same versions.
  std::mt19937 rng(725);
  const std::string_view alphabet = "ab1209.*,|()=<>!~ _-+[]'\"#@";
  const char* versions[] = {"1.2", "1.2.0", "0.9", "2", "1.2a1", "1!0", "1.2+x"};
  size_t parsed = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string text = "pkg " + random_text(rng, alphabet, 12);
    auto s = parse_matchspec(text);
    if (!s) {
      EXPECT_TRUE(s.error().message.starts_with("invalid match spec '" + text + "': ")) << s.error().message;
      continue;
    }
    ++parsed;
    auto again = parse_matchspec(s->text());
    ASSERT_TRUE(again.ok()) << text << " -> " << s->text() << ": " << again.error().message;
    EXPECT_EQ(again->text(), s->text()) << text;
    for (const char* v : versions)
      for (const char* b : {"", "ab_1"})
        EXPECT_EQ(again->matches(v, b), s->matches(v, b)) << text << " on " << v << " " << b;
  }
  EXPECT_GT(parsed, 100u);
}

// What the conda_matchspec fuzz harness found (tests/fuzz/corpus/conda_matchspec/finding-*): an
// accepted spec whose text() did not read back, or read back to another text. Now each is
// refused with its reason, or its text reads back to itself.
TEST(MatchSpecParse, FuzzFindingsReadBackOrAreRefused) {
  struct RoundTrip {
    const char* spec;
    const char* text;
  };
  for (auto [spec, text] : std::initializer_list<RoundTrip>{
           {"foo (==1,2)", "foo (==1,2)"},  // was "foo ==1,2", read back as "foo 1,2"
           {"fo (==1.0,!=0,<10.41.0)", "fo (==1.0,!=0,<10.41.0)"},
           {"4===if +", "4[version='if', build='+']"},  // was "4 if +", a conditional spec
           {"foo[version='*1!', build=.conda]", "foo[version='(*1!)', build='.conda']"},  // was "foo (*1!) .conda"
           {"foo ==1.2", "foo 1.2"},
       }) {
    auto parsed = parse_matchspec(spec);
    ASSERT_TRUE(parsed.ok()) << spec << ": " << parsed.error().message;
    EXPECT_EQ(parsed->text(), text) << spec;
    auto again = parse_matchspec(parsed->text());
    ASSERT_TRUE(again.ok()) << parsed->text() << ": " << again.error().message;
    EXPECT_EQ(again->text(), parsed->text());
    for (const char* v : {"1", "2", "1.0", "if", "3"})
      for (const char* b : {"", "+", ".conda"}) EXPECT_EQ(again->matches(v, b), parsed->matches(v, b)) << spec;
  }
  struct Refusal {
    std::string spec;
    const char* why;
  };
  for (const auto& [spec, why] : std::initializer_list<Refusal>{
           {".coNda", "a package file name is not a match spec here at column 1"},
           {"mk.conDa", "a package file name is not a match spec here at column 1"},
           {"e.tar.bZ2", "a package file name is not a match spec here at column 1"},
           {"oo \r\rcond.c\ronda", "a package file name is not a match spec here at column 1"},
           {"uun   if\r\r  p0", "conditional specs ('if') are not supported at column 7"},
           {"1@[]", "invalid package name '1@' (expected letters, digits, - _ .) at column 1"},
           {".conda\t[]", "a package file name is not a match spec here at column 1"},
           {"f,bff.o 1", "invalid package name 'f,bff.o' (expected letters, digits, - _ .) at column 1"},
           {std::string("\x15\0y 1", 5),
            "invalid package name '\\x15\\x00y' (expected letters, digits, - _ .) at column 1"},
       }) {
    auto parsed = parse_matchspec(spec);
    ASSERT_FALSE(parsed.ok()) << spec << " -> " << parsed->text();
    EXPECT_TRUE(parsed.error().message.ends_with(std::string("': ") + why)) << parsed.error().message;
  }
}

// Every record of the shared conda data, as JSON objects.
std::vector<nlohmann::json> shared_records(const std::string& dir) {
  std::vector<nlohmann::json> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    auto j = nlohmann::json::parse(test::read_file(e.path()));
    for (const char* key : {"packages", "packages.conda"})
      if (j.contains(key))
        for (const auto& [fn, r] : j[key].items()) out.push_back(r);
    if (j.contains("version")) out.push_back(j);
  }
  return out;
}

TEST(MatchSpecData, EveryRepodataSpecParses) {
  EXTDEPS_SHARED_OR_SKIP(dir, "conda");
  auto records = shared_records(dir);
  ASSERT_GE(records.size(), 20u);
  std::set<std::string> specs;
  for (const auto& r : records)
    for (const char* key : {"depends", "constrains"})
      if (r.contains(key) && r[key].is_array())
        for (const auto& d : r[key]) specs.insert(d.get<std::string>());
  ASSERT_GE(specs.size(), 50u);  // 71 distinct strings in the data as checked in
  for (const auto& text : specs) {
    auto whole = parse_matchspec(text);
    ASSERT_TRUE(whole.ok()) << whole.error().message;
    // What a provider stores (name + DepOp::spec text) parses to the same spec.
    auto [name, rest] = split_name(text);
    EXPECT_EQ(name, whole->name) << text;
    auto tail = parse_version_build(rest);
    ASSERT_TRUE(tail.ok()) << tail.error().message;
    std::string joined = name + (tail->text().empty() ? "" : " " + tail->text());
    EXPECT_EQ(joined, whole->text()) << text;
    // The canonical text reads back to itself.
    auto again = parse_matchspec(whole->text());
    ASSERT_TRUE(again.ok()) << whole->text();
    EXPECT_EQ(again->text(), whole->text());
  }
}

TEST(MatchSpecData, EveryRecordMatchesItsOwnPins) {
  EXTDEPS_SHARED_OR_SKIP(dir, "conda");
  auto records = shared_records(dir);
  ASSERT_FALSE(records.empty());
  for (const auto& r : records) {
    std::string name = r["name"], version = r["version"], build = r["build"];
    for (const std::string& spec : {name + " " + version + " " + build, name + " ==" + version, name + "=" + version,
                                    name + " >=" + version + ",<=" + version, name + " " + version + " *"}) {
      auto s = parse_matchspec(spec);
      ASSERT_TRUE(s.ok()) << s.error().message;
      EXPECT_TRUE(s->matches(version, build)) << spec;
    }
    auto other = parse_matchspec(name + " " + version + " " + build + "x");
    ASSERT_TRUE(other.ok());
    EXPECT_FALSE(other->matches(version, build));
    auto newer = parse_matchspec(name + " >" + version);
    ASSERT_TRUE(newer.ok());
    EXPECT_FALSE(newer->matches(version, build));
  }
}

}  // namespace
}  // namespace extdeps::conda
