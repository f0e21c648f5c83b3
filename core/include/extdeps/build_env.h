// What a build needs to find the packages that meet its needs (`extdeps env`): search paths to
// put before what the environment already has (PKG_CONFIG_PATH, CMAKE_PREFIX_PATH, CPATH,
// LIBRARY_PATH, LD_LIBRARY_PATH, PATH) and single values (CUDA_HOME, CUDAToolkit_ROOT). Providers
// add to it (Provider::add_build_env); the front ends render it for sh, CMake or JSON. Part of the
// public API, header-only: it depends on nothing but the standard library.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace extdeps {

struct EnvVariable {
  std::string name;
  // A ':'-separated search path whose entries go before the value already set; else a value
  // that replaces it.
  bool path_list = false;
  std::vector<std::string> entries;  // path_list: in order, each once
  std::string value;                 // otherwise
  std::vector<std::string> needs;    // the DepURL ids it is there for, each once

  // The entries joined with ':' (path lists) or the value.
  std::string joined() const {
    if (!path_list) return value;
    std::string out;
    for (const auto& e : entries) out += (out.empty() ? "" : ":") + e;
    return out;
  }
};

class BuildEnv {
 public:
  // Adds `dir` to the search path `name` (after the entries already added), for `need`. An
  // empty dir, or one that holds ':' (a search path cannot say it), is ignored, as is a name
  // that holds a value.
  void prepend_path(std::string_view name, std::string_view dir, std::string_view need) {
    if (dir.empty() || dir.find(':') != std::string_view::npos) return;
    EnvVariable& v = slot(name, true);
    if (!v.path_list) return;
    add_once(v.entries, dir);
    if (!need.empty()) add_once(v.needs, need);
  }
  // Sets `name` to `value` for `need`, unless an earlier need set it already: the first wins.
  void set(std::string_view name, std::string_view value, std::string_view need) {
    if (value.empty()) return;
    EnvVariable& v = slot(name, false);
    if (v.path_list) return;
    if (v.value.empty()) v.value = std::string(value);
    if (v.value == value && !need.empty()) add_once(v.needs, need);
  }

  // Sorted by name.
  const std::vector<EnvVariable>& variables() const { return variables_; }
  const EnvVariable* find(std::string_view name) const {
    for (const auto& v : variables_)
      if (v.name == name) return &v;
    return nullptr;
  }
  bool empty() const { return variables_.empty(); }

 private:
  static void add_once(std::vector<std::string>& list, std::string_view item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.emplace_back(item);
  }
  EnvVariable& slot(std::string_view name, bool path_list) {
    auto it = std::lower_bound(variables_.begin(), variables_.end(), name,
                               [](const EnvVariable& v, std::string_view n) { return v.name < n; });
    if (it == variables_.end() || it->name != name) {
      EnvVariable v;
      v.name = std::string(name);
      v.path_list = path_list;
      it = variables_.insert(it, std::move(v));
    }
    return *it;
  }
  std::vector<EnvVariable> variables_;
};

}  // namespace extdeps
