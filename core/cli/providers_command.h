// `extdeps providers [--json]`: the compiled-in providers from their descriptors: name,
// ecosystem, manager, version scheme, what each is, its options (flag, configuration key,
// variables) and the variables it reads.
#pragma once

#include <iosfwd>

namespace extdeps::cli {

int cmd_providers(bool json, std::ostream& out);

}  // namespace extdeps::cli
