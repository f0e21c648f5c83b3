// The nix provider as the rest of extdeps sees it (core/provider/descriptor.h).
#include "core/mapping/names.h"
#include "providers/nix/nix_provider.h"

namespace extdeps::nix {

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "nix",
      .ecosystem = "nixpkgs",
      .manager = "nix",
      .manager_aliases = {},
      .scheme = VersionScheme::nix,
      .summary = "nixpkgs indexes and nix profiles; nix profile or nix-env commands; shell.nix and flake.nix",
      .name_problem = mapping::nix_name_problem,
      .options =
          {
              {.name = "nix-index",
               .value_name = "FILE|URL",
               .help = "nixpkgs index: a file or URL (a channel's packages.json.br)",
               .env = {"EXTDEPS_NIX_INDEX"}},
              {.name = "nix-frontend",
               .value_name = "profile|env",
               .help = "nix profile or nix-env: what the plan's nix step runs (default: the profile's own kind)",
               .config_key = "nix-frontend",
               .env = {"EXTDEPS_NIX_FRONTEND"}},
              {.name = "nix-timeout",
               .value_name = "SECONDS",
               .help = "how long generating a nixpkgs index with nix-env may take (default 900)",
               .config_key = "nix-timeout",
               .env = {"EXTDEPS_NIX_TIMEOUT"}},
          },
      .reads_env = {"EXTDEPS_NIX_PROFILE", "EXTDEPS_NIX_SYSTEM", "HOME"},
      .verify_index = nullptr,
      .verify_reads = "",
      .make = [](const Context& ctx, const ProviderSettings& settings) { return make_provider(ctx, settings); },
  };
  return d;
}

}  // namespace extdeps::nix
