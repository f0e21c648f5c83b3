// mappings/conda-forge.toml: it loads with the real loader, lines up with debian.toml, covers the
// PEP 804 registry and the real [external] tables of ../shared/data, agrees with PEP 804's own
// conda-forge mapping (the differences are listed and explained below), and knows the package
// names of a real conda-forge repodata.json. Also the loader's check of conda package names.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
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

// Every string in a declaration that starts with "dep:", without version or marker.
void collect_ids(const toml::node& n, std::set<std::string>& out) {
  if (const auto* s = n.as_string()) {
    const std::string& v = s->get();
    if (v.rfind("dep:", 0) == 0) out.insert(v.substr(0, v.find_first_of("@; ")));
  } else if (const auto* t = n.as_table()) {
    for (auto&& [k, child] : *t) collect_ids(child, out);
  } else if (const auto* a = n.as_array()) {
    for (const auto& child : *a) collect_ids(child, out);
  }
}

TEST(CondaForgeTable, LoadsSortedAndLinesUpWithDebian) {
  const Table t = shipped("conda-forge.toml");
  const Table deb = shipped("debian.toml");
  EXPECT_EQ(t.ecosystem, "conda-forge");
  EXPECT_EQ(t.manager, "conda");
  EXPECT_GE(t.entries.size(), 500u);
  std::vector<const Entry*> by_line;
  for (const auto& e : t.entries) by_line.push_back(&e);
  std::sort(by_line.begin(), by_line.end(),
            [](const Entry* a, const Entry* b) { return a->where.line < b->where.line; });
  for (std::size_t i = 1; i < by_line.size(); ++i) {
    EXPECT_LT(by_line[i - 1]->id, by_line[i]->id) << "line " << by_line[i]->where.line;
  }
  // The ids both tables have mean the same thing: the aliases here are among debian.toml's (an
  // alias in any table names the id in all of them; debian.toml lists every one).
  // debian.toml has every id (it says where bookworm has nothing, as for NCCL and nvJitLink);
  // this table has those conda-forge has, as far as anyone has mapped them: an id of
  // debian.toml that is missing here is one nobody has mapped for conda-forge yet.
  std::size_t in_both = 0;
  for (const auto& d : deb.entries) {
    const Entry* e = t.find(d.id);
    if (!e) continue;
    ++in_both;
    EXPECT_EQ(e->id, d.id);
    for (const auto& a : e->aliases) {
      EXPECT_NE(std::find(d.aliases.begin(), d.aliases.end(), a), d.aliases.end()) << d.id << ": alias " << a;
    }
  }
  EXPECT_EQ(in_both, t.entries.size());
  std::set<std::string> only_here;
  for (const auto& e : t.entries) {
    if (!deb.find(e.id)) only_here.insert(e.id);
  }
  EXPECT_EQ(only_here, std::set<std::string>{});
  // The shared repodata (conda/conda-forge-numpy-linux-64.json) confirms tzdata and
  // ca-certificates; the registry of feedstock outputs the rest (VerifiedNamesAreRegistered...).
  EXPECT_FALSE(t.find("dep:generic/tzdata")->unverified);
  EXPECT_FALSE(t.find("dep:generic/ca-certificates")->unverified);
  // Explicitly absent: each says why.
  std::set<std::string> absent;
  for (const auto& e : t.entries) {
    if (!e.unavailable()) continue;
    absent.insert(e.id);
    EXPECT_NE(e.note, "") << e.id;
  }
  EXPECT_EQ(absent, (std::set<std::string>{"dep:generic/atlas", "dep:generic/libraqm", "dep:virtual/compiler/obj-c",
                                           "dep:virtual/compiler/obj-cxx", "dep:virtual/compiler/swift"}));
}

// Every name of an entry that does not say `unverified` is a package conda-forge registers as a
// feedstock's output (conda-forge/feedstock-outputs @ 31c6779, trimmed to the table's names in
// tests/data/mapping/indexes/conda-forge-outputs.txt); those that say it name one it does not.
TEST(CondaForgeTable, VerifiedNamesAreRegisteredFeedstockOutputs) {
  const Table conda = shipped("conda-forge.toml");
  const Table* table = &conda;
  std::set<std::string> outputs;
  std::ifstream in(test::data_path("mapping/indexes/conda-forge-outputs.txt"));
  ASSERT_TRUE(in);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') outputs.insert(line);
  ASSERT_GE(outputs.size(), 500u);
  std::size_t verified = 0, unverified = 0;
  for (const auto& e : table->entries) {
    std::set<std::string> names;
    for (const auto& n : e.all_packages()) names.insert(n);
    for (const auto& r : e.releases)
      for (const auto& [c, alts] : r.by_category)
        for (const auto& a : alts) names.insert(a.packages.begin(), a.packages.end());
    bool all = true;
    for (const auto& n : names) all = all && outputs.count(n);
    if (e.unverified) {
      ++unverified;
      EXPECT_FALSE(all) << e.id << ": every name is a registered output; drop `unverified`";
    } else {
      ++verified;
      for (const auto& n : names) EXPECT_TRUE(outputs.count(n)) << e.id << ": " << n << " is no registered output";
    }
  }
  EXPECT_EQ(unverified, 13u);
  EXPECT_GE(verified, 530u);
  // The four names the registry corrected.
  EXPECT_EQ(table->find("dep:generic/libepoxy")->all_packages(), std::vector<std::string>{"epoxy"});
  EXPECT_EQ(table->find("dep:generic/libgeotiff")->all_packages(), std::vector<std::string>{"geotiff"});
  EXPECT_EQ(table->find("dep:generic/nifticlib")->all_packages(), std::vector<std::string>{"nifti-clib"});
  EXPECT_EQ(table->find("dep:generic/z3")->all_packages(), std::vector<std::string>{"libz3"});
}

TEST(CondaForgeTable, CoversThePep804Registry) {
  EXTDEPS_SHARED_OR_SKIP(registry, "pep804/registry.json");
  const auto j = nlohmann::json::parse(test::read_file(registry), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  const Table t = shipped("conda-forge.toml");
  std::size_t n = 0;
  for (const auto& d : j.at("definitions")) {
    const std::string id = d.at("id").get<std::string>();
    EXPECT_NE(t.find(id), nullptr) << id;
    ++n;
  }
  EXPECT_EQ(n, 52u);
  EXPECT_EQ(t.find("dep:github/OpenMathLib/OpenBLAS")->id, "dep:generic/openblas");
  EXPECT_EQ(t.find("dep:github/Reference-LAPACK/lapack")->id, "dep:generic/lapack");
  EXPECT_EQ(t.find("dep:generic/cmake?repository_url=https://gitlab.kitware.com/cmake/cmake")->id, "dep:generic/cmake");
}

TEST(CondaForgeTable, CoversTheRealExternalTables) {
  EXTDEPS_SHARED_OR_SKIP(folder, "external-deps-build");
  std::set<std::string> ids;
  for (const auto& f : std::filesystem::directory_iterator(folder)) {
    if (f.path().extension() != ".toml") continue;
    try {
      collect_ids(toml::parse_file(f.path().string()), ids);
    } catch (const toml::parse_error& e) {
      ADD_FAILURE() << f.path() << ": " << e.description();
    }
  }
  EXPECT_GE(ids.size(), 25u);
  const Table t = shipped("conda-forge.toml");
  for (const auto& id : ids) {
    const Entry* e = t.find(id);
    ASSERT_NE(e, nullptr) << id;
    // Of these, only libraqm is missing from conda-forge.
    if (id != "dep:generic/libraqm") {
      EXPECT_FALSE(e->unavailable()) << id;
    }
  }
}

// PEP 804's conda-forge mapping names packages as MatchSpecs ("libblas * *_openblas"), once per
// id or repeated for alternatives, and also lists Windows repackagings (m2-*, m2w64-*), CentOS
// CDTs (*-cos7-x86_64) and recipe macros ("{{ compiler('c') }}"). The names that are conda-forge
// packages for Linux must be ones our entry for the id lists, except these, where ours differs
// on purpose:
const std::set<std::pair<std::string, std::string>> kWeDifferFromPep804 = {
    // libwebp adds the cwebp/dwebp tools to libwebp-base, which has the libraries and headers.
    {"dep:generic/libwebp", "libwebp"},
    // "libblas * *_openblas" is the BLAS interface built on OpenBLAS, which we map under
    // dep:virtual/interface/blas; dep:generic/openblas is OpenBLAS itself (openblas,
    // libopenblas), for projects that link it directly.
    {"dep:generic/openblas", "libblas"},
    // zlib-ng's own package has the zlib-ng API (libz-ng), not zlib's, so it cannot stand in
    // for zlib in a build.
    {"dep:generic/zlib", "zlib-ng"},
};
// Ids PEP 804's conda-forge mapping leaves empty and we map: these compilers are conda-forge
// packages (mono, cuda-nvcc, go, nodejs, ocaml, typescript, zig), and so are MPI and OpenMP.
const std::set<std::string> kWeMapWherePep804HasNothing = {
    "dep:virtual/compiler/c-sharp",    "dep:virtual/compiler/cuda",  "dep:virtual/compiler/go",
    "dep:virtual/compiler/javascript", "dep:virtual/compiler/ocaml", "dep:virtual/compiler/typescript",
    "dep:virtual/compiler/zig",        "dep:virtual/interface/mpi",  "dep:virtual/interface/openmp",
};

bool not_a_linux_conda_forge_name(const std::string& name) {
  return name.rfind("m2-", 0) == 0 || name.rfind("m2w64-", 0) == 0 || name.find("-cos6-") != std::string::npos ||
         name.find("-cos7-") != std::string::npos || name.find("{{") != std::string::npos;
}

// The package names of one "specs" value: a string, a list, or {build, host, run} of either.
void spec_names(const nlohmann::json& specs, std::vector<std::string>& out) {
  if (specs.is_string()) {
    const std::string s = specs.get<std::string>();
    if (s.find("{{") != std::string::npos) {
      out.push_back(s);  // a recipe macro; filtered by the caller
    } else {
      out.push_back(s.substr(0, s.find(' ')));
    }
  } else if (specs.is_array()) {
    for (const auto& x : specs) spec_names(x, out);
  } else if (specs.is_object()) {
    for (const auto& [category, x] : specs.items()) spec_names(x, out);
  }
}

TEST(CondaForgeTable, AgreesWithThePep804CondaForgeMapping) {
  EXTDEPS_SHARED_OR_SKIP(path, "pep804/conda-forge.mapping.json");
  const auto j = nlohmann::json::parse(test::read_file(path), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  const Table t = shipped("conda-forge.toml");

  std::map<std::string, std::vector<std::string>> pep;  // id -> Linux conda-forge names
  for (const auto& m : j.at("mappings")) {
    const std::string id = m.at("id").get<std::string>();
    std::vector<std::string> names;
    if (m.contains("specs")) spec_names(m.at("specs"), names);
    auto& kept = pep[id];
    for (const auto& n : names) {
      if (!not_a_linux_conda_forge_name(n)) kept.push_back(n);
    }
  }
  ASSERT_GE(pep.size(), 40u);

  std::set<std::pair<std::string, std::string>> differ;
  std::set<std::string> we_add;
  std::size_t agreed = 0;
  for (const auto& [id, names] : pep) {
    const Entry* e = t.find(id);
    ASSERT_NE(e, nullptr) << id << " is in PEP 804's conda-forge mapping, not in ours";
    if (names.empty()) {
      if (!e->unavailable()) we_add.insert(e->id);
      continue;
    }
    EXPECT_FALSE(e->unavailable()) << id << ": PEP 804 maps it to " << names.front();
    for (const auto& n : names) {
      if (mentions(*e, n)) {
        ++agreed;
      } else {
        differ.insert({e->id, n});
      }
    }
  }
  EXPECT_EQ(differ, kWeDifferFromPep804);
  EXPECT_EQ(we_add, kWeMapWherePep804HasNothing);
  EXPECT_GE(agreed, 35u);
}

// The records of a real conda-forge repodata.json (numpy and what it pulls in, linux-64): the
// names a solve over conda-forge meets first belong to the ids that explain them.
TEST(CondaForgeTable, KnowsTheNamesOfRealRepodata) {
  EXTDEPS_SHARED_OR_SKIP(path, "conda/conda-forge-numpy-linux-64.json");
  const auto j = nlohmann::json::parse(test::read_file(path), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  std::map<std::string, std::string> version_of;  // name -> a version it has
  for (const char* key : {"packages", "packages.conda"}) {
    if (!j.contains(key)) continue;
    for (const auto& [fn, r] : j.at(key).items()) {
      version_of[r.at("name").get<std::string>()] = r.at("version").get<std::string>();
    }
  }
  ASSERT_GE(version_of.size(), 25u);
  const Table t = shipped("conda-forge.toml");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"_openmp_mutex", "dep:virtual/interface/openmp"},
      {"bzip2", "dep:generic/bzip2"},
      {"libblas", "dep:virtual/interface/blas"},
      {"libcblas", "dep:virtual/interface/blas"},
      {"libexpat", "dep:generic/expat"},
      {"libffi", "dep:generic/libffi"},
      {"libgcc-ng", "dep:virtual/compiler/c"},
      {"libgfortran5", "dep:virtual/compiler/fortran"},
      {"libgfortran5", "dep:generic/gfortran"},
      {"libgomp", "dep:virtual/interface/openmp"},
      {"liblapack", "dep:virtual/interface/lapack"},
      {"liblapack", "dep:generic/lapack"},
      {"libopenblas", "dep:generic/openblas"},
      {"libopenblas", "dep:virtual/interface/blas"},
      {"libsqlite", "dep:generic/sqlite"},
      {"libstdcxx-ng", "dep:virtual/compiler/cxx"},
      {"libuuid", "dep:generic/libuuid"},
      {"libzlib", "dep:generic/zlib"},
      {"ncurses", "dep:generic/ncurses"},
      {"openssl", "dep:generic/openssl"},
      {"python", "dep:generic/python"},
      {"readline", "dep:generic/readline"},
      {"tk", "dep:generic/tk"},
      {"tk", "dep:generic/tcl"},
      {"xz", "dep:generic/xz"},
  };
  for (const auto& [name, id] : expected) {
    EXPECT_TRUE(version_of.count(name)) << name << " is not in the repodata";
    const Entry* e = t.find(id);
    ASSERT_NE(e, nullptr) << id;
    EXPECT_TRUE(mentions(*e, name)) << id << " does not list " << name;
  }
  // conda versions are upstream versions: the rule keeps them as they are.
  const Entry* blas = t.find("dep:virtual/interface/blas");
  const Alternative& openblas = blas->alternatives(Category::host).front();
  EXPECT_EQ(upstream_version(openblas.version, version_of["libblas"]), "3.9.0");
  const Entry* ob = t.find("dep:generic/openblas");
  EXPECT_EQ(upstream_version(ob->alternatives(Category::run).front().version, version_of["libopenblas"]), "0.3.26");
}

TEST(CondaForgeTable, BuildVariantsAreOrderedAlternatives) {
  const Table t = shipped("conda-forge.toml");
  auto host = [&](const char* id) {
    std::vector<std::vector<std::string>> out;
    const Entry* e = t.find(id);
    EXPECT_NE(e, nullptr) << id;
    if (e) {
      for (const auto& a : e->alternatives(Category::host)) out.push_back(a.packages);
    }
    return out;
  };
  using L = std::vector<std::vector<std::string>>;
  EXPECT_EQ(host("dep:virtual/interface/blas"), (L{{"libblas", "libcblas", "libopenblas"},
                                                   {"libblas", "libcblas", "mkl"},
                                                   {"libblas", "libcblas", "blis"},
                                                   {"libblas", "libcblas"}}));
  EXPECT_EQ(
      host("dep:virtual/interface/lapack"),
      (L{{"liblapack", "liblapacke", "libopenblas"}, {"liblapack", "liblapacke", "mkl"}, {"liblapack", "liblapacke"}}));
  EXPECT_EQ(host("dep:virtual/interface/mpi"), (L{{"openmpi"}, {"mpich"}}));
  EXPECT_EQ(host("dep:virtual/interface/openmp"), (L{{"libgomp"}, {"llvm-openmp"}}));
  const Entry* omp = t.find("dep:virtual/interface/openmp");
  for (const auto& a : omp->alternatives(Category::run)) {
    EXPECT_NE(std::find(a.packages.begin(), a.packages.end(), "_openmp_mutex"), a.packages.end());
  }
  EXPECT_EQ(host("dep:virtual/compiler/c"), (L{{"c-compiler"}, {"gcc"}, {"clang"}}));
  EXPECT_EQ(host("dep:virtual/compiler/cxx"), (L{{"cxx-compiler"}, {"gxx"}, {"clangxx"}}));
  EXPECT_EQ(host("dep:virtual/compiler/fortran"), (L{{"fortran-compiler"}, {"gfortran"}}));
}

// The CUDA math libraries have versions of their own (libcufft 11.x ships with CUDA 12); their
// entries read the CUDA release from cuda-version, as debian.toml reads the toolkit's.
TEST(CondaForgeTable, CudaLibrariesReadTheCudaRelease) {
  const Table t = shipped("conda-forge.toml");
  for (const char* id : {"dep:generic/cublas", "dep:generic/cufft", "dep:generic/curand", "dep:generic/cusolver",
                         "dep:generic/cusparse"}) {
    const Entry* e = t.find(id);
    ASSERT_NE(e, nullptr) << id;
    for (Category c : {Category::build, Category::host, Category::run}) {
      ASSERT_FALSE(e->alternatives(c).empty()) << id;
      for (const auto& a : e->alternatives(c)) {
        EXPECT_EQ(a.version.from, "cuda-version") << id;
        EXPECT_NE(std::find(a.packages.begin(), a.packages.end(), "cuda-version"), a.packages.end()) << id;
        EXPECT_EQ(upstream_version(a.version, "12.4"), "12.4");
      }
    }
  }
  EXPECT_EQ(t.find("dep:generic/cuda-toolkit")->id, "dep:generic/cuda");
  EXPECT_EQ(t.find("dep:generic/cuda-cudart")->alternatives(Category::run).front().packages,
            std::vector<std::string>{"cuda-cudart"});
  EXPECT_EQ(t.find("dep:generic/cuda-cudart")->alternatives(Category::host).front().packages,
            std::vector<std::string>{"cuda-cudart-dev"});
  EXPECT_EQ(t.find("dep:virtual/compiler/cuda")->alternatives(Category::build).front().packages,
            std::vector<std::string>{"cuda-nvcc"});
}

TEST(CondaForgeTable, LoadTablesReadsItWithTheOthers) {
  auto ctx = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", kMappings}});
  auto tables = load_tables(ctx, {});
  ASSERT_TRUE(tables) << tables.error().message;
  const Table* cf = tables->find_ecosystem("conda-forge");
  ASSERT_NE(cf, nullptr);
  const Entry* gdal = cf->find("dep:github/OSGeo/gdal");
  ASSERT_NE(gdal, nullptr);
  EXPECT_EQ(gdal->alternatives(Category::host).front().packages, std::vector<std::string>{"libgdal"});
  ASSERT_NE(tables->find_ecosystem("debian"), nullptr);
}

// The loader checks names by manager: Debian policy for apt, conda's rule for conda and mamba.
class CondaNames : public ::testing::Test {
 protected:
  // Loads a one-entry table; "" when it loads, else the message with the path as "F".
  std::string load(const std::string& manager, const std::string& host_list) {
    const std::string path = dir_ + "/t" + std::to_string(n_++) + ".toml";
    std::ofstream(path) << "schema = 1\necosystem = \"conda-forge\"\nmanager = \"" << manager
                        << "\"\n\n[[id]]\nid = \"dep:generic/x\"\nhost = " << host_list << "\n";
    auto t = load_table(path);
    if (t) return "";
    std::string m = t.error().message;
    if (m.rfind(path, 0) == 0) m = "F" + m.substr(path.size());
    return m;
  }
  std::string dir_ = test::temp_dir();
  int n_ = 0;
};

TEST_F(CondaNames, RealNamesLoad) {
  EXPECT_EQ(load("conda", R"(["_openmp_mutex", "libstdcxx-ng", "python_abi", "ld_impl_linux-64",
                              "font-ttf-dejavu-sans-mono", "r-base", "backports.zstd", "7zip"])"),
            "");
}

TEST_F(CondaNames, UpperCaseSpacesAndMatchSpecsAreRefused) {
  EXTDEPS_NEEDS_PROVIDER("conda");
  EXPECT_EQ(load("conda", R"(["libxml2", "LibXML2"])"),
            "F:7:20: 'LibXML2' is not a valid conda package name (lower case letters, digits, "
            "- _ .)");
  EXPECT_EQ(load("conda", R"(["libblas * *_openblas"])"),
            "F:7:9: 'libblas * *_openblas' is not a valid conda package name (lower case "
            "letters, digits, - _ .)");
  EXPECT_EQ(load("conda", R"(["numpy>=1.26"])"),
            "F:7:9: 'numpy>=1.26' is not a valid conda package name (lower case letters, "
            "digits, - _ .)");
  EXPECT_NE(load("conda", R"(["-x"])"), "");
  EXPECT_NE(load("conda", R"([".x"])"), "");
  EXPECT_NE(load("mamba", R"(["Zlib"])"), "");
}

TEST_F(CondaNames, OtherManagersKeepTheirOwnRules) {
  EXTDEPS_NEEDS_PROVIDER("homebrew");
  // Only a space, a control character or a leading '-' (an option of the install command) is
  // refused where the manager has no rule of its own (nix's are in nixpkgs_table_test.cc).
  EXPECT_EQ(load("port", R"(["LibXML2", "python@3.12"])"), "");
  EXPECT_EQ(load("port", R"(["a b"])"), "F:7:9: 'a b' is not a valid name (it has a space or a control character)");
  EXPECT_EQ(load("port", R"(["--force"])"),
            "F:7:9: '--force' is not a valid name (it starts with '-', as an option does)");
  // brew has its own rule (providers/homebrew/descriptor.cc): formula names are lower case.
  EXPECT_EQ(load("brew", R"(["python@3.12", "libxml2"])"), "");
  EXPECT_EQ(load("brew", R"(["LibXML2"])"),
            "F:7:9: 'LibXML2' does not start with a lower-case letter or a digit, as formula names do");
}

}  // namespace
}  // namespace extdeps::mapping
