// The apt provider: what apt's own lists offer (the Packages files apt keeps under
// /var/lib/apt/lists, lz4/gz/xz/zst or plain) and what dpkg has installed (/var/lib/dpkg/status,
// only "... ok installed"). Reads under ctx.root(), so tests run on fixture trees.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/detect/os_release.h"
#include "core/provider/provider.h"

namespace extdeps::apt {

// dpkg's name of an architecture uname names (x86_64 -> amd64, aarch64 -> arm64, armv7l -> armhf,
// ppc64le -> ppc64el, i686 -> i386); a name it does not know, as it is.
std::string dpkg_arch_of(std::string_view machine);

// dpkg's name of this machine's architecture: dpkg_arch_of(detect::machine(ctx)), so that
// EXTDEPS_OVERRIDE_ARCH applies.
std::string dpkg_architecture(const Context& ctx);

// The architectures records are read for: the native one (dpkg_architecture, so
// EXTDEPS_OVERRIDE_ARCH applies) and dpkg's foreign ones, the other lines of
// <root>/var/lib/dpkg/arch (the file `dpkg --add-architecture` writes; absent means none).
struct Architectures {
  std::string native;                // amd64
  std::vector<std::string> foreign;  // i386
};

// Parses one Packages or status stanza stream (already decompressed). `origin` names the file
// in errors ("<file>:<line>: ...") and is each record's origin. With installed_only, stanzas
// whose Status is not "<want> ok installed" are skipped (install, hold and deinstall wants all
// mean the package is on disk). Stanzas of other architectures than `archs` and "all" are
// skipped. Names follow the Multi-Arch model in providers/apt/README.md.
Result<void> parse_stanzas(std::string_view text, const std::string& origin, const Architectures& archs,
                           bool installed_only, const RecordSink& sink);

// Streams one index file, decompressed by extension, through the same parser a megabyte at a
// time (the whole bookworm list is 50 MB); records and errors name `path`.
Result<void> parse_index_file(const std::string& path, const Architectures& archs, bool installed_only,
                              const RecordSink& sink);

// Reads a whole file, decompressing by extension (.lz4, .gz, .xz, .zst, or none). Errors name
// the file and, for a corrupt or truncated stream, the byte offset in the compressed input.
Result<std::string> read_index_file(const std::string& path);

// The same for bytes already in memory (a downloaded list): `name`'s extension picks the decoder,
// and errors name it.
Result<std::string> decompress_index(std::string_view data, const std::string& name);

// The Packages files apt keeps for this machine's architectures, under <root>/var/lib/apt/lists:
// *_binary-<native|foreign|all>_Packages{,.lz4,.gz,.xz,.zst}, plus flat-repository *_Packages
// lists (their records are filtered by arch while parsing). Sorted; one file per list.
std::vector<std::string> list_index_files(const Context& ctx, const Architectures& archs);

Architectures architectures(const Context& ctx);

// The mapping table an apt machine uses: "debian" where ID or ID_LIKE names debian or ubuntu,
// else the os-release ID, else "debian".
std::string ecosystem_for(const detect::OsRelease& os);

// `apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=300 -- name=version ...` (name:arch=version for a
// foreign arch), run as root; no command for no packages. Each of `removals` follows as
// "name-" (name:arch- for a foreign arch), which apt-get install removes in the same
// transaction (apt-get(8), install).
std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages, const Architectures& archs,
                                      const std::vector<PlannedPackage>& removals = {});

// ecosystem: the mapping table this apt machine uses ("debian"; Ubuntu falls back to it).
std::unique_ptr<Provider> make_provider(const Context& ctx);

}  // namespace extdeps::apt
