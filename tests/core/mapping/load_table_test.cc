// load_table: the format of schema/mapping.md, read from fixtures in tests/data/mapping/, and
// the exact messages for the mistakes a maintainer makes.
#include <gtest/gtest.h>

#include <fstream>

#include "core/mapping/mapping.h"
#include "core/provider/descriptor.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

std::string fixture(const std::string& name) { return test::data_path("mapping/" + name); }

// The message load_table gives for a fixture under errors/, with the fixture's path replaced
// by "F" so expectations read like the file.
std::string error_of(const std::string& name) {
  const std::string path = fixture("errors/" + name);
  auto t = load_table(path);
  if (t) return "(loaded)";
  EXPECT_EQ(t.error().code, ExitCode::bad_input);
  std::string m = t.error().message;
  if (m.rfind(path, 0) == 0) m = "F" + m.substr(path.size());
  return m;
}

std::vector<std::string> packages(const Entry& e, Category c, std::size_t alternative = 0) {
  const auto& alts = e.alternatives(c);
  return alternative < alts.size() ? alts[alternative].packages : std::vector<std::string>{};
}

using Strings = std::vector<std::string>;

// A version rule is core's (native, regex) or one a provider of this build defines (apt's
// deb-upstream); a table of a manager no provider here installs with (a table for emerge, or
// apt's in a build that leaves apt out) keeps a well-formed rule name it cannot check.
TEST(MappingLoad, AVersionRuleIsOneAProviderDefines) {
  const std::string dir = test::temp_dir();
  auto table = [&](const std::string& manager, const std::string& rule) {
    std::ofstream(dir + "/t.toml") << "schema = 1\necosystem = \"x\"\nmanager = \"" << manager << "\"\nversion = \""
                                   << rule << "\"\n";
    auto t = load_table(dir + "/t.toml");
    return t ? "(loaded)" : t.error().message.substr(dir.size() + 8);
  };
  EXPECT_EQ(table("emerge", "portage-upstream"), "(loaded)");
  EXPECT_EQ(table("emerge", "Portage upstream"),
            "4:11: unknown version rule 'Portage upstream' (expected " + version_rule_forms_text() + ")");
  EXPECT_EQ(table("emerge", "regex"), "4:11: a regex version rule needs its pattern: { regex = '...' }");
  EXPECT_EQ(table("emerge", "native"), "(loaded)");
  if (!descriptor_for_manager("apt")) GTEST_SKIP() << "built without the apt provider";
  EXPECT_EQ(table("apt", "deb-upstream"), "(loaded)");
  EXPECT_EQ(table("apt", "deb-upstrem"),
            "4:11: unknown version rule 'deb-upstrem' (expected " + version_rule_forms_text() + ")");
}

TEST(MappingLoad, ReadsTheHeader) {
  auto t = load_table(fixture("valid.toml"));
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->ecosystem, "debian");
  EXPECT_EQ(t->manager, "apt");
  EXPECT_EQ(t->release, "bookworm");
  EXPECT_EQ(t->description, "test table");
  EXPECT_EQ(t->path, fixture("valid.toml"));
  ASSERT_EQ(t->entries.size(), 6u);
}

TEST(MappingLoad, SortsEntriesById) {
  auto t = load_table(fixture("valid.toml"));
  ASSERT_TRUE(t) << t.error().message;
  for (std::size_t i = 1; i < t->entries.size(); ++i) {
    EXPECT_LT(t->entries[i - 1].id, t->entries[i].id);
  }
}

TEST(MappingLoad, HostOnlyLibraryServesBuildToo) {
  auto t = load_table(fixture("valid.toml"));
  ASSERT_TRUE(t) << t.error().message;
  const Entry* zlib = t->find("dep:generic/zlib");
  ASSERT_NE(zlib, nullptr);
  EXPECT_EQ(packages(*zlib, Category::build), Strings{"zlib1g-dev"});
  EXPECT_EQ(packages(*zlib, Category::host), Strings{"zlib1g-dev"});
  EXPECT_EQ(packages(*zlib, Category::run), Strings{"zlib1g"});
  EXPECT_EQ(zlib->where.line, 8);
  EXPECT_EQ(zlib->where.file, fixture("valid.toml"));
}

TEST(MappingLoad, BuildOnlyToolServesHostAndRun) {
  auto t = load_table(fixture("valid.toml"));
  ASSERT_TRUE(t) << t.error().message;
  const Entry* cmake = t->find("dep:generic/cmake");
  ASSERT_NE(cmake, nullptr);
  for (Category c : {Category::build, Category::host, Category::run}) {
    EXPECT_EQ(packages(*cmake, c), Strings{"cmake"});
  }
  EXPECT_FALSE(cmake->unavailable());
}

TEST(MappingLoad, EmptyListSaysNotPackaged) {
  auto t = load_table(fixture("valid.toml"));
  ASSERT_TRUE(t) << t.error().message;
  const Entry* arrow = t->find("dep:generic/arrow");
  ASSERT_NE(arrow, nullptr);
  EXPECT_TRUE(arrow->unavailable());
  EXPECT_EQ(arrow->note, "not packaged in Debian bookworm");
  for (Category c : {Category::build, Category::host, Category::run}) {
    EXPECT_TRUE(arrow->alternatives(c).empty());
    EXPECT_EQ(arrow->by_category.count(c), 1u) << "every category is present, empty";
  }
}

TEST(MappingLoad, AlternativesKeepTheirOrderAndComponents) {
  auto t = load_table(fixture("valid.toml"));
  ASSERT_TRUE(t) << t.error().message;
  const Entry* blas = t->find("dep:virtual/interface/blas");
  ASSERT_NE(blas, nullptr);
  const auto& host = blas->alternatives(Category::host);
  ASSERT_EQ(host.size(), 3u);
  EXPECT_EQ(host[0].packages, Strings{"libopenblas-dev"});
  EXPECT_EQ(host[1].packages, Strings{"libblas-dev"});
  EXPECT_EQ(host[2].packages, Strings{"libmkl-dev"});
  EXPECT_EQ(host[0].component, "main");
  EXPECT_EQ(host[2].component, "non-free");
  EXPECT_EQ(host[2].note, "Intel MKL");
  EXPECT_EQ(host[0].where.line, 26);
  // The third alternative gives no run list: it falls back to its own host list.
  const auto& run = blas->alternatives(Category::run);
  ASSERT_EQ(run.size(), 3u);
  EXPECT_EQ(run[0].packages, Strings{"libopenblas0"});
  EXPECT_EQ(run[2].packages, Strings{"libmkl-dev"});
  EXPECT_EQ(blas->all_packages(),
            (Strings{"libopenblas-dev", "libblas-dev", "libmkl-dev", "libopenblas0", "libblas3"}));
}

TEST(MappingLoad, VersionRulesInheritFromTheTable) {
  auto t = load_table(fixture("valid.toml"));
  ASSERT_TRUE(t) << t.error().message;
  const auto& zlib = t->find("dep:generic/zlib")->alternatives(Category::host)[0];
  EXPECT_EQ(zlib.version.kind, "deb-upstream");
  const auto& blas = t->find("dep:virtual/interface/blas")->alternatives(Category::host);
  EXPECT_EQ(blas[0].version.kind, "deb-upstream");
  EXPECT_EQ(blas[2].version.kind, "native");
  const auto& go = t->find("dep:generic/go")->alternatives(Category::build)[0];
  EXPECT_EQ(go.version.kind, "regex");
  EXPECT_EQ(go.version.pattern, R"(^(?:\d+:)?(\d+(?:\.\d+)+))");
  const auto& rust = t->find("dep:virtual/compiler/rust")->alternatives(Category::build)[0];
  EXPECT_EQ(rust.version.kind, "deb-upstream");
  EXPECT_EQ(rust.version.from, "rustc");
}

TEST(MappingLoad, UnknownKeySuggestsTheKnownOne) {
  EXPECT_EQ(error_of("unknown_key.toml"),
            "F:7:1: unknown key 'hots' in [[id]] dep:generic/zlib (did you mean 'host'?)");
}

TEST(MappingLoad, UnknownHeaderKey) {
  EXPECT_EQ(error_of("bad_header.toml"), "F:2:1: unknown key 'ecosytem' (did you mean 'ecosystem'?)");
}

TEST(MappingLoad, DuplicateIdNamesBothLines) {
  EXPECT_EQ(error_of("duplicate_id.toml"), "F:14:6: duplicate id 'dep:generic/zlib' (first at line 6)");
}

TEST(MappingLoad, AliasThatIsAnotherId) {
  EXPECT_EQ(error_of("alias_taken.toml"),
            "F:11:12: alias 'dep:generic/cmake' of dep:generic/kitware-cmake is already an id "
            "(line 6)");
}

// `unverified = true`: no real index confirmed the names. Only true is written.
TEST(MappingLoad, UnverifiedIsReadAndOnlyTrueIsWritten) {
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/conda-forge.toml") << R"(schema = 1
ecosystem = "conda-forge"
manager = "conda"

[[id]]
id = "dep:generic/a"
host = ["a"]
unverified = true

[[id]]
id = "dep:generic/b"
host = ["b"]
)";
  std::ofstream(dir + "/pkgconfig.toml") << R"(schema = 1
ecosystem = "pkgconfig"

[[id]]
id = "dep:generic/a"
modules = ["a"]
unverified = true
)";
  auto t = load_table(dir + "/conda-forge.toml");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_TRUE(t->find("dep:generic/a")->unverified);
  EXPECT_FALSE(t->find("dep:generic/b")->unverified);
  auto pc = load_table(dir + "/pkgconfig.toml");
  ASSERT_TRUE(pc) << pc.error().message;
  EXPECT_TRUE(pc->find("dep:generic/a")->unverified);
  EXPECT_EQ(error_of("unverified_false.toml"),
            "F:8:14: 'unverified' is written as true (leave it out where a real index confirmed "
            "the names), got false");
  EXPECT_EQ(error_of("unverified_string.toml"),
            "F:8:14: 'unverified' is written as true (leave it out where a real index confirmed "
            "the names), got string");
}

TEST(MappingLoad, InvalidTomlIsAnErrorNotAnException) {
  EXPECT_EQ(error_of("bad_toml.toml"), "F:6:22: invalid TOML: error while parsing array: encountered end-of-file");
}

TEST(MappingLoad, WrongType) {
  EXPECT_EQ(error_of("wrong_type.toml"), "F:7:8: 'host' must be an array of strings, got string");
}

TEST(MappingLoad, NothingWithoutANote) {
  EXPECT_EQ(error_of("no_note.toml"),
            "F:5:1: dep:generic/arrow maps to no package: add a note saying why "
            "(note = \"not packaged in ...\")");
}

TEST(MappingLoad, RegexNeedsOneGroup) {
  EXPECT_EQ(error_of("regex_groups.toml"),
            "F:8:21: version regex '^(\\d+):(\\d+)' must have exactly one group, it has 2");
}

// The sizes of docs/limits.md are refused before RE2 compiles a pattern; RE2 refuses what it
// does not read (a back-reference, a repetition of a repetition). Found by the mapping_table fuzz
// harness: libstdc++'s regex compiler overflowed a long on a long back-reference number
// (corpus/mapping_table/finding-regex-backreference-overflow), and std::regex backtracked for
// minutes on `.**…*` (corpus/mapping_table/std-regex-backtracks-on-stacked-stars).
TEST(MappingLoad, RegexesPastTheLimitsAreRefusedBeforeTheyCompile) {
  auto error_for = [](const std::string& regex) {
    const std::string path = test::temp_dir() + "/debian.toml";
    std::ofstream(path) << "schema = 1\necosystem = \"debian\"\nmanager = \"apt\"\n\n[[id]]\nid = \"dep:generic/go\"\n"
                           "build = [\"golang-go\"]\nversion = { regex = '"
                        << regex << "' }\n";
    auto t = load_table(path);
    if (t) return std::string("(loaded)");
    std::string m = t.error().message;
    return m.substr(m.find(": ") + 2);
  };
  EXPECT_EQ(error_for("^(?:\\6666666666666666666666|d+)+"),
            "version regex '^(?:\\6666666666666666666666|d+)+' must have exactly one group, it has 0");
  EXPECT_EQ(error_for("^(\\d+)-\\1"), "version regex '^(\\d+)-\\1' does not compile: invalid escape sequence: \\1");
  EXPECT_EQ(error_for("^(go.**\\d+)"), "version regex '^(go.**\\d+)' does not compile: bad repetition operator: **");
  EXPECT_EQ(error_for("^(\\d{1,99999})"), "version regex '^(\\d{1,99999})' has a repetition count above 1000");
  EXPECT_EQ(error_for("^(\\d{1001})"), "version regex '^(\\d{1001})' has a repetition count above 1000");
  EXPECT_EQ(error_for("^(" + std::string(2000, 'a') + ")").find("bytes long (extdeps reads at most 1024)") !=
                std::string::npos,
            true);
  EXPECT_EQ(error_for("^(\\d{1,3}[{99999}])"), "(loaded)");  // in a class, braces are characters
  EXPECT_EQ(error_for("^(\\d+\\.\\d+)"), "(loaded)");
}

TEST(MappingLoad, CategoriesAndAlternativesDoNotMix) {
  EXPECT_EQ(error_of("mixed.toml"),
            "F:5:1: dep:virtual/interface/blas mixes build/host/run with [[id.alternative]]: "
            "put every package list in an alternative");
}

TEST(MappingLoad, VersionFromMustBeListed) {
  EXPECT_EQ(error_of("bad_from.toml"),
            "F:8:11: version rule reads 'rust', which dep:virtual/compiler/rust does not list");
}

TEST(MappingLoad, DebianPackageNamesAreChecked) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXPECT_EQ(error_of("bad_package.toml"), "F:7:9: 'Zlib1g-dev' is not a valid Debian package name");
}

// The components a `component` key may name are the manager's (apt's descriptor gives
// Debian's four); "universe" is Ubuntu's and no Debian archive has it.
TEST(MappingLoad, ComponentsAreTheManagersOwn) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXPECT_EQ(error_of("bad_component.toml"),
            "F:10:13: unknown component 'universe' (expected main, contrib, non-free or non-free-firmware)");
}

TEST(MappingLoad, SchemaVersion) {
  EXPECT_EQ(error_of("schema2.toml"), "F:1:10: unsupported schema 2 (this extdeps reads schema 1)");
}

TEST(MappingLoad, PkgconfigTablesListModules) {
  // A table that names no manager is a detector's (pkgconf's): it lists modules, not packages.
  EXPECT_EQ(error_of("pkgconfig_build.toml"),
            "F:6:1: unknown key 'build' in [[id]] dep:generic/zlib (a detector's table lists "
            "'modules' for every category)");
}

// A detector's entry says how its modules' versions read: `version` for all, `versions` per
// module (which wins); the rules are core's none and map (and native, regex); each mistake is
// named at its place. The shipped pkgconfig.toml's own rules: freetype2 by FreeType's table,
// libexslt presence only, libxslt native.
TEST(MappingLoad, ADetectorsEntryReadsItsModulesVersionsByItsRules) {
  const std::string dir = test::temp_dir();
  auto entry = [&](const std::string& body) -> Result<Table> {
    std::ofstream(dir + "/p.toml") << "schema = 1\necosystem = \"pkgconfig\"\n\n[[id]]\nid = \"dep:generic/x\"\n"
                                   << "modules = [\"x\", \"x-extra\"]\n"
                                   << body;
    return load_table(dir + "/p.toml");
  };
  auto error = [&](const std::string& body) {
    auto t = entry(body);
    return t ? std::string("(loaded)") : t.error().message.substr(dir.size() + 8);
  };
  auto t = entry("version = \"none\"\nversions = { x = { map = { \"24.3.18\" = \"2.12.1\" } } }\n");
  ASSERT_TRUE(t) << t.error().message;
  const Entry& e = t->entries.at(0);
  EXPECT_EQ(e.module_version("x").kind, "map");
  EXPECT_EQ(upstream_version(e.module_version("x"), "24.3.18"), "2.12.1");
  EXPECT_EQ(upstream_version(e.module_version("x"), "24.3.19"), "");
  EXPECT_EQ(e.module_version("x-extra").kind, "none");
  EXPECT_EQ(upstream_version(e.module_version("x-extra"), "1.0"), "");
  t = entry("versions = { x-extra = \"none\" }\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->entries.at(0).module_version("x").kind, "native");

  EXPECT_EQ(error("versions = { y = \"none\" }\n"),
            "7:18: 'versions' names 'y', which is not one of dep:generic/x's modules");
  EXPECT_EQ(error("version = { rule = \"none\", from = \"x\" }\n"),
            "7:11: a detector's version rule reads each module's own version: no 'from'");
  EXPECT_EQ(error("version = \"map\"\n"),
            "7:11: a map version rule needs its versions: { map = { \"NATIVE\" = \"UPSTREAM\" } }");
  EXPECT_EQ(error("version = { map = {} }\n"), "7:19: 'map' is empty: a map rule names at least one version");
  EXPECT_EQ(error("version = { map = { \"1\" = 2 } }\n"),
            "7:27: 'map' maps a native version to an upstream one, both non-empty strings; '1' is integer");
  EXPECT_EQ(error("version = { rule = \"none\", map = { \"1\" = \"2\" } }\n"),
            "7:34: 'map' is only read by the map rule");
  EXPECT_EQ(error("versions = \"none\"\n"), "7:12: 'versions' must be a table of version rules, got string");

  auto shipped = load_table(std::string(EXTDEPS_SOURCE_MAPPINGS_DIR) + "/pkgconfig.toml");
  ASSERT_TRUE(shipped) << shipped.error().message;
  const Entry* freetype = shipped->find("dep:generic/freetype");
  const Entry* xslt = shipped->find("dep:generic/libxslt");
  ASSERT_TRUE(freetype && xslt);
  EXPECT_EQ(upstream_version(freetype->module_version("freetype2"), "24.3.18"), "2.12.1");  // bookworm's
  EXPECT_EQ(upstream_version(freetype->module_version("freetype2"), "26.1.20"), "2.13.2");  // trixie's
  EXPECT_EQ(xslt->module_version("libexslt").kind, "none");
  EXPECT_EQ(xslt->module_version("libxslt").kind, "native");
}

TEST(MappingLoad, IdMustBeADepUrl) {
  EXPECT_EQ(error_of("not_depurl.toml"), "F:5:6: id 'generic/zlib' is not a DepURL (expected dep:TYPE/NAME)");
}

TEST(MappingLoad, MissingFile) {
  auto t = load_table(fixture("errors/absent.toml"));
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message, fixture("errors/absent.toml") + ": cannot read the mapping table");
}

}  // namespace
}  // namespace extdeps::mapping
