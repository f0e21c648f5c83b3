// The apt provider over the bookworm fixture root (tests/data/apt/bookworm) and over small
// trees built in a temp dir: which lists it reads, what it loads, its cache key, its command.
#include "providers/apt/apt_provider.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/provider/descriptor.h"
#include "providers/apt/deb_version.h"
#include "tests/providers/apt/apt_test_support.h"
#include "tests/test_support.h"

namespace extdeps::apt {
namespace {

namespace fs = std::filesystem;
using test::Collected;
using Strings = std::vector<std::string>;

constexpr const char* kMain = "deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4";
constexpr const char* kSecurity =
    "deb.debian.org_debian-security_dists_bookworm-security_main_binary-amd64_Packages.xz";
constexpr const char* kUpdates = "deb.debian.org_debian_dists_bookworm-updates_main_binary-amd64_Packages.gz";

std::string fixture_root() { return extdeps::test::data_path("apt/bookworm"); }

Context fixture_context(const std::string& root = fixture_root()) {
  return Context::for_test(root, {{"EXTDEPS_OVERRIDE_ARCH", "amd64"}});
}

void write(const std::string& path, const std::string& text = "") {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// A copy of the fixture root that a test may change.
std::string fixture_copy() {
  std::string dir = extdeps::test::temp_dir() + "/root";
  fs::copy(fixture_root(), dir, fs::copy_options::recursive);
  return dir;
}

TEST(AptProvider, DescribesItselfOnTheFixtureRoot) {
  Context ctx = fixture_context();
  auto p = make_provider(ctx);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->ecosystem(), "debian");
  EXPECT_EQ(p->manager(), "apt");
  EXPECT_EQ(&p->scheme(), &version::deb_scheme);
  EXPECT_TRUE(p->available(ctx));
  Context empty = fixture_context(extdeps::test::temp_dir());
  EXPECT_FALSE(p->available(empty));
}

TEST(AptProvider, EcosystemIsDebianForDebianAndItsDerivatives) {
  detect::OsRelease os;
  EXPECT_EQ(ecosystem_for(os), "debian");
  os.id = "debian";
  EXPECT_EQ(ecosystem_for(os), "debian");
  os.id = "ubuntu";
  os.id_like = {"debian"};
  EXPECT_EQ(ecosystem_for(os), "debian");
  os.id = "linuxmint";
  os.id_like = {"ubuntu", "debian"};
  EXPECT_EQ(ecosystem_for(os), "debian");
  os.id = "fedora";
  os.id_like = {};
  EXPECT_EQ(ecosystem_for(os), "fedora");
}

TEST(AptProvider, ListsTheFixtureIndexFilesSorted) {
  std::string lists = fixture_root() + "/var/lib/apt/lists/";
  EXPECT_EQ(list_index_files(fixture_context(), Architectures{"amd64", {}}),
            (Strings{lists + kSecurity, lists + kUpdates, lists + kMain}));
  EXPECT_TRUE(list_index_files(fixture_context(), Architectures{"arm64", {}}).empty());
}

TEST(AptProvider, ListsOnlyThisMachinesArchitecturesAndKnownCodecs) {
  std::string root = extdeps::test::temp_dir();
  std::string l = root + "/var/lib/apt/lists/";
  for (const char* name :
       {"r_dists_s_main_binary-amd64_Packages.lz4", "r_dists_s_main_binary-i386_Packages.gz",
        "r_dists_s_main_binary-arm64_Packages.lz4", "r_dists_s_main_binary-all_Packages", "flat_._Packages.zst",
        "r_dists_s_contrib_binary-amd64_Packages.bz2", "r_dists_s_main_binary-amd64_Packages.diff_Index",
        "r_dists_s_InRelease", "r_dists_s_main_i18n_Translation-en.lz4",
        "partial/r_dists_s_non-free_binary-amd64_Packages"})
    write(l + name);
  Context ctx = fixture_context(root);
  EXPECT_EQ(list_index_files(ctx, architectures(ctx)),
            (Strings{l + "flat_._Packages.zst", l + "r_dists_s_main_binary-all_Packages",
                     l + "r_dists_s_main_binary-amd64_Packages.lz4"}));
  EXPECT_EQ(ctx.warnings(),
            (Strings{"skipping " + l + "r_dists_s_contrib_binary-amd64_Packages.bz2" +
                     ": bz2 and lzma lists are not read (configure apt to keep lz4, gz, xz or zst lists)"}));

  write(root + "/var/lib/dpkg/arch", "amd64\ni386\n");
  Architectures archs = architectures(ctx);
  EXPECT_EQ(archs.native, "amd64");
  EXPECT_EQ(archs.foreign, (Strings{"i386"}));
  EXPECT_EQ(list_index_files(ctx, archs).size(), 4u);
}

TEST(AptProvider, LoadsEveryListAndTheInstalledPackages) {
  Context ctx = fixture_context();
  auto p = make_provider(ctx);
  Collected available, installed;
  auto r = p->load(ctx, available.sink(), installed.sink());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(available.records.size(), 103u + 28u + 2u);
  EXPECT_EQ(installed.records.size(), 102u);
  EXPECT_TRUE(ctx.warnings().empty());

  // One package, three suites, three versions, each with its list as origin.
  const PackageRecord* main = available.find("libssl-dev", kMain);
  const PackageRecord* security = available.find("libssl-dev", kSecurity);
  const PackageRecord* updates = available.find("libssl-dev", kUpdates);
  ASSERT_TRUE(main && security && updates);
  EXPECT_EQ(main->version, "3.0.20-1~deb12u2");
  EXPECT_EQ(security->version, "3.0.22-1~deb12u2");
  EXPECT_EQ(updates->version, "3.0.17-1~deb12u2");
  EXPECT_EQ(test::show(security->depends), (Strings{"libssl3 (= 3.0.22-1~deb12u2)"}));

  const PackageRecord* gcc = installed.find("gcc-12");
  ASSERT_NE(gcc, nullptr);
  EXPECT_TRUE(gcc->installed);
  EXPECT_EQ(gcc->version, "12.2.0-14+deb12u1");
  EXPECT_EQ(gcc->origin, fixture_root() + "/var/lib/dpkg/status");
  EXPECT_EQ(test::show(gcc->provides), (Strings{"c-compiler"}));
  EXPECT_EQ(installed.find("libnl-3-200"), nullptr);
}

TEST(AptProvider, LoadsInstalledPackagesAndWarnsWithoutLists) {
  std::string root = extdeps::test::temp_dir();
  write(root + "/var/lib/dpkg/status", extdeps::test::read_file(fixture_root() + "/var/lib/dpkg/status"));
  Context ctx = fixture_context(root);
  Collected available, installed;
  auto r = make_provider(ctx)->load(ctx, available.sink(), installed.sink());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(available.records.empty());
  EXPECT_EQ(installed.records.size(), 102u);
  EXPECT_EQ(ctx.warnings(), (Strings{"no apt package lists under " + root +
                                     "/var/lib/apt/lists (only installed packages are known; run 'apt-get "
                                     "update' to fetch them)"}));
}

TEST(AptProvider, LoadFailsOnACorruptListNamingIt) {
  std::string root = fixture_copy();
  std::string list = root + "/var/lib/apt/lists/" + kMain;
  fs::copy_file(extdeps::test::data_path("apt/codecs/truncated_Packages.lz4"), list,
                fs::copy_options::overwrite_existing);
  Context ctx = fixture_context(root);
  Collected available, installed;
  auto r = make_provider(ctx)->load(ctx, available.sink(), installed.sink());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message, list +
                                   ": lz4 data ends early at byte offset 700 (expected the rest of the stream; "
                                   "the file may be truncated)");
}

TEST(AptProvider, IdentityIsStableAndFollowsTheFiles) {
  std::string root = fixture_copy();
  Context ctx = fixture_context(root);
  auto p = make_provider(ctx);
  auto a = p->identity(ctx), b = p->identity(ctx);
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a->key, b->key);
  EXPECT_EQ(a->key.rfind("apt archs=amd64\n" + root + "/var/lib/apt/lists/" + kSecurity + " 7788 ", 0), 0u) << a->key;
  EXPECT_NE(a->key.find(root + "/var/lib/dpkg/status "), std::string::npos);

  std::string status = root + "/var/lib/dpkg/status";
  fs::last_write_time(status, fs::last_write_time(status) + std::chrono::seconds(1));
  auto touched = p->identity(ctx);
  ASSERT_TRUE(touched.ok());
  EXPECT_NE(touched->key, a->key);

  write(root + "/var/lib/dpkg/arch", "amd64\ni386\n");
  auto multiarch = p->identity(ctx);
  ASSERT_TRUE(multiarch.ok());
  EXPECT_EQ(multiarch->key.rfind("apt archs=amd64,i386\n", 0), 0u);

  fs::remove(status);
  auto gone = p->identity(ctx);
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().message, status + ": cannot stat: No such file or directory");
}

TEST(AptProvider, InstallsPinnedVersionsInOneAptGetCall) {
  Context ctx = fixture_context();
  auto p = make_provider(ctx);
  EXPECT_TRUE(p->install_commands({}).empty());
  auto cmds = p->install_commands({{"zlib1g-dev", "1:1.2.13.dfsg-1", "amd64"},
                                   {"dpkg-dev", "1.21.23", "all"},
                                   {"libc6", "2.36-9+deb12u14", "i386"},
                                   {"libssl3:i386", "3.0.17-1~deb12u2", "i386"}});
  ASSERT_EQ(cmds.size(), 1u);
  EXPECT_TRUE(cmds[0].requires_elevation);
  EXPECT_EQ(cmds[0].argv, (Strings{"apt-get", "install", "-y", "--no-install-recommends", "-o",
                                   "DPkg::Lock::Timeout=300", "--", "zlib1g-dev=1:1.2.13.dfsg-1", "dpkg-dev=1.21.23",
                                   "libc6:i386=2.36-9+deb12u14", "libssl3:i386=3.0.17-1~deb12u2"}));
}

// A plan that removes: apt-get install's "name-" in the same call (apt-get(8)), a foreign
// architecture's as name:arch-, after the packages it installs.
TEST(AptProvider, RemovesInTheSameAptGetCall) {
  Context ctx = fixture_context();
  auto p = make_provider(ctx);
  EXPECT_TRUE(p->plans_removals());
  auto cmds = p->swap_commands(
      {{"libhts-dev", "1.16+ds-3", "amd64"}},
      {{"libcurl4-openssl-dev", "7.88.1-10+deb12u15", "amd64"}, {"libcurl4", "7.88.1-10+deb12u15", "i386"}});
  ASSERT_EQ(cmds.size(), 1u);
  EXPECT_TRUE(cmds[0].requires_elevation);
  EXPECT_EQ(cmds[0].argv,
            (Strings{"apt-get", "install", "-y", "--no-install-recommends", "-o", "DPkg::Lock::Timeout=300", "--",
                     "libhts-dev=1.16+ds-3", "libcurl4-openssl-dev-", "libcurl4:i386-"}));
}

// The packages no plan removes: dpkg status stanzas installed with Essential: yes or Protected:
// yes (on the fixture's real status: dpkg, perl-base and tar are Essential; libcrypt1 and
// libgcc-s1 Protected, as awk over the file says).
TEST(AptProvider, NeverRemovesWhatDpkgCallsEssentialOrProtected) {
  Context ctx = fixture_context();
  auto p = make_provider(ctx);
  EXPECT_EQ(p->never_removed(ctx), (Strings{"dpkg", "libcrypt1", "libgcc-s1", "perl-base", "tar"}));
}

// The files of an installed package, from dpkg's list of them (name:arch.list for a Multi-Arch:
// same package, name.list for the others), as the machine's paths; none for a package dpkg has
// no list of.
TEST(AptProvider, PackageFilesComeFromDpkgsLists) {
  const std::string root = fixture_copy();
  write(root + "/var/lib/dpkg/info/libcurl4-openssl-dev:amd64.list",
        "/.\n/usr\n/usr/lib/x86_64-linux-gnu/pkgconfig/libcurl.pc\n");
  write(root + "/var/lib/dpkg/info/make.list", "/usr/bin/make\n");
  Context ctx = fixture_context(root);
  auto p = make_provider(ctx);
  EXPECT_EQ(p->package_files(ctx, {"libcurl4-openssl-dev", "7.88.1-10+deb12u15", "amd64"}),
            (Strings{ctx.host_path("/."), ctx.host_path("/usr"),
                     ctx.host_path("/usr/lib/x86_64-linux-gnu/pkgconfig/libcurl.pc")}));
  EXPECT_EQ(p->package_files(ctx, {"make", "4.3-4.1", "amd64"}), (Strings{ctx.host_path("/usr/bin/make")}));
  EXPECT_TRUE(p->package_files(ctx, {"libhts-dev", "1.16+ds-3", "amd64"}).empty());
}

}  // namespace
}  // namespace extdeps::apt

namespace extdeps {
namespace {

// What apt's descriptor says each binary package of a source is for, on real bookworm names
// (tests/data/apt/run-guess: cogl, cglm, chmlib, cmph, babl; the others from the machine's
// lists): a run need guessed from a source takes only runtime ones.
TEST(AptPackageRole, DebianNamesSayWhatAPackageIsFor) {
  const ProviderDescriptor* d = descriptor_for_manager("apt");
  ASSERT_NE(d, nullptr);
  ASSERT_NE(d->package_role, nullptr);
  using R = mapping::PackageRole;
  const std::vector<std::pair<std::string, R>> cases = {{"libcogl20", R::runtime},
                                                        {"libcogl-path20", R::runtime},
                                                        {"libcglm0", R::runtime},
                                                        {"libbabl-0.1-0", R::runtime},
                                                        {"libcogl-dev", R::dev},
                                                        {"libaa1-dev", R::dev},
                                                        {"libcglm-doc", R::support},
                                                        {"libcogl-common", R::support},
                                                        {"gir1.2-cogl-1.0", R::support},
                                                        {"libc6-dbg", R::support},
                                                        {"libreoffice-l10n-de", R::support},
                                                        {"libchm-bin", R::tool},
                                                        {"libcmph-tools", R::tool},
                                                        {"augeas-tools", R::tool},
                                                        {"libnss-ldapd", R::plugin},
                                                        {"libpam-systemd", R::plugin},
                                                        {"gimp-plugin-registry", R::plugin}};
  for (const auto& [name, role] : cases) EXPECT_EQ(d->package_role(name), role) << name;
}

}  // namespace
}  // namespace extdeps
