// The native runtime needs of what is installed in a Python environment: the
// Requires-External-Dep fields (Core Metadata 2.6, PEP 725) of every distribution an interpreter
// sees, as run Requirements. What `extdeps check --python PY` audits.
#pragma once

#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/declare/requirement.h"
#include "core/util/result.h"

namespace extdeps::declare {

// Asks `python` (a path, or a name looked up on ctx's PATH) through importlib.metadata. A field
// with an `extra == '...'` marker names an extra that cannot be told installed, and is left out;
// other markers stay for the caller to evaluate. Each Requirement's `where` names the
// distribution ("numpy 2.1.0 (METADATA)"). An environment error when the interpreter cannot be
// run; a field that is not an external dependency specifier is bad input naming its distribution.
Result<std::vector<Requirement>> installed_external_needs(const Context& ctx, const std::string& python);

// The same from the JSON the interpreter prints (exposed for tests):
// [{"name": ..., "version": ..., "requires": ["dep:generic/openssl>=3", ...]}, ...].
Result<std::vector<Requirement>> external_needs_from_json(std::string_view text);

}  // namespace extdeps::declare
