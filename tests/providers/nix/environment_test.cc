// shell.nix and flake.nix for a plan: the exact text, and the shell.nix evaluated by the real
// nix-instantiate against the test nixpkgs (its mkShell), so every attribute path in it exists.
#include <gtest/gtest.h>

#include <fstream>

#include "providers/nix/environment.h"
#include "tests/support/nix_tool.h"
#include "tests/test_support.h"

namespace extdeps::nix {
namespace {

const std::vector<ShellPackage> kPackages = {
    {"cmake", "3.29.6", "build", "dep:generic/cmake"},
    {"cudaPackages_11.cuda_nvcc", "11.8.89", "build", "dep:virtual/compiler/cuda <12"},
    {"openssl_3_3", "3.3.1", "host", "dep:generic/openssl >=3.3"},
    {"openssl_3_3", "3.3.1", "run", "dep:generic/openssl >=3.3"},
    {"xorg.libX11", "1.8.9", "host", "dep:generic/libx11"},
    {"openssl_3_3", "3.3.1", "host", "dep:generic/libssl"},
};

TEST(NixEnvironment, ShellNixListsToolsAndLibraries) {
  ShellOptions o{"/src/proj/pyproject.toml",
                 "x86_64-linux",
                 "",
                 {"met elsewhere, not in this shell: dep:generic/zlib (apt: zlib1g-dev)"}};
  EXPECT_EQ(render_shell_nix(kPackages, o),
            "# shell.nix for /src/proj/pyproject.toml, planned by extdeps for x86_64-linux\n"
            "# met elsewhere, not in this shell: dep:generic/zlib (apt: zlib1g-dev)\n"
            "{ pkgs ? import <nixpkgs> { } }:\n"
            "\n"
            "pkgs.mkShell {\n"
            "  # tools that run during the build\n"
            "  nativeBuildInputs = [\n"
            "    pkgs.cmake                      # dep:generic/cmake (3.29.6)\n"
            "    pkgs.cudaPackages_11.cuda_nvcc  # dep:virtual/compiler/cuda <12 (11.8.89)\n"
            "  ];\n"
            "  # what the build links against and what runs\n"
            "  buildInputs = [\n"
            "    pkgs.openssl_3_3  # dep:generic/openssl >=3.3, dep:generic/libssl (3.3.1)\n"
            "    pkgs.xorg.libX11  # dep:generic/libx11 (1.8.9)\n"
            "  ];\n"
            "}\n");
  o.revision = "b833ff01a0d694b910daca6e2ff4a3f26dee478c";
  EXPECT_NE(render_shell_nix(kPackages, o)
                .find("{ pkgs ? import (fetchTarball \"https://github.com/NixOS/nixpkgs/archive/"
                      "b833ff01a0d694b910daca6e2ff4a3f26dee478c.tar.gz\") { } }:\n"),
            std::string::npos);
}

TEST(NixEnvironment, FlakeDevShellImportsUnfreeNixpkgsForCuda) {
  ShellOptions o{"/src/proj/pyproject.toml", "x86_64-linux", "", {}};
  std::string flake = render_flake(kPackages, o);
  EXPECT_EQ(flake.substr(0, flake.find("      devShells")),
            "# flake.nix for /src/proj/pyproject.toml, planned by extdeps for x86_64-linux\n"
            "{\n"
            "  description = \"development shell for /src/proj/pyproject.toml\";\n"
            "\n"
            "  inputs.nixpkgs.url = \"nixpkgs\";\n"
            "\n"
            "  outputs = { self, nixpkgs }:\n"
            "    let\n"
            "      system = \"x86_64-linux\";\n"
            "      pkgs = import nixpkgs {\n"
            "        inherit system;\n"
            "        # CUDA is unfree in nixpkgs\n"
            "        config.allowUnfree = true;\n"
            "      };\n"
            "    in {\n");
  EXPECT_NE(flake.find("      devShells.${system}.default = pkgs.mkShell {\n"
                       "        # tools that run during the build\n"
                       "        nativeBuildInputs = [\n"
                       "          pkgs.cmake                      # dep:generic/cmake (3.29.6)\n"),
            std::string::npos)
      << flake;
  EXPECT_NE(flake.find("      };\n    };\n}\n"), std::string::npos) << flake;
  std::vector<ShellPackage> plain = {{"zlib", "1.3.1", "host", "dep:generic/zlib"}};
  o.revision = "b833ff01a0d694b910daca6e2ff4a3f26dee478c";
  std::string f2 = render_flake(plain, o);
  EXPECT_NE(f2.find("  inputs.nixpkgs.url = \"github:NixOS/nixpkgs/b833ff01a0d694b910daca6e2ff4a3f26dee478c\";\n"),
            std::string::npos);
  EXPECT_NE(f2.find("      pkgs = nixpkgs.legacyPackages.${system};\n"), std::string::npos);
}

TEST(NixEnvironment, AttributeExpressions) {
  EXPECT_EQ(attr_expression("pkgs", "openssl"), "pkgs.openssl");
  EXPECT_EQ(attr_expression("pkgs", "cudaPackages_12_4.cuda_nvcc"), "pkgs.cudaPackages_12_4.cuda_nvcc");
  EXPECT_EQ(attr_expression("pkgs", "python3Packages.\"zope.interface\""), "pkgs.python3Packages.\"zope.interface\"");
  EXPECT_EQ(attr_expression("pkgs", "_7zz"), "pkgs._7zz");
  EXPECT_EQ(attr_expression("pkgs", "3proxy"), "pkgs.\"3proxy\"");
  EXPECT_EQ(attr_expression("pkgs", "let"), "pkgs.\"let\"");
}

// The rendered files are Nix: shell.nix evaluates to a derivation with the test nixpkgs, and
// flake.nix parses.
TEST(NixEnvironment, RealNixReadsWhatIsRendered) {
  EXTDEPS_NIX_OR_SKIP(nix);
  std::vector<ShellPackage> pk = {{"cmake", "3.29.6", "build", "dep:generic/cmake"},
                                  {"cudaPackages_11.cuda_nvcc", "11.8.89", "build", "dep:virtual/compiler/cuda"},
                                  {"openssl_3_3", "3.3.1", "host", "dep:generic/openssl"},
                                  {"xorg.libX11", "1.8.9", "host", "dep:generic/libx11"}};
  ShellOptions o{"/src/p/pyproject.toml", "x86_64-linux", "", {"not met: dep:generic/x (no package)"}};
  std::ofstream(nix.dir + "/shell.nix") << render_shell_nix(pk, o);
  std::ofstream(nix.dir + "/flake.nix") << render_flake(pk, o);
  std::string err;
  auto names =
      nix.run("nix-instantiate --eval --strict --json -E 'let s = import " + nix.dir + "/shell.nix { pkgs = import " +
                  test::data_path("nix/nixpkgs") +
                  " { system = \"x86_64-linux\"; }; }; in map (p: p.name) (s.nativeBuildInputs ++ s.buildInputs)'",
              &err);
  ASSERT_TRUE(names) << err;
  EXPECT_EQ(*names, R"(["cmake-3.29.6","cuda_nvcc-11.8.89","openssl-3.3.1","libX11-1.8.9"])");
  auto drv = nix.run("nix-instantiate " + nix.dir + "/shell.nix --arg pkgs 'import " + test::data_path("nix/nixpkgs") +
                         " { system = \"x86_64-linux\"; }'",
                     &err);
  ASSERT_TRUE(drv) << err;
  EXPECT_NE(drv->find("-nix-shell.drv"), std::string::npos) << *drv;
  EXPECT_TRUE(nix.run("nix-instantiate --parse " + nix.dir + "/flake.nix", &err)) << err;
}

// Whatever a need, a version, a note or the declaration's path holds, it stays inside its
// comment or string: a line break cannot end the comment and put code in the file.
TEST(NixEnvironment, NothingEmbeddedBreaksOutOfItsCommentOrString) {
  const std::string evil = "x\n  buildInputs = builtins.abort \"pwned\"; ${builtins.abort \"pwned\"} #";
  std::vector<ShellPackage> pk = {{"cmake", "3.29\n}; x = 1; {", "build", "dep:generic/cmake " + evil}};
  ShellOptions o{"/src/p\nrm -rf ~/pyproject.toml", "x86_64-linux", "", {"not met: " + evil}};
  for (const std::string& text : {render_shell_nix(pk, o), render_flake(pk, o)}) {
    EXPECT_EQ(text.find("\n  buildInputs = builtins"), std::string::npos) << text;
    EXPECT_EQ(text.find("\nrm -rf"), std::string::npos) << text;
    EXPECT_EQ(text.find("\n}; x = 1;"), std::string::npos) << text;
    EXPECT_NE(text.find("# dep:generic/cmake x\\x0a  buildInputs"), std::string::npos) << text;
  }
  // In a string: '"', '\\' and "${" are escaped.
  std::string flake = render_flake(pk, o);
  EXPECT_NE(flake.find("description = \"development shell for /src/p\\nrm -rf ~/pyproject.toml\";"), std::string::npos)
      << flake;
  ShellOptions q{"/src/\"${builtins.abort \"x\"}\\/pyproject.toml", "x86_64-linux", "", {}};
  EXPECT_NE(render_flake(pk, q).find(
                "description = \"development shell for /src/\\\"\\${builtins.abort \\\"x\\\"}\\\\/pyproject.toml\";"),
            std::string::npos)
      << render_flake(pk, q);
}

TEST(NixEnvironment, RealNixParsesWhatHostileTextRendersTo) {
  EXTDEPS_NIX_OR_SKIP(nix);
  const std::string evil = "x\n  buildInputs = builtins.abort \"pwned\"; ${builtins.abort \"pwned\"} #";
  std::vector<ShellPackage> pk = {{"cmake", "3.29.6\n", "build", "dep:generic/cmake " + evil}};
  ShellOptions o{"/src/\"${builtins.abort \"x\"}\n", "x86_64-linux", "", {evil}};
  std::ofstream(nix.dir + "/shell.nix") << render_shell_nix(pk, o);
  std::ofstream(nix.dir + "/flake.nix") << render_flake(pk, o);
  std::string err;
  auto names =
      nix.run("nix-instantiate --eval --strict --json -E 'let s = import " + nix.dir + "/shell.nix { pkgs = import " +
                  test::data_path("nix/nixpkgs") +
                  " { system = \"x86_64-linux\"; }; }; in map (p: p.name) (s.nativeBuildInputs ++ s.buildInputs)'",
              &err);
  ASSERT_TRUE(names) << err;
  EXPECT_EQ(*names, R"(["cmake-3.29.6"])");
  EXPECT_TRUE(nix.run("nix-instantiate --parse " + nix.dir + "/flake.nix", &err)) << err;
}

}  // namespace
}  // namespace extdeps::nix
