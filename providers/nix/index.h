// nixpkgs indexes: what `nix-env -qaP --json --meta` prints (attribute path -> derivation), a
// channel's packages.json (`{"version": 2, "packages": {...}}`, the same objects) and
// `nix search nixpkgs ^ --json` (flake output path -> pname, version, description). Read as a
// stream: a 100,000-attribute index is never held whole.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/json/byte_source.h"
#include "core/util/result.h"
#include "providers/nix/platform.h"

namespace extdeps::nix {

enum class IndexFormat { nix_env, packages_json, nix_search };
std::string_view index_format_name(IndexFormat format);

// One attribute as the index gives it.
struct Attribute {
  std::string path;                  // "openssl", "cudaPackages.cuda_nvcc" (a flake output path is cut to it)
  std::string name;                  // "openssl-3.0.15"; empty in nix search output
  std::string pname;                 // "openssl"; from `name` (nix's DrvName) when the index has none
  std::string version;               // "3.0.15"; from `name` when the index has none
  std::string system;                // "x86_64-linux"; empty when the index has none
  std::vector<std::string> outputs;  // "bin", "dev", "out", in the index's order
  std::optional<bool> available;     // meta.available (nixpkgs' check-meta: platforms, licences, ...)
  std::optional<bool> broken;        // meta.broken
  // meta.platforms / meta.badPlatforms against the platform read for: nullopt when the index
  // says nothing or only what Platform::matches does not know.
  std::optional<bool> on_platform;
};

// Why an attribute is not a candidate on `platform`, or empty when it is one: "broken",
// "unavailable" (meta.available = false), "for <system>" (built for another system, or
// meta.platforms leaves this one out, or meta.badPlatforms names it).
std::string why_not_candidate(const Attribute& a, const Platform& platform);

struct IndexSummary {
  IndexFormat format = IndexFormat::nix_env;
  size_t attributes = 0;  // read
  size_t candidates = 0;  // handed to `each`, given a filter
  size_t broken = 0, unavailable = 0, other_platform = 0;
  std::string other_system;  // a system other attributes were built for, for messages
  // nix-env output of a machine with channels: the channel its keys start with ("nixpkgs" of
  // "nixpkgs.gdal"), cut from every attribute path of that channel; empty when there is none.
  std::string channel;
};

struct IndexOptions {
  // Attributes that are not candidates on it are counted and dropped; null: every attribute
  // is handed over.
  const Platform* platform = nullptr;
  // The machine's channel names, besides those named as channels are (names.h channel_of_key).
  std::vector<std::string> channels;
};

// Reads an index; `each` gets every attribute that is a candidate. Errors name the source and
// the byte offset, and what was expected.
Result<IndexSummary> read_index(json::ByteSource& source, const IndexOptions& options,
                                const std::function<void(Attribute&&)>& each);

}  // namespace extdeps::nix
