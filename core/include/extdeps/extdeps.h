// The extdeps library for programs that embed it (build backends, IDEs, other languages through
// extdeps_c.h): read a project's [external] declaration, resolve it into a plan, check that every
// need is met, describe the machine, and say what a build needs to find what is installed.
//
// Every call returns a Result: an Error carries the exit code `extdeps` itself would end with
// (docs/exit-codes.md) and one line for people. Nothing here throws, and no libsolv, toml++ or
// JSON library type appears: JSON is handed over as text (schema/plan.schema.json,
// schema/detect.schema.json). C++17 or newer.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "extdeps/build_env.h"
#include "extdeps/export.h"
#include "extdeps/result.h"

namespace extdeps::api {

// "0.1.0"
EXTDEPS_API const char* version();

// What the command line's common options say (`extdeps resolve --help`).
struct Options {
  std::vector<std::string> managers;         // preference order ("apt"); empty: configuration, else all
  std::vector<std::string> categories;       // "build", "host", "run"; empty: all three
  std::vector<std::string> optional_groups;  // also plan these optional or dependency groups
  bool all_optional = false;
  std::vector<std::string> mapping_dirs;  // extra mapping tables folders
  // Mapping overrides, each "[ECOSYSTEM=]FILE", a table (.toml) or a PEP 804 file (.json): one
  // used instead of the ecosystem's table, one whose entries replace the table's, one whose
  // packages are added as more alternatives (--use-mapping, --patch-mapping, --extend-mapping).
  std::vector<std::string> use_mappings;
  std::vector<std::string> patch_mappings;
  std::vector<std::string> extend_mappings;
  // The providers' options by name, as on the command line without "--": "channel" (conda
  // channels), "prefix" (a conda environment), "index-url", "extra-index-url", "nix-index";
  // `extdeps providers` lists them. A plain option takes one value.
  std::map<std::string, std::vector<std::string>> provider_options;
  bool offline = false;   // downloads from the cache only
  bool use_cache = true;  // the index cache under the cache folder
  // The Python interpreter pypi plans for; for check(), also an environment audit: the
  // Requires-External-Dep of every distribution it has installed is checked too (with path ""
  // or "." holding no declaration, only those).
  std::string python;
  std::string host_file;  // plan for the facts `extdeps detect --save` wrote
  // Plan for this system, not the machine's: "fedora:41", "ubuntu:24.04", "macos:14" (--system).
  std::string system;
};

// How a Session sees the machine. The defaults are the running process's.
struct SessionOptions {
  // Variables set over the process's environment (or instead of it, without inherit_environment):
  // EXTDEPS_MANAGERS, PKG_CONFIG_PATH, CONDA_PREFIX, EXTDEPS_OVERRIDE_CUDA...
  std::map<std::string, std::string> environment;
  bool inherit_environment = true;
  std::string cache_dir;   // empty: $XDG_CACHE_HOME/extdeps
  std::string root = "/";  // the file system root the machine's indexes are read under
  // The extdeps program, run as the child that probes the NVIDIA driver. Empty: the one installed
  // beside this library (<prefix>/bin/extdeps), if there is one; without it the driver is not probed.
  std::string program;
};

// One need as declared.
struct Need {
  std::string id;        // "dep:generic/libxml2"
  std::string spec;      // as written: "dep:generic/libxml2@>=2.9"
  std::string category;  // "build", "host" or "run"
  std::string range;     // ">=2.9"; empty: any version
  std::string group;     // the optional group; empty when required
  std::string marker;    // PEP 508 marker; empty when none
  std::string where;     // "pyproject.toml:14:5"
};

struct Declaration {
  std::string path;  // the file read
  std::vector<Need> needs;
  std::vector<std::string> optional_groups;
  std::vector<std::string> dependency_groups;
  std::string json;  // {"path", "needs": [...], "optional_groups", "dependency_groups"}
};

enum class Status { satisfied, planned, unsatisfiable, unmapped };

struct Package {
  std::string manager;    // apt, conda, pkgconf, host
  std::string ecosystem;  // debian, conda-forge, pkgconfig
  std::string name;
  std::string version;  // native
  bool installed = false;
  std::string where;  // for installed ones: the .pc file, the dpkg status file, ...
};

struct NeedOutcome {
  Need need;
  Status status = Status::unsatisfiable;
  std::vector<Package> packages;  // what meets it, installed or planned
  std::string message;            // why not, for unsatisfiable and unmapped
  std::vector<std::string> candidates;
};

struct Step {
  std::string manager;
  std::vector<std::string> argv;  // without sudo
  bool requires_elevation = false;
  std::string command_line;  // for people: quoted, through sudo when needed and not root
};

// An installed package the steps remove (a plan that swaps out one that conflicts with a need's
// package, as apt would).
struct Removal {
  std::string manager;  // apt, dnf
  std::string name;
  std::string version;  // as installed
  std::string reason;   // "libcurl4-gnutls-dev 7.88.1-10+deb12u15 (debian) conflicts with it"
};

struct Report {
  std::string declaration;  // the file read
  std::string host;         // "Debian GNU/Linux 12 (bookworm), amd64"
  std::vector<NeedOutcome> needs;
  std::vector<Step> steps;
  std::vector<Removal> removals;      // what the steps remove; a caller that runs them should ask first
  std::vector<std::string> problems;  // why no plan meets every need; empty when one does
  std::vector<std::string> warnings;
  bool plan_found = false;     // every need is met or planned
  bool all_satisfied = false;  // every need is met already
  std::string json;            // schema/plan.schema.json, with "declaration" and "satisfied"
  std::string text;            // what `extdeps resolve` (or `extdeps check`, for check()) prints
};

struct Compiler {
  std::string name, path, version;
};

struct Host {
  std::string os;       // "Debian GNU/Linux 12 (bookworm)"
  std::string arch;     // as the system's own manager names it (amd64 on Debian), else as machine
  std::string machine;  // uname -m: x86_64
  std::string kernel;
  std::string libc, libc_version;
  std::string x86_64_level;  // "x86-64-v3"; empty elsewhere
  std::vector<Compiler> compilers;
  std::string cuda_state;    // "ok", "no-library", "stub-library", "no-device", ...
  std::string cuda_version;  // what the driver supports: "12.4"; empty when unknown
  int gpus = 0;
  std::string json;  // schema/detect.schema.json
};

// What a build needs to find the needs that are met (`extdeps env`).
struct Environment {
  std::string declaration;
  bool satisfied = false;  // every need is met; else `missing` says which are not
  BuildEnv variables;
  std::vector<NeedOutcome> missing;
  std::vector<Step> steps;                // what would install the missing ones
  std::string explanation;                // for people: what is missing and how to install it
  EXTDEPS_API std::string sh() const;     // `export NAME=...` lines, quoted for a POSIX shell
  EXTDEPS_API std::string cmake() const;  // a script for include()
  std::string json;                       // what `extdeps env --format json` prints
};

class EXTDEPS_API Session {
 public:
  explicit Session(SessionOptions options = {});
  ~Session();
  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Reads the declaration of a project folder (pyproject.toml with [external], else
  // extdeps.toml) or of a file.
  Result<Declaration> load(const std::string& path) const;
  // Plans the needs: met, planned (with the commands), or why not. A plan that cannot meet
  // every need is a Report with plan_found false, not an Error.
  Result<Report> resolve(const std::string& path, const Options& options = {});
  // resolve(), with the text `extdeps check` prints (what is missing and how to install it).
  Result<Report> check(const std::string& path, const Options& options = {});
  // The machine as plans see it (cached like `extdeps detect`; refresh detects again).
  Result<Host> detect(bool refresh = false);
  // For the needs that are met, what a build needs to find them.
  Result<Environment> env(const std::string& path, const Options& options = {});

  // The warnings of every call so far ("dep:generic/foo: legacy spelling ..."), each once.
  std::vector<std::string> warnings() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace extdeps::api
