// The name rules of the files extdeps writes under its cache root, for `extdeps cache clean` to
// tell them from a user's own: core's caches use them, and so may a provider's cache folders
// (ProviderDescriptor::cache_folders).
#pragma once

#include <string>
#include <string_view>

namespace extdeps::cache_names {

// <16 hex>.json, and the same name with `temp` and a pid after it: the temporary file of a
// write that was cut off.
bool hex_json_file(std::string_view name, std::string_view temp);

// <16 hex><suffix> with the sealed header of `kind` (core/util/sealed_file.h).
bool sealed_hex_file(const std::string& path, std::string_view name, std::string_view suffix, std::string_view kind);

}  // namespace extdeps::cache_names
