// The nix provider as the rest of extdeps sees it (core/provider/descriptor.h).
#include <cctype>

#include "core/mapping/names.h"
#include "providers/nix/nix_provider.h"
#include "providers/nix/nix_version.h"

namespace extdeps::nix {

namespace {

// A nixpkgs attribute path: names of letters, digits, '_', '\'' and '-', not starting with a
// digit, '\'' or '-', joined by '.' ("cudaPackages.cuda_nvcc"); an installable ("nixpkgs#hello")
// or a store path is not one.
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

std::optional<std::string> name_problem(std::string_view name) {
  if (is_nix_attr_path(name)) return std::nullopt;
  return "'" + mapping::printable(name) +
         "' is not a valid nixpkgs attribute path (names of letters, digits, _ ' -, joined by '.')";
}

}  // namespace

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "nix",
      .ecosystem = "nixpkgs",
      .manager = "nix",
      .manager_aliases = {},
      .scheme = &version::nix_scheme,
      .summary = "nixpkgs indexes and nix profiles; nix profile or nix-env commands; shell.nix and flake.nix",
      .name_problem = name_problem,
      .options =
          {
              {.name = "nix-index",
               .value_name = "FILE|URL",
               .help = "nixpkgs index: a file or URL (a channel's packages.json.br)",
               .env = {"EXTDEPS_NIX_INDEX"},
               .kind = OptionKind::path_or_url},
              {.name = "nix-frontend",
               .value_name = "profile|env|nix-env",
               .help = "nix profile, or nix-env (env): what the plan's nix step runs (default: the profile's own "
                       "kind)",
               .config_key = "nix-frontend",
               .env = {"EXTDEPS_NIX_FRONTEND"},
               .kind = OptionKind::choice,
               .choices = {"profile", "env", "nix-env"}},
              {.name = "nix-timeout",
               .value_name = "SECONDS",
               .help = "how long generating a nixpkgs index with nix-env may take (default 900)",
               .config_key = "nix-timeout",
               .env = {"EXTDEPS_NIX_TIMEOUT"},
               .kind = OptionKind::seconds,
               .min_seconds = 1,
               .max_seconds = 86400},
          },
      .reads_env = {"EXTDEPS_NIX_PROFILE", "EXTDEPS_NIX_SYSTEM", "HOME"},
      .verify_index = nullptr,
      .verify_reads = "",
      .environment_formats = {{"shell.nix", "a nix-shell file with the plan's nix packages"},
                              {"flake.nix", "a flake whose devShell has the plan's nix packages"}},
      .make = [](const Context& ctx, const ProviderSettings& settings) { return make_provider(ctx, settings); },
  };
  return d;
}

}  // namespace extdeps::nix
