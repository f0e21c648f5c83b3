// `extdeps mappings coverage` over the shipped tables: at least 250 canonical ids, the families
// issue 5 names mapped (or said to be absent) for debian, conda-forge and pkgconfig, every id of
// the PEP 804 registry and of the real [external] tables covered; the text and JSON forms.
#include "core/mapping/coverage.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "tests/core/mapping/shipped.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

using namespace table_testing;

std::size_t column(const Coverage& c, const std::string& ecosystem) {
  auto it = std::find(c.ecosystems.begin(), c.ecosystems.end(), ecosystem);
  EXPECT_NE(it, c.ecosystems.end()) << ecosystem;
  return static_cast<std::size_t>(it - c.ecosystems.begin());
}

const CoverageRow* row(const Coverage& c, const std::string& id) {
  for (const auto& r : c.rows)
    if (r.id == id) return &r;
  return nullptr;
}

TEST(Coverage, AtLeast250IdsInEveryTableThatHasThem) {
  const Coverage c = coverage(shipped());
  EXPECT_EQ(c.ecosystems, (std::vector<std::string>{"debian", "conda-forge", "pkgconfig", "nixpkgs", "pypi"}));
  EXPECT_GE(c.rows.size(), 250u);
  const std::size_t deb = column(c, "debian"), cf = column(c, "conda-forge");
  // Every id is in both package tables, mapped or said to be absent there with a note.
  EXPECT_EQ(c.count(deb, Cover::absent), 0u);
  EXPECT_EQ(c.count(cf, Cover::absent), 0u);
  EXPECT_GE(c.count(deb, Cover::mapped), 250u);
  EXPECT_GE(c.count(cf, Cover::mapped), 250u);
  EXPECT_GE(c.count(column(c, "pkgconfig"), Cover::mapped), 200u);
}

TEST(Coverage, TheFamiliesTheIssueNames) {
  const Coverage c = coverage(shipped());
  const std::size_t deb = column(c, "debian"), cf = column(c, "conda-forge");
  auto expect = [&](const std::string& id, Cover in_debian, Cover in_conda) {
    const CoverageRow* r = row(c, id);
    ASSERT_NE(r, nullptr) << id;
    EXPECT_EQ(r->cells[deb], in_debian) << id;
    EXPECT_EQ(r->cells[cf], in_conda) << id;
  };
  // CUDA: bookworm's non-free CUDA 11.8 has no NCCL, no nvJitLink (CUDA 12) and a cuDNN
  // downloader only; conda-forge has them all.
  for (const char* id : {"dep:generic/cuda", "dep:generic/cudart", "dep:virtual/compiler/cuda", "dep:generic/cublas",
                         "dep:generic/cufft", "dep:generic/curand", "dep:generic/cusolver", "dep:generic/cusparse",
                         "dep:generic/nvrtc", "dep:generic/cupti"})
    expect(id, Cover::mapped, Cover::mapped);
  for (const char* id : {"dep:generic/cudnn", "dep:generic/nccl", "dep:generic/nvjitlink"})
    expect(id, Cover::none, Cover::mapped);
  // nvcc by the names people use for it.
  const Tables t = shipped();
  EXPECT_EQ(t.find_ecosystem("debian")->find("dep:generic/nvcc")->id, "dep:virtual/compiler/cuda");
  EXPECT_EQ(t.find_ecosystem("conda-forge")->find("dep:generic/cuda-nvcc")->id, "dep:virtual/compiler/cuda");
  for (const char* id : {"dep:generic/openmpi", "dep:generic/mpich", "dep:virtual/interface/mpi",
                         "dep:virtual/interface/openmp", "dep:generic/libomp", "dep:generic/libgomp",
                         "dep:virtual/interface/blas", "dep:virtual/interface/lapack", "dep:generic/openblas",
                         "dep:generic/blis", "dep:generic/lapack", "dep:generic/mkl", "dep:generic/lapacke",
                         "dep:generic/scalapack"})
    expect(id, Cover::mapped, Cover::mapped);
  expect("dep:generic/atlas", Cover::mapped, Cover::none);
}

// Every id of the PEP 804 registry and of the real [external] tables has a row, and every
// dep:virtual/compiler/* of the registry is mapped by at least one package table.
TEST(Coverage, TheRegistryAndTheRealTables) {
  EXTDEPS_SHARED_OR_SKIP(registry, "pep804/registry.json");
  EXTDEPS_SHARED_OR_SKIP(folder, "external-deps-build");
  const Tables t = shipped();
  const Coverage c = coverage(t);
  std::set<std::string> rows;
  for (const auto& r : c.rows) rows.insert(r.id);
  auto j = nlohmann::json::parse(test::read_file(registry));
  std::size_t compilers = 0;
  for (const auto& d : j.at("definitions")) {
    const std::string id = d.at("id").get<std::string>();
    const Entry* e = t.find_ecosystem("debian")->find(id);
    ASSERT_NE(e, nullptr) << id;
    EXPECT_TRUE(rows.count(e->id)) << id;
    if (id.rfind("dep:virtual/compiler/", 0) != 0) continue;
    ++compilers;
    const bool somewhere = !e->unavailable() || !t.find_ecosystem("conda-forge")->find(id)->unavailable();
    // Swift is in neither bookworm nor conda-forge; trixie's swiftlang is its [id.release.trixie].
    if (id != "dep:virtual/compiler/swift") {
      EXPECT_TRUE(somewhere) << id;
    }
  }
  EXPECT_EQ(compilers, 14u);
  std::set<std::string> used;
  for (const auto& f : std::filesystem::directory_iterator(folder)) {
    if (f.path().extension() != ".toml") continue;
    auto doc = toml::parse_file(f.path().string());
    for (const char* key : {"build-requires", "host-requires", "build-host-requires", "dependencies"}) {
      if (auto* a = doc["external"][key].as_array())
        for (const auto& v : *a)
          if (auto s = v.value<std::string>()) used.insert(s->substr(0, s->find_first_of("@; ")));
    }
  }
  EXPECT_GE(used.size(), 20u);
  for (const auto& id : used) EXPECT_NE(t.find_ecosystem("debian")->find(id), nullptr) << id;
}

TEST(Coverage, TextAndJson) {
  const Coverage c = coverage(shipped());
  std::ostringstream text;
  print_coverage(c, text);
  const std::string s = text.str();
  EXPECT_EQ(s.rfind("id ", 0), 0u) << s.substr(0, 200);
  EXPECT_NE(s.find("\ndep:generic/nccl "), std::string::npos);
  EXPECT_NE(s.find(std::to_string(c.rows.size()) + " ids; debian: "), std::string::npos);
  // The libcurl of trixie is named in debian.toml: the + marks a per-release difference.
  const CoverageRow* curl = row(c, "dep:generic/curl");
  ASSERT_NE(curl, nullptr);
  EXPECT_EQ(curl->releases[0], std::vector<std::string>{"trixie"});
  auto j = coverage_json(c);
  EXPECT_EQ(j["count"], c.rows.size());
  EXPECT_EQ(j["ids"].size(), c.rows.size());
  EXPECT_EQ(j["totals"]["debian"]["absent"], 0);
  bool seen = false;
  for (const auto& r : j["ids"]) {
    if (r["id"] != "dep:generic/nccl") continue;
    seen = true;
    EXPECT_EQ(r["mappings"]["debian"], "none");
    EXPECT_EQ(r["mappings"]["conda-forge"], "mapped");
    EXPECT_EQ(r["mappings"]["pkgconfig"], "absent");
  }
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace extdeps::mapping
