#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/declare/declare.h"
#include "tests/test_support.h"

namespace extdeps::declare {
namespace {

Declaration read_ok(const Context& ctx, const std::string& path) {
  auto r = read_declaration(ctx, path);
  EXPECT_TRUE(r.ok()) << path << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : Declaration{};
}

std::string read_error(const std::string& path, ExitCode code = ExitCode::bad_input) {
  Context ctx = Context::for_test("/");
  auto r = read_declaration(ctx, path);
  EXPECT_FALSE(r.ok()) << path << " was read";
  if (r.ok()) return "";
  EXPECT_EQ(r.error().code, code);
  return r.error().message;
}

std::vector<std::string> ids(const Declaration& d, Category category, bool optional) {
  std::vector<std::string> out;
  for (const auto& r : d.requirements) {
    if (r.category == category && r.group.has_value() == optional) out.push_back(r.url.id());
  }
  return out;
}

const Requirement* find(const Declaration& d, std::string_view id) {
  for (const auto& r : d.requirements) {
    if (r.url.id() == id) return &r;
  }
  return nullptr;
}

// Writes `text` to a file in a fresh directory and returns its path.
std::string write_file(const std::string& name, const std::string& text) {
  std::string path = test::temp_dir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(DeclareRequirement, RangeInTheDepUrl) {
  auto r = parse_requirement("dep:generic/openjpeg@>=2.0");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->url.id(), "dep:generic/openjpeg");
  EXPECT_EQ(r->range.str(), ">=2.0");
  EXPECT_EQ(r->marker, "");
  EXPECT_EQ(r->spec, "dep:generic/openjpeg@>=2.0");
}

TEST(DeclareRequirement, RangeAfterTheDepUrl) {
  for (std::string_view text : {"dep:generic/gdal >=3.4", "dep:generic/gdal (>=3.4)", "dep:generic/gdal>=3.4",
                                "dep:generic/gdal ( >= 3.4 )", "  dep:generic/gdal@>=3.4  "}) {
    auto r = parse_requirement(text);
    ASSERT_TRUE(r.ok()) << text << ": " << r.error().message;
    EXPECT_EQ(r->url.id(), "dep:generic/gdal") << text;
    EXPECT_EQ(r->range.str(), ">=3.4") << text;
  }
  auto two = parse_requirement("dep:generic/gdal==3.4.*,!=3.4.1");
  ASSERT_TRUE(two.ok()) << two.error().message;
  EXPECT_EQ(two->range.str(), "==3.4.*,!=3.4.1");
}

TEST(DeclareRequirement, Marker) {
  auto r = parse_requirement("dep:github/AbiWord/enchant; platform_system!='Windows'");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->url.id(), "dep:github/AbiWord/enchant");
  EXPECT_TRUE(r->range.any());
  EXPECT_EQ(r->marker, "platform_system!='Windows'");
  auto ranged = parse_requirement("dep:generic/llvm (<20) ; python_version >= '3.9'");
  ASSERT_TRUE(ranged.ok()) << ranged.error().message;
  EXPECT_EQ(ranged->range.str(), "<20");
  EXPECT_EQ(ranged->marker, "python_version >= '3.9'");
}

TEST(DeclareRequirement, Errors) {
  auto message = [](std::string_view text) {
    auto r = parse_requirement(text);
    EXPECT_FALSE(r.ok()) << text;
    return r.ok() ? std::string() : r.error().message;
  };
  EXPECT_EQ(message("dep:generic/gdal@>=3 >=3.4"),
            "two version ranges in 'dep:generic/gdal@>=3 >=3.4': '@>=3' and '>=3.4' (keep one)");
  EXPECT_EQ(message("dep:generic/gdal (>=3.4"), "expected ')' to close the version range in 'dep:generic/gdal (>=3.4'");
  EXPECT_EQ(message("dep:generic/gdal ()"), "expected a version range inside '()' in 'dep:generic/gdal ()'");
  EXPECT_EQ(message("dep:generic/gdal;"), "expected a marker after ';' in 'dep:generic/gdal;'");
  EXPECT_EQ(message("; os_name == 'posix'"), "expected a DepURL like 'dep:generic/zlib', got '; os_name == 'posix''");
  EXPECT_EQ(message("dep:generic/gdal@>=three"), "expected a PEP 440 version after '>=', got 'three' in '>=three'");
  EXPECT_EQ(message("dep:generic/gdal; platfrom_system == 'Linux'"),
            "unknown marker variable 'platfrom_system' (did you mean 'platform_system'?)");
  EXPECT_EQ(message("dep:generic/gdal; os == 'posix'"), "unknown marker variable 'os'");
}

TEST(DeclareReader, FullPyproject) {
  Context ctx = Context::for_test("/");
  std::string path = test::data_path("declare/full/pyproject.toml");
  Declaration d = read_ok(ctx, path);
  EXPECT_EQ(d.path, path);
  EXPECT_EQ(ids(d, Category::build, false),
            (std::vector<std::string>{"dep:virtual/compiler/c", "dep:virtual/compiler/cxx", "dep:generic/cmake"}));
  EXPECT_EQ(ids(d, Category::host, false),
            (std::vector<std::string>{"dep:generic/gdal", "dep:generic/proj", "dep:virtual/interface/blas",
                                      "dep:github/apache/arrow"}));
  EXPECT_EQ(ids(d, Category::run, false), (std::vector<std::string>{"dep:generic/git"}));
  EXPECT_EQ(ids(d, Category::host, true), (std::vector<std::string>{"dep:generic/netcdf-c", "dep:generic/hdf5"}));
  EXPECT_EQ(d.optional_groups, (std::vector<std::string>{"netcdf", "hdf5", "plots"}));
  EXPECT_EQ(d.dependency_groups, (std::vector<std::string>{"test", "debug"}));
  EXPECT_TRUE(ctx.warnings().empty());

  const Requirement* cmake = find(d, "dep:generic/cmake");
  ASSERT_NE(cmake, nullptr);
  EXPECT_EQ(cmake->range.str(), ">=3.25");
  EXPECT_EQ(cmake->where.str(), path + ":13:3");
  EXPECT_EQ(cmake->spec, "dep:generic/cmake >=3.25");

  const Requirement* gdal = find(d, "dep:generic/gdal");
  ASSERT_NE(gdal, nullptr);
  EXPECT_EQ(gdal->range.str(), ">=3.4,<4");
  EXPECT_EQ(find(d, "dep:generic/proj")->range.str(), ">=9.1");
  EXPECT_EQ(find(d, "dep:virtual/interface/blas")->marker, "platform_machine == 'x86_64'");
  const Requirement* arrow = find(d, "dep:github/apache/arrow");
  EXPECT_EQ(arrow->range.str(), ">=14");
  EXPECT_EQ(arrow->marker, "sys_platform == \"linux\" and python_version >= \"3.9\"");
  EXPECT_EQ(arrow->where.str(), path + ":19:3");

  const Requirement* hdf5 = find(d, "dep:generic/hdf5");
  EXPECT_EQ(hdf5->group, "hdf5");
  EXPECT_EQ(hdf5->range.str(), ">=1.14.0,==1.14.*");
  const Requirement* gnuplot = find(d, "dep:generic/gnuplot");
  EXPECT_EQ(gnuplot->category, Category::run);
  EXPECT_EQ(gnuplot->group, "plots");
}

TEST(DeclareReader, DependencyGroupsIncludeOtherGroups) {
  Context ctx = Context::for_test("/");
  std::string path = test::data_path("declare/full/pyproject.toml");
  Declaration d = read_ok(ctx, path);
  std::vector<std::pair<std::string, std::string>> got;  // group, id
  for (const auto& r : d.requirements) {
    if (r.group && (*r.group == "test" || *r.group == "debug")) {
      EXPECT_EQ(r.category, Category::run);
      got.emplace_back(*r.group, r.url.id());
    }
  }
  EXPECT_EQ(got, (std::vector<std::pair<std::string, std::string>>{
                     {"test", "dep:generic/catch2"},
                     {"test", "dep:generic/valgrind"},
                     {"test", "dep:generic/gdb"},
                     {"debug", "dep:generic/valgrind"},
                     {"debug", "dep:generic/gdb"},
                 }));
  // An included requirement points at where it is written, in the included group.
  auto valgrind = std::find_if(d.requirements.begin(), d.requirements.end(),
                               [](const Requirement& r) { return r.group == "test" && r.url.name == "valgrind"; });
  ASSERT_NE(valgrind, d.requirements.end());
  EXPECT_EQ(valgrind->where.str(), path + ":37:10");
}

TEST(DeclareReader, DependencyGroupCycle) {
  std::string path = test::data_path("declare/cycle/pyproject.toml");
  EXPECT_EQ(read_error(path), path + ":4:45: dependency groups include each other in a cycle: a -> b -> c -> a");
}

TEST(DeclareReader, DependencyGroupErrors) {
  std::string unknown = write_file("pyproject.toml",
                                   "[external.dependency-groups]\n"
                                   "test = [{ include-group = \"debg\" }]\n"
                                   "debug = []\n");
  EXPECT_EQ(read_error(unknown),
            unknown + ":2:27: dependency group 'test' includes unknown group 'debg' (did you mean 'debug'?)");
  std::string bad_key = write_file("pyproject.toml",
                                   "[external.dependency-groups]\n"
                                   "test = [{ include = \"debug\" }]\n");
  EXPECT_EQ(read_error(bad_key), bad_key +
                                     ":2:11: unknown key 'include' in an include of dependency group "
                                     "'test' (expected 'include-group')");
  std::string duplicate = write_file("pyproject.toml",
                                     "[external.dependency-groups]\n"
                                     "Dev_Tools = []\n"
                                     "dev-tools = []\n");
  EXPECT_EQ(read_error(duplicate), duplicate +
                                       ":3:1: dependency group 'dev-tools' repeats 'Dev_Tools' (group "
                                       "names are compared normalised)");
}

TEST(DeclareReader, MalformedToml) {
  std::string path = test::data_path("declare/malformed/pyproject.toml");
  EXPECT_EQ(read_error(path), path +
                                  ":7:3: error while parsing array: expected comma or closing ']', saw '\"' "
                                  "(the strings of an array are separated by commas; one is likely missing at the end "
                                  "of the line before)");
}

TEST(DeclareReader, UnknownKeySuggestsTheKnownOne) {
  std::string path = test::data_path("declare/unknown-key/pyproject.toml");
  EXPECT_EQ(read_error(path),
            path + ":3:1: unknown key 'build-require' in [external] (did you mean 'build-requires'?)");
  std::string far = write_file("extdeps.toml", "[external]\nrequires = []\n");
  EXPECT_EQ(read_error(far), far + ":2:1: unknown key 'requires' in [external]");
}

TEST(DeclareReader, BadDepUrlTypeNamesItsPlace) {
  std::string path = test::data_path("declare/bad-type/pyproject.toml");
  EXPECT_EQ(read_error(path), path + ":4:5: unknown DepURL type 'gneric' (did you mean 'generic'?)");
}

TEST(DeclareReader, WrongValueTypes) {
  std::string path = test::data_path("declare/wrong-type/pyproject.toml");
  EXPECT_EQ(read_error(path), path + ":2:18: expected an array of strings for 'build-requires', got a string");
  std::string item = write_file("pyproject.toml", "[external]\nhost-requires = [\"dep:generic/zlib\", 3]\n");
  EXPECT_EQ(read_error(item), item + ":2:38: expected a string in 'host-requires', got an integer");
  std::string optional = write_file("pyproject.toml", "[external]\noptional-dependencies = [\"dep:generic/zlib\"]\n");
  EXPECT_EQ(read_error(optional), optional +
                                      ":2:25: expected a table of groups for 'optional-dependencies' "
                                      "(like [external.optional-dependencies] name = [...]), got an array");
  std::string group = write_file("pyproject.toml", "[external.optional-host-requires]\nx = \"dep:generic/zlib\"\n");
  EXPECT_EQ(read_error(group),
            group + ":2:5: expected an array of strings for 'optional-host-requires' group 'x', got a string");
  std::string external = write_file("pyproject.toml", "external = 1\n");
  EXPECT_EQ(read_error(external), external + ":1:12: expected [external] to be a table, got an integer");
  std::string marker =
      write_file("pyproject.toml", "[external]\ndependencies = [\"dep:generic/git; os_name = 'nt'\"]\n");
  EXPECT_EQ(read_error(marker), marker +
                                    ":2:17: invalid marker 'os_name = 'nt'': unknown operator '=' at "
                                    "position 9");
}

TEST(DeclareReader, LegacySpellingsWarnOnce) {
  Context ctx = Context::for_test("/");
  std::string path = test::data_path("declare/legacy/pyproject.toml");
  Declaration d = read_ok(ctx, path);
  EXPECT_EQ(ids(d, Category::build, false), (std::vector<std::string>{"dep:virtual/compiler/c", "dep:generic/ninja"}));
  EXPECT_EQ(ids(d, Category::host, false), (std::vector<std::string>{"dep:generic/zlib"}));
  EXPECT_EQ(ids(d, Category::host, true), (std::vector<std::string>{"dep:generic/libtiff"}));
  EXPECT_EQ(ctx.warnings(),
            (std::vector<std::string>{
                path + ":2:19: 'virtual:compiler/c' uses an older DepURL spelling; write 'dep:virtual/compiler/c'",
                path + ":2:41: 'pkg:generic/ninja' uses an older DepURL spelling; write 'dep:generic/ninja'",
                path + ":3:1: 'build-host-requires' is the older name of 'host-requires'; rename it to 'host-requires'",
                path + ":5:11: 'optional-build-host-requires' is the older name of 'optional-host-requires'; rename it "
                       "to 'optional-host-requires'",
            }));
  read_ok(ctx, path);  // a second read adds nothing
  EXPECT_EQ(ctx.warnings().size(), 4u);
}

TEST(DeclareReader, NewAndOldKeyTogetherIsAnError) {
  std::string path = write_file("pyproject.toml", "[external]\nhost-requires = []\nbuild-host-requires = []\n");
  EXPECT_EQ(read_error(path), path +
                                  ":3:1: 'build-host-requires' repeats 'host-requires' under its older "
                                  "name (keep 'host-requires')");
}

TEST(DeclareReader, NoExternalTable) {
  std::string path = test::data_path("declare/no-external/pyproject.toml");
  const std::string hint = "declare the needs as [external] host-requires = [\"dep:generic/zlib\"], PEP 725)";
  EXPECT_EQ(read_error(path), "no [external] table in " + path + " (" + hint);
  // An empty file declares nothing either: the same mistake, the same answer (issue 14).
  std::string empty = write_file("extdeps.toml", "# nothing needed yet\n");
  EXPECT_EQ(read_error(empty), "no [external] table in " + empty + " (the file is empty; " + hint);
  EXPECT_EQ(read_error("/nonexistent/pyproject.toml"), "no such file: /nonexistent/pyproject.toml");
}

TEST(DeclareFind, PicksTheRightFile) {
  std::string data = test::data_path("declare");
  auto full = find_declaration(data + "/full");
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_EQ(*full, data + "/full/pyproject.toml");
  auto only = find_declaration(data + "/extdeps-only/");
  ASSERT_TRUE(only.ok()) << only.error().message;
  EXPECT_EQ(*only, data + "/extdeps-only/extdeps.toml");
  auto both = find_declaration(data + "/both");
  ASSERT_TRUE(both.ok()) << both.error().message;
  EXPECT_EQ(*both, data + "/both/extdeps.toml");
  auto file = find_declaration(data + "/no-external/pyproject.toml");
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(*file, data + "/no-external/pyproject.toml");

  Context ctx = Context::for_test("/");
  Declaration d = read_ok(ctx, *only);
  ASSERT_EQ(d.requirements.size(), 2u);
  EXPECT_EQ(d.requirements[1].url.id(), "dep:virtual/interface/lapack");
  EXPECT_EQ(d.requirements[1].range.str(), ">=3.7.1");
}

TEST(DeclareFind, Errors) {
  std::string data = test::data_path("declare");
  auto none = find_declaration(data + "/no-external");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "no [external] table in " + data + "/no-external/pyproject.toml and no " + data +
                                      "/no-external/extdeps.toml");
  EXPECT_EQ(none.error().code, ExitCode::bad_input);
  std::string empty = test::temp_dir();
  EXPECT_EQ(find_declaration(empty).error().message, "no pyproject.toml or extdeps.toml in " + empty);
  auto malformed = find_declaration(data + "/malformed");
  ASSERT_FALSE(malformed.ok());
  EXPECT_EQ(malformed.error().message.rfind(data + "/malformed/pyproject.toml:7:3: ", 0), 0u);
  EXPECT_EQ(find_declaration("/nonexistent").error().message, "no such file or directory: /nonexistent");
}

// The 37 real [external] tables of rgommers/external-deps-build, read in place.
struct Expected {
  std::string_view name;
  int build, host, run, optional;
};
constexpr Expected kExternalDepsBuild[] = {
    {"aiohttp", 1, 0, 0, 0},       {"bcrypt", 2, 0, 0, 0},
    {"cffi", 1, 1, 0, 0},          {"charset-normalizer", 1, 0, 0, 0},
    {"coverage", 1, 0, 0, 0},      {"cryptography", 3, 2, 0, 0},
    {"frozenlist", 2, 0, 0, 0},    {"google-crc32c", 1, 0, 0, 0},
    {"greenlet", 2, 0, 0, 0},      {"grpcio-tools", 2, 0, 0, 0},
    {"grpcio", 2, 0, 0, 0},        {"httptools", 1, 0, 0, 0},
    {"kiwisolver", 1, 0, 0, 0},    {"lxml", 1, 3, 0, 0},
    {"markupsafe", 1, 0, 0, 0},    {"matplotlib", 4, 0, 0, 0},
    {"msgpack", 2, 0, 0, 0},       {"multidict", 1, 0, 0, 0},
    {"numpy", 5, 2, 0, 0},         {"pandas", 3, 0, 0, 0},
    {"pillow", 1, 2, 0, 9},        {"protobuf", 1, 0, 0, 0},
    {"psutil", 1, 0, 0, 0},        {"psycopg2-binary", 1, 1, 0, 0},
    {"pyarrow", 4, 3, 0, 2},       {"pycryptodomex", 1, 0, 0, 1},
    {"pydantic-core", 1, 0, 0, 0}, {"pynacl", 2, 0, 0, 0},
    {"pyrsistent", 1, 0, 0, 0},    {"pyyaml", 1, 1, 0, 0},
    {"regex", 1, 0, 0, 0},         {"rpds-py", 2, 0, 0, 0},
    {"scikit-learn", 2, 0, 0, 0},  {"scipy", 5, 2, 0, 0},
    {"sqlalchemy", 1, 0, 0, 0},    {"wrapt", 1, 0, 0, 0},
    {"yarl", 1, 0, 0, 0},
};

TEST(DeclareExternalDepsBuild, EveryFileParses) {
  EXTDEPS_SHARED_OR_SKIP(dir, "external-deps-build");
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".toml") ++files;
  }
  EXPECT_EQ(files, std::size(kExternalDepsBuild));
  for (const Expected& e : kExternalDepsBuild) {
    Context ctx = Context::for_test("/");
    std::string path = dir + "/" + std::string(e.name) + ".toml";
    Declaration d = read_ok(ctx, path);
    SCOPED_TRACE(path);
    EXPECT_EQ(static_cast<int>(ids(d, Category::build, false).size()), e.build);
    EXPECT_EQ(static_cast<int>(ids(d, Category::host, false).size()), e.host);
    EXPECT_EQ(static_cast<int>(ids(d, Category::run, false).size()), e.run);
    int optional = 0;
    for (const auto& r : d.requirements) optional += r.group.has_value();
    EXPECT_EQ(optional, e.optional);
    EXPECT_EQ(d.optional_groups, e.optional ? std::vector<std::string>{"extra"} : std::vector<std::string>{});
    // Every one of them uses the older key for its host needs, and nothing else is deprecated.
    std::size_t legacy_keys = e.host > 0 ? 1 : 0;
    if (e.name == "pillow") legacy_keys = 2;
    EXPECT_EQ(ctx.warnings().size(), legacy_keys);
    for (const auto& r : d.requirements) {
      EXPECT_EQ(r.where.file, path);
      EXPECT_GT(r.where.line, 1);
      EXPECT_EQ(r.url.str(), r.spec);  // all are written canonically
    }
  }
}

TEST(DeclareExternalDepsBuild, Pillow) {
  EXTDEPS_SHARED_OR_SKIP(dir, "external-deps-build");
  Context ctx = Context::for_test("/");
  std::string path = dir + "/pillow.toml";
  Declaration d = read_ok(ctx, path);
  EXPECT_EQ(ids(d, Category::build, false), (std::vector<std::string>{"dep:virtual/compiler/c"}));
  EXPECT_EQ(ids(d, Category::host, false), (std::vector<std::string>{"dep:generic/libjpeg", "dep:generic/zlib"}));
  EXPECT_EQ(ids(d, Category::host, true),
            (std::vector<std::string>{"dep:generic/lcms2", "dep:generic/freetype", "dep:generic/libimagequant",
                                      "dep:generic/libraqm", "dep:generic/libtiff", "dep:generic/libxcb",
                                      "dep:generic/libwebp", "dep:generic/openjpeg", "dep:generic/tk"}));
  for (const auto& r : d.requirements) {
    if (r.group) {
      EXPECT_EQ(*r.group, "extra");
    }
  }
  const Requirement* openjpeg = find(d, "dep:generic/openjpeg");
  ASSERT_NE(openjpeg, nullptr);
  ASSERT_EQ(openjpeg->range.constraints.size(), 1u);
  EXPECT_EQ(openjpeg->range.constraints[0].op, DepOp::ge);
  EXPECT_EQ(openjpeg->range.constraints[0].version, "2.0");
  EXPECT_EQ(openjpeg->where.str(), path + ":19:3");
  EXPECT_TRUE(range_contains(openjpeg->range, "2.5.2"));
  EXPECT_FALSE(range_contains(openjpeg->range, "1.5.2"));
  EXPECT_EQ(ctx.warnings(),
            (std::vector<std::string>{
                path + ":5:1: 'build-host-requires' is the older name of 'host-requires'; rename it to 'host-requires'",
                path + ":10:11: 'optional-build-host-requires' is the older name of 'optional-host-requires'; rename "
                       "it to 'optional-host-requires'",
            }));
}

TEST(DeclareExternalDepsBuild, PyarrowAndPycryptodomex) {
  EXTDEPS_SHARED_OR_SKIP(dir, "external-deps-build");
  Context ctx = Context::for_test("/");
  Declaration arrow = read_ok(ctx, dir + "/pyarrow.toml");
  EXPECT_EQ(ids(arrow, Category::host, false),
            (std::vector<std::string>{"dep:github/apache/arrow", "dep:generic/zlib", "dep:generic/llvm"}));
  const Requirement* github = find(arrow, "dep:github/apache/arrow");
  EXPECT_EQ(github->url.type, "github");
  EXPECT_EQ(github->url.ns, "apache");
  EXPECT_EQ(find(arrow, "dep:generic/llvm")->range.str(), "<20");
  EXPECT_EQ(ids(arrow, Category::build, true), (std::vector<std::string>{"dep:generic/make", "dep:generic/ninja"}));

  Declaration crypto = read_ok(ctx, dir + "/pycryptodomex.toml");
  EXPECT_EQ(ids(crypto, Category::run, true), (std::vector<std::string>{"dep:generic/gmp"}));
  EXPECT_EQ(crypto.optional_groups, (std::vector<std::string>{"extra"}));
}

TEST(DeclareExternalDepsBuild, NumpyVirtualInterfaces) {
  EXTDEPS_SHARED_OR_SKIP(dir, "external-deps-build");
  Context ctx = Context::for_test("/");
  Declaration d = read_ok(ctx, dir + "/numpy.toml");
  EXPECT_EQ(ids(d, Category::build, false),
            (std::vector<std::string>{"dep:virtual/compiler/c", "dep:virtual/compiler/cxx",
                                      "dep:virtual/compiler/fortran", "dep:generic/ninja", "dep:generic/pkg-config"}));
  EXPECT_EQ(ids(d, Category::host, false),
            (std::vector<std::string>{"dep:virtual/interface/blas", "dep:virtual/interface/lapack"}));
}

}  // namespace
}  // namespace extdeps::declare
