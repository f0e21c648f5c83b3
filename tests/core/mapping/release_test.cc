// Per-release differences in one table ([id.release.X]) and a derivative's own table over its
// parent's, chosen for the machine by select_for_host; and the loader's errors for them.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "core/mapping/mapping.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

const std::string kDir = test::data_path("mapping/releases");

std::vector<std::vector<std::string>> packages(const Entry& e, Category c) {
  std::vector<std::vector<std::string>> out;
  for (const auto& a : e.alternatives(c)) out.push_back(a.packages);
  return out;
}

using L = std::vector<std::vector<std::string>>;

Tables releases_folder() {
  auto ctx = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", kDir}});
  auto t = load_tables(ctx, {});
  EXPECT_TRUE(t) << t.error().message;
  return t ? std::move(*t) : Tables{};
}

TEST(Releases, TheLoaderKeepsEachReleaseWithTheFallbackApplied) {
  auto t = load_table(kDir + "/debian.toml");
  ASSERT_TRUE(t) << t.error().message;
  const Entry* ssl = t->find("dep:generic/openssl");
  ASSERT_NE(ssl, nullptr);
  ASSERT_EQ(ssl->releases.size(), 2u);
  EXPECT_EQ(ssl->releases[0].release, "trixie");
  EXPECT_EQ(ssl->releases[0].where.line, 54);
  // Only run is written: build and host stay as the entry has them.
  EXPECT_EQ(packages(*ssl, Category::run), (L{{"libssl3"}}));
  const auto& trixie = ssl->releases[0].by_category;
  ASSERT_EQ(trixie.at(Category::run).size(), 1u);
  EXPECT_EQ(trixie.at(Category::run).front().packages, std::vector<std::string>{"libssl3t64"});
  ASSERT_EQ(trixie.at(Category::host).size(), 1u);
  EXPECT_EQ(trixie.at(Category::host).front().packages, std::vector<std::string>{"libssl-dev"});
  EXPECT_EQ(trixie.at(Category::build).front().packages, std::vector<std::string>{"libssl-dev"});
  EXPECT_EQ(trixie.at(Category::run).front().version.kind, "deb-upstream");
  const Entry* jpeg = t->find("dep:generic/libjpeg");
  ASSERT_EQ(jpeg->releases.size(), 2u);
  EXPECT_EQ(jpeg->releases[1].release, "22.04");
  EXPECT_EQ(jpeg->releases[1].note, "jammy");
}

TEST(Releases, TheMachinesCodenameSelectsItsLists) {
  Tables t = releases_folder();
  select_for_host(t, HostRelease{"debian", {}, "trixie", "13"});
  const Table* deb = t.find_ecosystem("debian");
  EXPECT_EQ(deb->selected_release, "trixie");
  EXPECT_EQ(packages(*deb->find("dep:generic/curl"), Category::run), (L{{"libcurl4t64"}, {"libcurl3t64-gnutls"}}));
  EXPECT_EQ(packages(*deb->find("dep:generic/curl"), Category::host),
            (L{{"libcurl4-openssl-dev"}, {"libcurl4-gnutls-dev"}}));
  // No trixie table: the entry stays as written (bookworm's names).
  EXPECT_EQ(packages(*deb->find("dep:generic/libjpeg"), Category::run), (L{{"libjpeg62-turbo"}}));
  EXPECT_TRUE(deb->find("dep:generic/flexiblas")->unavailable());
}

TEST(Releases, AVersionWithoutCodenameFindsTheCodenamesTable) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  // EXTDEPS_OVERRIDE_OS=debian:13 gives a VERSION_ID and no codename.
  EXPECT_EQ(HostRelease({"debian", {}, "", "13"}).release_names(), (std::vector<std::string>{"13", "trixie"}));
  EXPECT_EQ(HostRelease({"ubuntu", {"debian"}, "noble", "24.04"}).release_names(),
            (std::vector<std::string>{"noble", "24.04"}));
  Tables t = releases_folder();
  select_for_host(t, HostRelease{"debian", {}, "", "13"});
  EXPECT_EQ(packages(*t.find_ecosystem("debian")->find("dep:generic/openssl"), Category::run), (L{{"libssl3t64"}}));
}

// RHEL and its rebuilds use Fedora's table with their release "elN": the shipped fedora.toml's
// el9 tables apply on Rocky 9 (EPEL's and RHEL's names, or none).
TEST(Releases, ARhelRebuildIsElN) {
  EXTDEPS_NEEDS_PROVIDER("dnf");
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXPECT_EQ(HostRelease({"rocky", {"rhel", "centos", "fedora"}, "", "9.4"}).release_names(),
            (std::vector<std::string>{"9.4", "el9"}));
  EXPECT_EQ(HostRelease({"rhel", {"fedora"}, "", "8.10"}).release_names(), (std::vector<std::string>{"8.10", "el8"}));
  // A rebuild named without its ID_LIKE (--system almalinux:9) is known as one by its descriptor;
  // Oracle Linux's os-release names only fedora.
  EXPECT_EQ(HostRelease({"almalinux", {}, "", "9.5"}).release_names(), (std::vector<std::string>{"9.5", "el9"}));
  EXPECT_EQ(HostRelease({"ol", {"fedora"}, "", "9.5"}).release_names(), (std::vector<std::string>{"9.5", "el9"}));
  EXPECT_EQ(HostRelease({"fedora", {}, "", "41"}).release_names(), (std::vector<std::string>{"41"}));
  EXPECT_EQ(HostRelease({"linuxmint", {"ubuntu", "debian"}, "", "22"}).release_names(),
            (std::vector<std::string>{"22", "noble"}));
  auto fedora = load_table(std::string(EXTDEPS_SOURCE_MAPPINGS_DIR) + "/fedora.toml");
  ASSERT_TRUE(fedora.ok()) << fedora.error().message;
  Tables t;
  t.tables.push_back(std::move(*fedora));
  EXPECT_FALSE(t.tables[0].find("dep:generic/libcbor")->unavailable());
  select_for_host(t, HostRelease{"rocky", {"rhel", "centos", "fedora"}, "", "9.4"});
  EXPECT_TRUE(t.tables[0].find("dep:generic/libcbor")->unavailable());
  EXPECT_EQ(t.tables[0].selected_release, "el9");
}

TEST(Releases, UbuntuUsesItsOwnTableOverDebiansAndItsReleaseTables) {
  Tables t = releases_folder();
  select_for_host(t, HostRelease{"ubuntu", {"debian"}, "noble", "24.04"});
  const Table* deb = t.find_ecosystem("debian");  // what the apt provider reads on Ubuntu
  ASSERT_NE(deb, nullptr);
  EXPECT_EQ(deb->find("dep:generic/zlib")->note, "from ubuntu.toml");
  EXPECT_EQ(packages(*deb->find("dep:generic/libjpeg"), Category::host), (L{{"libjpeg-turbo8-dev"}}));
  EXPECT_EQ(packages(*deb->find("dep:generic/flexiblas"), Category::run), (L{{"libflexiblas3"}}));
  // The entry has nothing for build: the release's own fallback (build <- host) answers.
  EXPECT_EQ(packages(*deb->find("dep:generic/flexiblas"), Category::build), (L{{"libflexiblas-dev"}}));
  EXPECT_FALSE(deb->find("dep:generic/flexiblas")->unavailable());
  // jammy is named by its VERSION_ID in the table.
  Tables jammy = releases_folder();
  select_for_host(jammy, HostRelease{"ubuntu", {"debian"}, "jammy", "22.04"});
  EXPECT_EQ(jammy.find_ecosystem("debian")->find("dep:generic/libjpeg")->note, "jammy");
  EXPECT_TRUE(jammy.find_ecosystem("debian")->find("dep:generic/flexiblas")->unavailable());
}

TEST(Releases, AnotherMachineKeepsTheTableAsWritten) {
  Tables t = releases_folder();
  select_for_host(t, HostRelease{"fedora", {}, "", "41"});
  EXPECT_EQ(t.find_ecosystem("debian")->selected_release, "");
  EXPECT_EQ(packages(*t.find_ecosystem("debian")->find("dep:generic/openssl"), Category::run), (L{{"libssl3"}}));
  EXPECT_EQ(t.find_ecosystem("debian")->find("dep:generic/zlib"), nullptr);
}

// PEP 804's versioned ecosystem ids: debian+13.toml is tried first on Debian 13, debian.toml is
// the fallback for every id it does not name.
Tables versioned_folder() {
  auto ctx = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", test::data_path("mapping/versioned")}});
  auto t = load_tables(ctx, {});
  EXPECT_TRUE(t) << t.error().message;
  return t ? std::move(*t) : Tables{};
}

std::vector<std::string> ecosystems(const Tables& t) {
  std::vector<std::string> out;
  for (const auto& x : t.tables) out.push_back(x.ecosystem);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Releases, AVersionedTableIsTriedFirstAndThePlainOneIsTheFallback) {
  Tables t = versioned_folder();
  EXPECT_EQ(ecosystems(t), (std::vector<std::string>{"debian", "debian+13", "ubuntu+24.04"}));
  select_for_host(t, HostRelease{"debian", {}, "trixie", "13"});
  // Applied: its entries are the debian table's now, and it is no ecosystem of its own.
  EXPECT_EQ(ecosystems(t), (std::vector<std::string>{"debian", "ubuntu+24.04"}));
  const Table* deb = t.find_ecosystem("debian");
  EXPECT_EQ(packages(*deb->find("dep:generic/openssl"), Category::run), (L{{"libssl3t64"}}));
  EXPECT_EQ(packages(*deb->find("dep:generic/zlib"), Category::run), (L{{"zlib1g"}}));
  EXPECT_EQ(packages(*deb->find("dep:generic/curl"), Category::run), (L{{"libcurl4"}}));
  ASSERT_EQ(deb->overlays.size(), 1u);
  EXPECT_NE(deb->overlays[0].find("debian+13.toml"), std::string::npos);
  // By VERSION_ID alone (EXTDEPS_OVERRIDE_OS=debian:13) too.
  Tables by_version = versioned_folder();
  select_for_host(by_version, HostRelease{"debian", {}, "", "13"});
  EXPECT_EQ(packages(*by_version.find_ecosystem("debian")->find("dep:generic/openssl"), Category::run),
            (L{{"libssl3t64"}}));
}

TEST(Releases, AnotherReleaseLeavesTheVersionedTableUnused) {
  Tables t = versioned_folder();
  select_for_host(t, HostRelease{"debian", {}, "bookworm", "12"});
  EXPECT_EQ(ecosystems(t), (std::vector<std::string>{"debian", "debian+13", "ubuntu+24.04"}));
  EXPECT_EQ(packages(*t.find_ecosystem("debian")->find("dep:generic/openssl"), Category::run), (L{{"libssl3"}}));
  // ubuntu+24.04 is Ubuntu's: Debian 24.04 is no release of it.
  EXPECT_EQ(packages(*t.find_ecosystem("debian")->find("dep:generic/curl"), Category::run), (L{{"libcurl4"}}));
}

TEST(Releases, AVersionedTableWithNoPlainOneIsTheDerivativesTable) {
  // No ubuntu.toml: ubuntu+24.04 is Ubuntu's table on noble and lays itself over Debian's.
  Tables t = versioned_folder();
  select_for_host(t, HostRelease{"ubuntu", {"debian"}, "noble", "24.04"});
  const Table* deb = t.find_ecosystem("debian");
  EXPECT_EQ(packages(*deb->find("dep:generic/curl"), Category::run), (L{{"libcurl4t64"}}));
  EXPECT_EQ(packages(*deb->find("dep:generic/openssl"), Category::run), (L{{"libssl3"}}));
  EXPECT_NE(t.find_ecosystem("ubuntu"), nullptr);
  EXPECT_EQ(t.find_ecosystem("ubuntu+24.04"), nullptr);
  // debian+13 is Debian's: an Ubuntu machine never takes it, whatever its ID_LIKE says.
  EXPECT_NE(t.find_ecosystem("debian+13"), nullptr);
}

// The loader's messages for release tables, each with its file:line:col.
class ReleaseErrors : public ::testing::Test {
 protected:
  std::string load(const std::string& entry_tail) {
    const std::string path = dir_ + "/t" + std::to_string(n_++) + ".toml";
    std::ofstream(path) << "schema = 1\necosystem = \"debian\"\nmanager = \"apt\"\nrelease = \"bookworm\"\n\n"
                           "[[id]]\nid = \"dep:generic/x\"\nhost = [\"libx-dev\"]\n"
                        << entry_tail;
    auto t = load_table(path);
    if (t) return "";
    std::string m = t.error().message;
    return m.rfind(path, 0) == 0 ? "F" + m.substr(path.size()) : m;
  }
  std::string dir_ = test::temp_dir();
  int n_ = 0;
};

TEST_F(ReleaseErrors, EachMistakeIsNamedWhereItIs) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  EXPECT_EQ(load("\n[id.release.trixie]\nhost = [\"libx2-dev\"]\n"), "");
  EXPECT_EQ(load("\n[id.release.bookworm]\nhost = [\"libx-dev\"]\n"),
            "F:10:13: release 'bookworm' of dep:generic/x is the table's own release: write it in the entry itself");
  EXPECT_EQ(load("\n[id.release.Trixie]\nhost = [\"libx-dev\"]\n"),
            "F:10:13: release 'Trixie' of dep:generic/x is not a release name (a codename such as trixie, or a "
            "version such as 24.04)");
  EXPECT_EQ(load("\n[id.release.trixie]\nhots = [\"libx-dev\"]\n"),
            "F:11:1: unknown key 'hots' in [id.release.trixie] of dep:generic/x (did you mean 'host'?)");
  EXPECT_EQ(load("\n[id.release.trixie]\nhost = []\n"),
            "F:10:1: dep:generic/x (release trixie) maps to no package: add a note saying why");
  EXPECT_EQ(load("\n[id.release.trixie]\nhost = [\"LibX\"]\n"), "F:11:9: 'LibX' is not a valid Debian package name");
  // A release that writes no list takes the entry's (its note is what differs).
  EXPECT_EQ(load("\n[id.release.trixie]\nnote = \"the same in trixie\"\n"), "");
  EXPECT_EQ(load("\n[[id.release.trixie.alternative]]\nnote = \"nothing\"\n"),
            "F:10:1: an alternative of dep:generic/x (release trixie) lists no packages");
  EXPECT_EQ(load("release = \"trixie\"\n"),
            "F:9:11: 'release' must be a table of releases ([id.release.trixie]), got string");
}

}  // namespace
}  // namespace extdeps::mapping
