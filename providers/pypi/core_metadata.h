// Core metadata (the METADATA of a wheel, a dist-info folder or a PEP 658 <file>.metadata, and
// an egg-info PKG-INFO) and the PEP 508 requirements its Requires-Dist lines hold.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/declare/declare.h"
#include "core/util/result.h"

namespace extdeps::pypi {

struct CoreMetadata {
  std::string name;  // as written
  std::string version;
  std::string requires_python;
  std::vector<std::string> requires_dist;  // one line each, as written
};

// The header fields (RFC 822 style: "Key: value", continuation lines start with a blank) up to
// the first empty line; the description after it is not read. `where` names the text in errors
// (a URL or a path). A missing Name or Version is an error.
Result<CoreMetadata> parse_core_metadata(std::string_view text, const std::string& where);

// "nvidia-cublas-cu12 (>=12.1) ; platform_system == 'Linux'", "foo[bar,baz]>=1,<2; extra == 'x'",
// "pkg @ https://host/pkg.whl".
struct PyRequirement {
  std::string name;  // normalised (PEP 503)
  std::vector<std::string> extras;
  std::string specifier;  // ">=12.1", ">=1,<2"; empty for any version or a direct reference
  std::string marker;     // empty when none
};
Result<PyRequirement> parse_requirement(std::string_view text);

// The requirements of a distribution that hold in `env` without extras: markers evaluated with
// extra = "" (so "extra == 'test'" lines drop out). Lines that do not parse are skipped and
// counted in *skipped.
std::vector<PyRequirement> active_requirements(const std::vector<std::string>& requires_dist,
                                               const declare::MarkerEnv& env, int* skipped = nullptr);

}  // namespace extdeps::pypi
