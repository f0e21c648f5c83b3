// Names in nixpkgs: attribute paths ("openssl", "cudaPackages_12_4.cuda_nvcc") and derivation
// names ("openssl-3.0.15"), as nix itself reads them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace extdeps::nix {

// nix's DrvName: the name ends at the first '-' that is followed by a character that is not a
// letter, and the version is the rest: "openssl-3.0.15" -> {openssl, 3.0.15}, "xz-5.4.6-bin" ->
// {xz, 5.4.6-bin}, "source" -> {source, ""}.
struct DrvName {
  std::string name;
  std::string version;
};
DrvName parse_drv_name(std::string_view full);

// The derivation name of a store path: "/nix/store/<hash>-openssl-3.0.15-dev" ->
// "openssl-3.0.15-dev"; the text itself when it is not a store path.
std::string_view store_path_name(std::string_view path);

// The attribute path inside nixpkgs of a flake output path: "legacyPackages.x86_64-linux.hello" and
// "packages.x86_64-linux.hello" -> "hello"; anything else as it is.
std::string_view nixpkgs_attr_path(std::string_view flake_attr_path);

// The channel an index key of nix-env -qaP starts with, or empty: on a machine with channels it
// prints "nixpkgs.gdal", "nixos.python3Packages.numpy" (the channel's name, then the attribute
// path). A first component counts as a channel when it is one of `known` (the machine's
// channels, ~/.nix-channels) or is named as channels are (nixpkgs, nixos, nixpkgs-unstable,
// nixos-24.05); package sets (python3Packages) are not.
std::string channel_of_key(std::string_view key, const std::vector<std::string>& known);

// The package set an attribute belongs to, its path without the last name:
// "cudaPackages_12_4.cuda_nvcc" -> "cudaPackages_12_4", "openssl" -> "". A quoted name
// ("\"foo.bar\"") is one name.
std::string_view package_set(std::string_view attr_path);

}  // namespace extdeps::nix
