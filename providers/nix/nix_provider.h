// The nix provider: what nixpkgs offers (an index: --nix-index FILE|URL, or one nix makes on this
// machine) and what a Nix profile has installed, as records named by attribute path; commands for
// `nix profile install` or `nix-env -iA`, and shell.nix / flake.nix for a plan.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/provider/provider.h"

namespace extdeps::nix {

// How packages get into the profile: `nix profile install nixpkgs#attr` or `nix-env -iA nixpkgs.attr`.
enum class Frontend { profile, env };
std::string_view frontend_name(Frontend frontend);  // "nix profile", "nix-env"

struct CommandOptions {
  Frontend frontend = Frontend::profile;
  std::string profile;   // --profile PATH; empty: the user's default profile
  std::string revision;  // the nixpkgs commit the index was made from; empty: the registry's / channel's
  // The channel nix-env names attributes by (nixpkgs, nixos, a name of ~/.nix-channels); empty:
  // nixpkgs. `nix profile` goes through the flake registry's nixpkgs either way.
  std::string channel;
};

// One step for every package, never elevated (a profile belongs to its user):
//   nix profile install [--profile P] nixpkgs#attr ...        (github:NixOS/nixpkgs/<rev>#attr with a revision)
//   nix-env [-p P] -iA <channel>.attr ...                     (nix-env [-p P] -f <rev tarball> -iA attr ...)
std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages, const CommandOptions& options);

struct ProviderOptions {
  std::string index;                  // a file or URL; empty: nix on the machine makes one
  std::string profile;                // the profile whose packages are installed; empty: ~/.nix-profile
  std::optional<std::string> system;  // empty: EXTDEPS_NIX_SYSTEM, else the machine's
  std::optional<Frontend> frontend;   // empty: what the profile is managed by (--nix-frontend sets it)
  int timeout_ms = 900 * 1000;        // how long generating an index may take (--nix-timeout)
};

// ecosystem "nixpkgs" (mappings/nixpkgs.toml), manager "nix", scheme nix. prepare() finds the
// index; available() always (the caller decided to use it).
std::unique_ptr<Provider> make_provider(const Context& ctx, ProviderOptions options);

// As registered: available when --manager names nix, or an index is given (--nix-index,
// EXTDEPS_NIX_INDEX); the profile is EXTDEPS_NIX_PROFILE, else ~/.nix-profile.
std::unique_ptr<Provider> make_provider(const Context& ctx, const ProviderSettings& settings);

}  // namespace extdeps::nix
