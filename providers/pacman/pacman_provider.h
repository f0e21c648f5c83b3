// The pacman provider (Arch Linux and its derivatives): the sync databases pacman keeps under its
// DBPath (tar archives of NAME-VERSION/desc files, as repo-add writes them), the local database of
// what is installed, pacman.conf for the DBPath, the architecture and the repositories, and the
// `pacman -S` command. Internal to providers/pacman.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/provider/provider.h"
#include "core/util/compressed_reader.h"

namespace extdeps::pacman {

const ProviderDescriptor& descriptor();

// A repository of pacman.conf: its name and its mirrors, in order, as written ("$repo" and
// "$arch" not yet replaced).
struct Repo {
  std::string name;
  std::vector<std::string> servers;  // Server lines, and those of the files Include names
};

// What pacman.conf says that the provider uses.
struct Config {
  std::string dbpath = "/var/lib/pacman/";  // as written, inside the root
  std::string architecture;                 // "x86_64"; empty: auto (the machine's)
  std::vector<Repo> repos;                  // [core], [extra], ... in order; never "options"
  bool found = false;                       // whether the file was there
};

// Reads pacman.conf (`path` on the host, already under the root). A missing file is the default
// configuration; a line that is not a section, a key or a key = value is an error at its line.
// `Include = FILE` (a mirrorlist) is read under `root` for its Server lines; a missing one is an
// error at the Include line, as pacman makes it.
Result<Config> read_config(const std::string& path, const std::string& root = "/");

// A mirror's URL of a repository's sync database: "$repo" and "$arch" replaced, "/REPO.db".
std::string db_url(const std::string& server, const std::string& repo, const std::string& arch);

// Parses one desc file (a sync or a local database's) into `out`; `origin` names it in errors.
// false, and nothing set, when it has no %NAME% or %VERSION%.
Result<bool> parse_desc(std::string_view text, const std::string& origin, PackageRecord& out);

// Streams the records of a sync database file (tar; gzip, xz, zstd or plain, by content). Only
// records whose %ARCH% is `arch` or "any" are kept (all when `arch` is empty).
Result<void> read_sync_db(const std::string& path, std::string_view arch, const RecordSink& sink);

// The same from a decompressed stream; `name` names it in errors and is the records' origin.
Result<void> read_sync_db(CompressedReader& in, const std::string& name, std::string_view arch, const RecordSink& sink);

// Streams the installed records of a local database folder (DBPath/local/NAME-VERSION/desc).
Result<void> read_local_db(const std::string& dir, const RecordSink& sink);

// "pacman -S --needed --noconfirm -- NAME...": the names only, as a repository has one version of
// each package (PlannedPackage::version is what it will install).
std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages);

std::unique_ptr<Provider> make_provider(const Context& ctx, const ProviderSettings& settings);

}  // namespace extdeps::pacman
