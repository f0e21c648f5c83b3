// Where the nixpkgs index comes from: `--nix-index FILE|URL` (a file read in place; a URL through
// the fetcher, such as a channel's packages.json.br), or nix on this machine, which makes one
// that is kept in the cache until nixpkgs changes.
#pragma once

#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/fetch/fetch.h"
#include "core/util/result.h"

namespace extdeps::nix {

struct IndexFile {
  std::string path;      // the file to read
  std::string name;      // what messages call it (a URL, a path); its ending says how it is compressed
  std::string url;       // the URL it was fetched from; empty for a file or a generated index
  std::string revision;  // the nixpkgs commit it was made from, when known (a channel's git-revision)
};

// A URL (http, https, file) is fetched; next to a channel's packages.json(.br) the channel's
// git-revision is fetched too, when the server has it. Anything else is a path, read in place.
Result<IndexFile> locate_index(fetch::Fetcher& fetcher, const std::string& index);

// Runs nix for an index of the nixpkgs on NIX_PATH (`nix-instantiate --find-file nixpkgs`):
// `nix-env -qaP --json --meta -f <nixpkgs> --argstr system <system>`, kept as
// <cache>/nix/nixpkgs-<key>.json where the key is the resolved nixpkgs path and the system, so
// it is made again only when the channel changes. Without a nixpkgs on NIX_PATH, the flake
// registry's: `nix search nixpkgs ^ --json`, keyed by the locked flake reference
// (`nix flake metadata nixpkgs --json`). The commands run with the variables nix reads taken
// from the Context (nix_environment) and a time limit (the nix-timeout option, default 900 s).
Result<IndexFile> generate_index(const Context& ctx, const std::string& system, int timeout_ms);

// The environment nix commands run with: PATH, HOME, USER, NIX_* (NIX_PATH, NIX_STATE_DIR,
// NIX_STORE_DIR, NIX_CONF_DIR, ...), NIXPKGS_* (config, allowUnfree, ...), XDG_* and TMPDIR, as
// the Context has them.
std::vector<std::string> nix_environment(const Context& ctx);

}  // namespace extdeps::nix
