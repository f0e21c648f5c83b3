// The Nix system of this machine and the test nixpkgs applies to meta.platforms and
// meta.badPlatforms (lib.meta.platformMatch), so that attributes for other platforms are not
// candidates.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/context/context.h"

namespace extdeps::nix {

// EXTDEPS_NIX_SYSTEM when set, else the machine's: dpkg's architecture names mapped to Nix's
// (amd64 -> x86_64-linux, arm64 -> aarch64-linux, i386 -> i686-linux, armhf -> armv7l-linux,
// ppc64el -> powerpc64le-linux, riscv64 -> riscv64-linux, s390x -> s390x-linux); nullopt for
// another architecture.
std::optional<std::string> machine_system(const Context& ctx);

class Platform {
 public:
  // "x86_64-linux": cpu-kernel, parsed as nixpkgs' lib.systems.parse does for the common ones.
  explicit Platform(std::string system);
  const std::string& system() const { return system_; }

  // lib.meta.platformMatch: a string matches when it is the system; an object (a
  // lib.systems.inspect pattern such as {"kernel": {"name": "linux"}}) when every value it gives
  // equals the parsed platform's, recursively (lib.matchAttrs). nullopt when the pattern asks for
  // a part not known here: the caller decides what unknown means.
  std::optional<bool> matches(const nlohmann::json& element) const;

 private:
  std::string system_;
  nlohmann::json parsed_;
};

}  // namespace extdeps::nix
