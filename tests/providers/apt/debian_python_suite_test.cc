// Issue 33's Debian-packaging suite: 166 real Python projects with native code, and what Debian's
// own packaging of each says they need (tests/data/debian-python/suite.tsv: the source package's
// Build-Depends and the python3 package's Depends, copied from bookworm's index with provenance).
// Measured against debian.toml as a bookworm machine selects it:
// - build: each native build dependency (an alternative `a | b` counts once; the entries the data
//   flags as tests' or other languages' tools are left out) is a package some id lists for build
//   or host, itself or through a package that Provides it (pkgconf for pkg-config) in this
//   machine's bookworm lists (Rust crates, librust-*-dev, are cargo's, not external);
// - run: each shared library the python3 package depends on (the C and C++ runtimes and
//   libpython left out), or a package that Provides it, is a run package of an id found for that
//   project's build dependencies or for the -dev packages they depend on. Two more sources of ids,
//   both Debian's own rules: Policy 4.2 makes build-essential a build dependency of every source
//   without naming it, so the ids of what it pulls in count (libgomp1 is GCC's, the OpenMP id's);
//   and a library the project's own Debian source builds (python3-gdal -> libgdal32) is in no
//   Build-Depends, so it is right when some id names it as a run package.
// A build dependency that is a transitional name, a -dev package whose one dependency is another
// -dev package of the same source (libidn11-dev -> libidn-dev), counts as that package.
// The figures are printed with every miss; the floors are the levels reached, so that a table
// change that loses one fails here (issue 33 wanted 99%).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/util/text.h"
#include "providers/apt/apt_provider.h"
#include "tests/core/mapping/shipped.h"
#include "tests/providers/apt/apt_names.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

using namespace table_testing;

// The cells of one TSV line, empty ones kept in their place.
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(line);
  while (std::getline(in, item, '\t')) out.push_back(item);
  if (!line.empty() && line.back() == '\t') out.emplace_back();
  return out;
}

// The pieces of a ';'-separated cell, trimmed, empty ones left out (core/util/text.h).
std::vector<std::string> list_of(const std::string& cell) {
  std::vector<std::string> out;
  append_split(cell, ';', out);
  return out;
}

// The package names of one Depends entry, `a (>= 1) [amd64] | b:any <!nocheck>`: {a, b}.
std::vector<std::string> names_of(const std::string& entry) {
  std::vector<std::string> alternatives, out;
  append_split(entry, '|', alternatives);
  for (const std::string& alt : alternatives)
    if (std::string n = alt.substr(0, alt.find_first_of(" ([<:")); !n.empty()) out.push_back(std::move(n));
  return out;
}

// Rows of a TSV file with a header: column name -> value.
std::vector<std::map<std::string, std::string>> read_tsv(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::string line;
  std::getline(in, line);
  const auto header = cells_of(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto cells = cells_of(line);
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

TEST(DebianPythonSuite, TheTablesNameWhatDebianBuildsAndRunsPythonProjectsWith) {
  if (auto why = not_bookworm(); !why.empty()) GTEST_SKIP() << why;
  auto ctx = Context::from_process();
  // Which packages provide a name, real or virtual (pkgconf provides pkg-config); what each -dev
  // package depends on that is a -dev package too (libmpc-dev: libgmp-dev, libmpfr-dev).
  std::multimap<std::string, std::string> providers, dev_depends, depends;
  std::map<std::string, std::string> source_of;  // from the "src:NAME" provide apt records carry
  auto keep = [&](PackageRecord&& r) {
    for (const auto& p : r.provides) {
      providers.emplace(p.name, r.name);
      if (p.name.starts_with("src:")) source_of[r.name] = p.name.substr(4);
    }
    for (const auto& alternatives : r.depends)
      if (!alternatives.empty()) depends.emplace(r.name, alternatives.front().name);
    if (r.name.ends_with("-dev"))
      for (const auto& alternatives : r.depends)
        if (!alternatives.empty() && alternatives.front().name.ends_with("-dev"))
          dev_depends.emplace(r.name, alternatives.front().name);
  };
  apt::Architectures archs{"amd64", {}};
  for (const auto& f : apt::list_index_files(ctx, apt::architectures(ctx)))
    ASSERT_TRUE(apt::parse_index_file(f, archs, false, keep).ok());
  Tables t = shipped();
  select_for_host(t, HostRelease{"debian", {}, "bookworm", "12"});
  const Table& debian = *t.find_ecosystem("debian");
  std::map<std::string, std::set<std::string>> ids_building, runs_of;  // package -> ids; id -> run packages
  for (const Entry& e : debian.entries) {
    for (Category c : {Category::build, Category::host})
      for (const auto& alt : e.alternatives(c))
        for (const auto& p : alt.packages) ids_building[p].insert(e.id);
    for (const auto& alt : e.alternatives(Category::run))
      runs_of[e.id].insert(alt.packages.begin(), alt.packages.end());
  }
  auto source = [&](const std::string& package) {
    auto it = source_of.find(package);
    return it == source_of.end() ? package : it->second;
  };
  // libidn11-dev -> libidn-dev: a -dev name whose one dependency is a -dev package of its source.
  auto transitional_target = [&](const std::string& package) -> std::string {
    if (!package.ends_with("-dev") || depends.count(package) != 1) return {};
    const std::string target = depends.find(package)->second;
    return target.ends_with("-dev") && source(target) == source(package) ? target : std::string{};
  };
  auto ids_for = [&](const std::string& package) {
    std::set<std::string> ids;
    for (const std::string& name : {package, transitional_target(package)}) {
      if (name.empty()) continue;
      if (auto it = ids_building.find(name); it != ids_building.end()) ids.insert(it->second.begin(), it->second.end());
      for (auto [it, end] = providers.equal_range(name); it != end; ++it)
        if (auto b = ids_building.find(it->second); b != ids_building.end())
          ids.insert(b->second.begin(), b->second.end());
    }
    return ids;
  };
  // What build-essential pulls in (its Depends, each first alternative, to the end): ids every
  // source builds with, by Policy 4.2.
  std::set<std::string> implied_ids;
  {
    std::vector<std::string> todo{"build-essential"};
    for (std::set<std::string> seen; !todo.empty();) {
      const std::string n = todo.back();
      todo.pop_back();
      if (!seen.insert(n).second) continue;
      implied_ids.merge(ids_for(n));
      for (auto [it, end] = depends.equal_range(n); it != end; ++it) todo.push_back(it->second);
    }
  }
  EXPECT_TRUE(implied_ids.count("dep:virtual/interface/openmp")) << "GCC's libgomp comes with build-essential";
  std::set<std::string> any_run;  // every run package of every id
  for (const auto& [id, runs] : runs_of) any_run.insert(runs.begin(), runs.end());

  const std::string dir = test::data_path("debian-python/");
  std::set<std::pair<std::string, std::string>> flagged;  // (source, entry): tests' and other languages' tools
  for (auto& row : read_tsv(dir + "build_depends_kept_nonlib_flags.tsv"))
    flagged.emplace(row["debian_source"], row["entry"]);
  const std::set<std::string> runtimes{"libc6", "libgcc-s1", "libstdc++6", "libpython3.11"};
  const auto rows = read_tsv(dir + "suite.tsv");
  ASSERT_EQ(rows.size(), 166u);
  std::size_t build_right = 0, build_all = 0, run_right = 0, run_all = 0, projects_right = 0, own_source = 0;
  std::string misses;
  for (auto row : rows) {
    bool right = true;
    std::set<std::string> ids;
    for (const std::string& entry : list_of(row["build_depends_native"])) {
      // Debian packages Rust crates as librust-*-dev; cargo fetches them, so no [external] names them.
      if (flagged.count({row["debian_source"], entry}) || entry.starts_with("librust-")) continue;
      std::set<std::string> found;
      for (const std::string& n : names_of(entry)) found.merge(ids_for(n));
      ++build_all;
      if (!found.empty()) ++build_right;
      else misses += row["pypi_name"] + ": build " + entry + "\n", right = false;
      // The run libraries of what a build dependency pulls in count too: gmpy2 builds with
      // libmpc-dev and links libgmp10, which libgmp-dev (libmpc-dev's dependency) gives.
      std::vector<std::string> todo = names_of(entry);
      for (std::set<std::string> seen; !todo.empty();) {
        const std::string n = todo.back();
        todo.pop_back();
        if (!seen.insert(n).second) continue;
        found.merge(ids_for(n));
        for (auto [it, end] = dev_depends.equal_range(n); it != end; ++it) todo.push_back(it->second);
      }
      ids.insert(found.begin(), found.end());
    }
    ids.insert(implied_ids.begin(), implied_ids.end());
    std::set<std::string> runs;
    for (const auto& id : ids) runs.insert(runs_of[id].begin(), runs_of[id].end());
    for (const std::string& raw : list_of(row["run_depends_libs"])) {
      const auto names = names_of(raw);
      if (names.empty() || runtimes.count(names.front())) continue;
      ++run_all;
      bool met = false;  // the library, or a package that Provides it (libboost-python1.74.0-py311)
      for (const auto& n : names) {
        met = met || runs.count(n);
        for (auto [it, end] = providers.equal_range(n); it != end; ++it) met = met || runs.count(it->second);
      }
      // A library of the project's own source (aubio -> libaubio5) that some id names.
      if (!met && source(names.front()) == row["debian_source"] && any_run.count(names.front()))
        met = true, ++own_source;
      if (met) ++run_right;
      else misses += row["pypi_name"] + ": run " + raw + "\n", right = false;
    }
    projects_right += right;
  }
  const double build = static_cast<double>(build_right) / build_all, run = static_cast<double>(run_right) / run_all;
  std::cout << "build: " << build_right << " of " << build_all << " native build dependencies have an id ("
            << 100 * build << "%)\nrun: " << run_right << " of " << run_all
            << " shared libraries are an id's run package (" << 100 * run << "%; " << own_source
            << " of them the project's own source's)\nprojects with every need right: " << projects_right << " of "
            << rows.size() << "\nmisses:\n"
            << misses;
  EXPECT_GE(build, 0.99);
  EXPECT_GE(run, 1.0);
  EXPECT_GE(projects_right, 163u);
}

}  // namespace
}  // namespace extdeps::mapping
