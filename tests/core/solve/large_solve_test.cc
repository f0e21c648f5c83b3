// Large and hostile requests: the same need written thousands of times, thousands of ranges of
// one id, a Depends of 50,000 alternatives. Each must solve in well under a second (they took
// minutes and gigabytes, or overflowed the stack).
#include <gtest/gtest.h>

#include "tests/core/solve/solve_fixture.h"

namespace extdeps::solve_testing {
namespace {

class LargeSolveTest : public SolveTest {};

TEST_F(LargeSolveTest, TheSameNeedWritten8000TimesIsSolvedOnceAndReportedAtEachPlace) {
  auto one = resolve({req("dep:generic/zlib", Category::host, at_least("1.2"))});
  ASSERT_EQ(one.steps.size(), 1u);
  std::vector<Requirement> reqs;
  for (int i = 0; i < 8000; ++i) {
    reqs.push_back(req("dep:generic/zlib", Category::host, at_least("1.2")));
    reqs.back().where.line = i + 1;
  }
  auto o = resolve(reqs);
  ASSERT_EQ(o.requirements.size(), 8000u);
  for (size_t i = 0; i < o.requirements.size(); ++i) {
    ASSERT_EQ(o.requirements[i].status, plan::Status::planned) << i;
    ASSERT_EQ(o.requirements[i].requirement.where.line, static_cast<int>(i) + 1);
  }
  ASSERT_EQ(o.steps.size(), 1u);
  EXPECT_EQ(o.steps[0].packages.size(), one.steps[0].packages.size());  // each package once
  EXPECT_TRUE(o.problems.empty());
}

TEST_F(LargeSolveTest, TheSameUnmetNeedWritten8000TimesIsOneProblem) {
  std::vector<Requirement> reqs(8000, req("dep:generic/zlib", Category::host, at_least("9")));
  auto o = resolve(reqs);
  ASSERT_EQ(o.requirements.size(), 8000u);
  EXPECT_EQ(o.requirements.back().status, plan::Status::unsatisfiable);
  EXPECT_EQ(o.problems.size(), 1u);
}

TEST_F(LargeSolveTest, ThousandsOfRangesOfOneIdShareItsBundles) {
  auto one = resolve({req("dep:generic/zlib")});
  std::vector<Requirement> reqs;
  for (int i = 0; i < 3000; ++i)
    reqs.push_back(req("dep:generic/zlib", Category::host, at_least("0." + std::to_string(i))));
  reqs.push_back(req("dep:generic/zlib", Category::host, at_least("3")));
  auto o = resolve(reqs);
  ASSERT_EQ(o.requirements.size(), 3001u);
  for (size_t i = 0; i < 3000; ++i) ASSERT_EQ(o.requirements[i].status, plan::Status::planned) << i;
  EXPECT_EQ(o.requirements.back().status, plan::Status::unsatisfiable);
  ASSERT_EQ(o.steps.size(), 1u);
  EXPECT_EQ(o.steps[0].packages.size(), one.steps[0].packages.size());
}

TEST_F(LargeSolveTest, ADependsOf50000AlternativesIsSolvedAndExplainedInShort) {
  DepAlternatives alts;
  for (int i = 0; i < 50000; ++i) alts.push_back(dep("libmissing" + std::to_string(i)));
  apt_->offered.push_back(rec("libdeep-dev", "1.0-1", {alts}));
  tables_.tables[0].entries.push_back(entry("dep:generic/deep", {{"libdeep-dev"}}));
  auto o = resolve({req("dep:generic/deep")});
  ASSERT_EQ(o.requirements.size(), 1u);
  EXPECT_EQ(o.requirements[0].status, plan::Status::unsatisfiable);
  ASSERT_EQ(o.problems.size(), 1u);
  std::string all;
  for (const auto& d : o.problems[0].details) all += d + "\n";
  EXPECT_NE(all.find("libmissing0 | libmissing1 | "), std::string::npos) << all.substr(0, 2000);
  EXPECT_NE(all.find("libmissing19 | and 49980 more"), std::string::npos) << all.substr(0, 2000);
  EXPECT_LT(all.size(), 5000u);

  // One of them is there: it is what the plan installs.
  apt_->offered.push_back(rec("libmissing49999", "1"));
  o = resolve({req("dep:generic/deep")});
  ASSERT_EQ(o.requirements[0].status, plan::Status::planned);
  ASSERT_EQ(o.steps.size(), 1u);
  ASSERT_EQ(o.steps[0].packages.size(), 1u);  // apt plans name the mapped packages; apt finds the rest
  EXPECT_EQ(o.steps[0].packages[0].name, "libdeep-dev");
}

}  // namespace
}  // namespace extdeps::solve_testing
