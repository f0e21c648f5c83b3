// The DepURL types and the rules the PURL specification gives each, read from
// schema/purl-types.txt by the build (generated/purl_types.cc): which types name a project, which
// fold case, which normalise a name's separators. Data, not code, so that core names no
// ecosystem; a new PURL type is one line in that file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace extdeps {

struct PurlType {
  std::string_view name;   // "github"
  bool named = false;      // its last segment is a project's name (what a guess starts from)
  bool lowercase = false;  // namespace and name are case-insensitive
  bool one_dash = false;   // the name's runs of '-', '_' and '.' are one '-'
  bool example = false;    // named in the message for an unknown type
};

// Every type, `virtual` and `generic` first, in the file's order.
const std::vector<PurlType>& purl_types();

// The type of that name (exactly as written: types are lower case); null when there is none.
const PurlType* purl_type(std::string_view name);

// The type of a DepURL ("dep:pypi/x" -> pypi's); null when it has none or an unknown one.
const PurlType* purl_type_of(std::string_view id);

// The names, for "did you mean".
const std::vector<std::string_view>& purl_type_names();

// "'github', 'pypi' or 'conda'": the types marked `example`, for the message of an unknown one.
std::string purl_type_examples();

}  // namespace extdeps
