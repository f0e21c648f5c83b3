// Aliases are the same id (issue 14): for every alias of every shipped table, in every
// ecosystem, resolving the alias gives the answer the canonical id gives, and other spellings
// (case, PEP 503, PURL types) find the same entry. Each ecosystem is served by an in-memory
// index holding every package its table names, so the answer depends on the table alone.
#include <gtest/gtest.h>

#include <set>

#include "core/declare/declare.h"
#include "core/mapping/mapping.h"
#include "core/plan/plan.h"
#include "core/solve/solve.h"
#include "tests/core/mapping/shipped.h"
#include "tests/core/solve/solve_fixture.h"

namespace extdeps::solve_testing {
namespace {

Requirement parsed(const std::string& id, Category c) {
  auto r = declare::parse_requirement(id);
  EXPECT_TRUE(r.ok()) << id << ": " << (r.ok() ? "" : r.error().message);
  Requirement out = r.ok() ? *r : Requirement{};
  out.category = c;
  return out;
}

// "status: pkg pkg ..." for each category, in order.
std::vector<std::string> answers(const plan::Outcome& o) {
  std::vector<std::string> out;
  for (const auto& r : o.requirements) {
    std::string line(plan::status_name(r.status));
    for (const auto& p : r.packages) line += " " + p.ecosystem + ":" + p.name;
    out.push_back(line);
  }
  return out;
}

class AliasSolveTest : public ::testing::Test {
 protected:
  // One provider for `table`'s ecosystem offering every package the table names.
  std::vector<std::unique_ptr<Provider>> providers_for(const mapping::Table& table) {
    const ProviderDescriptor* d = test::compiled_in(table.ecosystem);
    auto p =
        std::make_unique<MemoryProvider>(table.ecosystem, table.manager, d ? *d->scheme : version::segments_scheme);
    std::set<std::string> names;
    for (const auto& e : table.entries)
      for (const auto& n : e.all_packages()) names.insert(n);
    for (const auto& n : names) {
      auto r = rec(n, "1.0");
      r.arch = "all";
      (table.manager.empty() ? p->present : p->offered).push_back(std::move(r));
    }
    std::vector<std::unique_ptr<Provider>> out;
    out.push_back(std::move(p));
    return out;
  }

  plan::Outcome solve(const mapping::Tables& tables, std::vector<std::unique_ptr<Provider>>& providers,
                      const std::string& id) {
    std::vector<Requirement> reqs;
    for (Category c : {Category::build, Category::host, Category::run}) reqs.push_back(parsed(id, c));
    solve::Options opt;
    opt.use_cache = false;
    opt.guess_unmapped = false;  // an alias must map, not be guessed
    auto r = plan::make_plan(solve::resolve(ctx_, reqs, tables, providers, opt));
    EXPECT_TRUE(r.ok()) << id << ": " << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : plan::Outcome{};
  }

  Context ctx_ = Context::for_test("/");
};

TEST_F(AliasSolveTest, EveryAliasOfEveryShippedTableResolvesAsItsId) {
  const mapping::Tables all = mapping::table_testing::shipped();
  ASSERT_GE(all.tables.size(), 4u);
  size_t checked = 0;
  for (const auto& table : all.tables) {
    // The table alone, with the aliases shared from the others (load_tables did that).
    mapping::Tables one;
    one.tables.push_back(table);
    auto providers = providers_for(table);
    for (const auto& e : table.entries) {
      if (e.aliases.empty()) continue;
      const auto expected = answers(solve(one, providers, e.id));
      for (const auto& alias : e.aliases) {
        const auto got = answers(solve(one, providers, alias));
        EXPECT_EQ(got, expected) << table.ecosystem << ": " << alias << " (an alias of " << e.id << ")";
        // Every category was answered by the entry's mapping, never as unmapped.
        for (const auto& a : got) EXPECT_EQ(a.rfind("unmapped", 0), std::string::npos) << alias;
        ++checked;
      }
    }
  }
  // The debian table alone has over a hundred aliases; a walk that found none proves nothing.
  EXPECT_GT(checked, 100u);
}

TEST_F(AliasSolveTest, TheOutcomeKeepsTheIdAsWrittenAndNamesTheCanonicalOne) {
  const mapping::Tables all = mapping::table_testing::shipped();
  const mapping::Table* debian = all.find_ecosystem("debian");
  ASSERT_NE(debian, nullptr);
  mapping::Tables one;
  one.tables.push_back(*debian);
  auto providers = providers_for(*debian);
  auto o = solve(one, providers, "dep:generic/sqlite3");
  ASSERT_EQ(o.requirements.size(), 3u);
  EXPECT_EQ(o.requirements[1].requirement.url.id(), "dep:generic/sqlite3");
  EXPECT_EQ(o.requirements[1].canonical_id, "dep:generic/sqlite");
  EXPECT_EQ(o.requirements[1].status, plan::Status::planned);
  EXPECT_TRUE(o.warnings.empty()) << o.warnings[0];  // an alias is not a misspelling
}

TEST_F(AliasSolveTest, SpellingsThePurlSpecAllowsFindTheEntryAndCaseInGenericIsWarnedAbout) {
  const mapping::Tables all = mapping::table_testing::shipped();
  const mapping::Table* debian = all.find_ecosystem("debian");
  ASSERT_NE(debian, nullptr);
  mapping::Tables one;
  one.tables.push_back(*debian);
  auto providers = providers_for(*debian);
  struct Case {
    std::string written, canonical;
    std::string spelling;  // named in the warning; empty: no warning
  };
  for (const Case& c : std::vector<Case>{
           {"dep:github/kitware/cmake", "dep:generic/cmake", ""},  // github names ignore case
           {"dep:GITHUB/OpenMathLib/OPENBLAS", "dep:generic/openblas", ""},
           {"dep:generic/XCB", "dep:generic/libxcb", "dep:generic/xcb"},  // generic: a fallback, warned
           {"dep:generic/SQLite3", "dep:generic/sqlite", "dep:generic/sqlite3"},
           {"dep:virtual/compiler/cpp", "dep:virtual/compiler/cxx", ""},
           {"dep:virtual/compiler/c++", "dep:virtual/compiler/cxx", ""},
           {"dep:virtual/compiler/CXX", "dep:virtual/compiler/cxx", "dep:virtual/compiler/cxx"},
       }) {
    auto o = solve(one, providers, c.written);
    ASSERT_EQ(o.requirements.size(), 3u) << c.written;
    EXPECT_EQ(o.requirements[1].canonical_id, c.canonical) << c.written;
    EXPECT_NE(o.requirements[1].status, plan::Status::unmapped) << c.written;
    std::vector<std::string> expected;
    if (!c.spelling.empty())
      expected.push_back(c.written + " is spelled " + c.spelling + " in the mapping tables; write it so");
    EXPECT_EQ(o.warnings, expected) << c.written;
  }
}

}  // namespace
}  // namespace extdeps::solve_testing
