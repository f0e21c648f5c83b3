// The shipped tables in mappings/: they load, are sorted, cover the PEP 804 registry and every
// id the real [external] tables of ../shared/data use, and every Debian package they name in
// main exists in bookworm's index (checked against this machine's apt lists where it is
// Debian bookworm).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "core/mapping/mapping.h"
#include "tests/core/mapping/shipped.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

using namespace table_testing;

using test::command_output;

// Why this machine's apt index cannot judge bookworm names, or "" when it can.
std::string apt_index_unusable() {
  std::ifstream in("/etc/os-release");
  std::string line, id, codename;
  while (std::getline(in, line)) {
    if (line.rfind("ID=", 0) == 0) id = line.substr(3);
    if (line.rfind("VERSION_CODENAME=", 0) == 0) codename = line.substr(17);
  }
  if (id != "debian" || codename != "bookworm") {
    return "this machine is not Debian bookworm (ID=" + id + ", VERSION_CODENAME=" + codename + ")";
  }
  if (!command_output("command -v apt-cache >/dev/null 2>&1")) return "apt-cache is absent";
  return "";
}

// The ids a declaration file uses: every string in it that starts with "dep:", without its
// version or marker.
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

TEST(MappingShipped, DebianTableLoadsSortedWithEnoughIds) {
  const Table t = shipped("debian.toml");
  EXPECT_EQ(t.ecosystem, "debian");
  EXPECT_EQ(t.manager, "apt");
  EXPECT_EQ(t.release, "bookworm");
  EXPECT_GE(t.entries.size(), 120u);
  // Sorted by id in the file itself (load_table sorts anyway; maintainers read the file).
  std::vector<const Entry*> by_line;
  for (const auto& e : t.entries) by_line.push_back(&e);
  std::sort(by_line.begin(), by_line.end(),
            [](const Entry* a, const Entry* b) { return a->where.line < b->where.line; });
  for (std::size_t i = 1; i < by_line.size(); ++i) {
    EXPECT_LT(by_line[i - 1]->id, by_line[i]->id) << "line " << by_line[i]->where.line;
  }
}

TEST(MappingShipped, PkgconfigTableLoadsSortedAndKnowsOnlyDebianIds) {
  const Table pc = shipped("pkgconfig.toml");
  const Table deb = shipped("debian.toml");
  EXPECT_EQ(pc.ecosystem, "pkgconfig");
  EXPECT_GE(pc.entries.size(), 100u);
  std::vector<const Entry*> by_line;
  for (const auto& e : pc.entries) {
    by_line.push_back(&e);
    EXPECT_NE(deb.find(e.id), nullptr) << e.id << " is in pkgconfig.toml but not debian.toml";
    EXPECT_FALSE(e.modules.empty() && e.note.empty()) << e.id;
  }
  std::sort(by_line.begin(), by_line.end(),
            [](const Entry* a, const Entry* b) { return a->where.line < b->where.line; });
  for (std::size_t i = 1; i < by_line.size(); ++i) {
    EXPECT_LT(by_line[i - 1]->id, by_line[i]->id) << "line " << by_line[i]->where.line;
  }
}

TEST(MappingShipped, CoversThePep804Registry) {
  EXTDEPS_SHARED_OR_SKIP(registry, "pep804/registry.json");
  const auto j = nlohmann::json::parse(test::read_file(registry), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  const Table t = shipped("debian.toml");
  std::size_t n = 0;
  for (const auto& d : j.at("definitions")) {
    const std::string id = d.at("id").get<std::string>();
    EXPECT_NE(t.find(id), nullptr) << id;
    ++n;
  }
  EXPECT_EQ(n, 52u);
  // The registry's "provides" agree with where the aliases lead.
  EXPECT_EQ(t.find("dep:github/Kitware/CMake")->id, "dep:generic/cmake");
  EXPECT_EQ(t.find("dep:github/OpenMathLib/OpenBLAS")->id, "dep:generic/openblas");
  EXPECT_EQ(t.find("dep:github/llvm/llvm-project")->id, "dep:generic/llvm");
  EXPECT_TRUE(t.find("dep:github/apache/arrow")->unavailable());
  EXPECT_EQ(t.find("dep:generic/cmake?repository_url=https://gitlab.kitware.com/cmake/cmake")->id, "dep:generic/cmake");
}

TEST(MappingShipped, CoversTheRealExternalTables) {
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
  const Table t = shipped("debian.toml");
  for (const auto& id : ids) EXPECT_NE(t.find(id), nullptr) << id;
}

TEST(MappingShipped, EveryMainPackageIsInTheBookwormIndex) {
  if (auto why = apt_index_unusable(); !why.empty()) GTEST_SKIP() << why;
  const auto names_text = command_output("apt-cache pkgnames 2>/dev/null");
  std::set<std::string> names;
  if (names_text) {
    std::istringstream in(*names_text);
    for (std::string n; in >> n;) names.insert(n);
  }
  if (names.size() < 1000) GTEST_SKIP() << "the apt lists are empty (run apt-get update)";
  const Table t = shipped("debian.toml");
  std::size_t checked = 0;
  for (const auto& e : t.entries) {
    for (const auto& [category, alternatives] : e.by_category) {
      for (const auto& a : alternatives) {
        if (a.component != "main") continue;  // not in a main-only index
        for (const auto& p : a.packages) {
          EXPECT_TRUE(names.count(p)) << p << " (" << e.id << ", " << a.where.str() << ")";
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 300u);
}

TEST(MappingShipped, VersionRulesReadTheRealVersions) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  if (auto why = apt_index_unusable(); !why.empty()) GTEST_SKIP() << why;
  const Table t = shipped("debian.toml");
  std::set<std::string> wanted;
  for (const auto& e : t.entries) {
    for (const auto& [c, alts] : e.by_category) {
      for (const auto& a : alts) {
        if (a.component == "main") wanted.insert(a.version.from.empty() ? a.packages[0] : a.version.from);
      }
    }
  }
  std::string command = "apt-cache show --no-all-versions";
  for (const auto& p : wanted) command += " " + p;
  const auto text = command_output(command + " 2>/dev/null");
  if (!text || text->empty()) GTEST_SKIP() << "apt-cache show gave nothing (empty apt lists?)";
  std::map<std::string, std::string> version;
  std::istringstream in(*text);
  std::string line, package;
  while (std::getline(in, line)) {
    if (line.rfind("Package: ", 0) == 0) package = line.substr(9);
    if (line.rfind("Version: ", 0) == 0 && !version.count(package)) version[package] = line.substr(9);
  }
  for (const auto& e : t.entries) {
    for (const auto& [c, alts] : e.by_category) {
      for (const auto& a : alts) {
        if (a.component != "main") continue;
        const std::string p = a.version.from.empty() ? a.packages[0] : a.version.from;
        ASSERT_TRUE(version.count(p)) << p;
        const std::string up = upstream_version(a.version, version[p]);
        EXPECT_TRUE(!up.empty() && std::isdigit(static_cast<unsigned char>(up[0])) &&
                    up.find_first_of(":-") == std::string::npos)
            << e.id << ": " << p << " " << version[p] << " -> '" << up << "'";
      }
    }
  }
  // Spot checks against what the bookworm index says today.
  EXPECT_EQ(upstream_version(t.find("dep:generic/go")->alternatives(Category::build)[0].version, version["golang-go"]),
            "1.19");
  EXPECT_EQ(upstream_version(t.find("dep:generic/boost")->alternatives(Category::host)[0].version,
                             version["libboost-all-dev"]),
            "1.74.0");
}

TEST(MappingShipped, OutsideMainIsMarkedAndExplained) {
  const Table t = shipped("debian.toml");
  for (const char* id : {"dep:virtual/compiler/cuda", "dep:generic/cuda", "dep:generic/cublas"}) {
    const Entry* e = t.find(id);
    ASSERT_NE(e, nullptr) << id;
    for (const auto& a : e->alternatives(Category::host)) EXPECT_EQ(a.component, "non-free") << id;
  }
  for (const char* id :
       {"dep:virtual/compiler/zig", "dep:virtual/compiler/swift", "dep:generic/arrow", "dep:generic/cudnn"}) {
    const Entry* e = t.find(id);
    ASSERT_NE(e, nullptr) << id;
    EXPECT_TRUE(e->unavailable()) << id;
    EXPECT_NE(e->note, "") << id;
  }
}

TEST(MappingShipped, LoadTablesReadsTheShippedFolder) {
  auto ctx = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", kMappings}});
  auto tables = load_tables(ctx, {});
  ASSERT_TRUE(tables) << tables.error().message;
  ASSERT_NE(tables->find_ecosystem("debian"), nullptr);
  const Table* pc = tables->find_ecosystem("pkgconfig");
  ASSERT_NE(pc, nullptr);
  // An alias from debian.toml, looked up in the pkgconfig table.
  const Entry* openblas = pc->find("dep:github/OpenMathLib/OpenBLAS");
  ASSERT_NE(openblas, nullptr);
  EXPECT_EQ(openblas->modules.front(), "openblas");
  const auto suggestions = did_you_mean("dep:generic/libxml", tables->known_ids());
  ASSERT_FALSE(suggestions.empty());
  EXPECT_EQ(suggestions.front(), "dep:generic/libxml2");
}

}  // namespace
}  // namespace extdeps::mapping
