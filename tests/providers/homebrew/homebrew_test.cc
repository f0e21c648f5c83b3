// The Homebrew provider on fixtures shaped as Homebrew's documented files
// (tests/data/homebrew/README.md says where each shape comes from): the formula index and its
// signed form, the Cellar with its receipts, bottles chosen for the macOS release and CPU the
// overrides name, and plans made on those facts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/cli/cli.h"
#include "core/json/byte_source.h"
#include "core/util/limits.h"
#include "providers/homebrew/homebrew_provider.h"
#include "tests/support/http_server.h"
#include "tests/test_support.h"

namespace extdeps::homebrew {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& rel = "") { return test::data_path("homebrew" + (rel.empty() ? "" : "/" + rel)); }

std::map<std::string, Formula> formulae(const std::string& text, const std::string& name = "formula.json") {
  std::map<std::string, Formula> out;
  auto src = json::over_memory(text, name);
  auto n = read_formulae(*src, [&](Formula&& f) { out.emplace(f.name, std::move(f)); });
  EXPECT_TRUE(n.ok()) << n.error().message;
  return out;
}

Platform mac(std::string version, std::string arch = "arm64") {
  Platform p;
  p.macos = true;
  p.macos_version = std::move(version);
  p.arch = std::move(arch);
  p.prefix = default_prefix(true, p.arch);
  return p;
}

Platform linux_x86() {
  Platform p;
  p.macos = false;
  p.arch = "x86_64";
  p.prefix = default_prefix(false, p.arch);
  return p;
}

std::string tag_of(const Formula& f, const Platform& p) {
  const Bottle* b = choose_bottle(f, p);
  return b ? b->tag : "source";
}

std::set<std::string> needs(const PackageRecord& r) {
  std::set<std::string> out;
  for (const auto& alts : r.depends)
    out.insert(alts.front().name + (alts.front().version.empty() ? "" : " " + alts.front().version));
  return out;
}

TEST(HomebrewPlatform, MacOSReleasesAndTheirTags) {
  EXPECT_EQ(macos_codename("14.5"), "sonoma");
  EXPECT_EQ(macos_codename("15"), "sequoia");
  EXPECT_EQ(macos_codename("26.1"), "tahoe");
  EXPECT_EQ(macos_codename("10.15.7"), "catalina");
  EXPECT_EQ(macos_codename("10.16"), "");
  EXPECT_EQ(macos_version_of("big_sur"), "11");
  EXPECT_EQ(macos_version_of("catalina"), "10.15");
  EXPECT_EQ(mac("14.5").tag(), "arm64_sonoma");
  EXPECT_EQ(mac("13.6", "x86_64").tag(), "ventura");  // Intel macs' tags are the bare names
  EXPECT_EQ(linux_x86().tag(), "x86_64_linux");
  EXPECT_EQ(mac("14.5").prefix, "/opt/homebrew");
  EXPECT_EQ(mac("14.5", "x86_64").prefix, "/usr/local");
  EXPECT_EQ(linux_x86().prefix, "/home/linuxbrew/.linuxbrew");
}

TEST(HomebrewFormula, TheIndexReadsAsTheAPIWritesIt) {
  auto all = formulae(test::read_file(data("formula.json")));
  ASSERT_EQ(all.size(), 26u);
  const Formula& ssl = all.at("openssl@3");
  EXPECT_EQ(ssl.stable, "3.4.0");
  EXPECT_TRUE(ssl.keg_only);
  EXPECT_EQ(ssl.aliases, std::vector<std::string>{"openssl"});
  EXPECT_EQ(ssl.bottles.size(), 6u);
  const Formula& gdal = all.at("gdal");
  EXPECT_EQ(gdal.pkg_version(), "3.10.0_2");
  ASSERT_TRUE(gdal.variations.count("x86_64_linux"));
  EXPECT_EQ(gdal.variations.at("x86_64_linux").dependencies->size(), 8u);
  const Formula& zstd = all.at("zstd");
  ASSERT_EQ(zstd.fields.uses_from_macos->size(), 1u);
  EXPECT_EQ(zstd.fields.uses_from_macos->front().since, "ventura");
  const Formula& xml = all.at("libxml2");
  EXPECT_TRUE(xml.fields.uses_from_macos->front().build_only);  // {"python": "build"}
  EXPECT_TRUE(all.at("python@3.8").disabled);
  EXPECT_EQ(all.at("pkgconf").oldnames, std::vector<std::string>{"pkg-config"});
}

// formula.jws.json: the same array as a string in "payload", beside the signatures.
TEST(HomebrewFormula, TheSignedIndexHoldsTheSameFormulae) {
  const std::string text = test::read_file(data("formula.json"));
  nlohmann::json jws = {
      {"payload", text},
      {"signatures",
       {{{"protected", "eyJhbGciOiJQUzUxMiJ9"}, {"header", {{"kid", "homebrew-1"}}}, {"signature", "AA"}}}}};
  auto plain = formulae(text);
  auto signed_ = formulae(jws.dump(), "formula.jws.json");
  ASSERT_EQ(plain.size(), signed_.size());
  for (const auto& [name, f] : plain) EXPECT_EQ(signed_.at(name).pkg_version(), f.pkg_version()) << name;
}

TEST(HomebrewFormula, BadIndexesAreErrorsAtTheirByte) {
  std::size_t seen = 0;
  auto read = [&](std::string text) {
    auto src = json::over_memory(text, "formula.json");
    return read_formulae(*src, [&](Formula&&) { ++seen; });
  };
  auto e1 = read(R"([{"name": "x", "versions": {"stable": "1"}}, {"name": 3}])");
  ASSERT_FALSE(e1.ok());
  EXPECT_NE(e1.error().message.find("formula.json"), std::string::npos) << e1.error().message;
  EXPECT_NE(e1.error().message.find("byte offset"), std::string::npos) << e1.error().message;
  auto e2 = read(R"([{"name": "x"}])");
  ASSERT_FALSE(e2.ok());
  EXPECT_NE(e2.error().message.find("versions.stable"), std::string::npos) << e2.error().message;
  auto e3 = read(R"({"signatures": []})");
  ASSERT_FALSE(e3.ok());
  EXPECT_NE(e3.error().message.find("payload"), std::string::npos) << e3.error().message;
  auto e4 = read(R"([{"name": "x", "versions": {"stable": "1"}, "bottle": {"stable": {"files": {"all": 3}}}}])");
  ASSERT_FALSE(e4.ok());
  EXPECT_NE(e4.error().message.find("bottle.stable.files.all"), std::string::npos) << e4.error().message;
  auto e5 = read("[{\"name\": \"x\", \"versions\": {\"stable\": \"1\"}");
  EXPECT_FALSE(e5.ok());
}

// A formula's lists and the index's lists in all are bounded (issue 31: a 20 MB formula.json of
// empty names took 650 MB): an error at the entry past the bound, not memory.
TEST(HomebrewFormula, ListsAreBoundedInAFormulaAndInAll) {
  auto formula = [](int i, std::size_t deps, const std::string& list = "dependencies") {
    std::string f = "{\"name\": \"f" + std::to_string(i) + "\", \"versions\": {\"stable\": \"1\"}, \"" + list + "\": [";
    for (std::size_t k = 0; k < deps; ++k) f += k ? ",\"\"" : "\"\"";
    return f + "]}";
  };
  std::size_t seen = 0;
  auto read = [&](const std::string& text) {
    auto src = json::over_memory(text, "formula.json");
    return read_formulae(*src, [&](Formula&&) { ++seen; });
  };
  for (const std::string list : {"dependencies", "aliases", "oldnames", "conflicts_with"}) {
    auto ok = read("[" + formula(0, limits::kMaxListEntries, list) + "]");
    EXPECT_TRUE(ok.ok()) << list << ": " << ok.error().message;
    auto one = read("[" + formula(0, limits::kMaxListEntries + 1, list) + "]");
    ASSERT_FALSE(one.ok()) << list;
    EXPECT_EQ(one.error().message.rfind("formula.json: formula 'f0': " + list + " has more than 10000 entries", 0), 0u)
        << one.error().message;
  }
  std::string all = "[";
  const std::size_t per = limits::kMaxListEntries - 1, n = limits::kMaxIndexListEntries / per + 1;
  for (std::size_t i = 0; i < n; ++i) all += (i ? "," : "") + formula(static_cast<int>(i), per);
  auto r = read(all + "]");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("more than 1000000 list entries in all"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("byte offset"), std::string::npos) << r.error().message;
}

// brew's choice: the host's tag, else "all", else the newest older macOS of the same CPU; and
// only into the Cellar the bottle was built for, unless it is relocatable.
TEST(HomebrewBottles, TheHostsTagThenAllThenAnOlderMacOS) {
  auto all = formulae(test::read_file(data("formula.json")));
  const Formula& gdal = all.at("gdal");  // arm64_sequoia, arm64_sonoma, sonoma; fixed Cellars
  EXPECT_EQ(tag_of(gdal, mac("15.1")), "arm64_sequoia");
  EXPECT_EQ(tag_of(gdal, mac("14.5")), "arm64_sonoma");
  EXPECT_EQ(tag_of(gdal, mac("26.0")), "arm64_sequoia");     // tahoe pours sequoia's
  EXPECT_EQ(tag_of(gdal, mac("13.6")), "source");            // nothing as old as ventura
  EXPECT_EQ(tag_of(gdal, mac("15.1", "x86_64")), "sonoma");  // never another CPU's
  EXPECT_EQ(tag_of(all.at("eigen"), mac("12.7")), "all");
  EXPECT_EQ(tag_of(all.at("ca-certificates"), linux_x86()), "all");
  EXPECT_EQ(tag_of(gdal, linux_x86()), "x86_64_linux");
  EXPECT_EQ(tag_of(all.at("zlib"), linux_x86()), "x86_64_linux");
  // A bottle built for /opt/homebrew/Cellar does not pour into another prefix; ":any" does.
  Platform moved = mac("14.5");
  moved.prefix = "/Users/me/homebrew";
  EXPECT_EQ(tag_of(all.at("openssl@3"), moved), "source");
  EXPECT_EQ(tag_of(all.at("zlib"), moved), "arm64_sonoma");
}

TEST(HomebrewBottles, WhatARecordNeedsOnEachHost) {
  auto all = formulae(test::read_file(data("formula.json")));
  const std::string origin = "formula.json";
  // A poured bottle needs the runtime dependencies; macOS ships what uses_from_macos names.
  auto gdal = to_record(all.at("gdal"), mac("14.5"), origin);
  ASSERT_TRUE(gdal);
  EXPECT_EQ(gdal->version, "3.10.0_2");
  EXPECT_EQ(gdal->build, "arm64_sonoma");
  EXPECT_EQ(needs(*gdal),
            (std::set<std::string>{"hdf5", "jpeg-turbo", "libpng", "libtiff", "openssl@3", "proj", "sqlite"}));
  // Built from source it needs its build dependencies too.
  auto gdal13 = to_record(all.at("gdal"), mac("13.6"), origin);
  EXPECT_EQ(gdal13->build, "source");
  EXPECT_TRUE(needs(*gdal13).count("cmake"));
  EXPECT_TRUE(needs(*gdal13).count("pkgconf"));
  // On Linux the x86_64_linux variation replaces the dependencies, and uses_from_macos are
  // dependencies.
  auto gdal_linux = to_record(all.at("gdal"), linux_x86(), origin);
  EXPECT_TRUE(needs(*gdal_linux).count("libxml2"));
  EXPECT_TRUE(needs(*gdal_linux).count("curl"));
  EXPECT_TRUE(needs(*gdal_linux).count("zlib"));
  // uses_from_macos with `since`: a dependency only before that release.
  EXPECT_TRUE(needs(*to_record(all.at("zstd"), mac("12.7"), origin)).count("zlib"));
  EXPECT_FALSE(needs(*to_record(all.at("zstd"), mac("13.6"), origin)).count("zlib"));
  // Requirements: a macOS release (a spec relation on __osx), Linux, a CPU.
  auto container = to_record(all.at("container"), mac("15.1"), origin);
  ASSERT_TRUE(container);
  EXPECT_EQ(needs(*container), (std::set<std::string>{"__osx >=15"}));
  EXPECT_FALSE(to_record(all.at("container"), mac("15.1", "x86_64"), origin));  // arm64 only
  EXPECT_EQ(needs(*to_record(all.at("linux-headers@5.15"), linux_x86(), origin)), (std::set<std::string>{"__linux"}));
  // Disabled: no record. Aliases and old names: provides.
  EXPECT_FALSE(to_record(all.at("python@3.8"), mac("14.5"), origin));
  auto pkgconf = to_record(all.at("pkgconf"), mac("14.5"), origin);
  ASSERT_EQ(pkgconf->provides.size(), 2u);
  EXPECT_EQ(pkgconf->provides[0].name, "pkg-config");
  EXPECT_EQ(pkgconf->provides[0].version, "2.3.0_1");
}

TEST(HomebrewCellar, KegsAndTheirReceipts) {
  auto kegs = read_cellar(data("root/opt/homebrew"));
  ASSERT_TRUE(kegs.ok()) << kegs.error().message;
  std::map<std::string, Keg> by;
  for (auto& k : *kegs) by.emplace(k.name, k);
  // half-installed has no receipt: brew does not count it as installed.
  EXPECT_EQ(by.size(), 4u);
  EXPECT_FALSE(by.count("half-installed"));
  EXPECT_EQ(by.at("zlib").pkg_version, "1.3.1");  // the keg opt/ points at, of two
  EXPECT_TRUE(by.at("cmake").linked);
  EXPECT_FALSE(by.at("openssl@3").linked);  // keg-only
  EXPECT_EQ(by.at("openssl@3").runtime_dependencies, std::vector<std::string>{"ca-certificates"});
  EXPECT_TRUE(by.at("openssl@3").poured_from_bottle);

  const std::string bad = test::temp_dir();
  fs::create_directories(bad + "/Cellar/x/1.0");
  std::ofstream(bad + "/Cellar/x/1.0/INSTALL_RECEIPT.json") << "{\"runtime_dependencies\": [{\"version\": \"1\"}]}";
  auto e = read_cellar(bad);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("INSTALL_RECEIPT.json"), std::string::npos) << e.error().message;
  EXPECT_NE(e.error().message.find("full_name"), std::string::npos) << e.error().message;
}

TEST(HomebrewCommands, OneBrewStepNeverThroughSudo) {
  auto cmds = install_commands({{"gdal", "3.10.0_2", "", "arm64_sonoma"}, {"pkgconf", "2.3.0_1", "", "arm64_sonoma"}});
  ASSERT_EQ(cmds.size(), 1u);
  EXPECT_EQ(cmds[0].argv, (std::vector<std::string>{"env", "HOMEBREW_NO_AUTO_UPDATE=1", "HOMEBREW_NO_ASK=1", "brew",
                                                    "install", "--formula", "gdal", "pkgconf"}));
  EXPECT_FALSE(cmds[0].requires_elevation);
  EXPECT_TRUE(install_commands({}).empty());
}

struct Resolved {
  int rc = 0;
  std::string err;
  nlohmann::json plan;
};

Resolved resolve(const std::vector<std::string>& extra, std::map<std::string, std::string> env,
                 const std::string& declaration = data("pyproject.toml")) {
  auto ctx = Context::for_test("/", std::move(env));
  std::ostringstream out, err;
  std::vector<std::string> args = {"resolve",       declaration,      "--root", data("root"),  "--manager",     "brew",
                                   "--mapping-dir", data("mappings"), "--json", "--cache-dir", test::temp_dir()};
  args.insert(args.end(), extra.begin(), extra.end());
  Resolved r;
  r.rc = cli::run(ctx, args, out, err);
  r.err = err.str();
  if (!out.str().empty()) r.plan = nlohmann::json::parse(out.str(), nullptr, false);
  return r;
}

// The macOS a plan is for, from overrides: every planned formula pours the bottle for that
// release and CPU, what the Cellar has is kept, and one brew step installs the rest.
TEST(HomebrewResolve, APlanForSonomaOnAppleSiliconPoursSonomasBottles) {
  auto r =
      resolve({"--system", "macos:14.5", "--homebrew-api", data("formula.json")}, {{"EXTDEPS_OVERRIDE_ARCH", "arm64"}});
  ASSERT_EQ(r.rc, 0) << r.err << r.plan.dump(1);
  std::map<std::string, std::string> status;
  for (const auto& q : r.plan["requirements"]) status[q["id"]] = q["status"];
  EXPECT_EQ(status.size(), 12u);
  EXPECT_EQ(status["dep:generic/cmake"], "satisfied");    // 3.30.5 in the Cellar, >= 3.20
  EXPECT_EQ(status["dep:generic/openssl"], "satisfied");  // the keg-only 3.3.2
  EXPECT_EQ(status["dep:generic/zlib"], "satisfied");
  EXPECT_EQ(status["dep:generic/gdal"], "planned");
  ASSERT_EQ(r.plan["steps"].size(), 1u);
  const auto& step = r.plan["steps"][0];
  EXPECT_EQ(step["manager"], "brew");
  std::map<std::string, std::string> bottle, version;
  for (const auto& p : step["packages"]) {
    bottle[p["name"]] = p.value("build", "");
    version[p["name"]] = p["version"];
  }
  EXPECT_EQ(version["gdal"], "3.10.0_2");
  EXPECT_EQ(version["pkgconf"], "2.3.0_1");
  for (const auto& [name, tag] : bottle) EXPECT_TRUE(tag == "arm64_sonoma" || tag == "all") << name << " pours " << tag;
  EXPECT_EQ(bottle["eigen"], "all");
  EXPECT_EQ(bottle.count("cmake"), 0u);
}

TEST(HomebrewResolve, AnotherMacOSAnotherBottle) {
  std::map<std::string, std::string> env = {{"EXTDEPS_OVERRIDE_ARCH", "arm64"}, {"EXTDEPS_OVERRIDE_OS", "macos:13.6"}};
  auto r = resolve({"--homebrew-api", data("formula.json")}, env);
  ASSERT_EQ(r.rc, 0) << r.err;
  std::map<std::string, std::string> bottle;
  for (const auto& p : r.plan["steps"][0]["packages"]) bottle[p["name"]] = p.value("build", "");
  EXPECT_EQ(bottle["libpng"], "arm64_ventura");
  EXPECT_EQ(bottle["gdal"], "source");  // gdal has no bottle for ventura: brew builds it
}

// container needs macOS 15 (a requirement): a plan for macOS 14 says so; one for 15 installs it.
TEST(HomebrewResolve, ARequirementOnTheMacOSRelease) {
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/pyproject.toml")
      << "[project]\nname = \"c\"\nversion = \"0\"\n[external]\nbuild-requires = [\"dep:generic/container\"]\n";
  std::map<std::string, std::string> env = {{"EXTDEPS_OVERRIDE_ARCH", "arm64"}};
  auto old = resolve({"--system", "macos:14.5", "--homebrew-api", data("formula.json")}, env, dir + "/pyproject.toml");
  EXPECT_EQ(old.rc, 1) << old.err;
  EXPECT_EQ(old.plan["requirements"][0]["status"], "unsatisfiable");
  EXPECT_NE(old.plan.dump().find("container 0.7.1 (homebrew) needs macOS >=15 and this plan is for macOS 14.5"),
            std::string::npos)
      << old.plan.dump(1);
  auto now = resolve({"--system", "macos:15.1", "--homebrew-api", data("formula.json")}, env, dir + "/pyproject.toml");
  ASSERT_EQ(now.rc, 0) << now.err;
  EXPECT_EQ(now.plan["steps"][0]["packages"][0]["build"], "arm64_sequoia");
}

// Homebrew on Linux: the x86_64_linux bottles, Linux's variation, and the Cellar of
// /home/linuxbrew/.linuxbrew (empty under this root).
TEST(HomebrewResolve, HomebrewOnLinuxPoursTheLinuxBottles) {
  auto r = resolve({"--homebrew-api", data("formula.json")},
                   {{"EXTDEPS_OVERRIDE_OS", "debian:12"}, {"EXTDEPS_OVERRIDE_ARCH", "amd64"}});
  ASSERT_EQ(r.rc, 0) << r.err;
  std::map<std::string, std::string> bottle;
  for (const auto& p : r.plan["steps"][0]["packages"]) bottle[p["name"]] = p.value("build", "");
  EXPECT_EQ(bottle["cmake"], "x86_64_linux");  // not installed in this Cellar
  EXPECT_EQ(bottle["gdal"], "x86_64_linux");
  EXPECT_EQ(bottle["eigen"], "all");
}

// The index from the API (HOMEBREW_API_DOMAIN, a real server on 127.0.0.1): formula.jws.json.
TEST(HomebrewResolve, TheIndexComesFromTheAPIDomain) {
  test::HttpServer server;
  test::Route route;
  route.body =
      nlohmann::json{{"payload", test::read_file(data("formula.json"))}, {"signatures", nlohmann::json::array()}}
          .dump();
  server.route("/api/formula.jws.json", route);
  std::map<std::string, std::string> env = {{"EXTDEPS_OVERRIDE_ARCH", "arm64"},
                                            {"EXTDEPS_OVERRIDE_OS", "macos:14.5"},
                                            {"HOMEBREW_API_DOMAIN", server.url("/api")},
                                            {"EXTDEPS_ALLOW_INSECURE_HTTP", "1"}};
  auto r = resolve({}, env);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(server.count("/api/formula.jws.json"), 1);
  std::set<std::string> planned;
  for (const auto& p : r.plan["steps"][0]["packages"]) planned.insert(p["name"]);
  EXPECT_TRUE(planned.count("gdal"));
}

// `extdeps env` for a keg-only formula: its opt prefix's folders, which brew's caveats name.
TEST(HomebrewEnv, AKegOnlyFormulaIsFoundThroughItsOptPrefix) {
  auto ctx = Context::for_test("/", {{"EXTDEPS_OVERRIDE_ARCH", "arm64"}, {"EXTDEPS_OVERRIDE_OS", "macos:14.5"}});
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/pyproject.toml")
      << "[project]\nname = \"e\"\nversion = \"0\"\n[external]\nhost-requires = [\"dep:generic/openssl\"]\n";
  std::ostringstream out, err;
  int rc = cli::run(
      ctx,
      {"env", dir + "/pyproject.toml", "--root", data("root"), "--manager", "brew", "--mapping-dir", data("mappings"),
       "--homebrew-api", data("formula.json"), "--cache-dir", test::temp_dir(), "--format", "json"},
      out, err);
  ASSERT_EQ(rc, 0) << err.str() << out.str();
  const std::string text = out.str();
  EXPECT_NE(text.find(data("root") + "/opt/homebrew/opt/openssl@3/lib/pkgconfig"), std::string::npos) << text;
  EXPECT_NE(text.find(data("root") + "/opt/homebrew/opt/openssl@3/include"), std::string::npos) << text;
}

// `mappings verify` of a homebrew table against a formula index: every name found; an alias is
// "provided by" its formula, a name no formula has is missing (exit 1).
TEST(HomebrewVerify, ATableAgainstAFormulaIndex) {
  auto verify = [](const std::string& dir, std::string& out_text) {
    auto ctx = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", dir}});
    std::ostringstream out, err;
    int rc =
        cli::run(ctx, {"mappings", "verify", "--ecosystem", "homebrew", "--index", data("formula.json")}, out, err);
    out_text = out.str() + err.str();
    return rc;
  };
  std::string text;
  EXPECT_EQ(verify(data("mappings"), text), 0) << text;
  EXPECT_NE(text.find("16 found, 0 missing"), std::string::npos) << text;
  const std::string dir = test::temp_dir();
  std::string table = test::read_file(data("mappings/homebrew.toml"));
  auto swap = [&](const std::string& from, const std::string& to) { table.replace(table.find(from), from.size(), to); };
  swap("build = [\"pkgconf\"]", "build = [\"pkg-config\"]");
  swap("host = [\"zlib\"]", "host = [\"zlib-nope\"]");
  std::ofstream(dir + "/homebrew.toml") << table;
  EXPECT_EQ(verify(dir, text), 1) << text;
  EXPECT_NE(text.find("pkg-config is only a virtual package (provided by pkgconf)"), std::string::npos) << text;
  EXPECT_NE(text.find("zlib-nope is not in the index"), std::string::npos) << text;
}

}  // namespace
}  // namespace extdeps::homebrew
