#include "core/mapping/names.h"

#include "core/provider/descriptor.h"
#include "core/util/printable.h"

#include <algorithm>
#include <cctype>

namespace extdeps::mapping {

bool is_debian_name(std::string_view s) {
  if (s.size() < 2 || !(std::islower(static_cast<unsigned char>(s[0])) ||
                        std::isdigit(static_cast<unsigned char>(s[0])))) {
    return false;
  }
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) ||
           std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
  });
}

bool is_conda_name(std::string_view s) {
  if (s.empty() || s[0] == '-' || s[0] == '.') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
  });
}

bool is_nix_attr_path(std::string_view s) {
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    std::string_view part = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (part.empty() || !(std::isalpha(static_cast<unsigned char>(part[0])) || part[0] == '_')) return false;
    for (char c : part)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '\'' || c == '-')) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool is_pypi_name(std::string_view s) {
  if (s.empty() || s.front() == '-' || s.back() == '-' || s.find("--") != std::string_view::npos) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

bool is_apt_manager(std::string_view m) { return m == "apt" || m == "apt-get"; }

bool is_conda_manager(std::string_view m) {
  return m == "conda" || m == "mamba" || m == "micromamba";
}

std::optional<std::string> debian_name_problem(std::string_view name) {
  if (is_debian_name(name)) return std::nullopt;
  return "'" + printable(name) + "' is not a valid Debian package name";
}

std::optional<std::string> conda_name_problem(std::string_view name) {
  if (is_conda_name(name)) return std::nullopt;
  return "'" + std::string(name) + "' is not a valid conda package name (lower case letters, digits, - _ .)";
}

std::optional<std::string> nix_name_problem(std::string_view name) {
  if (is_nix_attr_path(name)) return std::nullopt;
  return "'" + printable(name) + "' is not a valid nixpkgs attribute path (names of letters, digits, _ ' -, joined by '.')";
}

std::optional<std::string> pypi_name_problem(std::string_view name) {
  if (is_pypi_name(name)) return std::nullopt;
  return "'" + printable(name) + "' is not a normalised PyPI project name (lower case letters, digits, single '-')";
}

std::optional<std::string> generic_name_problem(std::string_view name) {
  // Whatever the manager, a name must not read as an option of the command it goes into
  // ('-oDPkg::Pre-Invoke::=...' for apt-get) or split into more than one argument or line.
  if (name.empty()) return "an empty name is not a valid name";
  if (name.front() == '-') return "'" + printable(name) + "' is not a valid name (it starts with '-', as an option does)";
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
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view(".+-~:_!*,").find(c) != std::string_view::npos;
  });
  if (safe && text.front() != '-') return std::nullopt;
  return "'" + printable(text) + "' is not a valid " + std::string(what) +
         (text.front() == '-' ? " (it starts with '-', as an option does)"
                              : " (expected letters, digits and . + - ~ : _ ! * ,)");
}

std::string printable(std::string_view text) { return escape_controls(text); }

}  // namespace extdeps::mapping
