// mappings/fedora.toml against Fedora's spec files: the binary package names the spec of every
// Fedora (rawhide) package builds or provides (major/fedora-rpm-specs @ 10e71f1, 2026-08-22),
// trimmed to the names the table uses in tests/data/mapping/indexes/fedora-packages.txt by
// trim_fedora_specs.py. Checked: the entry-level names and the Fedora-numbered releases ("43":
// rawhide is newer); [id.release.el8]/[id.release.el9] are RHEL with EPEL, which rawhide cannot
// speak for, and are left out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "core/mapping/mapping.h"
#include "tests/core/mapping/shipped.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

using namespace table_testing;

// fedora-packages.txt: `NAME` (a spec builds NAME) or `NAME PACKAGE` (only PACKAGE's Provides:
// has it); '#' starts a comment. Name -> the providing package, "" where a spec builds it.
std::map<std::string, std::string> fedora_names() {
  std::map<std::string, std::string> out;
  std::ifstream in(test::data_path("mapping/indexes/fedora-packages.txt"));
  EXPECT_TRUE(in);
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string name, by, extra;
    if (!(words >> name)) continue;
    words >> by;
    EXPECT_FALSE(words >> extra) << line;
    out[name] = by;
  }
  return out;
}

bool numbered(const std::string& release) {
  return !release.empty() &&
         std::all_of(release.begin(), release.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// The names an entry installs on Fedora: entry level and numbered releases, not el8/el9.
std::set<std::string> fedora_names_of(const Entry& e) {
  std::set<std::string> names;
  for (const auto& n : e.all_packages()) names.insert(n);
  for (const auto& r : e.releases) {
    if (!numbered(r.release)) continue;
    for (const auto& [c, alts] : r.by_category)
      for (const auto& a : alts) names.insert(a.packages.begin(), a.packages.end());
  }
  return names;
}

TEST(FedoraTable, VerifiedNamesAreBuiltByFedorasSpecs) {
  const Table t = shipped("fedora.toml");
  const auto known = fedora_names();
  ASSERT_GE(known.size(), 600u);
  std::size_t verified = 0, unverified = 0, by_provide = 0;
  for (const auto& e : t.entries) {
    const auto names = fedora_names_of(e);
    ASSERT_FALSE(names.empty()) << e.id;
    bool all = true;
    for (const auto& n : names) all = all && known.count(n);
    if (e.unverified) {
      ++unverified;
      EXPECT_FALSE(all) << e.id << ": every name is built or provided by a Fedora spec; drop `unverified`";
    } else {
      ++verified;
      for (const auto& n : names) {
        const auto it = known.find(n);
        EXPECT_NE(it, known.end()) << e.id << ": no Fedora spec builds or provides " << n;
        if (it != known.end() && !it->second.empty()) ++by_provide;
      }
    }
  }
  EXPECT_EQ(verified, 584u);
  EXPECT_EQ(unverified, 17u);
  // Names only a Provides: supplies, which dnf resolves to the providing package.
  EXPECT_EQ(known.at("redis"), "valkey-compat-redis");
  EXPECT_EQ(known.at("java-devel"), "java-25-openjdk-devel");
  EXPECT_EQ(known.at("libusbx-devel"), "libusb1-devel");
  EXPECT_EQ(known.at("sqlite-devel"), "");  // built by specs/sqlite.spec
  EXPECT_EQ(by_provide, 15u);
  // Names rawhide's specs spell otherwise, corrected.
  EXPECT_TRUE(mentions(*t.find("dep:generic/libgit2"), "libgit2_1.9-devel"));
  EXPECT_TRUE(mentions(*t.find("dep:generic/coin"), "Coin4-devel"));
  EXPECT_TRUE(mentions(*t.find("dep:generic/osmesa"), "mesa-compat-libOSMesa-devel"));
  EXPECT_FALSE(mentions(*t.find("dep:generic/antlr"), "antlr3-C"));
  // Unchecked: el8/el9 (RHEL with EPEL) keep names rawhide does not have.
  std::size_t el_only = 0;
  for (const auto& e : t.entries)
    for (const auto& r : e.releases)
      if (!numbered(r.release))
        for (const auto& [c, alts] : r.by_category)
          for (const auto& a : alts)
            for (const auto& n : a.packages) el_only += known.count(n) == 0;
  EXPECT_GT(el_only, 0u);
}

// The -devel names the spec of a runtime package may build beside it, as trim_fedora_specs.py
// tries them: NAME-devel, libNAME-devel, STEM-devel for NAME = STEM-libs.
std::vector<std::string> devel_candidates(const std::string& name) {
  std::vector<std::string> out{name + "-devel", "lib" + name + "-devel"};
  const std::string libs = "-libs";
  if (name.size() > libs.size() && name.compare(name.size() - libs.size(), libs.size(), libs) == 0)
    out.push_back(name.substr(0, name.size() - libs.size()) + "-devel");
  return out;
}

bool devel_like(const std::string& n) {
  for (const char* suffix : {"-devel", "-headers", "-static"}) {
    const std::string s = suffix;
    if (n.size() > s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0) return true;
  }
  return n.rfind("pkgconfig(", 0) == 0;
}

// The host lists as written (the loader's fallback would copy a tool's build list into host):
// entry level, alternatives, numbered releases.
std::vector<std::pair<std::string, std::vector<std::string>>> written_host_lists(const toml::table& doc) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  auto add = [&out](const std::string& id, const toml::table& part) {
    const auto* host = part["host"].as_array();
    if (!host || host->empty()) return;
    std::vector<std::string> names;
    for (const auto& n : *host) names.push_back(n.value_or(std::string()));
    out.emplace_back(id, names);
  };
  auto add_with_alternatives = [&add](const std::string& id, const toml::table& part) {
    add(id, part);
    if (const auto* alts = part["alternative"].as_array())
      for (const auto& a : *alts)
        if (const auto* at = a.as_table()) add(id, *at);
  };
  for (const auto& node : *doc["id"].as_array()) {
    const auto& e = *node.as_table();
    const std::string id = e["id"].value_or(std::string());
    add_with_alternatives(id, e);
    if (const auto* rel = e["release"].as_table())
      for (const auto& [name, r] : *rel)
        if (numbered(std::string(name.str())) && r.as_table()) add_with_alternatives(id, *r.as_table());
  }
  return out;
}

TEST(FedoraTable, HostListsCarryTheirDevelPackage) {
  const Table t = shipped("fedora.toml");
  const auto known = fedora_names();
  const auto doc = toml::parse_file(kMappings + "/fedora.toml");
  const auto lists = written_host_lists(doc);
  ASSERT_GE(lists.size(), 400u);
  // Host lists without a -devel, -headers, -static or pkgconfig() name, and why that is right.
  std::set<std::string> runtime_only;
  for (const auto& [id, host] : lists) {
    if (std::any_of(host.begin(), host.end(), devel_like)) continue;
    runtime_only.insert(id);
    const Entry* e = t.find(id);
    ASSERT_NE(e, nullptr) << id;
    if (e->unverified) continue;
    for (const auto& n : host)
      for (const auto& d : devel_candidates(n))
        EXPECT_EQ(known.count(d), 0u) << id << ": host has " << n << ", its spec builds " << d;
  }
  EXPECT_EQ(runtime_only, (std::set<std::string>{
                              "dep:generic/antlr",                     // antlr-C++ holds the headers
                              "dep:generic/ca-certificates",           // data, no library
                              "dep:generic/cegui-mk2",                 // unverified
                              "dep:generic/f2c",                       // f2c holds f2c.h, its spec builds no -devel
                              "dep:generic/mongo-cxx-driver-legacy",   // unverified
                              "dep:generic/openni-sensor-primesense",  // unverified
                              "dep:generic/tclap",                     // unverified
                          }));
  auto host = [&](const char* id) { return t.find(id)->alternatives(Category::host).front().packages; };
  auto run = [&](const char* id) { return t.find(id)->alternatives(Category::run).front().packages; };
  using V = std::vector<std::string>;
  EXPECT_EQ(host("dep:generic/sqlite"), V{"sqlite-devel"});
  EXPECT_EQ(run("dep:generic/sqlite"), V{"sqlite"});
  EXPECT_EQ(host("dep:generic/protobuf"), V{"protobuf-devel"});
  EXPECT_EQ(host("dep:generic/libx11"), V{"libX11-devel"});
  EXPECT_EQ(run("dep:generic/libx11"), V{"libX11"});
  EXPECT_EQ(host("dep:generic/zeromq"), V{"zeromq-devel"});
  EXPECT_EQ(host("dep:generic/mpfr"), V{"mpfr-devel"});
  EXPECT_EQ(host("dep:generic/netcdf"), V{"netcdf-devel"});
  EXPECT_EQ(host("dep:generic/libmagic"), V{"file-devel"});
  EXPECT_EQ(run("dep:generic/libmagic"), V{"file-libs"});
  EXPECT_EQ(host("dep:generic/wayland"), V{"wayland-devel"});
  EXPECT_EQ(run("dep:generic/wayland"), (V{"libwayland-client", "libwayland-cursor", "libwayland-egl"}));
  for (const char* id : {"dep:generic/sqlite", "dep:generic/protobuf", "dep:generic/libx11", "dep:generic/zeromq"})
    for (const auto& n : host(id)) EXPECT_TRUE(known.count(n)) << id << ": " << n;
}

}  // namespace
}  // namespace extdeps::mapping
