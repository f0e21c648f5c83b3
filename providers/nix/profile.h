// What a Nix profile has installed. `nix profile` keeps <profile>/manifest.json (versions 1 to 3;
// `nix profile list --json` prints the same document); nix-env keeps manifest.nix, which only nix
// can read, so it is asked (`nix-env -q --json`). Both become installed records in nixpkgs'
// names: the attribute path where the profile knows it, else the pname.
#pragma once

#include <string>

#include "core/json/byte_source.h"
#include "core/model/record.h"
#include "core/util/result.h"

namespace extdeps::nix {

enum class ProfileKind { none, nix_profile, nix_env };

// manifest.json: nix profile; manifest.nix: nix-env; neither (or no profile): none.
ProfileKind profile_kind(const std::string& profile);

struct ProfileSummary {
  int version = 0;  // of manifest.json
  size_t elements = 0, installed = 0;
};

// A manifest.json (or `nix profile list --json`). Each active element becomes a record: named by
// its attribute path inside nixpkgs ("legacyPackages.x86_64-linux.hello" -> "hello") when it
// came from a nixpkgs flake, else by the pname of its first store path; the version and the
// pname (its family) come from that store path's name ("openssl-3.0.15-bin": openssl, 3.0.15; an
// output name at the end is dropped). Versions 1 to 3: v1 names the flake references uri and
// originalUri, v2 and v3 url and originalUrl; v3 keys the elements by name.
Result<ProfileSummary> read_profile_manifest(json::ByteSource& source, const std::string& origin,
                                             const RecordSink& installed);

// The output of `nix-env -q --json` (keys are positions; name, pname, version, outputs): a record
// named by pname per element.
Result<size_t> read_nix_env_installed(json::ByteSource& source, const std::string& origin, const RecordSink& installed);

}  // namespace extdeps::nix
