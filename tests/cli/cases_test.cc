// The declarative CLI cases under tests/cases/<area>/<case>/ (format: tests/cases/README.md), run
// in-process as pkgconf runs its t/*.test: each case is a project folder, a fixture machine, the
// arguments, and the exact stdout, stderr, install commands and exit code it must give. They pin
// what a user sees, so that a refactor of the pipeline is checked by data rather than by code.
//
// EXTDEPS_UPDATE_CASES=1 rewrites the stdout, stderr and commands files of the cases that ran
// (the exit code is never rewritten: a changed exit code is a change of behaviour to decide on).
#include <gtest/gtest.h>

#include <toml++/toml.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/cli/cli.h"
#include "core/context/context.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

std::string cases_dir() { return fs::weakly_canonical(test::data_path("../cases")).string(); }

std::vector<std::string> all_cases() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& area : fs::directory_iterator(cases_dir(), ec)) {
    if (!area.is_directory()) continue;
    for (const auto& c : fs::directory_iterator(area.path(), ec))
      if (fs::exists(c.path() / "case.toml"))
        out.push_back(area.path().filename().string() + "/" + c.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// The places a case may name, longest path first, so that a path inside another is replaced whole.
using Places = std::vector<std::pair<std::string, std::string>>;  // {placeholder, real path}

std::string expand(std::string s, const Places& places) {
  for (const auto& [name, path] : places) replace_all(s, name, path);
  return s;
}

std::string places_path(const Places& places, const std::string& name) {
  for (const auto& [n, path] : places)
    if (n == name) return path;
  return "";
}

std::string normalise(std::string s, const Places& places) {
  for (const auto& [name, path] : places) replace_all(s, path, name);
  // A place in a shipped table moves whenever the table grows: its line and column are written
  // as L:C, the file and the form stay pinned.
  static const std::regex shipped(R"((\{mappings\}/[A-Za-z0-9_.-]+\.toml):[0-9]+:[0-9]+)");
  return std::regex_replace(s, shipped, "$1:L:C");
}

// The fixture machine: a copy of tests/data/<base> with some packages taken out of its dpkg status.
void make_machine(const std::string& root, const toml::table* machine) {
  std::string base = "apt/bookworm";
  std::vector<std::string> uninstall = {"libxml2-dev"};
  std::string append_status;
  if (machine) {
    base = (*machine)["base"].value_or(base);
    if (auto* u = (*machine)["uninstall"].as_array()) {
      uninstall.clear();
      for (const auto& n : *u) uninstall.push_back(n.value_or(std::string()));
    }
    append_status = (*machine)["append-status"].value_or(std::string());
  }
  fs::copy(test::data_path(base), root, fs::copy_options::recursive);
  std::string status_path = root + "/var/lib/dpkg/status";
  if (!fs::exists(status_path)) return;
  std::string status = slurp(status_path);
  for (const auto& name : uninstall) {
    auto start = status.find("Package: " + name + "\n");
    ASSERT_NE(start, std::string::npos) << name << " is not in " << base << "'s dpkg status";
    auto end = status.find("\n\n", start);
    status.erase(start, end == std::string::npos ? std::string::npos : end + 2 - start);
  }
  std::ofstream(status_path, std::ios::binary) << status << append_status;
}

void expect_same(const fs::path& golden, const std::string& actual, bool update, const std::string& what) {
  if (update) {
    if (actual.empty()) fs::remove(golden);
    else std::ofstream(golden, std::ios::binary) << actual;
    return;
  }
  std::string expected = fs::exists(golden) ? slurp(golden) : std::string();
  EXPECT_EQ(expected, actual) << what << " differs from " << golden.string()
                              << " (EXTDEPS_UPDATE_CASES=1 rewrites it; review the diff)";
}

// stdout validates against schema/<name> (Python's jsonschema). Without it the case is reported
// skipped, saying why (after its other checks ran), so that no run passes with the check left out.
void check_schema(const std::string& doc, const std::string& name) {
  if (std::system("/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "the json-schema check: /usr/bin/python3 with jsonschema is missing (Debian: python3-jsonschema)";
  }
  const std::string file = test::temp_dir() + "/out.json";
  std::ofstream(file, std::ios::binary) << doc;
  // Every schema of schema/ in the resolver's store, so that env.schema.json's $refs into
  // plan.schema.json resolve offline.
  const std::string script = test::temp_dir() + "/validate.py";
  std::ofstream(script) << "import glob, json, sys, jsonschema\n"
                           "store = {}\n"
                           "for f in glob.glob(sys.argv[1] + '/*.schema.json'):\n"
                           "    s = json.load(open(f))\n"
                           "    store[s.get('$id', f)] = s\n"
                           "schema = json.load(open(sys.argv[1] + '/' + sys.argv[2]))\n"
                           "resolver = jsonschema.RefResolver.from_schema(schema, store=store)\n"
                           "cls = jsonschema.validators.validator_for(schema)\n"
                           "cls(schema, resolver=resolver).validate(json.load(open(sys.argv[3])))\n";
  const std::string check =
      "/usr/bin/python3 " + script + " " + std::string(EXTDEPS_SOURCE_MAPPINGS_DIR) + "/../schema " + name + " " + file;
  EXPECT_EQ(std::system(check.c_str()), 0) << "stdout does not follow schema/" << name;
}

class CliCase : public ::testing::TestWithParam<std::string> {};

TEST_P(CliCase, GivesItsPinnedOutput) {
  const fs::path dir = fs::path(cases_dir()) / GetParam();
  toml::table spec;
  try {
    spec = toml::parse_file((dir / "case.toml").string());
  } catch (const toml::parse_error& e) {
    FAIL() << (dir / "case.toml").string() << ": " << e.description();
  }

  std::string root = test::temp_dir() + "/root";
  std::string project = test::temp_dir();
  std::string cache = test::temp_dir();
  Places places = {{"{project}", project},
                   {"{root}", root},
                   {"{cache}", cache},
                   {"{data}", fs::weakly_canonical(test::data_path(".")).string()},
                   {"{mappings}", std::string(EXTDEPS_SOURCE_MAPPINGS_DIR)}};
  // The providers the case runs (a build may leave some out: EXTDEPS_PROVIDER_<NAME>=OFF), or
  // "all" where its output lists every provider.
  if (auto* all = spec["needs-providers"].as_string(); all && all->get() == "all") {
    EXTDEPS_NEEDS_EVERY_PROVIDER();
  } else if (auto* providers = spec["needs-providers"].as_array()) {
    for (const auto& p : *providers) EXTDEPS_NEEDS_PROVIDER(p.value_or(std::string()));
  }
  if (auto* needs = spec["needs-shared"].as_string()) {
    auto shared = test::shared_data(needs->get());
    if (!shared) GTEST_SKIP() << "../shared/data/" << needs->get() << " is absent (no shared/ beside the checkout)";
    places.push_back({"{shared}", fs::weakly_canonical(test::shared_data(".").value()).string()});
  }
  std::sort(places.begin(), places.end(),
            [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });

  make_machine(root, spec["machine"].as_table());
  if (HasFatalFailure()) return;
  const auto tree = fs::copy_options::recursive | fs::copy_options::overwrite_existing;
  if (fs::exists(dir / "project")) fs::copy(dir / "project", project, tree);
  // root/ lays files over the fixture machine (a .pc file, a config under /etc)
  if (fs::exists(dir / "root")) fs::copy(dir / "root", root, tree);
  // files/ is a folder of its own, {files}: a user's config home, an extra mapping folder
  if (fs::exists(dir / "files")) {
    std::string files = test::temp_dir();
    fs::copy(dir / "files", files, tree);
    places.push_back({"{files}", files});
    std::sort(places.begin(), places.end(),
              [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  }

  // A file NAME.in of project/, root/ or files/ is written as NAME with the placeholders filled
  // in (a .pc file names its own prefix).
  for (const auto& top : {project, root, places_path(places, "{files}")}) {
    if (top.empty()) continue;
    std::vector<fs::path> templates;
    for (const auto& f : fs::recursive_directory_iterator(top))
      if (f.is_regular_file() && f.path().extension() == ".in") templates.push_back(f.path());
    for (const auto& t : templates) {
      std::ofstream(fs::path(t).replace_extension(), std::ios::binary) << expand(slurp(t), places);
      fs::remove(t);
    }
  }

  std::vector<std::string> args;
  if (auto* a = spec["args"].as_array())
    for (const auto& x : *a) args.push_back(expand(x.value_or(std::string()), places));
  std::map<std::string, std::string> env = {{"EXTDEPS_MAPPINGS_DIR", std::string(EXTDEPS_SOURCE_MAPPINGS_DIR)},
                                            {"PKG_CONFIG_LIBDIR", ""}};
  if (auto* e = spec["env"].as_table())
    for (const auto& [k, v] : *e) env[std::string(k.str())] = expand(v.value_or(std::string()), places);
  const int command_exit = spec["command-exit"].value_or(0);
  std::istringstream in(spec["stdin"].value_or(std::string()));
  std::ostringstream out, err, commands;

  auto ctx = Context::for_test(root, env);
  ctx.set_cache_dir(cache);
  ctx.set_warning_sink([&err](std::string_view m) { err << m << '\n'; });
  ctx.set_command_runner([&](const std::vector<std::string>& argv) {
    for (std::size_t i = 0; i < argv.size(); ++i) commands << (i ? " " : "") << argv[i];
    commands << '\n';
    return command_exit;
  });
  ctx.set_input(&in);
  const int rc = cli::run(ctx, args, out, err);

  const bool update = std::getenv("EXTDEPS_UPDATE_CASES") != nullptr;
  EXPECT_EQ(rc, spec["exit"].value_or(-1)) << "stdout:\n" << out.str() << "stderr:\n" << err.str();
  // Output that grows with the shipped tables (coverage, lint counts) is pinned by the lines it
  // must contain rather than whole.
  for (const char* stream : {"stdout", "stderr"}) {
    const std::string text = normalise(stream == std::string("stdout") ? out.str() : err.str(), places);
    if (auto* lines = spec[std::string(stream) + "-contains"].as_array()) {
      for (const auto& l : *lines)
        EXPECT_NE(text.find(l.value_or(std::string())), std::string::npos)
            << stream << " lacks '" << l.value_or(std::string()) << "':\n"
            << text;
    } else {
      expect_same(dir / stream, text, update, stream);
    }
  }
  expect_same(dir / "commands", normalise(commands.str(), places), update, "the commands run");
  if (auto* schema = spec["json-schema"].as_string()) check_schema(out.str(), schema->get());
}

std::string case_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Cases, CliCase, ::testing::ValuesIn(all_cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CliCase);

}  // namespace
}  // namespace extdeps
