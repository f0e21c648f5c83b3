// The one place the CLI renders an error (issue 15 part 5): "error: " and its line on stderr,
// made printable; for a command asked for JSON, the error as data on stdout too
// (schema/error.schema.json). Returns the exit code the error carries.
#pragma once

#include <iosfwd>

#include "core/util/result.h"

namespace extdeps::cli {

int fail(std::ostream& err, const Error& e, std::ostream* json_out = nullptr);

}  // namespace extdeps::cli
