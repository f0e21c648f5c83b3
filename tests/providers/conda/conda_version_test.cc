// conda versions: parsing and order as conda's VersionOrder documents them, and the rpm-order form
// against that order (our evr_compare and libsolv's own comparator).
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "core/cli/cli.h"
#include "core/provider/descriptor.h"
#include "core/version/version.h"
#include "providers/conda/conda_version.h"
#include "tests/core/version/version_fixtures.h"

// libsolv names a Solvable field `requires`, a keyword since C++20 (see rpm_test.cc).
#define requires requires_
#include <solv/evr.h>
#include <solv/pool.h>
#include "tests/support/providers.h"
#undef requires

namespace extdeps::version {
namespace {

using testing::sign;

// conda's repr of the parsed lists: "[[0], [1], [2, 'g']]", post as inf, dev as 'DEV'.
std::string lists(const std::vector<CondaComponent>& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) {
    out += i ? ", [" : "[";
    for (size_t j = 0; j < list[i].size(); ++j) {
      const CondaPart& p = list[i][j];
      if (j) out += ", ";
      out += p.kind == CondaPart::Kind::string ? "'" + p.text + "'" : p.kind == CondaPart::Kind::post ? "inf" : p.text;
    }
    out += "]";
  }
  return out + "]";
}

std::string structure(std::string_view text) {
  auto v = parse_conda(text);
  if (!v) return "error: " + v.error().message;
  return lists(v->version) + (v->local.empty() ? "" : " + " + lists(v->local));
}

std::string why_invalid(std::string_view text) {
  auto v = parse_conda(text);
  return v ? "valid" : v.error().message;
}

CondaVersion must_parse(std::string_view text) {
  auto v = parse_conda(text);
  EXPECT_TRUE(v.ok()) << text << ": " << (v ? "" : v.error().message);
  return v ? *v : CondaVersion{};
}

// The list in conda's VersionOrder docstring, each with its relation to the one before. The
// docstring writes "0.4 < 0.4.0", but its own padding rule (and conda's code) makes them equal,
// like the "1.1.0 == 1.1" it lists below.
const std::vector<std::pair<std::string, std::string>> kDocumentedOrder = {
    {"", "0.4"},        {"==", "0.4.0"},     {"<", "0.4.1.rc"},   {"==", "0.4.1.RC"}, {"<", "0.4.1"},
    {"<", "0.5a1"},     {"<", "0.5b3"},      {"<", "0.5C1"},      {"<", "0.5"},       {"<", "0.9.6"},
    {"<", "0.960923"},  {"<", "1.0"},        {"<", "1.1dev1"},    {"<", "1.1_"},      {"<", "1.1a1"},
    {"<", "1.1.0dev1"}, {"==", "1.1.dev1"},  {"<", "1.1.a1"},     {"<", "1.1.0rc1"},  {"<", "1.1.0"},
    {"==", "1.1"},      {"<", "1.1.0post1"}, {"==", "1.1.post1"}, {"<", "1.1post1"},  {"<", "1996.07.12"},
    {"<", "1!0.4.1"},   {"<", "1!3.1.1.6"},  {"<", "2!0.4.1"},
};

// Versions that probe one rule each, beyond the documented list.
const std::vector<std::string> kTricky = {
    "1.0.1_",    "1.0.1a",     "1.0.1",         "1!0.1",       "1.1dev1",    "1.1.dev",    "1.1.dev1",     "1.1post1",
    "1.1.post",  "2023.11.17", "1.2.3+local.1", "1.2.3+local", "1.2.3+1",    "1.2.3+0",    "1.2.3+a",      "0.4.1.rc",
    "0.4.1.RC",  "0.960923",   "2.2beta29",     "1.0devel",    "1.0dev",     "1.0.*",      "1.*",          "1.0*",
    "1.0-1",     "1.0_1",      "01.002",        "0!1.2",       "00!1.2",     "1.2.0.0.0",  "1.2.0.0.1",    "1.2.0.0.a",
    "1.2.3+x",   "2.0a0",      "2.0.dev0",      "2.0.0a0",     "1.0.0.post", "1.0postfix", "1.0rc1.post1", "1.0_",
    "1._",       "_",          "1.0a_",         "1.0a",        "2024a",      "2025a",      "3.0.a0",       "1.2.3a4b5c",
    "1.2.3a4b5", "0",          "0.0",           "1.a"};

std::vector<std::string> documented() {
  std::vector<std::string> out;
  for (const auto& [rel, v] : kDocumentedOrder) out.push_back(v);
  return out;
}

// Every `version` in ../shared/data/conda (repodata files and conda-meta records).
std::vector<std::string> shared_versions(const std::string& dir) {
  std::set<std::string> found;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  for (const auto& f : files) {
    auto j = nlohmann::json::parse(test::read_file(f));
    std::vector<const nlohmann::json*> records;
    for (const char* key : {"packages", "packages.conda"})
      if (j.contains(key))
        for (const auto& [fn, r] : j[key].items()) records.push_back(&r);
    if (j.contains("version")) records.push_back(&j);
    for (const auto* r : records) found.insert((*r)["version"].get<std::string>());
  }
  return {found.begin(), found.end()};
}

// Random valid versions, mostly alike, so that many pairs differ in one place only.
std::vector<std::string> random_conda(int n, unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](std::initializer_list<const char*> xs) { return std::string(xs.begin()[rng() % xs.size()]); };
  auto maybe = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  auto component = [&] {
    return pick({"0",   "1",    "2",      "00",   "10", "a", "b",  "rc",    "dev", "post",  "0a",
                 "1a1", "1dev", "2post1", "1rc2", "x0", "*", "1*", "alpha", "DEV", "Post2", "0b0"});
  };
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    std::string v;
    if (maybe(8)) v += pick({"0", "1", "2"}) + "!";
    v += component();
    for (int k = static_cast<int>(rng() % 4); k > 0; --k) v += pick({".", ".", "_"}) + component();
    if (maybe(10)) v += "_";
    if (maybe(15)) {
      v += "+" + component();
      for (int k = static_cast<int>(rng() % 2); k > 0; --k) v += pick({".", "_"}) + component();
    }
    out.push_back(v);
  }
  return out;
}

struct PoolDeleter {
  void operator()(Pool* p) const { pool_free(p); }
};

// Every pair: sign(conda_compare) == sign(evr_compare of the normal forms) == sign(libsolv's
// pool_evrcmp_str of the normal forms).
void expect_normal_form_keeps_order(const std::vector<std::string>& list) {
  std::vector<CondaVersion> parsed;
  std::vector<std::string> normal;
  for (const auto& v : list) {
    auto n = conda_normalize(v);
    ASSERT_TRUE(n.ok()) << n.error().message;
    parsed.push_back(must_parse(v));
    normal.push_back(conda_pool_order(parsed.back()));
    EXPECT_EQ(*n, normal.back());
  }
  std::unique_ptr<Pool, PoolDeleter> pool(pool_create());
  pool_setdisttype(pool.get(), DISTTYPE_RPM);
  size_t wrong = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    for (size_t j = 0; j < list.size(); ++j) {
      int want = sign(conda_compare(parsed[i], parsed[j]));
      int got = sign(evr_compare(normal[i], normal[j]));
      int solv = sign(pool_evrcmp_str(pool.get(), normal[i].c_str(), normal[j].c_str(), EVRCMP_COMPARE));
      if ((want != got || want != solv) && ++wrong <= 20)
        ADD_FAILURE() << "'" << list[i] << "' vs '" << list[j] << "': conda " << want << ", rpm of '" << normal[i]
                      << "' vs '" << normal[j] << "' " << got << ", libsolv " << solv;
    }
  }
  EXPECT_EQ(wrong, 0u) << "of " << list.size() * list.size() << " pairs";
}

TEST(CondaVersion, SplitsLikeConda) {
  // The docstring's first example, and its second as conda's code splits it today ('_' is a
  // separator, so "1_ALPHA" is two components).
  EXPECT_EQ(structure("1.2g.beta15.rc"), "[[0], [1], [2, 'g'], [0, 'beta', 15], [0, 'rc']]");
  EXPECT_EQ(structure("1!2.15.1_ALPHA"), "[[1], [2], [15], [1], [0, 'alpha']]");
  EXPECT_EQ(structure("1.1dev1"), "[[0], [1], [1, 'DEV', 1]]");
  EXPECT_EQ(structure("1.1.post1"), "[[0], [1], [1], [0, inf, 1]]");
  EXPECT_EQ(structure("1.0.1_"), "[[0], [1], [0], [1, '_']]");
  EXPECT_EQ(structure("_"), "[[0], [0, '_']]");
  EXPECT_EQ(structure("1.2+Local_1.b"), "[[0], [1], [2]] + [[0, 'local'], [1], [0, 'b']]");
  EXPECT_EQ(structure("1.*"), "[[0], [1], [0, '*']]");
  EXPECT_EQ(structure("1.2*"), "[[0], [1], [2, '*']]");
  EXPECT_EQ(structure("  007!01.0020  "), "[[7], [1], [20]]");
  EXPECT_EQ(structure("1.0devel"), "[[0], [1], [0, 'devel']]");
  EXPECT_EQ(structure("2.2beta29"), "[[0], [2], [2, 'beta', 29]]");
  // '-' is read as '_' when there is no '_'.
  EXPECT_EQ(structure("1.2-3"), "[[0], [1], [2], [3]]");
  EXPECT_EQ(must_parse("1.2-RC3").text, "1.2_rc3");
  EXPECT_EQ(must_parse(" 1.0A ").text, "1.0a");
}

TEST(CondaVersion, RejectsWhatCondaRejects) {
  EXPECT_EQ(why_invalid(""), "invalid conda version '': it is empty");
  EXPECT_EQ(why_invalid("   "), "invalid conda version '   ': it is empty");
  EXPECT_EQ(why_invalid("1..2"), "invalid conda version '1..2': it has an empty component");
  EXPECT_EQ(why_invalid("1.2."), "invalid conda version '1.2.': it has an empty component");
  EXPECT_EQ(why_invalid(".1"), "invalid conda version '.1': it has an empty component");
  EXPECT_EQ(why_invalid("1_.2"), "invalid conda version '1_.2': it has an empty component");
  EXPECT_EQ(why_invalid("1.2-3_4"), "invalid conda version '1.2-3_4': invalid character '-'");
  EXPECT_EQ(why_invalid("1.2 3"), "invalid conda version '1.2 3': invalid character '\\x20'");
  EXPECT_EQ(why_invalid("1.2=3"), "invalid conda version '1.2=3': invalid character '='");
  EXPECT_EQ(why_invalid("a!1"), "invalid conda version 'a!1': the epoch 'a' is not a number");
  EXPECT_EQ(why_invalid("!1"), "invalid conda version '!1': the epoch '' is not a number");
  EXPECT_EQ(why_invalid("1!2!3"), "invalid conda version '1!2!3': more than one epoch separator '!'");
  EXPECT_EQ(why_invalid("1+2+3"), "invalid conda version '1+2+3': more than one local version separator '+'");
  EXPECT_EQ(why_invalid("+1"), "invalid conda version '+1': the version before '+' is empty");
  EXPECT_EQ(why_invalid("1!+1"), "invalid conda version '1!+1': the version before '+' is empty");
  EXPECT_EQ(why_invalid("1!"), "invalid conda version '1!': the version after '!' is empty");
  EXPECT_EQ(why_invalid("1.2+"), "invalid conda version '1.2+': its local version has an empty component");
  EXPECT_EQ(why_invalid("1.2+a..b"), "invalid conda version '1.2+a..b': its local version has an empty component");
  EXPECT_FALSE(conda_normalize("1..2").ok());
}

TEST(CondaVersion, DocumentedOrder) {
  std::vector<int> rank;
  for (const auto& [rel, v] : kDocumentedOrder)
    rank.push_back(rank.empty() ? 0 : rel == "==" ? rank.back() : rank.back() + 1);
  for (size_t i = 0; i < kDocumentedOrder.size(); ++i) {
    for (size_t j = 0; j < kDocumentedOrder.size(); ++j) {
      const auto& a = kDocumentedOrder[i].second;
      const auto& b = kDocumentedOrder[j].second;
      EXPECT_EQ(sign(conda_compare(a, b)), sign(rank[i] - rank[j])) << a << " vs " << b;
    }
  }
}

// Found by tests/fuzz (version_conda harness): a conda version against an unparsable string was
// compared in normalize_upstream's order, against another conda version in conda's, which was not
// transitive ('ve' < 'v32' < '1.' but '1.' < 've').
TEST(CondaVersion, UnparsableStringsSortFirst) {
  ASSERT_FALSE(parse_conda("1..").ok());
  EXPECT_LT(conda_compare("1..", "0"), 0);
  EXPECT_GT(conda_compare("0", "1.."), 0);
  EXPECT_LT(conda_compare("1..", "2.."), 0);  // among themselves, as normalize_upstream orders
  const char* triple[] = {"ve", "v32", "1."};
  for (const char* a : triple)
    for (const char* b : triple)
      for (const char* c : triple)
        if (conda_compare(a, b) <= 0 && conda_compare(b, c) <= 0) {
          EXPECT_LE(conda_compare(a, c), 0) << a << " " << b << " " << c;
        }
}

TEST(CondaVersion, DocumentedRules) {
  // openssl: letters are pre-releases to conda, so openssl's 1.0.1a sorts before 1.0.1, and
  // "1.0.1_" is the documented way to put a plain version first.
  EXPECT_LT(conda_compare("1.0.1a", "1.0.1"), 0);
  EXPECT_LT(conda_compare("1.0.1_", "1.0.1a"), 0);
  EXPECT_LT(conda_compare("1.0.1_", "1.0.1"), 0);
  // dev < '_' < any other string < a number < post, at the same place.
  EXPECT_LT(conda_compare("1.1dev1", "1.1_"), 0);
  EXPECT_LT(conda_compare("1.1_", "1.1a1"), 0);
  EXPECT_LT(conda_compare("1.1a1", "1.1b1"), 0);
  EXPECT_LT(conda_compare("1.1b1", "1.1rc1"), 0);
  EXPECT_LT(conda_compare("1.1rc1", "1.1"), 0);
  EXPECT_LT(conda_compare("1.1", "1.1post1"), 0);
  EXPECT_LT(conda_compare("1.1post1", "1.2dev1"), 0);
  EXPECT_LT(conda_compare("1.1.dev", "1.1.dev1"), 0);
  EXPECT_LT(conda_compare("1.0dev", "1.0devel"), 0);  // only the run "dev" is special
  EXPECT_LT(conda_compare("1.0.*", "1.0.dev"), 0);    // '*' sorts before dev
  // Case does not count; missing places are 0; the epoch comes first.
  EXPECT_EQ(conda_compare("0.4.1.rc", "0.4.1.RC"), 0);
  EXPECT_EQ(conda_compare("1.1", "1.1.0.0"), 0);
  EXPECT_EQ(conda_compare("1.1.a1", "1.1.0a1"), 0);
  EXPECT_EQ(conda_compare("01.002", "1.2"), 0);
  EXPECT_EQ(conda_compare("0!1.2", "1.2"), 0);
  EXPECT_LT(conda_compare("1996.07.12", "1!0.4.1"), 0);
  EXPECT_GT(conda_compare("0.960923", "0.9.6"), 0);
  EXPECT_LT(conda_compare("0.960923", "2.2beta29"), 0);
  EXPECT_LT(conda_compare("2023.11.17", "2024a"), 0);
  EXPECT_EQ(conda_compare("1.0-1", "1.0_1"), 0);
  EXPECT_EQ(conda_compare("1.0_1", "1.0.1"), 0);
  // The local part counts only between equal versions, padded the same way.
  // A local part that starts with a string sorts below none at all: "local" is [0, 'local'],
  // and 'local' < the 0 fill.
  EXPECT_GT(conda_compare("1.2.3+1", "1.2.3"), 0);
  EXPECT_LT(conda_compare("1.2.3+local.1", "1.2.3"), 0);
  EXPECT_LT(conda_compare("1.2.3+local.1", "1.2.3+1"), 0);
  EXPECT_GT(conda_compare("1.2.3+local.1", "1.2.2"), 0);
  EXPECT_LT(conda_compare("1.2.3+2", "1.2.4"), 0);
  EXPECT_LT(conda_compare("1.2.3+local.1", "1.2.3+local.2"), 0);
  EXPECT_EQ(conda_compare("1.2.3+0", "1.2.3"), 0);
  // A later pre-release component sorts before the shorter version.
  EXPECT_LT(conda_compare("1.0.a", "1.0"), 0);
  EXPECT_LT(conda_compare("1.0.0.0.a", "1"), 0);
  EXPECT_GT(conda_compare("1.0.0.0.1", "1"), 0);
  EXPECT_GT(conda_compare("2.0.dev0", "2.0a0"), 0);  // [2],[0],[0,dev] vs [2],[0,a]: 0 > 'a'
  // Strings that do not parse still get an order (normalize_upstream's), both ways round.
  EXPECT_LT(conda_compare("1.0 beta", "2.0"), 0);
  EXPECT_GT(conda_compare("2.0", "1.0 beta"), 0);
}

TEST(CondaVersion, StartsWith) {
  auto starts = [](std::string_view v, std::string_view prefix) {
    return conda_starts_with(must_parse(v), must_parse(prefix));
  };
  EXPECT_TRUE(starts("1.2", "1.2"));
  EXPECT_TRUE(starts("1.2.0", "1.2"));
  EXPECT_TRUE(starts("1.2.3", "1.2"));
  EXPECT_TRUE(starts("1.2a1", "1.2"));  // the last component's number is what counts
  EXPECT_TRUE(starts("1.2.post1", "1.2"));
  EXPECT_FALSE(starts("1.20", "1.2"));
  EXPECT_FALSE(starts("1.3", "1.2"));
  EXPECT_FALSE(starts("1", "1.2"));
  EXPECT_TRUE(starts("1", "1.0"));  // missing places are 0
  EXPECT_FALSE(starts("1!1.2", "1.2"));
  EXPECT_TRUE(starts("1.2alpha", "1.2a"));  // a string must start with the prefix's string
  EXPECT_FALSE(starts("1.2b", "1.2a"));
  EXPECT_FALSE(starts("1.2", "1.2a"));
  EXPECT_TRUE(starts("1.2dev3", "1.2dev"));
  EXPECT_FALSE(starts("1.2devel", "1.2dev"));  // "devel" is not the special "dev"
  EXPECT_TRUE(starts("1.2post", "1.2post"));
  EXPECT_TRUE(starts("1.2.3+4.5", "1.2.3+4"));  // with a local part: the local parts
  EXPECT_FALSE(starts("1.2.3+4.5", "1.2+4"));
  EXPECT_FALSE(starts("1.2.3", "1.2.3+4"));
}

TEST(CondaVersion, NormalFormExamples) {
  EXPECT_EQ(*conda_normalize("1.2.3"), "0:n1^n2^n3^-");
  EXPECT_EQ(*conda_normalize("1.2.3.0"), "0:n1^n2^n3^-");
  EXPECT_EQ(*conda_normalize("1.1rc1"), "0:n1^n1.~0rc.n1^-");
  EXPECT_EQ(*conda_normalize("1.1.dev1"), "0:n1^n1^~0~1C.n1^-");
  EXPECT_EQ(*conda_normalize("1.1.post1"), "0:n1^n1^n0.z.n1^-");
  EXPECT_EQ(*conda_normalize("0.4"), "0:^n4^-");
  EXPECT_EQ(*conda_normalize("2!1.0+local.2"), "2:n1^-~0~1local^n2^");
  EXPECT_EQ(*conda_normalize("1.0.1_"), "0:n1^^n1.~0D^-");
}

TEST(CondaVersion, NormalFormKeepsTheDocumentedOrder) {
  auto list = documented();
  list.insert(list.end(), kTricky.begin(), kTricky.end());
  expect_normal_form_keeps_order(list);
}

TEST(CondaVersion, NormalFormKeepsOrderOnRealVersions) {
  EXTDEPS_SHARED_OR_SKIP(dir, "conda");
  auto list = shared_versions(dir);
  ASSERT_GE(list.size(), 30u);  // 39 distinct versions in the data as checked in
  for (const auto& v : list) EXPECT_TRUE(conda_normalize(v).ok()) << v;
  list.insert(list.end(), kTricky.begin(), kTricky.end());
  auto docs = documented();
  list.insert(list.end(), docs.begin(), docs.end());
  expect_normal_form_keeps_order(list);
}

TEST(CondaVersion, NormalFormKeepsOrderOnRandomVersions) {
  expect_normal_form_keeps_order(random_conda(700, 20240501));
}

TEST(CondaVersion, NormalFormKeepsOrderOnEveryShortVersion) {
  // Every version of one to three components from a set that holds each kind of part and each
  // relation to the 0 fill, with and without the openssl '_'.
  const std::vector<std::string> parts = {"0", "1", "a", "dev", "post", "0a", "1b", "1post"};
  std::vector<std::string> list;
  for (const auto& a : parts) {
    list.push_back(a);
    list.push_back(a + "_");
    for (const auto& b : parts) {
      list.push_back(a + "." + b);
      for (const auto& c : parts) list.push_back(a + "." + b + "." + c);
    }
  }
  expect_normal_form_keeps_order(list);
}

TEST(CondaVersion, NoiseIsParsedOrRejected) {
  // Random text over the version alphabet and a few bytes conda refuses: each string fails with
  // a message or parses to a version equal to itself whose normal form is stable.
  std::mt19937 rng(1);
  size_t parsed = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string text = testing::random_string(rng, "01a_.+!*-dEVpost Z=\x01", 0, 10);
    auto v = parse_conda(text);
    if (!v) {
      EXPECT_TRUE(v.error().message.starts_with("invalid conda version '" + text + "': "));
      continue;
    }
    ++parsed;
    EXPECT_EQ(conda_compare(*v, *v), 0) << text;
    auto again = parse_conda(v->text);
    ASSERT_TRUE(again.ok()) << text;
    EXPECT_EQ(conda_compare(*v, *again), 0) << text;
    EXPECT_EQ(conda_pool_order(*v), conda_pool_order(*again)) << text;
  }
  EXPECT_GT(parsed, 1000u);
}

TEST(CondaVersion, SchemeDispatch) {
  EXPECT_EQ(version_scheme_named("conda"), &conda_scheme);
  EXPECT_EQ(conda_scheme.name, "conda");
  EXPECT_LT(compare(version::conda_scheme, "1.1dev1", "1.1a1"), 0);
  EXPECT_EQ(compare(version::conda_scheme, "1.1", "1.1.0"), 0);
  EXPECT_EQ(*normalize(version::conda_scheme, "1.1"), *conda_normalize("1.1.0"));
  auto bad = normalize(version::conda_scheme, "1..1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "invalid conda version '1..1': it has an empty component");
}

TEST(CondaVersion, CliComparesConda) {
  EXTDEPS_NEEDS_EVERY_PROVIDER();  // its output lists them all
  auto run = [](std::vector<std::string> args, int& rc) {
    auto ctx = Context::for_test(test::temp_dir());
    std::ostringstream out, err;
    rc = cli::run(ctx, args, out, err);
    return out.str() + err.str();
  };
  int rc = -1;
  EXPECT_EQ(run({"version", "compare", "--scheme", "conda", "1.0.1_", "1.0.1a"}, rc), "<\n");
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(run({"version", "compare", "--scheme", "conda", "1.1post1", "1.1.post1"}, rc), ">\n");
  EXPECT_EQ(run({"version", "compare", "--scheme", "conda", "0.4.1.RC", "0.4.1.rc"}, rc), "=\n");
  EXPECT_EQ(run({"version", "compare", "--scheme", "conda", "1..0", "1"}, rc),
            "error: invalid conda version '1..0': it has an empty component\n");
  EXPECT_EQ(rc, 2);
  EXPECT_EQ(run({"version", "compare", "--scheme", "kondo", "1", "2"}, rc),
            "error: unknown version scheme 'kondo' (expected segments, pep440, deb, conda, pkgconfig, nix, pacman, rpm "
            "or homebrew)\n");
}

}  // namespace
}  // namespace extdeps::version
