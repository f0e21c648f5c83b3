// How an id is compared with the ids and aliases of the tables when its exact text misses: the
// PURL specification's rules per type (github, gitlab, bitbucket and npm names are lower case;
// pypi names are normalised as PEP 503 says), and for every other type a case-insensitive
// fallback that the caller reports, since the table's spelling is the canonical one.
#pragma once

#include <string>
#include <string_view>

namespace extdeps::mapping {

// The id without version, qualifiers and subpath, in the form two spellings of one thing share:
// "dep:GitHub/Kitware/CMake@3.2" -> "dep:github/kitware/cmake", "dep:pypi/Foo_Bar" ->
// "dep:pypi/foo-bar", "dep:generic/XCB" -> "dep:generic/xcb".
std::string spelling_key(std::string_view id);

// spelling_key(candidate) == key, without building the candidate's key where it can be helped:
// a table has a thousand ids and a lookup that misses compares them all.
bool same_spelling(std::string_view candidate, std::string_view key);

// True when the PURL type says its names are case-insensitive (or normalised, pypi): a match
// by spelling_key is then the same id, not a near miss worth a warning.
bool type_folds_case(std::string_view id);

// "dep:generic/cmake@3.25?repository_url=...#sub" -> "dep:generic/cmake"
std::string_view base_id(std::string_view id);

}  // namespace extdeps::mapping
