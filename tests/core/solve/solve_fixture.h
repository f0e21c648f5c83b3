// What the solver tests share: an in-memory provider serving records shaped like bookworm's
// (names, versions and relations taken from the real index), mapping entries made by hand, and
// SolveTest, a fixture with a trimmed bookworm apt index and its debian table.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/mapping/mapping.h"
#include "core/plan/plan.h"
#include "core/provider/provider.h"
#include "core/solve/solve.h"
#include "tests/support/providers.h"

namespace extdeps::solve_testing {

inline NativeDep dep(std::string name, DepOp op = DepOp::any, std::string v = "") {
  return {std::move(name), op, std::move(v)};
}

inline PackageRecord rec(std::string name, std::string version, std::vector<DepAlternatives> depends = {},
                         std::vector<NativeDep> conflicts = {}, std::vector<NativeDep> provides = {}) {
  PackageRecord r;
  r.name = std::move(name);
  r.version = std::move(version);
  r.arch = "amd64";
  r.depends = std::move(depends);
  r.conflicts = std::move(conflicts);
  r.provides = std::move(provides);
  r.origin = "fixture";
  return r;
}

class MemoryProvider : public Provider {
 public:
  MemoryProvider(std::string eco, std::string manager, const version::Scheme& scheme)
      : eco_(std::move(eco)), manager_(std::move(manager)), scheme_(scheme) {}
  std::string_view ecosystem() const override { return eco_; }
  std::string_view manager() const override { return manager_; }
  const version::Scheme& scheme() const override { return scheme_; }
  bool available(const Context&) const override { return true; }
  Result<SourceId> identity(const Context&) const override { return SourceId{eco_ + "-" + std::to_string(generation)}; }
  Result<void> load(const Context&, const RecordSink& available, const RecordSink& installed) override {
    ++loads;
    for (auto r : offered) available(std::move(r));
    for (auto r : present) {
      r.installed = true;
      installed(std::move(r));
    }
    return {};
  }
  std::vector<Command> install_commands(const std::vector<PlannedPackage>& pkgs) const override {
    Command c{{"apt-get", "install", "-y"}, true};
    for (const auto& p : pkgs) c.argv.push_back(p.name + "=" + p.version);
    return {c};
  }
  std::vector<PackageRecord> offered, present;
  int loads = 0;
  int generation = 0;

 private:
  std::string eco_, manager_;
  const version::Scheme& scheme_;
};

inline mapping::Entry entry(std::string id, std::vector<std::vector<std::string>> host_alts,
                            std::vector<std::string> run = {}) {
  mapping::Entry e;
  e.id = std::move(id);
  auto& host = e.by_category[Category::host];
  for (auto& pkgs : host_alts) {
    mapping::Alternative a;
    a.packages = pkgs;
    a.version.kind = "deb-upstream";
    host.push_back(a);
  }
  e.by_category[Category::build] = host;
  if (!run.empty()) {
    mapping::Alternative a;
    a.packages = run;
    a.version.kind = "deb-upstream";
    e.by_category[Category::run] = {a};
  }
  return e;
}

inline Requirement req(std::string id, Category c = Category::host, VersionRange range = {}) {
  Requirement r;
  auto slash = id.find('/');
  r.url.type = id.substr(4, slash - 4);
  r.url.name = id.substr(slash + 1);
  r.category = c;
  r.range = std::move(range);
  r.spec = id;
  return r;
}

inline VersionRange at_least(std::string v) { return VersionRange{{{DepOp::ge, std::move(v), false}}}; }

class SolveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Real bookworm relations, ordered as dpkg orders versions: apt's scheme.
    EXTDEPS_NEEDS_PROVIDER("apt");
    auto apt = std::make_unique<MemoryProvider>("debian", "apt", *test::compiled_in("apt")->scheme);
    apt_ = apt.get();
    providers_.push_back(std::move(apt));
    // Real bookworm relations, trimmed.
    apt_->offered = {
        rec("libc6", "2.36-9+deb12u9"),
        rec("zlib1g", "1:1.2.13.dfsg-1", {{dep("libc6", DepOp::ge, "2.14")}}),
        rec("zlib1g-dev", "1:1.2.13.dfsg-1",
            {{dep("zlib1g", DepOp::eq, "1:1.2.13.dfsg-1")}, {dep("libc6-dev"), dep("libc-dev")}}),
        rec("libc6-dev", "2.36-9+deb12u9", {{dep("libc6", DepOp::eq, "2.36-9+deb12u9")}}, {}, {dep("libc-dev")}),
        rec("libxml2", "2.9.14+dfsg-1.3~deb12u1", {{dep("libc6", DepOp::ge, "2.34")}}),
        rec("libxml2-dev", "2.9.14+dfsg-1.3~deb12u1",
            {{dep("libxml2", DepOp::eq, "2.9.14+dfsg-1.3~deb12u1")}, {dep("libicu-dev")}}),
        rec("libopenblas-dev", "0.3.21+ds-4", {{dep("libopenblas0-missing")}}),
        rec("libblas-dev", "3.11.0-2", {{dep("libblas3", DepOp::eq, "3.11.0-2")}}),
        rec("libblas3", "3.11.0-2"),
        rec("libssl-dev", "3.0.15-1~deb12u1", {}, {dep("libssl1.0-dev")}),
        rec("libssl1.0-dev", "1.0.2u-1~deb9u7", {}, {dep("libssl-dev")}),
    };
    apt_->present = {rec("libc6", "2.36-9+deb12u9")};
    mapping::Table debian;
    debian.ecosystem = "debian";
    debian.manager = "apt";
    debian.entries = {
        entry("dep:generic/libxml2", {{"libxml2-dev"}}, {"libxml2"}),
        entry("dep:generic/openssl", {{"libssl-dev"}}),
        entry("dep:generic/openssl-legacy", {{"libssl1.0-dev"}}),
        entry("dep:generic/zlib", {{"zlib1g-dev"}}, {"zlib1g"}),
        entry("dep:virtual/interface/blas", {{"libopenblas-dev"}, {"libblas-dev"}}),
    };
    tables_.tables.push_back(debian);
  }

  plan::Outcome resolve(std::vector<Requirement> reqs, solve::Options opt = {}) {
    for (auto& t : tables_.tables)  // find() needs entries sorted by id; tests append
      std::sort(t.entries.begin(), t.entries.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    opt.use_cache = !ctx_.cache_dir().empty();
    auto r = plan::make_plan(solve::resolve(ctx_, reqs, tables_, providers_, opt));
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : plan::Outcome{};
  }

  Context ctx_ = Context::for_test("/");
  MemoryProvider* apt_ = nullptr;
  std::vector<std::unique_ptr<Provider>> providers_;
  mapping::Tables tables_;
};

}  // namespace extdeps::solve_testing
