// shell.nix and flake.nix for a plan: what a nix user keeps in a project instead of installing
// into a profile. Tools (build needs) go to nativeBuildInputs, libraries (host and run needs) to
// buildInputs, where stdenv picks their dev outputs and sets the compiler's and pkg-config's
// search paths.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace extdeps::nix {

struct ShellPackage {
  std::string attr;      // "cudaPackages.cuda_nvcc"
  std::string version;   // as the index has it, for the comment
  std::string category;  // build, host or run
  std::string need;      // "dep:generic/cmake >=3.20", for the comment
};

struct ShellOptions {
  std::string declaration;         // the declaration file the plan is for
  std::string system;              // x86_64-linux
  std::string revision;            // the nixpkgs commit the index was made from; empty: <nixpkgs> / the registry's
  std::vector<std::string> notes;  // comment lines at the top: needs met elsewhere or not at all
};

// "pkgs.cudaPackages.cuda_nvcc"; a name that is not a Nix identifier is quoted
// (pkgs.python3Packages."zope.interface" is written as the index names it).
std::string attr_expression(std::string_view pkgs, std::string_view attr_path);

// { pkgs ? import <nixpkgs> { } }: pkgs.mkShell { nativeBuildInputs = [...]; buildInputs = [...]; }
// With a revision, nixpkgs is that commit's tarball.
std::string render_shell_nix(const std::vector<ShellPackage>& packages, const ShellOptions& options);

// A flake whose devShells.<system>.default is the same mkShell; nixpkgs is the registry's (or the
// commit's, when known). CUDA packages are unfree in nixpkgs: with one in the shell, the flake
// imports nixpkgs with config.allowUnfree, as a nix user of CUDA must.
std::string render_flake(const std::vector<ShellPackage>& packages, const ShellOptions& options);

}  // namespace extdeps::nix
