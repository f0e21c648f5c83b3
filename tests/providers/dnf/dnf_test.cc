// The dnf provider on a world the real tools built (make_world.sh: rpmbuild packages, createrepo_c,
// rpm -i --justdb into a throw-away root): primary.xml and the rpm database read as they are,
// thirteen needs resolved, and the plan checked by the real dnf's transaction test.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "core/cli/cli.h"
#include "core/solve/rich_dep.h"
#include "providers/dnf/dnf_provider.h"
#include "tests/core/version/version_fixtures.h"
#include "tests/support/http_server.h"
#include "tests/support/tool_world.h"
#include "tests/test_support.h"

namespace extdeps::dnf {
namespace {

namespace fs = std::filesystem;

#define WORLD_OR_SKIP(w) TOOL_WORLD_OR_SKIP(w, "dnf")

TEST(DnfPrimary, ThePrimaryMetadataReadsAsCreaterepoWroteIt) {
  WORLD_OR_SKIP(w);
  auto repomd = test::read_file(w + "/repo/repodata/repomd.xml");
  auto href = primary_location(repomd, "repomd.xml");
  ASSERT_TRUE(href.ok()) << href.error().message;
  EXPECT_TRUE(href->starts_with("repodata/") && href->ends_with("-primary.xml.gz")) << *href;
  auto reader = CompressedReader::open(w + "/repo/" + *href);
  ASSERT_TRUE(reader.ok());
  std::map<std::string, PackageRecord> by_name;
  auto r = read_primary(**reader, "primary.xml.gz", "x86_64",
                        [&](PackageRecord&& rec) { by_name[rec.name] = std::move(rec); });
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(by_name.size(), 32u);
  EXPECT_EQ(by_name.at("libpng").version, "2:1.6.40-4.fc41");
  EXPECT_EQ(by_name.at("cmake-data").arch, "noarch");
  std::vector<std::string> deps;
  for (const auto& alts : by_name.at("gdal-devel").depends) {
    std::string d;
    for (const auto& a : alts) d += (d.empty() ? "" : "|") + test::show_dep(a);
    deps.push_back(d);
  }
  // The rich dependency as alternatives, the file dependency, the exact release.
  std::sort(deps.begin(), deps.end());
  EXPECT_EQ(deps,
            (std::vector<std::string>{"/usr/bin/pkg-config", "gdal-libs=3.9.3-1.fc41", "libcurl-devel|curl-devel"}));
  std::set<std::string> provides;
  for (const auto& p : by_name.at("pkgconf-pkg-config").provides) provides.insert(test::show_dep(p));
  EXPECT_TRUE(provides.count("/usr/bin/pkg-config"));  // primary lists *bin/* files
  EXPECT_TRUE(provides.count("pkgconfig=1:2.3.0"));
  EXPECT_TRUE(provides.count("pkg-config=2.3.0"));
  std::vector<std::string> conflicts;
  for (const auto& c : by_name.at("oldcurl").conflicts) conflicts.push_back(test::show_dep(c));
  EXPECT_EQ(conflicts, (std::vector<std::string>{"libcurl<8"}));
  // The source rpm a package was built from, where it is named otherwise, as src:NAME.
  auto sources = [&](const std::string& name) {
    std::vector<std::string> out;
    for (const auto& p : by_name.at(name).provides)
      if (p.name.starts_with("src:")) out.push_back(p.name);
    return out;
  };
  EXPECT_EQ(sources("libzstd-devel"), (std::vector<std::string>{"src:zstd"}));
  EXPECT_EQ(sources("libzstd"), (std::vector<std::string>{"src:zstd"}));
  EXPECT_TRUE(sources("zstd").empty());
  EXPECT_TRUE(sources("gdal-devel").empty());  // built from a spec of its own name here
}

TEST(DnfPrimary, ASourceRpmsName) {
  EXPECT_EQ(source_name("zstd-1.5.6-2.fc41.src.rpm"), "zstd");
  EXPECT_EQ(source_name("python-charset-normalizer-3.3.2-5.fc41.src.rpm"), "python-charset-normalizer");
  EXPECT_EQ(source_name("kernel-6.11.4-301.fc41.nosrc.rpm"), "kernel");
  EXPECT_EQ(source_name("zstd.src.rpm"), "");
  EXPECT_EQ(source_name("zstd-1.5.6.src.rpm"), "");
  EXPECT_EQ(source_name("zstd-1.5.6-2.fc41.x86_64.rpm"), "");
}

// A need no table maps (dep:github/facebook/zstd): the run guess finds the library that
// libzstd-devel, of the same source rpm, requires; the host guess the -devel package by its
// pkgconfig() provide; neither takes -static for a run need.
TEST(DnfGuess, ARunNeedFindsTheLibraryTheDevelPackageOfItsSourceRequires) {
  WORLD_OR_SKIP(w);
  auto ctx = Context::from_process();
  ctx.set_warning_sink(nullptr);
  const std::string project = test::temp_dir();
  std::ofstream(project + "/pyproject.toml") << "[external]\nhost-requires = [\"dep:github/facebook/zstd\"]\n"
                                                "dependencies = [\"dep:github/facebook/zstd\"]\n";
  std::ostringstream out, err;
  int rc = cli::run(
      ctx, {"resolve", project, "--root", w + "/root", "--manager", "dnf", "--json", "--cache-dir", test::temp_dir()},
      out, err);
  ASSERT_EQ(rc, 0) << err.str() << out.str();
  auto j = nlohmann::json::parse(out.str());
  std::map<std::string, nlohmann::json> by_category;
  for (const auto& r : j["requirements"]) by_category[r["category"]] = r;
  EXPECT_EQ(by_category["host"]["packages"][0]["name"], "libzstd-devel");
  std::string run_evidence;
  for (const auto& e : by_category["run"]["guess"]["evidence"]) run_evidence += e.get<std::string>() + "\n";
  EXPECT_NE(run_evidence.find("fedora package libzstd is in the index (built from zstd; libzstd-devel depends on it)"),
            std::string::npos)
      << run_evidence;
  EXPECT_EQ(run_evidence.find("libzstd-static"), std::string::npos) << run_evidence;
  EXPECT_EQ(run_evidence.find("fedora package libzstd-devel is"), std::string::npos) << run_evidence;
}

TEST(DnfInstalled, TheRpmDatabaseAsRpmPrintsIt) {
  WORLD_OR_SKIP(w);
  auto r = version::testing::run_command("rpm --root " + w + "/root --dbpath /var/lib/rpm -qa --queryformat '" +
                                         std::string(kQueryFormat) + "'");
  ASSERT_EQ(r.status, 0);
  std::map<std::string, PackageRecord> by_name;
  auto parsed = parse_rpm_query(r.out, "rpmdb", [&](PackageRecord&& rec) { by_name[rec.name] = std::move(rec); });
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(by_name.size(), 5u);
  EXPECT_EQ(by_name.at("pkgconf").version, "1.9.5-1.fc40");
  EXPECT_TRUE(by_name.at("pkgconf").installed);
  std::set<std::string> provides;
  for (const auto& p : by_name.at("bash").provides) provides.insert(test::show_dep(p));
  EXPECT_TRUE(provides.count("/bin/sh")) << "file provides kept for file dependencies";
}

TEST(DnfConfig, RepoFilesAndTheirVariables) {
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/fedora.repo") << "[fedora]\nname=Fedora $releasever - $basearch\n"
                                         "metalink=https://mirrors.fedoraproject.org/metalink?repo=fedora-$releasever\n"
                                         "baseurl=https://a.example/$releasever/$basearch/os/\n"
                                         "        https://b.example/$releasever/$basearch/os/\n"
                                         "enabled=1\n\n[fedora-debuginfo]\nbaseurl=https://c.example/\nenabled=0\n";
  auto repos = read_repo_files({dir});
  ASSERT_TRUE(repos.ok()) << repos.error().message;
  ASSERT_EQ(repos->size(), 2u);
  EXPECT_EQ((*repos)[0].id, "fedora");
  ASSERT_EQ((*repos)[0].baseurls.size(), 2u);
  EXPECT_EQ(expand((*repos)[0].baseurls[1], "41", "x86_64"), "https://b.example/41/x86_64/os/");
  EXPECT_FALSE((*repos)[1].enabled);
  std::ofstream(dir + "/bad.repo") << "baseurl=x\n";
  auto bad = read_repo_files({dir});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().place, dir + "/bad.repo:1");
}

TEST(DnfConfig, MirrorsAndExcludes) {
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/f.repo")
      << "[fedora]\nmetalink=https://mirrors.example/metalink?repo=fedora-$releasever&arch=$basearch\n"
         "excludepkgs=kernel*, gdal-devel\n\n[epel]\nmirrorlist=https://m.example/list\n"
         "includepkgs=hdf5*\n";
  auto repos = read_repo_files({dir});
  ASSERT_TRUE(repos.ok()) << repos.error().message;
  EXPECT_TRUE((*repos)[0].baseurls.empty());
  EXPECT_EQ(expand((*repos)[0].metalink, "41", "x86_64"),
            "https://mirrors.example/metalink?repo=fedora-41&arch=x86_64");
  EXPECT_EQ((*repos)[0].exclude, (std::vector<std::string>{"kernel*", "gdal-devel"}));
  EXPECT_EQ((*repos)[1].mirrorlist, "https://m.example/list");
  EXPECT_TRUE(excluded("kernel-core", (*repos)[0].exclude, (*repos)[0].include));
  EXPECT_TRUE(excluded("gdal-devel", (*repos)[0].exclude, (*repos)[0].include));
  EXPECT_FALSE(excluded("gdal", (*repos)[0].exclude, (*repos)[0].include));
  EXPECT_FALSE(excluded("hdf5-devel", (*repos)[1].exclude, (*repos)[1].include));
  EXPECT_TRUE(excluded("zlib", (*repos)[1].exclude, (*repos)[1].include));  // not included

  std::ofstream(dir + "/dnf.conf") << "[main]\ngpgcheck=1\nexcludepkgs=boost*\n";
  auto main = read_dnf_conf(dir + "/dnf.conf");
  ASSERT_TRUE(main.ok());
  EXPECT_EQ(main->exclude, std::vector<std::string>{"boost*"});
  EXPECT_TRUE(read_dnf_conf(dir + "/absent.conf").ok());

  EXPECT_EQ(mirrorlist_urls("# a comment\nhttps://a.example/41/\n\n  http://b.example/41/  \nrsync://c/\n"),
            (std::vector<std::string>{"https://a.example/41/", "http://b.example/41/"}));
  // A metalink as Fedora's MirrorManager writes it (metalink 3.0, one file, its mirrors).
  const std::string metalink =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<metalink version=\"3.0\" xmlns=\"http://www.metalinker.org/\" "
      "type=\"dynamic\" pubdate=\"Tue, 26 Nov 2024 10:00:00 GMT\" generator=\"mirrormanager\" "
      "xmlns:mm0=\"http://fedorahosted.org/mirrormanager\">\n <files>\n  <file name=\"repomd.xml\">\n"
      "   <mm0:timestamp>1732600000</mm0:timestamp>\n   <size>6140</size>\n   <verification>\n"
      "    <hash type=\"sha256\">aa</hash>\n   </verification>\n   <resources maxconnections=\"1\">\n"
      "    <url protocol=\"rsync\" type=\"rsync\" location=\"DE\" "
      "preference=\"100\">rsync://r.example/41/os/repodata/repomd.xml</url>\n"
      "    <url protocol=\"https\" type=\"https\" location=\"US\" "
      "preference=\"99\">https://slow.example/41/os/repodata/repomd.xml</url>\n"
      "    <url protocol=\"https\" type=\"https\" location=\"DE\" "
      "preference=\"100\">https://near.example/41/os/repodata/repomd.xml</url>\n"
      "   </resources>\n  </file>\n </files>\n</metalink>\n";
  auto urls = metalink_urls(metalink, "metalink");
  ASSERT_TRUE(urls.ok()) << urls.error().message;
  EXPECT_EQ(*urls, (std::vector<std::string>{"https://near.example/41/os", "https://slow.example/41/os"}));
  EXPECT_FALSE(metalink_urls("<metalink><files/></metalink>", "metalink").ok());
  EXPECT_FALSE(metalink_urls("<metalink><files>", "metalink").ok());
}

// The repository through a metalink served on 127.0.0.1 (its first mirror gone), excludepkgs
// leaving gdal-devel out: the same world's plan without gdal.
TEST(DnfResolve, AMetalinksMirrorsAndExcludedPackages) {
  WORLD_OR_SKIP(w);
  test::HttpServer server;
  server.serve_dir("/fedora/41/os", w + "/repo");
  test::Route link;
  link.body =
      "<?xml version=\"1.0\"?><metalink version=\"3.0\" xmlns=\"http://www.metalinker.org/\"><files><file "
      "name=\"repomd.xml\">"
      "<resources><url protocol=\"file\" preference=\"300\">file:///dev/zero?/repodata/repomd.xml</url>"
      "<url protocol=\"file\" preference=\"200\">file://" +
      w +
      "/repo/repodata/repomd.xml</url>"
      "<url protocol=\"http\" preference=\"100\">" +
      server.url("/gone/41/os/repodata/repomd.xml") + "</url><url protocol=\"http\" preference=\"90\">" +
      server.url("/fedora/41/os/repodata/repomd.xml") + "</url></resources></file></files></metalink>";
  server.route("/metalink", link);
  const std::string root = test::temp_dir() + "/root";
  fs::copy(w + "/root", root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::remove_all(root + "/etc/yum.repos.d");
  fs::create_directories(root + "/etc/yum.repos.d");
  std::ofstream(root + "/etc/yum.repos.d/fedora.repo")
      << "[fedora]\nmetalink=" << server.url("/metalink") << "?repo=fedora-$releasever\nexcludepkgs=gdal*\n";
  auto ctx = Context::from_process();
  ctx.set_warning_sink(nullptr);
  std::ostringstream out, err;
  const std::string data = std::string(EXTDEPS_TEST_DATA) + "/dnf";
  int rc = cli::run(ctx,
                    {"resolve", data + "/pyproject.toml", "--root", root, "--manager", "yum", "--mapping-dir",
                     data + "/mappings", "--json", "--cache-dir", test::temp_dir()},
                    out, err);
  EXPECT_EQ(rc, 1) << err.str() << out.str();  // gdal is excluded: that need is unmet
  auto j = nlohmann::json::parse(out.str());
  std::map<std::string, std::string> status;
  for (const auto& r : j["requirements"]) status[r["id"]] = r["status"];
  EXPECT_EQ(status["dep:generic/gdal"], "unsatisfiable");
  EXPECT_EQ(status["dep:generic/hdf5"], "planned");
  // A metalink served from the network names no local file (issue 31): its file:// mirrors,
  // though preferred, are passed over, so the first mirror asked is the gone one.
  EXPECT_EQ(server.count("/gone/41/os/repodata/repomd.xml"), 1);
  EXPECT_EQ(server.count("/fedora/41/os/repodata/repomd.xml"), 1);
  // --manager yum: yum's command.
  ASSERT_FALSE(j["steps"].empty());
  EXPECT_EQ(j["steps"][0]["command"][0], "yum");
}

// The real dnf's transaction test on `root` (its repositories, an empty rpm database made for it):
// `dnf install NAMES` without installing anything. `names` starts with a blank.
version::testing::CommandResult real_dnf_install(const std::string& root, const std::string& releasever,
                                                 const std::string& names) {
  const std::string home = test::temp_dir();
  std::ofstream(home + "/.rpmmacros") << "%_dbpath /var/lib/rpm\n";
  return version::testing::run_command(
      "rpm --root '" + root + "' --dbpath /var/lib/rpm --initdb 2>/dev/null; HOME='" + home + "' dnf --installroot='" +
      root + "' --setopt=reposdir='" + root + "/etc/yum.repos.d' --setopt=cachedir='" + home +
      "/cache' --setopt=logdir=/var/log "
      "--setopt=persistdir='" +
      home + "/persist' --releasever=" + releasever + " -y --setopt=tsflags=test install" + names + " 2>&1");
}

TEST(DnfModules, StreamsDefaultsAndStates) {
  ModuleIndex index;
  const std::string yaml =
      "---\ndocument: modulemd\nversion: 2\ndata:\n  name: nodejs\n  stream: \"18\"\n  artifacts:\n    rpms:\n"
      "    - nodejs-1:18.20.4-1.module_el9.x86_64\n    - nodejs-1:18.20.4-1.module_el9.src\n    - "
      "npm-1:10.7.0-1.module_el9.x86_64\n...\n"
      "---\ndocument: modulemd\nversion: 2\ndata:\n  name: nodejs\n  stream: \"20\"\n  artifacts:\n    rpms:\n"
      "    - nodejs-1:20.17.0-1.module_el9.x86_64\n...\n"
      "---\ndocument: modulemd-defaults\nversion: 1\ndata:\n  module: nodejs\n  stream: \"18\"\n...\n";
  ASSERT_TRUE(read_modules(yaml, "modules.yaml", index).ok());
  ASSERT_EQ(index.streams.size(), 2u);
  EXPECT_EQ(index.defaults.at("nodejs"), "18");
  auto rec = [](std::string name, std::string version) {
    PackageRecord r;
    r.name = std::move(name);
    r.version = std::move(version);
    r.arch = "x86_64";
    return r;
  };
  const auto n18 = rec("nodejs", "1:18.20.4-1.module_el9"), n20 = rec("nodejs", "1:20.17.0-1.module_el9"),
             n16 = rec("nodejs", "16.20.2-1.el9"), other = rec("zlib", "1.2.11-40.el9");
  ModularFilter by_default(index, {});
  EXPECT_FALSE(by_default.hides(n18));
  EXPECT_TRUE(by_default.hides(n20));  // a stream that is not active
  EXPECT_TRUE(by_default.hides(n16));  // non-modular, shadowed by the active stream's nodejs
  EXPECT_FALSE(by_default.hides(other));
  ModularFilter enabled(index, {{"nodejs", {"20", "enabled"}}});
  EXPECT_TRUE(enabled.hides(n18));
  EXPECT_FALSE(enabled.hides(n20));
  ModularFilter disabled(index, {{"nodejs", {"", "disabled"}}});
  EXPECT_TRUE(disabled.hides(n18));
  EXPECT_TRUE(disabled.hides(n20));
  EXPECT_FALSE(disabled.hides(n16));
  ModuleIndex bad;
  auto e = read_modules("---\ndocument: [modulemd\n", "modules.yaml", bad);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("modules.yaml:"), std::string::npos) << e.error().message;
}

// A modules.yaml in the shape libmodulemd writes (yaml_specs/modulemd_stream_v2.yaml and
// modulemd_defaults_v1.yaml of fedora-modularity/libmodulemd; Fedora 29's modules.yaml reads the
// same as with yaml-cpp): a plain summary over two lines, folded and literal block scalars, flow
// lists, a list at its key's indentation and one indented under it, quoted and plain streams,
// comments, a translations document, "..." ends. The expected values are read off the text.
TEST(DnfModules, TheYamlModulemdWrites) {
  const std::string yaml =
      "%YAML 1.1\n---\n# a comment\ndocument: modulemd\nversion: 2\ndata:\n  name: postgresql\n  stream: \"15\"\n"
      "  version: 9040020240101000000\n  summary: PostgreSQL server and client module, a summary long enough\n"
      "    to go on a second line\n  description: >-\n    PostgreSQL is an advanced Object-Relational database\n"
      "    management system: it's \"quoted\", [not a list].\n\n    - not an item\n  license:\n    module: [MIT]\n"
      "  dependencies:\n  - buildrequires:\n      platform: [el9]\n    requires:\n      platform: [el9, 'el9.4']\n"
      "  references:\n    community: https://www.postgresql.org/\n  profiles:\n    server:\n      rpms: "
      "[postgresql-server]\n"
      "  api:\n    rpms:\n      - postgresql\n  artifacts:\n    rpms:\n    - "
      "postgresql-0:15.6-1.module+el9.4.0+21.src\n"
      "    - postgresql-0:15.6-1.module+el9.4.0+21.x86_64  # the client\n"
      "    - \"postgresql-server-0:15.6-1.module+el9.4.0+21.x86_64\"\n...\n"
      "---\ndocument: modulemd\nversion: 2\ndata:\n  name: postgresql\n  stream: 16\n  summary: |\n    a: b\n    - c\n"
      "  artifacts: {rpms: ['postgresql-0:16.1-1.module+el9.4.0+22.x86_64',\n      "
      "postgresql-server-0:16.1-1.module+el9.4.0+22.x86_64]}\n"
      "...\n---\ndocument: modulemd-translations\nversion: 1\ndata:\n  module: postgresql\n  stream: \"15\"\n"
      "  translations:\n    fr_FR:\n      summary: \"Serveur PostgreSQL \\u00e9 \\\n        suite\"\n...\n"
      "---\ndocument: modulemd-defaults\nversion: 1\ndata:\n  module: postgresql\n  stream: '15'\n  profiles:\n    "
      "'15': [server]\n...\n";
  ModuleIndex index;
  auto r = read_modules(yaml, "modules.yaml", index);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(index.streams.size(), 2u);
  EXPECT_EQ(index.streams[0].name, "postgresql");
  EXPECT_EQ(index.streams[0].stream, "15");
  EXPECT_EQ(index.streams[0].artifacts,
            (std::vector<std::string>{"postgresql-0:15.6-1.module+el9.4.0+21.src",
                                      "postgresql-0:15.6-1.module+el9.4.0+21.x86_64",
                                      "postgresql-server-0:15.6-1.module+el9.4.0+21.x86_64"}));
  EXPECT_EQ(index.streams[1].stream, "16");
  EXPECT_EQ(index.streams[1].artifacts,
            (std::vector<std::string>{"postgresql-0:16.1-1.module+el9.4.0+22.x86_64",
                                      "postgresql-server-0:16.1-1.module+el9.4.0+22.x86_64"}));
  ASSERT_EQ(index.defaults.size(), 1u);  // the translations document is not a default
  EXPECT_EQ(index.defaults.at("postgresql"), "15");
}

// Inputs on which Debian's yaml-cpp 0.7 never returned (tests/fuzz found 60 shapes: a ',' where
// a node begins, after a quote, an anchor or a tag, a NUL; and anchors and tags in many forms),
// and what else is outside the YAML modulemd is written in: each refused at once, with its place.
TEST(DnfModules, WhatIsNotModulemdYamlIsRefusedWithItsPlace) {
  for (const auto& [text, place, what] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {",du", "1:1", "a ',' where a value begins"},
           {",", "1:1", "a ',' where a value begins"},
           {"--- ,", "1:5", "a ',' where a value begins"},
           {"- a\n,", "2:1", "more text after a document's node"},
           {"a: 1\n...\n,", "3:1", "a ',' where a value begins"},
           {"---\n,", "2:1", "a ',' where a value begins"},
           {"\xEF\xBB\xBF,", "1:1", "a ',' where a value begins"},  // a byte order mark is not counted
           {"a: |\n  it's\n,\n", "3:1", "expected 'key: value'"},
           {"'',", "1:3", "more text after a value"},
           {"a: 'b' ,", "1:8", "more text after a value"},
           {"a:\n  - b\n  - ,", "3:5", "a ',' where a value begins"},
           {"&a ,", "1:1", "an anchor, alias or tag (modulemd has none)"},
           {"--- !t ,", "1:5", "an anchor, alias or tag (modulemd has none)"},
           {"a: *x", "1:4", "an anchor, alias or tag (modulemd has none)"},
           {"- !!str a", "1:3", "an anchor, alias or tag (modulemd has none)"},
           {"? a\n: b", "1:1", "a complex key (modulemd has none)"},
           {"a: [x,,y]", "1:7", "a ',' where a value begins"},
           {"a: [x\n", "1:4", "a '[' that is never closed"},
           {"a: {b: c\n---\n", "2:1", "a document marker inside a flow collection"},
           {"a: 'b\n", "1:4", "a quote that is never closed"},
           {"a: \"\\q\"", "1:5", "an escape YAML does not have"},
           {"a: b: c", "1:4", "a second 'key:' on one line"},
           {"a: - b", "1:4", "a list that starts on its key's line"},
           {"a:\n  b: 1\n   c: 2", "3:4", "a 'key:' in a text that goes over several lines"},
           {"a:\n  b: [1]\n   c: 2", "3:4", "more indented than its mapping's keys"},
           {"a: 1\n- b", "2:1", "a list item where a key goes"},
           {"a:\n\tb: 1", "2:1", "a tab where the indentation goes"},
           {"a: |x\n  b", "1:5", "expected a block scalar's indicators"},
           {std::string(65, '[') + std::string(65, ']'), "1:1", "nodes nested deeper than 64"},
           {std::string("\0,", 2), "1:1", "a control character"},
           {"a: b\x1b", "1:5", "a control character"},
           {"a: \xff", "1:4", "bytes that are not UTF-8"},
           {"a: \xc3", "1:4", "bytes that are not UTF-8"}}) {
    ModuleIndex index;
    auto r = read_modules(text, "modules.yaml", index);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().message.rfind("modules.yaml:" + place + ": not YAML: " + what, 0), 0u) << text << "\n"
                                                                                               << r.error().message;
  }
  // Block nesting is bounded as flow nesting is: 100 levels of "- " in one line.
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "- ";
  ModuleIndex index;
  auto r = read_modules(deep + "a", "modules.yaml", index);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("nodes nested deeper than 64"), std::string::npos) << r.error().message;
}

// A ',' where YAML has it as text or between entries reads, with the values it gives.
TEST(DnfModules, CommasThatAreTextOrBetweenEntriesRead) {
  for (const auto& [text, name, artifacts] :
       std::vector<std::tuple<std::string, std::string, std::vector<std::string>>>{
           {"---\ndocument: modulemd\ndata: {name: a, stream: \"1\",\n  artifacts: {rpms: [x,\n y]}}\n",
            "a",
            {"x", "y"}},
           {"---\ndocument: modulemd\ndata:\n  name: 'a\n,b'\n  stream: s\n", "a ,b", {}},
           {"---\ndocument: modulemd\ndata:\n  name: a, b\n   c,d\n  stream: s\n", "a, b c,d", {}},
           {"---\ndocument: modulemd\ndata:\n  name: n\n  stream: s\n  summary: \xc3\xa9t\xc3\xa9, \"x\"\n", "n", {}},
           {"\xEF\xBB\xBF---\ndocument: modulemd\ndata:\n  description: >\n    it's a 'quote\n  name: a\n  stream: s\n",
            "a",
            {}}}) {
    ModuleIndex index;
    auto r = read_modules(text, "modules.yaml", index);
    ASSERT_TRUE(r.ok()) << text << "\n" << r.error().message;
    ASSERT_EQ(index.streams.size(), 1u) << text;
    EXPECT_EQ(index.streams[0].name, name);
    EXPECT_EQ(index.streams[0].artifacts, artifacts);
  }
}

// The world's modular repository (nodejs in the streams 18, the default, and 20, and a
// non-modular nodejs 16) in each state /etc/dnf/modules.d can give: the plan installs what the
// real dnf installs.
TEST(DnfResolve, ModuleStreamsAsDnfFiltersThem) {
  WORLD_OR_SKIP(w);
  const std::string root = test::temp_dir() + "/modroot";
  fs::create_directories(root + "/etc/yum.repos.d");
  fs::create_directories(root + "/etc/dnf/modules.d");
  fs::copy_file(w + "/root/etc/os-release", root + "/etc/os-release");
  std::ofstream(root + "/etc/yum.repos.d/test.repo")
      << "[test]\nbaseurl=file://" << w << "/repo\ngpgcheck=0\nmetadata_expire=0\n\n"
      << "[mod]\nbaseurl=file://" << w << "/modrepo\ngpgcheck=0\nmetadata_expire=0\n";
  const std::string project = test::temp_dir();
  std::ofstream(project + "/pyproject.toml")
      << "[project]\nname = \"m\"\nversion = \"0\"\n[external]\nbuild-requires = [\"dep:generic/nodejs\"]\n";
  struct Case {
    std::string module_file;  // the nodejs.module; empty: none
    std::string version;      // what dnf installs
  };
  const std::vector<Case> cases = {
      {"", "1:18.20.4-1.module_el9.4.0+1"},
      {"[nodejs]\nname=nodejs\nstream=20\nprofiles=\nstate=enabled\n", "1:20.17.0-1.module_el9.4.0+2"},
      {"[nodejs]\nname=nodejs\nstream=\nprofiles=\nstate=disabled\n", "16.20.2-1.el9"},
  };
  const bool have_dnf = test::have_tool("dnf");
  for (const auto& c : cases) {
    fs::remove(root + "/etc/dnf/modules.d/nodejs.module");
    if (!c.module_file.empty()) std::ofstream(root + "/etc/dnf/modules.d/nodejs.module") << c.module_file;
    auto ctx = Context::from_process();
    ctx.set_warning_sink(nullptr);
    std::ostringstream out, err;
    int rc = cli::run(ctx,
                      {"resolve", project + "/pyproject.toml", "--root", root, "--manager", "dnf", "--mapping-dir",
                       std::string(EXTDEPS_TEST_DATA) + "/dnf/mappings", "--json", "--cache-dir", test::temp_dir()},
                      out, err);
    ASSERT_EQ(rc, 0) << err.str() << out.str();
    auto j = nlohmann::json::parse(out.str());
    ASSERT_EQ(j["steps"].size(), 1u) << out.str();
    EXPECT_EQ(j["steps"][0]["packages"][0]["version"], c.version) << c.module_file;
    if (!have_dnf) continue;
    // The real dnf on the same root, asked to install nodejs: the same version.
    auto r = real_dnf_install(root, "9", " nodejs");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("Transaction test succeeded."), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(c.version), std::string::npos) << "dnf installs another nodejs than " << c.version << ":\n"
                                                        << r.out;
  }
}

TEST(DnfRich, TheBooleanSyntaxAsRpmWritesIt) {
  using solve::RichDep;
  auto d = solve::parse_rich_dep("(libfoo >= 2 with libfoo < 3)");
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->op, RichDep::Op::with);
  ASSERT_EQ(d->args.size(), 2u);
  EXPECT_EQ(test::show_dep(d->args[1].atom), "libfoo<3");
  auto c = solve::parse_rich_dep("(a if (b or pkgconfig(zlib) >= 1.2) else c)");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->op, RichDep::Op::if_);
  ASSERT_EQ(c->args.size(), 3u);
  EXPECT_EQ(c->args[1].op, RichDep::Op::or_);
  EXPECT_EQ(test::show_dep(c->args[1].args[1].atom), "pkgconfig(zlib)>=1.2");
  std::vector<std::string> names;
  solve::rich_names(*c, names);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "pkgconfig(zlib)", "c"}));
  for (const char* bad :
       {"a or b", "(a or b", "(a or b and c)", "(a if b else c else d)", "(a >=)", "(and)", "(a b)", "(a) x"}) {
    auto e = solve::parse_rich_dep(bad);
    EXPECT_FALSE(e.ok()) << bad;
    if (!e.ok()) EXPECT_NE(e.error().message.find("at byte"), std::string::npos) << e.error().message;
  }
}

// Rich dependencies the solver honours as dnf does: "with" chooses libfoo 2.5 of 1.0, 2.5 and
// 3.1; "if" needs tool's zsh completion only with zsh, and that completion needs a zsh newer than
// there is, so tool and zsh together cannot be installed. Each checked with the real dnf.
TEST(DnfResolve, RichDependenciesAsDnfHonoursThem) {
  WORLD_OR_SKIP(w);
  const std::string root = test::temp_dir() + "/richroot";
  fs::create_directories(root + "/etc/yum.repos.d");
  fs::copy_file(w + "/root/etc/os-release", root + "/etc/os-release");
  std::ofstream(root + "/etc/yum.repos.d/test.repo")
      << "[test]\nbaseurl=file://" << w << "/repo\ngpgcheck=0\nmetadata_expire=0\n\n"
      << "[mod]\nbaseurl=file://" << w << "/modrepo\ngpgcheck=0\nmetadata_expire=0\n";
  struct Case {
    std::vector<std::string> ids;  // the needs
    int rc;                        // extdeps' exit status, and dnf's
    std::string libfoo;            // the libfoo planned, when one is
  };
  const std::vector<Case> cases = {
      {{"client", "libfoo"}, 0, "2.5-1.fc41"},
      {{"tool"}, 0, ""},
      {{"tool", "zsh"}, 1, ""},
  };
  const bool have_dnf = test::have_tool("dnf");
  for (const auto& c : cases) {
    const std::string project = test::temp_dir();
    std::string list, names;
    for (const auto& id : c.ids) {
      list += std::string(list.empty() ? "" : ", ") + "\"dep:generic/" + id + "\"";
      names += " " + id;
    }
    std::ofstream(project + "/pyproject.toml")
        << "[project]\nname = \"r\"\nversion = \"0\"\n[external]\nbuild-requires = [" << list << "]\n";
    auto ctx = Context::from_process();
    ctx.set_warning_sink(nullptr);
    std::ostringstream out, err;
    int rc = cli::run(ctx,
                      {"resolve", project + "/pyproject.toml", "--root", root, "--manager", "dnf", "--mapping-dir",
                       std::string(EXTDEPS_TEST_DATA) + "/dnf/mappings", "--json", "--cache-dir", test::temp_dir()},
                      out, err);
    EXPECT_EQ(rc, c.rc) << names << ": " << err.str() << out.str();
    if (!c.libfoo.empty()) {
      auto j = nlohmann::json::parse(out.str());
      std::map<std::string, std::string> planned;
      for (const auto& p : j["steps"][0]["packages"]) planned[p["name"]] = p["version"];
      EXPECT_EQ(planned["libfoo"], c.libfoo) << out.str();
    }
    if (!have_dnf) continue;
    auto r = real_dnf_install(root, "41", names);
    EXPECT_EQ(r.status, c.rc) << names << ":\n" << r.out;
    if (!c.libfoo.empty()) EXPECT_NE(r.out.find("libfoo-2.5-1.fc41"), std::string::npos) << r.out;
  }
}

// `mappings verify` of a fedora table against rpm-md repositories: a base URL (repomd.xml, then
// its primary) and a primary.xml file.
TEST(DnfVerify, ATableAgainstRpmMdRepositories) {
  WORLD_OR_SKIP(w);
  std::string primary;
  for (const auto& e : fs::directory_iterator(w + "/modrepo/repodata"))
    if (e.path().filename().string().ends_with("-primary.xml.gz")) primary = e.path().string();
  auto ctx = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", std::string(EXTDEPS_TEST_DATA) + "/dnf/mappings"}});
  std::ostringstream out, err;
  int rc = cli::run(ctx,
                    {"mappings", "verify", "--ecosystem", "fedora", "--index", "file://" + w + "/repo", "--index",
                     primary, "--cache-dir", test::temp_dir()},
                    out, err);
  EXPECT_EQ(rc, 0) << out.str() << err.str();
  EXPECT_NE(out.str().find("18 found, 0 missing"), std::string::npos) << out.str() << err.str();
  std::ostringstream out2, err2;
  rc = cli::run(ctx,
                {"mappings", "verify", "--ecosystem", "fedora", "--index", "file://" + w + "/repo", "--cache-dir",
                 test::temp_dir()},
                out2, err2);
  EXPECT_EQ(rc, 1);  // without the second repository, its packages are missing
  EXPECT_NE((out2.str() + err2.str()).find("nodejs is not in the index"), std::string::npos)
      << out2.str() << err2.str();
}

TEST(DnfCommands, DnfNamesTheExactPackagesZypperTheirVersions) {
  const std::vector<PlannedPackage> p{{"gdal-devel", "3.9.3-1.fc41", "x86_64", ""},
                                      {"libpng", "2:1.6.40-4.fc41", "x86_64", ""}};
  EXPECT_EQ(install_commands(Frontend::dnf, p)[0].argv,
            (std::vector<std::string>{"dnf", "install", "-y", "--", "gdal-devel-3.9.3-1.fc41.x86_64",
                                      "libpng-2:1.6.40-4.fc41.x86_64"}));
  EXPECT_EQ(install_commands(Frontend::zypper, p)[0].argv,
            (std::vector<std::string>{"zypper", "--non-interactive", "install", "--", "gdal-devel=3.9.3-1.fc41",
                                      "libpng=2:1.6.40-4.fc41"}));
  EXPECT_TRUE(install_commands(Frontend::dnf, p)[0].requires_elevation);
  // A plan that removes: dnf's --allowerasing; yum (EL 7) has no such option and never gets it.
  EXPECT_EQ(install_commands(Frontend::dnf, p, true)[0].argv,
            (std::vector<std::string>{"dnf", "install", "-y", "--allowerasing", "--", "gdal-devel-3.9.3-1.fc41.x86_64",
                                      "libpng-2:1.6.40-4.fc41.x86_64"}));
  EXPECT_EQ(install_commands(Frontend::yum, p, true)[0].argv,
            (std::vector<std::string>{"yum", "install", "-y", "--", "gdal-devel-3.9.3-1.fc41.x86_64",
                                      "libpng-2:1.6.40-4.fc41.x86_64"}));
}

// Thirteen needs on the world's root: the repository read from /etc/yum.repos.d (file://), the
// installed set from rpm; the real dnf's transaction test accepts the planned packages.
TEST(DnfResolve, ThirteenNeedsAndDnfAcceptsThePlan) {
  WORLD_OR_SKIP(w);
  auto ctx = Context::from_process();
  ctx.set_warning_sink(nullptr);
  std::ostringstream out, err;
  const std::string data = std::string(EXTDEPS_TEST_DATA) + "/dnf";
  int rc = cli::run(ctx,
                    {"resolve", data + "/pyproject.toml", "--root", w + "/root", "--manager", "dnf", "--mapping-dir",
                     data + "/mappings", "--json", "--cache-dir", test::temp_dir()},
                    out, err);
  ASSERT_EQ(rc, 0) << err.str() << out.str();
  auto j = nlohmann::json::parse(out.str());
  std::map<std::string, std::string> status;
  for (const auto& r : j["requirements"]) status[r["id"]] = r["status"];
  EXPECT_EQ(status.size(), 13u);
  EXPECT_EQ(status["dep:generic/pkg-config"], "planned");  // 1.9.5 installed; >=2 upgrades it
  EXPECT_EQ(status["dep:generic/gdal"], "planned");
  ASSERT_EQ(j["steps"].size(), 1u);
  std::map<std::string, std::string> planned;
  for (const auto& p : j["steps"][0]["packages"]) planned[p["name"]] = p["version"];
  // The step's own arguments after "dnf install -y": "--" and NAME-[E:]V-R.ARCH each.
  const auto& argv = j["steps"][0]["command"];
  ASSERT_GE(argv.size(), 5u);
  EXPECT_EQ(argv[0], "dnf");
  std::string targets;
  for (std::size_t i = 3; i < argv.size(); ++i) targets += " '" + argv[i].get<std::string>() + "'";
  EXPECT_EQ(planned["pkgconf-pkg-config"], "2.3.0-1.fc41");
  EXPECT_EQ(planned["libpng-devel"], "2:1.6.40-4.fc41");
  if (!test::have_tool("dnf")) GTEST_SKIP() << "no dnf to check the plan with (Debian: dnf)";
  auto r = version::testing::run_command(w + "/dnf.sh -y --setopt=tsflags=test install" + targets + " 2>&1");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Transaction test succeeded."), std::string::npos) << r.out;
}

// The world's second root (make_world.sh: relations of Fedora's openssl1.1.spec and curl.spec):
// openssl1.1-devel is installed and conflicts with openssl-devel, so a need for OpenSSL 3's
// headers swaps it out. The plan says so, its command is dnf install --allowerasing, and the real
// dnf's transaction test removes that same package and nothing else. libcurl-minimal, which
// provides libcurl, meets a run need for libcurl as it is: satisfied, nothing removed for it.
TEST(DnfResolve, ASwapIsPlannedWithAllowErasingAsDnfDoesIt) {
  WORLD_OR_SKIP(w);
  auto ctx = Context::from_process();
  ctx.set_warning_sink(nullptr);
  const std::string dir = test::temp_dir();
  fs::create_directories(dir + "/mappings");
  std::ofstream(dir + "/mappings/fedora.toml") << R"(schema = 1
ecosystem = "fedora"
manager = "dnf"
description = "curl's library at run time and OpenSSL's headers, as Fedora names them"
version = { regex = '^(?:[0-9]+:)?([^-]+)-[^-]+$' }

[[id]]
id = "dep:generic/curl"
run = ["libcurl"]

[[id]]
id = "dep:generic/openssl"
host = ["openssl-devel"]
)";
  std::ofstream(dir + "/extdeps.toml")
      << "[external]\nhost-requires = [\"dep:generic/openssl >=3\"]\ndependencies = [\"dep:generic/curl\"]\n";
  std::ostringstream out, err;
  int rc = cli::run(ctx,
                    {"resolve", dir, "--root", w + "/root-swap", "--manager", "dnf", "--mapping-dir", dir + "/mappings",
                     "--json", "--cache-dir", dir + "/cache"},
                    out, err);
  ASSERT_EQ(rc, 0) << err.str() << out.str();
  auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["requirements"][0]["status"], "planned");
  EXPECT_EQ(j["requirements"][1]["status"], "satisfied");
  EXPECT_EQ(j["requirements"][1]["packages"][0]["name"], "libcurl-minimal");
  ASSERT_EQ(j["removals"].size(), 1u) << out.str();
  EXPECT_EQ(j["removals"][0]["name"], "openssl1.1-devel");
  EXPECT_EQ(j["removals"][0]["version"], "1:1.1.1w-1.fc40");
  EXPECT_EQ(j["removals"][0]["reason"], "it conflicts with openssl-devel 1:3.2.2-9.fc41 (fedora)");
  ASSERT_EQ(j["steps"].size(), 1u);
  const auto& argv = j["steps"][0]["command"];
  EXPECT_EQ(argv, nlohmann::json::array(
                      {"dnf", "install", "-y", "--allowerasing", "--", "openssl-devel-1:3.2.2-9.fc41.x86_64"}));
  if (!test::have_tool("dnf")) GTEST_SKIP() << "no dnf to check the plan with (Debian: dnf)";
  auto r = version::testing::run_command(w +
                                         "/dnf-swap.sh -y --setopt=tsflags=test install --allowerasing -- "
                                         "openssl-devel-1:3.2.2-9.fc41.x86_64 2>&1");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Transaction test succeeded."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Remove   1 Package"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" openssl1.1-devel "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace extdeps::dnf
