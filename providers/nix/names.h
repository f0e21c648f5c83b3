// Names in nixpkgs: attribute paths ("openssl", "cudaPackages_12_4.cuda_nvcc") and derivation
// names ("openssl-3.0.15"), as nix itself reads them.
#pragma once

#include <string>
#include <string_view>

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

// The package set an attribute belongs to, its path without the last name:
// "cudaPackages_12_4.cuda_nvcc" -> "cudaPackages_12_4", "openssl" -> "". A quoted name
// ("\"foo.bar\"") is one name.
std::string_view package_set(std::string_view attr_path);

}  // namespace extdeps::nix
