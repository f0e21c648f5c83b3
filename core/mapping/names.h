// Which native names a package manager accepts, so that a table (and an imported one) is
// checked the same way everywhere: the loader, `extdeps mappings lint` and the importers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace extdeps::mapping {

// Why `name` is not a valid name for `manager` ("Debian package name", ...), or nothing when
// it is: the rule of the provider whose descriptor names that manager (ProviderDescriptor::
// name_problem). For managers without rules of their own (and a table without a manager key),
// the generic rule: a name must not start with '-' (it would be read as an option of the
// install command) nor hold a space or a control character.
std::optional<std::string> name_problem(std::string_view manager, std::string_view name);

// The rule every manager's own rule adds to: "why not" or nothing.
std::optional<std::string> generic_name_problem(std::string_view name);

// Why a version or build string (`what`: "Debian version") cannot go into an install command:
// it starts with '-' or holds a byte outside letters, digits and . + - ~ : _ ! * ,. Nothing for
// an empty text.
std::optional<std::string> argument_problem(std::string_view what, std::string_view text);

// `text` with control characters written as \xNN, for messages.
std::string printable(std::string_view text);

}  // namespace extdeps::mapping
