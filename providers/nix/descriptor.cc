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
          },
      .reads_env = {"EXTDEPS_NIX_PROFILE", "EXTDEPS_NIX_FRONTEND", "EXTDEPS_NIX_SYSTEM", "EXTDEPS_NIX_TIMEOUT", "HOME"},
      .verify_index = nullptr,
      .verify_reads = "",
      .make = [](const Context& ctx, const ProviderSettings& settings) { return make_provider(ctx, settings); },
  };
  return d;
}

}  // namespace extdeps::nix
