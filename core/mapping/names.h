// Which native names a package manager accepts, so that a table (and an imported one) is
// checked the same way everywhere: the loader, `extdeps mappings lint` and the importers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace extdeps::mapping {

// Debian policy 5.6.1: lower case letters, digits, + - . ; at least two characters, starting
// with an alphanumeric.
bool is_debian_name(std::string_view name);

// conda package names as channels publish them (conda normalises names to lower case): lower
// case letters, digits, '-', '_' and '.', not starting with '-' or '.' ("_openmp_mutex" is real).
// A MatchSpec ("libblas * *_openblas") is not a name.
bool is_conda_name(std::string_view name);

// A nixpkgs attribute path: names of letters, digits, '_', '\'' and '-', not starting with a
// digit, '\'' or '-', joined by '.' ("cudaPackages.cuda_nvcc"); an installable ("nixpkgs#hello")
// or a store path is not one.
bool is_nix_attr_path(std::string_view name);

// A project name as PyPI normalises it (PEP 503): lower case letters and digits, runs of them
// joined by single '-' ("nvidia-cublas-cu12", not "Nvidia_CuBLAS").
bool is_pypi_name(std::string_view name);

// The managers whose names have rules of their own.
bool is_apt_manager(std::string_view manager);    // apt, apt-get
bool is_conda_manager(std::string_view manager);  // conda, mamba, micromamba

// Why `name` is not a valid name for `manager` ("Debian package name", ...), or nothing when
// it is: the rule of the provider whose descriptor names that manager (ProviderDescriptor::
// name_problem). For managers without rules of their own (and a table without a manager key),
// the generic rule: a name must not start with '-' (it would be read as an option of the
// install command) nor hold a space or a control character.
std::optional<std::string> name_problem(std::string_view manager, std::string_view name);

// The rules the descriptors name, each "why not" or nothing.
std::optional<std::string> debian_name_problem(std::string_view name);
std::optional<std::string> conda_name_problem(std::string_view name);
std::optional<std::string> nix_name_problem(std::string_view name);
std::optional<std::string> pypi_name_problem(std::string_view name);
std::optional<std::string> generic_name_problem(std::string_view name);

// Why a version or build string (`what`: "Debian version") cannot go into an install command:
// it starts with '-' or holds a byte outside letters, digits and . + - ~ : _ ! * ,. Nothing for
// an empty text.
std::optional<std::string> argument_problem(std::string_view what, std::string_view text);

// `text` with control characters written as \xNN, for messages.
std::string printable(std::string_view text);

}  // namespace extdeps::mapping
