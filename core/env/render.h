// A BuildEnv for the programs that read it: POSIX sh (eval "$(extdeps env)"), a CMake script
// (include() by hooks/cmake/ExtDeps.cmake) and JSON (the Python hook, the C API).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/plan/plan.h"
#include "extdeps/build_env.h"

namespace extdeps::env {

// `export NAME='value'`; a search path keeps what is set already after its own entries:
// `export CPATH='/opt/x/include'"${CPATH:+:$CPATH}"`. Values are single-quoted, so nothing in
// them is expanded.
std::string render_sh(const BuildEnv& env);

// For include(): EXTDEPS_ENV_VARIABLES lists the names; EXTDEPS_ENV_<NAME> holds each one (a
// CMake list for a search path); the process environment gets each variable (search paths
// before what it had), so pkg_check_modules and execute_process see them; and the CMake search
// variables follow: CMAKE_PREFIX_PATH, CMAKE_INCLUDE_PATH (CPATH), CMAKE_LIBRARY_PATH
// (LIBRARY_PATH), CMAKE_PROGRAM_PATH (PATH), CUDAToolkit_ROOT.
std::string render_cmake(const BuildEnv& env);

// [{"name", "kind": "path-list"|"value", "entries"|"value", "needs"}], sorted by name.
nlohmann::json to_json(const BuildEnv& env);

// What `extdeps env --format json` prints: {"declaration", "satisfied", "variables", "missing"
// (the plan's requirements that are not met), "steps" (with "line", through `sudo` when needed
// and set), "problems", "warnings"}.
nlohmann::json report_json(const plan::Outcome& outcome, const std::string& declaration, const BuildEnv& env,
                           const std::string& sudo);

// A word for the shell, single-quoted unless it is plain.
std::string sh_quote(std::string_view text);
// A CMake quoted argument: "..." with \, ", $ and newlines escaped; for an element of a list
// also ';' (as \;), which would otherwise split it.
enum class CmakeValue { single, list_element };
std::string cmake_quote(std::string_view text, CmakeValue kind = CmakeValue::single);

}  // namespace extdeps::env
