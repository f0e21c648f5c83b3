// A TOML text parsed once per process: a run reads its declaration three times (to find it, for
// its needs, for [tool.extdeps]), and a declaration of 1,000 needs took half a millisecond a parse.
#pragma once

#include <toml++/toml.h>

#include <memory>
#include <string>
#include <string_view>

namespace extdeps {

// The document of `text`, read from `path`: the last text parsed is kept, and the same path and
// text again return it. Throws toml::parse_error as toml::parse does (nothing is kept then).
std::shared_ptr<const toml::table> parse_toml_once(std::string_view text, const std::string& path);

}  // namespace extdeps
