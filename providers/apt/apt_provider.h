// The apt provider: what apt's own lists offer (Packages files named by `apt-get indextargets`,
// lz4/gz/xz/zst or plain) and what dpkg has installed (/var/lib/dpkg/status, only
// "install ok installed"). Reads under ctx.root(), so tests run on fixture trees.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/provider/provider.h"

namespace extdeps::apt {

// The architectures records are read for: the native one and dpkg's foreign ones
// (<root>/var/lib/dpkg/arch, else `dpkg --print-foreign-architectures` on the real root).
struct Architectures {
  std::string native;                 // amd64
  std::vector<std::string> foreign;   // i386
};

// Parses one Packages or status stanza stream (already decompressed). `origin` names the file
// in errors ("<file>:<line>: ..."). With installed_only, stanzas whose Status is not
// "install ok installed" are skipped.
Result<void> parse_stanzas(std::string_view text, const std::string& origin,
                           const Architectures& archs, bool installed_only,
                           const RecordSink& sink);

// Reads a whole file, decompressing by extension (.lz4, .gz, .xz, .zst, or none).
Result<std::string> read_index_file(const std::string& path);

// The Packages files apt keeps for this machine's architectures, under <root>/var/lib/apt/lists.
std::vector<std::string> list_index_files(const Context& ctx, const Architectures& archs);

Architectures architectures(const Context& ctx);

// ecosystem: the mapping table this apt machine uses ("debian"; Ubuntu falls back to it).
std::unique_ptr<Provider> make_provider(const Context& ctx);

}  // namespace extdeps::apt
