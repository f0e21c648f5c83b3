// mappings/nixpkgs.toml: it loads with the real loader, lines up with debian.toml and
// conda-forge.toml, covers the PEP 804 registry and the real [external] tables of ../shared/data,
// agrees with PEP 804's own nix mapping (the differences are listed and explained below), maps the
// CUDA family, compilers, BLAS/LAPACK and MPI. Also the loader's check of attribute paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "core/mapping/mapping.h"
#include "tests/core/mapping/shipped.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

using namespace table_testing;

using Lists = std::vector<std::vector<std::string>>;

Lists lists(const Table& t, const char* id, Category c) {
  Lists out;
  const Entry* e = t.find(id);
  EXPECT_NE(e, nullptr) << id;
  if (e)
    for (const auto& a : e->alternatives(c)) out.push_back(a.packages);
  return out;
}

TEST(NixpkgsTable, LoadsSortedAndLinesUpWithTheOtherTables) {
  const Table t = shipped("nixpkgs.toml");
  EXPECT_EQ(t.ecosystem, "nixpkgs");
  EXPECT_EQ(t.manager, "nix");
  std::vector<const Entry*> by_line;
  for (const auto& e : t.entries) by_line.push_back(&e);
  std::sort(by_line.begin(), by_line.end(),
            [](const Entry* a, const Entry* b) { return a->where.line < b->where.line; });
  for (std::size_t i = 1; i < by_line.size(); ++i)
    EXPECT_LT(by_line[i - 1]->id, by_line[i]->id) << "line " << by_line[i]->where.line;
  // The ids this table shares with the others mean the same thing: its aliases are debian.toml's. Every id here is in
  // debian.toml; an id of the other tables missing here is one nobody has mapped for nixpkgs yet (the 339 ids before
  // issue 14 are all here).
  std::set<std::string> others;
  for (const char* name : {"debian.toml", "conda-forge.toml", "pkgconfig.toml"}) {
    const Table o = shipped(name);
    for (const auto& d : o.entries) {
      others.insert(d.id);
      const Entry* e = t.find(d.id);
      if (!e) continue;
      EXPECT_EQ(e->id, d.id);
      // Aliases hold across tables (an alias in any table names the id in all of them), and
      // debian.toml has them all: what this table lists must be among them.
      if (std::string(name) == "debian.toml") {
        for (const auto& a : e->aliases) {
          EXPECT_NE(std::find(d.aliases.begin(), d.aliases.end(), a), d.aliases.end()) << d.id << ": alias " << a;
        }
      }
    }
  }
  const Table deb = shipped("debian.toml");
  for (const auto& e : t.entries) EXPECT_NE(deb.find(e.id), nullptr) << e.id << " is not in debian.toml";
  EXPECT_GE(t.entries.size(), 900u);
  // nixpkgs has no index here to check names against: what was added without one says so.
  std::size_t unverified = 0;
  for (const auto& e : t.entries) unverified += e.unverified ? 1 : 0;
  EXPECT_GE(unverified, 600u);
  // Only ATLAS is absent from nixpkgs, and it says why.
  std::set<std::string> absent;
  for (const auto& e : t.entries) {
    if (!e.unavailable()) continue;
    absent.insert(e.id);
    EXPECT_NE(e.note, "") << e.id;
  }
  EXPECT_EQ(absent, (std::set<std::string>{"dep:generic/atlas"}));
}

TEST(NixpkgsTable, CoversThePep804RegistryAndTheRealExternalTables) {
  EXTDEPS_SHARED_OR_SKIP(registry, "pep804/registry.json");
  EXTDEPS_SHARED_OR_SKIP(folder, "external-deps-build");
  const Table t = shipped("nixpkgs.toml");
  const auto j = nlohmann::json::parse(test::read_file(registry), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  for (const auto& d : j.at("definitions")) EXPECT_NE(t.find(d.at("id").get<std::string>()), nullptr) << d.at("id");
  std::set<std::string> ids;
  for (const auto& f : std::filesystem::directory_iterator(folder)) {
    if (f.path().extension() != ".toml") continue;
    std::function<void(const toml::node&)> collect = [&](const toml::node& n) {
      if (const auto* s = n.as_string()) {
        const std::string& v = s->get();
        if (v.rfind("dep:", 0) == 0) ids.insert(v.substr(0, v.find_first_of("@; ")));
      } else if (const auto* tb = n.as_table()) {
        for (auto&& [k, child] : *tb) collect(child);
      } else if (const auto* a = n.as_array()) {
        for (const auto& child : *a) collect(child);
      }
    };
    collect(toml::parse_file(f.path().string()));
  }
  EXPECT_GE(ids.size(), 25u);
  for (const auto& id : ids) {
    const Entry* e = t.find(id);
    ASSERT_NE(e, nullptr) << id;
    EXPECT_FALSE(e->unavailable()) << id;
  }
}

// PEP 804's nix mapping names one attribute per id (an id repeated for alternatives). Each must be
// one our entry for the id lists, except these, where ours differs on purpose:
const std::set<std::pair<std::string, std::string>> kWeDifferFromPep804 = {
    // libpqxx is the C++ client library built on libpq, not libpq.
    {"dep:generic/libpq", "libpqxx"},
    // lcms is Little CMS 1; the id is lcms2.
    {"dep:generic/lcms2", "lcms"},
    // libllvm is llvm's lib output alone, without headers or llvm-config; llvm has both.
    {"dep:generic/llvm", "libllvm"},
    // The id is the reference LAPACK (lapack-reference); lapack is nixpkgs' LAPACK interface,
    // which we map under dep:virtual/interface/lapack.
    {"dep:generic/lapack", "lapack"},
    // tk moved into tclPackages in nixpkgs 25.05; the releases this table is for have tk.
    {"dep:generic/tk", "tclPackages.tk"},
    // clBLAS and CLBlast are OpenCL libraries with their own API, not BLAS; amd-blis and
    // amd-libflame are AMD's builds of BLIS and libFLAME, which blis and lapack-reference cover.
    {"dep:virtual/interface/blas", "clblas"},
    {"dep:virtual/interface/blas", "clblast"},
    {"dep:virtual/interface/blas", "amd-blis"},
    {"dep:virtual/interface/lapack", "amd-libflame"},
};
// Ids PEP 804's nix mapping leaves empty that nixpkgs has: CUDA (cudaPackages), mono, go,
// nodejs, Objective-C through clang, ocaml, swift, typescript, zig, MPI and OpenMP.
const std::set<std::string> kWeMapWherePep804HasNothing = {
    "dep:virtual/compiler/c-sharp",    "dep:virtual/compiler/cuda",  "dep:virtual/compiler/go",
    "dep:virtual/compiler/javascript", "dep:virtual/compiler/obj-c", "dep:virtual/compiler/obj-cxx",
    "dep:virtual/compiler/ocaml",      "dep:virtual/compiler/swift", "dep:virtual/compiler/typescript",
    "dep:virtual/compiler/zig",        "dep:virtual/interface/mpi",  "dep:virtual/interface/openmp",
};

TEST(NixpkgsTable, AgreesWithThePep804NixMapping) {
  EXTDEPS_SHARED_OR_SKIP(path, "pep804/nix.mapping.json");
  const auto j = nlohmann::json::parse(test::read_file(path), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  const Table t = shipped("nixpkgs.toml");
  std::set<std::pair<std::string, std::string>> differ;
  std::set<std::string> we_add;
  std::size_t agreed = 0;
  for (const auto& m : j.at("mappings")) {
    const std::string id = m.at("id").get<std::string>();
    const Entry* e = t.find(id);
    ASSERT_NE(e, nullptr) << id << " is in PEP 804's nix mapping, not in ours";
    const auto& specs = m.at("specs");
    std::vector<std::string> names;
    if (specs.is_string()) names.push_back(specs.get<std::string>());
    for (const auto& s : specs.is_array() ? specs : nlohmann::json::array()) names.push_back(s.get<std::string>());
    if (names.empty()) {
      if (!e->unavailable()) we_add.insert(e->id);
      continue;
    }
    for (const auto& n : names) {
      if (mentions(*e, n)) ++agreed;
      else differ.insert({e->id, n});
    }
  }
  EXPECT_EQ(differ, kWeDifferFromPep804);
  EXPECT_EQ(we_add, kWeMapWherePep804HasNothing);
  EXPECT_GE(agreed, 30u);
}

// CUDA: the default release's set; the math libraries read the CUDA release from cuda_cudart,
// listed with them, so that a range means the CUDA release in every table.
TEST(NixpkgsTable, MapsTheCudaFamilyToCudaPackages) {
  const Table t = shipped("nixpkgs.toml");
  for (const char* id : {"dep:generic/cublas", "dep:generic/cufft", "dep:generic/curand", "dep:generic/cusolver",
                         "dep:generic/cusparse"}) {
    const Entry* e = t.find(id);
    ASSERT_NE(e, nullptr) << id;
    for (Category c : {Category::build, Category::host, Category::run}) {
      for (const auto& a : e->alternatives(c)) {
        EXPECT_EQ(a.version.from, "cudaPackages.cuda_cudart") << id;
        EXPECT_EQ(a.packages.size(), 2u) << id;
        EXPECT_EQ(a.packages.front().rfind("cudaPackages.lib", 0), 0u) << id;
        EXPECT_EQ(upstream_version(a.version, "12.4.127"), "12.4.127");
      }
    }
  }
  EXPECT_EQ(lists(t, "dep:generic/cuda-toolkit", Category::build), (Lists{{"cudaPackages.cuda_nvcc"}}));
  EXPECT_EQ(lists(t, "dep:generic/cuda", Category::run), (Lists{{"cudaPackages.cuda_cudart"}}));
  EXPECT_EQ(lists(t, "dep:virtual/compiler/cuda", Category::build), (Lists{{"cudaPackages.cuda_nvcc"}}));
  for (const char* id : {"dep:generic/cudart", "dep:generic/cudnn", "dep:generic/cupti", "dep:generic/nccl",
                         "dep:generic/nvjitlink", "dep:generic/nvrtc"})
    for (const auto& l : lists(t, id, Category::host)) EXPECT_EQ(l.front().rfind("cudaPackages.", 0), 0u) << id;
}

TEST(NixpkgsTable, CompilersBlasLapackAndMpiAreOrderedAlternatives) {
  const Table t = shipped("nixpkgs.toml");
  EXPECT_EQ(lists(t, "dep:virtual/compiler/c", Category::build), (Lists{{"gcc"}, {"clang"}}));
  EXPECT_EQ(lists(t, "dep:virtual/compiler/cxx", Category::build), (Lists{{"gcc"}, {"clang"}}));
  EXPECT_EQ(lists(t, "dep:virtual/compiler/fortran", Category::build), (Lists{{"gfortran"}}));
  EXPECT_EQ(lists(t, "dep:virtual/compiler/rust", Category::build), (Lists{{"rustc", "cargo"}}));
  EXPECT_EQ(lists(t, "dep:virtual/interface/blas", Category::host),
            (Lists{{"blas"}, {"openblas"}, {"blis"}, {"blas-reference"}, {"mkl"}}));
  EXPECT_EQ(lists(t, "dep:virtual/interface/lapack", Category::host),
            (Lists{{"lapack"}, {"openblas"}, {"lapack-reference"}, {"mkl"}}));
  EXPECT_EQ(lists(t, "dep:virtual/interface/mpi", Category::host), (Lists{{"openmpi"}, {"mpich"}}));
  EXPECT_EQ(lists(t, "dep:virtual/interface/openmp", Category::host), (Lists{{"gcc"}, {"llvmPackages.openmp"}}));
  // One attribute is the whole package: run falls back to host.
  EXPECT_EQ(lists(t, "dep:generic/openssl", Category::run), (Lists{{"openssl"}}));
  EXPECT_EQ(lists(t, "dep:generic/libx11", Category::host), (Lists{{"xorg.libX11"}}));
}

TEST(NixpkgsTable, LoadTablesReadsItWithTheOthers) {
  auto ctx = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", kMappings}});
  auto tables = load_tables(ctx, {});
  ASSERT_TRUE(tables) << tables.error().message;
  const Table* nix = tables->find_ecosystem("nixpkgs");
  ASSERT_NE(nix, nullptr);
  EXPECT_EQ(nix->find("dep:github/OSGeo/gdal")->alternatives(Category::host).front().packages,
            std::vector<std::string>{"gdal"});
}

// The loader checks nix names as attribute paths.
class NixNames : public ::testing::Test {
 protected:
  void SetUp() override { EXTDEPS_NEEDS_PROVIDER("nix"); }  // nix's name rule is its descriptor's
  std::string load(const std::string& host_list) {
    const std::string path = dir_ + "/t" + std::to_string(n_++) + ".toml";
    std::ofstream(path)
        << "schema = 1\necosystem = \"nixpkgs\"\nmanager = \"nix\"\n\n[[id]]\nid = \"dep:generic/x\"\nhost = "
        << host_list << "\n";
    auto t = load_table(path);
    if (t) return "";
    std::string m = t.error().message;
    if (m.rfind(path, 0) == 0) m = "F" + m.substr(path.size());
    return m;
  }
  std::string dir_ = test::temp_dir();
  int n_ = 0;
};

TEST_F(NixNames, AttributePathsLoad) {
  EXPECT_EQ(load(R"(["openssl_3_3", "cudaPackages_12_4.cuda_nvcc", "xorg.libX11", "SDL2", "nlohmann_json",
                     "python312Packages.scikit-learn", "gcc-unwrapped", "_7zz", "libjpeg_original"])"),
            "");
}

TEST_F(NixNames, InstallablesStorePathsAndSpacesAreRefused) {
  const std::string why = "is not a valid nixpkgs attribute path (names of letters, digits, _ ' -, joined by '.')";
  EXPECT_EQ(load(R"(["openssl", "nixpkgs#hello"])"), "F:7:20: 'nixpkgs#hello' " + why);
  EXPECT_EQ(load(R"(["/nix/store/abc-hello"])"), "F:7:9: '/nix/store/abc-hello' " + why);
  EXPECT_EQ(load(R"(["a b"])"), "F:7:9: 'a b' " + why);
  EXPECT_NE(load(R"(["cudaPackages."])"), "");
  EXPECT_NE(load(R"([".x"])"), "");
  EXPECT_NE(load(R"(["3d-model"])"), "");
  EXPECT_NE(load(R"(["openssl^dev"])"), "");
}

}  // namespace
}  // namespace extdeps::mapping
