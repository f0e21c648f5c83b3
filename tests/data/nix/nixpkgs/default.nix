# A small nixpkgs for the tests: the shape of the real one where the provider reads it (attribute
# paths, pname and version, several outputs, meta.available, meta.broken, meta.platforms and
# meta.badPlatforms with strings and patterns, package sets nix-env recurses into, attributes
# sharing a pname), with the versions of real nixpkgs attributes. Every derivation builds in a
# moment with /bin/sh and no inputs, so `nix-env -i` can install them into a test profile.
#
# nix-env -qaP --json --meta -f tests/data/nix/nixpkgs --argstr system x86_64-linux
#   prints tests/data/nix/nix-env-qaP.json (tests/data/nix/README.md).
{ system ? builtins.currentSystem }:
let
  linux = [ "x86_64-linux" "aarch64-linux" "i686-linux" "armv7l-linux" "powerpc64le-linux" "riscv64-linux" ];
  darwin = [ "x86_64-darwin" "aarch64-darwin" ];
  mk = { pname, version, outputs ? [ "out" ], meta ? { } }:
    derivation {
      name = "${pname}-${version}";
      inherit pname version outputs system;
      builder = "/bin/sh";
      args = [ ./builder.sh ];
    } // {
      meta = { available = true; broken = false; platforms = linux ++ darwin; } // meta;
    };
  # One CUDA release's package set, as cudaPackages_12_4 is.
  cuda = { release, nvcc, cufft, cudnn }: {
    recurseForDerivations = true;
    cuda_nvcc = mk { pname = "cuda_nvcc"; version = nvcc; outputs = [ "bin" "out" "dev" ]; meta.platforms = linux; };
    cuda_cudart = mk { pname = "cuda_cudart"; version = nvcc; outputs = [ "out" "dev" "lib" "static" ]; meta.platforms = linux; };
    libcufft = mk { pname = "libcufft"; version = cufft; outputs = [ "out" "dev" "lib" ]; meta.platforms = linux; };
    cudnn = mk { pname = "cudnn"; version = cudnn; meta.platforms = linux; };
    cudatoolkit = mk { pname = "cuda-merged"; version = release; meta.platforms = linux; };
  };
in
{
  hello = mk { pname = "hello"; version = "2.12.1"; meta.description = "Program that produces a familiar, friendly greeting"; };
  openssl = mk { pname = "openssl"; version = "3.0.14"; outputs = [ "bin" "dev" "out" "man" "doc" "debug" ]; };
  openssl_3_3 = mk { pname = "openssl"; version = "3.3.1"; outputs = [ "bin" "dev" "out" "man" "doc" "debug" ]; };
  # Insecure: nixpkgs' check-meta makes it unavailable unless permitted.
  openssl_1_1 = mk { pname = "openssl"; version = "1.1.1w"; meta = { available = false; knownVulnerabilities = [ "OpenSSL 1.1 is end of life" ]; }; };
  zlib = mk { pname = "zlib"; version = "1.3.1"; outputs = [ "out" "dev" "static" ]; };
  cmake = mk { pname = "cmake"; version = "3.29.6"; };
  gcc = mk { pname = "gcc-wrapper"; version = "13.3.0"; outputs = [ "out" "man" "info" ]; };
  gcc12 = mk { pname = "gcc-wrapper"; version = "12.4.0"; outputs = [ "out" "man" "info" ]; };
  clang = mk { pname = "clang-wrapper"; version = "17.0.6"; };
  python3 = mk { pname = "python3"; version = "3.11.9"; };
  python312 = mk { pname = "python3"; version = "3.12.4"; };
  pkg-config = mk { pname = "pkg-config-wrapper"; version = "0.29.2"; };
  libxml2 = mk { pname = "libxml2"; version = "2.12.7"; outputs = [ "bin" "dev" "out" "doc" "man" ]; };
  openblas = mk { pname = "openblas"; version = "0.3.27"; outputs = [ "out" "dev" ]; };
  blas = mk { pname = "blas"; version = "3"; outputs = [ "out" "dev" ]; };
  # Broken here, and for one platform only.
  libfoo = mk { pname = "libfoo"; version = "1.0"; meta.broken = true; };
  darwin-only = mk { pname = "darwin-only"; version = "1.0"; meta.platforms = darwin; };
  # Platforms as patterns (lib.systems.inspect), as nixpkgs writes them into meta.
  linux-pattern = mk { pname = "linux-pattern"; version = "2.0"; meta.platforms = [ { kernel = { name = "linux"; }; } ]; };
  not-on-x86 = mk { pname = "not-on-x86"; version = "1.0"; meta.badPlatforms = [ { cpu = { family = "x86"; }; } ]; };
  xorg = {
    recurseForDerivations = true;
    libX11 = mk { pname = "libX11"; version = "1.8.9"; outputs = [ "out" "dev" "man" ]; };
  };
  cudaPackages = cuda { release = "12.4"; nvcc = "12.4.131"; cufft = "11.2.1.3"; cudnn = "9.3.0.75"; };
  cudaPackages_11 = cuda { release = "11.8"; nvcc = "11.8.89"; cufft = "10.9.0.58"; cudnn = "8.9.7.29"; };
  # What a shell.nix calls (nixpkgs' mkShell is a derivation too): a function, which nix-env
  # does not list.
  mkShell = { nativeBuildInputs ? [ ], buildInputs ? [ ] }:
    derivation {
      name = "nix-shell";
      inherit system nativeBuildInputs buildInputs;
      builder = "/bin/sh";
      args = [ ./builder.sh ];
    };
  # Not listed by nix-env: a set without recurseForDerivations.
  llvmPackages_17 = { llvm = mk { pname = "llvm"; version = "17.0.6"; }; };
}
