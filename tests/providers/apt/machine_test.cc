// The apt provider against this machine's own lists and dpkg database, checked with dpkg-query.
// Skipped, saying why, where there are no apt lists or no dpkg-query.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>

#include "providers/apt/apt_provider.h"
#include "tests/providers/apt/apt_test_support.h"

namespace extdeps::apt {
namespace {

struct Queried {
  bool ok = false;
  std::string out;
};

Queried run(const std::string& command) {
  Queried q;
  FILE* f = ::popen(command.c_str(), "r");
  if (!f) return q;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) q.out.append(buf, n);
  q.ok = ::pclose(f) == 0;
  return q;
}

TEST(AptMachine, InstalledPackagesMatchDpkgQueryAndListsOfferLibc6) {
  Context ctx = Context::from_process();
  Architectures archs = architectures(ctx);
  if (list_index_files(ctx, archs).empty())
    GTEST_SKIP() << ctx.host_path("/var/lib/apt/lists") << " has no Packages files for " << archs.native
                 << " (not a Debian machine, or 'apt-get update' never ran)";
  Queried q = run("dpkg-query -W -f='${Package}\\t${Architecture}\\t${Version}\\t${Status}\\n' 2>/dev/null");
  if (!q.ok) GTEST_SKIP() << "dpkg-query is not available here";
  // dpkg-query's own idea of the native architecture decides the naming, as dpkg would.
  Queried native = run("dpkg --print-architecture 2>/dev/null");
  ASSERT_TRUE(native.ok);
  archs.native = native.out.substr(0, native.out.find('\n'));
  ctx.set_env([&](std::string_view name) -> std::optional<std::string> {
    if (name == "EXTDEPS_OVERRIDE_ARCH") return archs.native;
    return std::nullopt;
  });

  auto p = make_provider(ctx);
  ASSERT_TRUE(p->available(ctx));
  test::Collected available, installed;
  auto t0 = std::chrono::steady_clock::now();
  auto r = p->load(ctx, available.sink(), installed.sink());
  auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::printf("[ info     ] load() of this machine: %zu available, %zu installed in %.0f ms\n",
              available.records.size(), installed.records.size(), ms);

  std::map<std::string, std::string> ours;
  for (const auto& rec : installed.records) ours[rec.name] = rec.version;
  std::istringstream lines(q.out);
  std::string line;
  size_t ok_installed = 0, checked = 0;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name, arch, version, status;
    std::getline(fields, name, '\t');
    std::getline(fields, arch, '\t');
    std::getline(fields, version, '\t');
    std::getline(fields, status);
    std::istringstream words(status);
    std::string want, flag, state;
    words >> want >> flag >> state;
    if (flag != "ok" || state != "installed") continue;
    ++ok_installed;
    std::string key = (arch == archs.native || arch == "all") ? name : name + ":" + arch;
    if (want != "install") continue;
    ++checked;
    auto it = ours.find(key);
    if (it == ours.end()) {
      ADD_FAILURE() << key << " " << version << " is installed but was not loaded";
      continue;
    }
    EXPECT_EQ(it->second, version) << key;
  }
  EXPECT_GT(checked, 0u);
  EXPECT_EQ(installed.records.size(), ok_installed);

  const PackageRecord* libc6 = available.find("libc6");
  ASSERT_NE(libc6, nullptr) << "libc6 is not among the available packages";
  EXPECT_FALSE(libc6->version.empty());
  EXPECT_FALSE(libc6->installed);
}

}  // namespace
}  // namespace extdeps::apt
