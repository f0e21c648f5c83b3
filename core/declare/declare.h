// Reading declarations: DepURL and range parsing, PEP 508 markers, and the [external] table of a
// pyproject.toml or extdeps.toml.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/context/context.h"
#include "core/declare/requirement.h"
#include "core/util/result.h"

namespace extdeps::declare {

// Parses "dep:generic/openjpeg@>=2.0" (and the older "pkg:" / "virtual:" spellings, which the
// caller is told about through `legacy`). Errors say what was expected; the caller adds the place.
Result<DepUrl> parse_depurl(std::string_view text, bool* legacy_spelling = nullptr);

// ">=3.4,<4", "==1.2.*", "2.0" (a bare version means ==). "~=2.2" becomes ">=2.2,==2.*".
// An empty text is any version.
Result<VersionRange> parse_range(std::string_view text);

// One external dependency specifier: "dep:generic/gdal@>=3.4; sys_platform == 'linux'", also
// with the range written PEP 508 style after the DepURL ("dep:generic/gdal >=3.4",
// "dep:generic/gdal (>=3.4)"). Fills url, range, marker and spec; the caller sets category,
// group and where. The marker is checked (syntax and variable names), not evaluated.
Result<Requirement> parse_requirement(std::string_view text, bool* legacy_spelling = nullptr);

// Does a version (PEP 440 or upstream text) satisfy the range?
bool range_contains(const VersionRange& range, std::string_view version);

// The values PEP 508 markers are evaluated against (os_name, sys_platform, platform_machine,
// platform_system, platform_release, python_version, implementation_name, ...).
// `python`: the interpreter whose version and implementation the markers see (`--python`, the
// interpreter a build hook runs in); empty: the python3 on the context's PATH.
using MarkerEnv = std::map<std::string, std::string>;
MarkerEnv host_marker_env(const Context& ctx, const std::string& python = "");

// Evaluates a PEP 508 marker expression ("sys_platform == 'linux' and platform_machine != 'arm64'").
// `extra` is the optional group being asked for, for "extra == 'name'".
Result<bool> evaluate_marker(std::string_view marker, const MarkerEnv& env);

// Checks a marker's syntax and variable names without evaluating it.
Result<void> check_marker(std::string_view marker);

// The candidate closest to `word` by edit distance, when close enough to be a likely typo:
// did_you_mean("gneric", types) == "generic". For "unknown X (did you mean 'Y'?)" messages.
std::optional<std::string> did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

// Reads `path` (pyproject.toml or extdeps.toml). Unknown keys in [external] are errors; legacy
// spellings are accepted with one warning each through ctx.warn().
Result<Declaration> read_declaration(const Context& ctx, const std::string& path);

// Finds the declaration in a project folder: pyproject.toml with an [external] table, else
// extdeps.toml. A file path is returned as is.
Result<std::string> find_declaration(const std::string& path);

}  // namespace extdeps::declare
