// RecordBuffer: what goes in comes out the same, and the closure is the records a plan can reach,
// on hand-made records and on conda-forge's real numpy subset (../shared/data/conda).
#include "core/solve/record_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "providers/conda/repodata.h"
#include "tests/test_support.h"

namespace extdeps::solve {
namespace {

NativeDep dep(std::string name, DepOp op = DepOp::any, std::string version = "") {
  return {std::move(name), op, std::move(version)};
}

PackageRecord record(std::string name, std::string version, std::vector<DepAlternatives> depends = {},
                     std::vector<NativeDep> provides = {}) {
  PackageRecord r;
  r.name = std::move(name);
  r.version = std::move(version);
  r.depends = std::move(depends);
  r.provides = std::move(provides);
  return r;
}

bool same(const NativeDep& a, const NativeDep& b) { return a.name == b.name && a.op == b.op && a.version == b.version; }
bool same(const std::vector<NativeDep>& a, const std::vector<NativeDep>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) { return same(x, y); });
}

void expect_same(const PackageRecord& a, const PackageRecord& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.arch, b.arch);
  EXPECT_EQ(a.build, b.build);
  EXPECT_EQ(a.build_number, b.build_number);
  EXPECT_EQ(a.track_features, b.track_features);
  EXPECT_EQ(a.origin, b.origin);
  EXPECT_EQ(a.installed, b.installed);
  EXPECT_TRUE(same(a.provides, b.provides));
  EXPECT_TRUE(same(a.conflicts, b.conflicts));
  EXPECT_TRUE(same(a.constrains, b.constrains));
  ASSERT_EQ(a.depends.size(), b.depends.size());
  for (size_t i = 0; i < a.depends.size(); ++i) EXPECT_TRUE(same(a.depends[i], b.depends[i])) << a.name << " #" << i;
}

TEST(RecordBuffer, EveryFieldComesBackAsItWent) {
  PackageRecord r = record("libxml2-dev", "2.9.14+dfsg-1.3~deb12u1",
                           {{dep("libxml2", DepOp::eq, "2.9.14+dfsg-1.3~deb12u1")},
                            {dep("libicu-dev"), dep("libicu72-dev", DepOp::ge, "72")}},
                           {dep("libxml2-dev:any"), dep("libxml-dev", DepOp::eq, "2")});
  r.arch = "amd64";
  r.conflicts = {dep("libxml2-dev", DepOp::lt, "2.9")};
  r.constrains = {dep("openmp_impl", DepOp::spec, "9999")};
  r.build = "h0_1";
  r.build_number = 7;
  r.track_features = 2;
  r.origin = "https://conda.anaconda.org/conda-forge/linux-64/x-1-h0_1.conda";
  r.installed = true;
  PackageRecord empty;  // every string and list empty
  RecordBuffer b;
  b.add(PackageRecord(r));
  b.add(PackageRecord(empty));
  b.add(PackageRecord(r));
  ASSERT_EQ(b.size(), 3u);
  expect_same(b.get(0), r);
  expect_same(b.get(1), empty);
  expect_same(b.get(2), r);
}

TEST(RecordBuffer, TheClosureFollowsDependsAndProvidesButNotConflictsOrConstrains) {
  RecordBuffer b;
  b.add(record("app", "1", {{dep("liba")}, {dep("mail-transport-agent"), dep("nothing-has-it")}}));  // 0
  b.add(record("liba", "1", {{dep("libc6", DepOp::ge, "2.34")}}));                                   // 1
  b.add(record("liba", "2", {{dep("libb")}}));                                                       // 2
  b.add(record("libb", "1"));                                                                        // 3
  b.add(record("libc6", "2.36"));                                                                    // 4
  b.add(record("postfix", "3", {}, {dep("mail-transport-agent")}));                                  // 5
  PackageRecord c = record("constrained", "1");
  c.constrains = {dep("unrelated", DepOp::spec, ">=2")};
  c.conflicts = {dep("other")};
  b.add(std::move(c));              // 6
  b.add(record("unrelated", "2"));  // 7
  b.add(record("other", "1"));      // 8
  EXPECT_EQ(b.closure({"app"}), (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(b.closure({"liba"}), (std::vector<std::uint32_t>{1, 2, 3, 4}));
  EXPECT_EQ(b.closure({"constrained"}), (std::vector<std::uint32_t>{6}));
  EXPECT_EQ(b.closure({"mail-transport-agent", "no-such-name"}), (std::vector<std::uint32_t>{5}));
  EXPECT_TRUE(b.closure({}).empty());
}

TEST(RecordBuffer, TheClosureOfNumpyInTheRealSubsetIsItsWholeDependencyTree) {
  EXTDEPS_SHARED_OR_SKIP(file, "conda/conda-forge-numpy-linux-64.json");
  RecordBuffer b;
  std::vector<PackageRecord> kept;
  auto r = conda::read_repodata_file(file, {}, [&](PackageRecord&& rec) {
    kept.push_back(rec);
    b.add(std::move(rec));
  });
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(b.size(), kept.size());
  for (std::uint32_t i = 0; i < b.size(); ++i) expect_same(b.get(i), kept[i]);

  // The names reachable from numpy, computed here by hand from the records' depends.
  std::set<std::string> want{"numpy"}, todo{"numpy"};
  while (!todo.empty()) {
    std::string n = *todo.begin();
    todo.erase(todo.begin());
    for (const auto& rec : kept)
      if (rec.name == n)
        for (const auto& alts : rec.depends)
          for (const auto& d : alts)
            if (want.insert(d.name).second) todo.insert(d.name);
  }
  std::set<std::string> got;
  for (std::uint32_t i : b.closure({"numpy"})) got.insert(b.get(i).name);
  std::set<std::string> present;
  for (const auto& name : want)
    if (std::any_of(kept.begin(), kept.end(), [&](const auto& rec) { return rec.name == name; })) present.insert(name);
  EXPECT_EQ(got, present);
  EXPECT_TRUE(got.count("python"));
  EXPECT_TRUE(got.count("libopenblas"));
  EXPECT_FALSE(got.count("pip"));  // numpy does not need it; pip needs python, not the other way
}

}  // namespace
}  // namespace extdeps::solve
