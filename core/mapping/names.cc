#include "core/mapping/names.h"

#include "core/provider/descriptor.h"
#include "core/util/printable.h"

#include <algorithm>
#include <cctype>

namespace extdeps::mapping {

std::optional<std::string> generic_name_problem(std::string_view name) {
  // Whatever the manager, a name must not read as an option of the command it goes into
  // ('-oDPkg::Pre-Invoke::=...' for apt-get) or split into more than one argument or line.
  if (name.empty()) return "an empty name is not a valid name";
  if (name.front() == '-')
    return "'" + printable(name) + "' is not a valid name (it starts with '-', as an option does)";
  if (std::any_of(name.begin(), name.end(), [](char c) {
        return std::isspace(static_cast<unsigned char>(c)) || std::iscntrl(static_cast<unsigned char>(c));
      }))
    return "'" + printable(name) + "' is not a valid name (it has a space or a control character)";
  return std::nullopt;
}

std::optional<std::string> name_problem(std::string_view manager, std::string_view name) {
  // The manager's own rule, from its provider's descriptor; every rule refuses a leading '-'.
  if (const ProviderDescriptor* d = descriptor_for_manager(manager); d && d->name_problem) return d->name_problem(name);
  return generic_name_problem(name);
}

std::optional<std::string> argument_problem(std::string_view what, std::string_view text) {
  if (text.empty()) return std::nullopt;
  bool safe = std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view(".+-~:_!*,").find(c) != std::string_view::npos;
  });
  if (safe && text.front() != '-') return std::nullopt;
  return "'" + printable(text) + "' is not a valid " + std::string(what) +
         (text.front() == '-' ? " (it starts with '-', as an option does)"
                              : " (expected letters, digits and . + - ~ : _ ! * ,)");
}

std::string printable(std::string_view text) { return escape_controls(text); }

}  // namespace extdeps::mapping
