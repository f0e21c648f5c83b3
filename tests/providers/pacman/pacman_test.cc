// The pacman provider on a world the real tools built (make_world.sh: bsdtar packages, repo-add,
// pacman -Sy and pacman -U into a throw-away root): its databases read as pacman wrote them, a
// fourteen-need declaration resolved, and the plan checked by the real `pacman -Sp`.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/cli/cli.h"
#include "core/util/limits.h"
#include "providers/pacman/pacman_provider.h"
#include "tests/core/version/version_fixtures.h"
#include "tests/support/http_server.h"
#include "tests/support/tool_world.h"
#include "tests/test_support.h"

namespace extdeps::pacman {
namespace {

namespace fs = std::filesystem;

#define WORLD_OR_SKIP(w) TOOL_WORLD_OR_SKIP(w, "pacman")

TEST(PacmanDatabase, TheSyncDatabaseReadsAsRepoAddWroteIt) {
  WORLD_OR_SKIP(w);
  std::map<std::string, PackageRecord> by_name;
  auto r = read_sync_db(w + "/root/var/lib/pacman/sync/test.db", "x86_64",
                        [&](PackageRecord&& rec) { by_name[rec.name] = std::move(rec); });
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(by_name.size(), 23u);
  const auto& zlib = by_name.at("zlib");
  EXPECT_EQ(zlib.version, "1:1.3.1-2");
  EXPECT_EQ(zlib.arch, "x86_64");
  const auto& gdal = by_name.at("gdal");
  std::set<std::string> deps;
  for (const auto& alt : gdal.depends) deps.insert(test::show_dep(alt.front()));
  EXPECT_TRUE(deps.count("proj>=9")) << gdal.depends.size();
  EXPECT_TRUE(deps.count("hdf5"));
  const auto& openblas = by_name.at("openblas");
  ASSERT_EQ(openblas.provides.size(), 3u);
  EXPECT_EQ(test::show_dep(openblas.provides[0]), "blas=3.12.0");
  EXPECT_EQ(test::show_dep(openblas.conflicts[0]), "blas");
  EXPECT_EQ(by_name.at("eigen").arch, "any");  // "any" is every architecture's

  // Another architecture's packages are left out, "any" kept.
  std::set<std::string> aarch64;
  ASSERT_TRUE(read_sync_db(w + "/root/var/lib/pacman/sync/test.db", "aarch64", [&](PackageRecord&& rec) {
                aarch64.insert(rec.name);
              }).ok());
  EXPECT_EQ(aarch64, (std::set<std::string>{"eigen"}));
}

TEST(PacmanDatabase, TheLocalDatabaseIsWhatPacmanInstalled) {
  WORLD_OR_SKIP(w);
  std::map<std::string, std::string> installed;
  auto r = read_local_db(w + "/root/var/lib/pacman/local", [&](PackageRecord&& rec) {
    EXPECT_TRUE(rec.installed);
    installed[rec.name] = rec.version;
  });
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(installed, (std::map<std::string, std::string>{
                           {"glibc", "2.40+r16+gaa533d58ff-2"}, {"pkgconf", "1.8.1-1"}, {"zlib", "1:1.3.1-2"}}));
}

// Issue 31: a local desc linked to /dev/zero was read whole (bad_alloc). A desc that is a link,
// a FIFO or a folder is an error naming it, at once; an entry without one is skipped, as pacman
// does.
TEST(PacmanDatabase, ALocalDescThatIsNotAFileIsAnErrorNotARead) {
  namespace fs = std::filesystem;
  const std::string local = test::temp_dir();
  fs::create_directories(local + "/zlib-1:1.3.1-2");
  std::ofstream(local + "/zlib-1:1.3.1-2/desc") << "%NAME%\nzlib\n\n%VERSION%\n1:1.3.1-2\n\n%ARCH%\nx86_64\n";
  fs::create_directories(local + "/no-desc-1.0-1");
  std::size_t read = 0;
  ASSERT_TRUE(read_local_db(local, [&](PackageRecord&&) { ++read; }).ok());
  EXPECT_EQ(read, 1u);
  fs::create_directories(local + "/zero-1.0-1");
  fs::create_symlink("/dev/zero", local + "/zero-1.0-1/desc");
  auto r = read_local_db(local, [](PackageRecord&&) {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message,
            local + "/zero-1.0-1/desc: is a symbolic link, which is not followed here (expected a regular file)");
  fs::remove(local + "/zero-1.0-1/desc");
  ASSERT_EQ(::mkfifo((local + "/zero-1.0-1/desc").c_str(), 0600), 0);
  r = read_local_db(local, [](PackageRecord&&) {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, local + "/zero-1.0-1/desc: is a FIFO, not a regular file");
}

TEST(PacmanDatabase, ADamagedDatabaseIsAnErrorAtItsByte) {
  WORLD_OR_SKIP(w);
  const std::string good = test::read_file(w + "/repo/test.db.tar.gz");
  const std::string bad = test::temp_dir() + "/cut.db";
  std::ofstream(bad, std::ios::binary) << good.substr(0, good.size() / 2);
  auto r = read_sync_db(bad, "x86_64", [](PackageRecord&&) {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_TRUE(r.error().place.starts_with(bad + ": byte ")) << r.error().message;

  // A desc value before any %SECTION%.
  PackageRecord rec;
  auto d = parse_desc("zlib\n%NAME%\nzlib\n", "x/desc", rec);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().place, "x/desc:1");

  // Issue 31: a 16 KB database unpacked to descs of millions of one-letter relations (about
  // 1 GB). A package has at most kMaxRelations, and a value the lengths of an index.
  std::string many = "%NAME%\nbomb\n%VERSION%\n1-1\n%DEPENDS%\n";
  for (std::size_t i = 0; i <= limits::kMaxRelations; ++i) many += "a\n";
  d = parse_desc(many, "x/desc", rec);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message,
            "x/desc:10006: more than 10000 relations in one package (expected at most that "
            "(docs/limits.md))");
  d = parse_desc("%NAME%\n" + std::string(5000, 'n') + "\n", "x/desc", rec);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message, "x/desc:2: a %NAME% value of 5000 bytes (expected at most 2048 bytes)");
}

// Long member names: GNU's ././@LongLink ('L') and pax's path= record (the fuzz seeds, written
// by Python's tarfile in both formats), as bsdtar may write them for long package names.
TEST(PacmanDatabase, LongMemberNamesOfBothTarFormats) {
  for (const char* seed : {"seed-gnu-long-name", "seed-pax-long-name"}) {
    const std::string bytes = test::read_file(std::string(EXTDEPS_TEST_DATA) + "/../fuzz/corpus/pacman_db/" + seed);
    auto reader = CompressedReader::over(bytes, seed);
    std::vector<std::string> names;
    auto r = read_sync_db(*reader, seed, "x86_64",
                          [&](PackageRecord&& rec) { names.push_back(rec.name + " " + rec.version); });
    ASSERT_TRUE(r.ok()) << seed << ": " << r.error().message;
    EXPECT_EQ(names, (std::vector<std::string>{"a-very-long-package-name-" + std::string(90, 'x') + " 1:1.0-1"}))
        << seed;
  }
}

TEST(PacmanConfig, ReposInOrderAndTheOptionsItUses) {
  const std::string root = test::temp_dir();
  const std::string f = root + "/pacman.conf";
  // A mirrorlist as Arch ships it: commented-out mirrors, then the chosen ones.
  std::ofstream(root + "/mirrorlist") << "## Worldwide\n#Server = https://geo.mirror.pkgbuild.com/$repo/os/$arch\n"
                                         "Server = https://mirror.example.net/archlinux/$repo/os/$arch\n"
                                         "Server = https://other.example.org/arch/$repo/os/$arch/\n";
  std::ofstream(f) << "# comment\n[options]\nDBPath = /srv/pacman/\nArchitecture = x86_64 x86_64_v3\n"
                      "SigLevel = Required DatabaseOptional\nColor\n\n[core]\nInclude = /mirrorlist\n"
                      "[extra]\nServer = https://example.org/$repo/os/$arch\n";
  auto c = read_config(f, root);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(c->found);
  EXPECT_EQ(c->dbpath, "/srv/pacman/");
  EXPECT_EQ(c->architecture, "x86_64");
  ASSERT_EQ(c->repos.size(), 2u);
  EXPECT_EQ(c->repos[0].name, "core");
  EXPECT_EQ(c->repos[1].name, "extra");
  EXPECT_EQ(c->repos[1].servers, (std::vector<std::string>{"https://example.org/$repo/os/$arch"}));
  EXPECT_EQ(db_url(c->repos[1].servers[0], "extra", "x86_64"), "https://example.org/extra/os/x86_64/extra.db");
  ASSERT_EQ(c->repos[0].servers.size(), 2u);  // from the Include, under the root
  EXPECT_EQ(db_url(c->repos[0].servers[1], "core", "x86_64"), "https://other.example.org/arch/core/os/x86_64/core.db");

  // A mirrorlist's own Include names a path on the same machine: under the root too (it was
  // read from this machine's /).
  std::ofstream(root + "/mirrorlist", std::ios::app) << "Include = /more\n";
  std::ofstream(root + "/more") << "Server = https://third.example.com/$repo/os/$arch\n";
  auto nested = read_config(f, root);
  ASSERT_TRUE(nested.ok()) << nested.error().message;
  EXPECT_EQ(nested->repos[0].servers.back(), "https://third.example.com/$repo/os/$arch");

  // An Include that is not there is an error at its line, as pacman makes it.
  std::ofstream(f, std::ios::trunc) << "[core]\nInclude = /etc/pacman.d/absent\n";
  auto missing = read_config(f, root);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().place, f + ":2");

  // Issue 31: a mirrorlist that includes itself 40 times was bounded in depth (4) but not in
  // fan-out: 40^4 reads. Over one pacman.conf at most 256 files are read.
  {
    std::ofstream loop(root + "/loop");
    loop << "Server = https://example.org/$repo\n";
    for (int i = 0; i < 40; ++i) loop << "Include = /loop\n";  // under the root, as pacman.conf's
  }
  std::ofstream(f, std::ios::trunc) << "[core]\nInclude = /loop\n";
  auto fanned = read_config(f, root);
  ASSERT_FALSE(fanned.ok());
  EXPECT_EQ(fanned.error().place, f + ":2");
  EXPECT_NE(fanned.error().message.find("more than 256 mirrorlist files read through Include"), std::string::npos)
      << fanned.error().message;

  std::ofstream(f, std::ios::trunc) << "DBPath = /x\n";
  auto bad = read_config(f);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().place, f + ":1");
  EXPECT_EQ(bad.error().code, ExitCode::bad_input);
  EXPECT_FALSE(read_config(f + ".absent")->found);
}

TEST(PacmanCommands, OnePacmanStepWithTheNames) {
  auto cmds = install_commands({{"gdal", "3.9.3-1", "x86_64", ""}, {"zlib", "1:1.3.1-2", "x86_64", ""}});
  ASSERT_EQ(cmds.size(), 1u);
  EXPECT_EQ(cmds[0].argv, (std::vector<std::string>{"pacman", "-S", "--needed", "--noconfirm", "--", "gdal", "zlib"}));
  EXPECT_TRUE(cmds[0].requires_elevation);
  EXPECT_TRUE(install_commands({}).empty());
}

// Fourteen needs resolve against the world's databases; what the plan installs is what the real
// pacman would install for those targets, at the same versions.
TEST(PacmanResolve, FourteenNeedsAndPacmanAcceptsThePlan) {
  WORLD_OR_SKIP(w);
  auto ctx = Context::from_process();
  ctx.set_warning_sink(nullptr);
  std::ostringstream out, err;
  const std::string data = std::string(EXTDEPS_TEST_DATA) + "/pacman";
  int rc = cli::run(ctx,
                    {"resolve", data + "/pyproject.toml", "--root", w + "/root", "--manager", "pacman", "--mapping-dir",
                     data + "/mappings", "--json", "--cache-dir", test::temp_dir()},
                    out, err);
  ASSERT_EQ(rc, 0) << err.str() << out.str();
  auto j = nlohmann::json::parse(out.str());
  ASSERT_EQ(j["requirements"].size(), 14u);
  std::map<std::string, std::string> status;
  for (const auto& r : j["requirements"]) status[r["id"]] = r["status"];
  EXPECT_EQ(status["dep:generic/zlib"], "satisfied");      // installed, 1:1.3.1-2 is >= 1.3
  EXPECT_EQ(status["dep:generic/pkg-config"], "planned");  // 1.8.1 installed; >=2 upgrades it
  EXPECT_EQ(status["dep:generic/gdal"], "planned");
  ASSERT_EQ(j["steps"].size(), 1u);
  const auto& step = j["steps"][0];
  EXPECT_EQ(step["manager"], "pacman");
  std::map<std::string, std::string> planned;
  std::string targets;
  for (const auto& p : step["packages"]) {
    planned[p["name"]] = p["version"];
    targets += " '" + p["name"].get<std::string>() + "'";
  }
  EXPECT_EQ(planned["pkgconf"], "2.3.0-1");
  EXPECT_EQ(planned["gdal"], "3.9.3-1");
  EXPECT_EQ(planned.count("zlib"), 0u);  // met as installed
  // The real pacman, asked for the same targets: it accepts them, and every package it would
  // install beyond them is one the plan's solve chose too (apt-style plans name the needs'
  // packages; the manager pulls their dependencies).
  auto r = version::testing::run_command(w + "/pacman.sh -Sp --needed --print-format '%n %v' --" + targets + " 2>&1");
  ASSERT_EQ(r.status, 0) << r.out;
  std::map<std::string, std::string> pacman_installs;
  for (const auto& line : version::testing::lines_of(r.out)) {
    auto sp = line.find(' ');
    if (sp != std::string::npos) pacman_installs[line.substr(0, sp)] = line.substr(sp + 1);
  }
  for (const auto& [name, version] : planned) {
    ASSERT_TRUE(pacman_installs.count(name)) << name << " is planned but pacman would not install it: " << r.out;
    EXPECT_EQ(pacman_installs[name], version) << name;
  }
  EXPECT_GE(pacman_installs.size(), planned.size());
}

// A root whose sync database pacman -Sy never fetched: the repository's database comes from its
// mirror in pacman.conf (a real HTTP server on 127.0.0.1), the first mirror failing, and the
// same plan comes out.
TEST(PacmanResolve, AMissingSyncDatabaseIsFetchedFromTheMirrors) {
  WORLD_OR_SKIP(w);
  test::HttpServer server;
  test::Route db;
  db.body = test::read_file(w + "/repo/test.db.tar.gz");
  server.route("/arch/test/os/x86_64/test.db", db);
  const std::string root = test::temp_dir() + "/root";
  fs::copy(w + "/root", root, fs::copy_options::recursive);
  fs::remove_all(root + "/var/lib/pacman/sync");
  std::ofstream(root + "/etc/pacman.d-mirrorlist") << "Server = " << server.url("/gone/$repo/os/$arch") << "\n"
                                                   << "Server = " << server.url("/arch/$repo/os/$arch") << "\n";
  std::ofstream(root + "/etc/pacman.conf", std::ios::trunc)
      << "[options]\nArchitecture = x86_64\n\n[test]\nInclude = /etc/pacman.d-mirrorlist\n";
  auto ctx = Context::from_process();
  ctx.set_warning_sink(nullptr);
  std::ostringstream out, err;
  const std::string data = std::string(EXTDEPS_TEST_DATA) + "/pacman";
  int rc = cli::run(ctx,
                    {"resolve", data + "/pyproject.toml", "--root", root, "--mapping-dir", data + "/mappings", "--json",
                     "--cache-dir", test::temp_dir()},
                    out, err);
  ASSERT_EQ(rc, 0) << err.str() << out.str();
  auto j = nlohmann::json::parse(out.str());
  ASSERT_EQ(j["steps"].size(), 1u);
  std::set<std::string> planned;
  for (const auto& p : j["steps"][0]["packages"]) planned.insert(p["name"]);
  EXPECT_TRUE(planned.count("gdal"));
  EXPECT_TRUE(planned.count("pkgconf"));
  EXPECT_EQ(server.count("/gone/test/os/x86_64/test.db"), 1);
  EXPECT_EQ(server.count("/arch/test/os/x86_64/test.db"), 1);
}

}  // namespace
}  // namespace extdeps::pacman
