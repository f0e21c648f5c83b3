// `extdeps mappings coverage` over the shipped tables: at least 250 canonical ids, the families
// issue 5 names mapped (or said to be absent) for debian, conda-forge and pkgconfig, every id of
// the PEP 804 registry and of the real [external] tables covered; the text and JSON forms.
#include "core/mapping/coverage.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "tests/core/mapping/shipped.h"
#include "tests/support/providers.h"
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

TEST(Coverage, AtLeast900IdsInEveryTableThatHasThem) {
  EXTDEPS_NEEDS_EVERY_PROVIDER();  // its output lists them all
  const Coverage c = coverage(shipped());
  EXPECT_EQ(c.ecosystems, (std::vector<std::string>{"debian", "conda-forge", "pkgconfig", "nixpkgs", "pypi", "arch",
                                                    "fedora", "homebrew", "opensuse"}));
  EXPECT_GE(c.rows.size(), 900u);
  const std::size_t deb = column(c, "debian"), cf = column(c, "conda-forge"), nix = column(c, "nixpkgs");
  // Every id is in debian.toml, mapped or said to be absent there with a note; the other tables
  // have the ids their ecosystem has (an id missing there is one nobody has mapped yet).
  EXPECT_EQ(c.count(deb, Cover::absent), 0u);
  EXPECT_GE(c.count(deb, Cover::mapped), 900u);
  EXPECT_GE(c.count(cf, Cover::mapped), 500u);
  EXPECT_GE(c.count(nix, Cover::mapped), 900u);
  EXPECT_GE(c.count(column(c, "pkgconfig"), Cover::mapped), 600u);
  // debian.toml's names are all checked against bookworm's index (Verify.*): none is unverified.
  EXPECT_EQ(c.count_unverified(deb, Cover::mapped) + c.count_unverified(deb, Cover::none), 0u);
  // conda-forge's names are checked against its registry of feedstock outputs
  // (CondaForgeTable.VerifiedNamesAreRegisteredFeedstockOutputs): the 13 it lacks say so. The
  // nixpkgs names added with conda-forge's say so too, unchecked yet.
  EXPECT_EQ(c.count_unverified(cf, Cover::mapped), 13u);
  EXPECT_GE(c.count_unverified(nix, Cover::mapped), 600u);
  // arch.toml's names come from rosdep and PEP 804, with no Arch index here to confirm them.
  const std::size_t arch = column(c, "arch");
  EXPECT_GE(c.count(arch, Cover::mapped), 450u);
  EXPECT_EQ(c.count_unverified(arch, Cover::mapped), c.count(arch, Cover::mapped));
  // fedora.toml's are checked against Fedora rawhide's spec files
  // (FedoraTable.VerifiedNamesAreBuiltByFedorasSpecs): the 17 whose names no spec builds say so.
  const std::size_t fedora = column(c, "fedora");
  EXPECT_GE(c.count(fedora, Cover::mapped), 500u);
  EXPECT_EQ(c.count_unverified(fedora, Cover::mapped), 17u);
  EXPECT_GE(c.count(fedora, Cover::mapped), 600u);
  EXPECT_GE(c.count(arch, Cover::mapped), 500u);
  // homebrew.toml's names were each found among homebrew-core's formulae (its header says
  // where); opensuse.toml's come from rosdep and openSUSE's package lists of 2019, unchecked.
  const std::size_t brew = column(c, "homebrew"), suse = column(c, "opensuse");
  EXPECT_GE(c.count(brew, Cover::mapped), 400u);
  EXPECT_GE(c.count(suse, Cover::mapped), 300u);
  EXPECT_EQ(c.count_unverified(suse, Cover::mapped), c.count(suse, Cover::mapped));
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
  for (const char* id :
       {"dep:generic/openmpi", "dep:generic/mpich", "dep:virtual/interface/mpi", "dep:virtual/interface/openmp",
        "dep:generic/libomp", "dep:generic/libgomp", "dep:virtual/interface/blas", "dep:virtual/interface/lapack",
        "dep:generic/openblas", "dep:generic/blis", "dep:generic/lapack", "dep:generic/mkl", "dep:generic/lapacke",
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
  EXTDEPS_NEEDS_EVERY_PROVIDER();  // its output lists them all
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
  EXPECT_EQ(j["totals"]["debian"]["unverified"], 0);
  const std::size_t cf = column(c, "conda-forge");
  EXPECT_EQ(j["totals"]["conda-forge"]["unverified"],
            c.count_unverified(cf, Cover::mapped) + c.count_unverified(cf, Cover::none));
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

// `unverified = true` on an entry: a "?" after its cell, "(N unverified)" in the totals, the
// ecosystem in the row's "unverified" list and in the totals of the JSON.
TEST(Coverage, UnverifiedEntriesAreCountedApart) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/debian.toml") << R"(schema = 1
ecosystem = "debian"
manager = "apt"

[[id]]
id = "dep:generic/a"
host = ["liba-dev"]

[[id]]
id = "dep:generic/b"
host = ["libb-dev"]
)";
  std::ofstream(dir + "/conda-forge.toml") << R"(schema = 1
ecosystem = "conda-forge"
manager = "conda"

[[id]]
id = "dep:generic/a"
host = ["a"]

[[id]]
id = "dep:generic/b"
host = ["b"]
unverified = true
)";
  Tables t;
  for (const char* f : {"/debian.toml", "/conda-forge.toml"}) {
    auto table = load_table(dir + f);
    ASSERT_TRUE(table) << table.error().message;
    t.tables.push_back(std::move(*table));
  }
  const Coverage c = coverage(t);
  ASSERT_EQ(c.ecosystems, (std::vector<std::string>{"debian", "conda-forge"}));
  EXPECT_EQ(c.count_unverified(1, Cover::mapped), 1u);
  EXPECT_EQ(c.count_unverified(0, Cover::mapped), 0u);
  EXPECT_EQ(row(c, "dep:generic/b")->unverified, (std::vector<bool>{false, true}));
  std::ostringstream text;
  print_coverage(c, text);
  EXPECT_NE(text.str().find("\ndep:generic/b  yes     yes?"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("conda-forge: 2 mapped (1 unverified), 0 none, 0 absent"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("debian: 2 mapped, 0 none"), std::string::npos) << text.str();
  const auto j = coverage_json(c);
  EXPECT_EQ(j["totals"]["conda-forge"]["unverified"], 1);
  EXPECT_EQ(j["totals"]["debian"]["unverified"], 0);
  for (const auto& r : j["ids"]) {
    if (r["id"] == "dep:generic/b") {
      EXPECT_EQ(r["unverified"], nlohmann::json::array({"conda-forge"}));
    } else {
      EXPECT_FALSE(r.contains("unverified")) << r.dump();
    }
  }
}

}  // namespace
}  // namespace extdeps::mapping
