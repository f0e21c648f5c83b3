// Which conda channels and subdirs the provider reads, and where their indexes are: channel
// names and URLs from the command line, the environment, the project or .condarc; the host's
// subdir (linux-64, osx-arm64 ...) plus noarch; repodata.json.zst then repodata.json per pair.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context/context.h"
#include "core/detect/host.h"
#include "core/provider/descriptor.h"
#include "core/util/result.h"

namespace extdeps::conda {

inline constexpr std::string_view kDefaultChannel = "conda-forge";
inline constexpr std::string_view kDefaultChannelAlias = "https://conda.anaconda.org";

struct Channel {
  std::string name;  // what `-c` gets: "conda-forge" as written, or the URL
  std::string url;   // base URL, no trailing '/': "https://conda.anaconda.org/conda-forge"
  bool operator==(const Channel&) const = default;
};

// A channel as written -> its URLs. A name ("conda-forge", "bioconda/label/dev") is
// `alias`/name; "https://...", "http://..." and "file://..." are taken as they are; an absolute
// path is a file:// URL; "defaults" is Anaconda's pkgs/main and pkgs/r. Anything else (blanks,
// "..", an empty string) is bad input.
Result<std::vector<Channel>> resolve_channel(std::string_view text, std::string_view alias);

// What extdeps reads of a .condarc: the simple YAML subset of `channels:` (a block list of
// "- name" lines or a flow list "[a, b]") and `channel_alias: URL`. Comments, quotes, document
// markers and other keys (with whatever is indented under them) are understood and ignored.
struct CondaRc {
  std::optional<std::vector<std::string>> channels;  // set when the file has `channels:`
  std::optional<std::string> channel_alias;
};

// Errors are bad input naming `path:line:col`.
Result<CondaRc> parse_condarc(std::string_view text, const std::string& path);
// nullopt when the file does not exist.
Result<std::optional<CondaRc>> read_condarc(const std::string& path);

struct ChannelConfig {
  std::vector<Channel> channels;  // in priority order, each URL once
  // Where the list came from: "--channel", "EXTDEPS_CONDA_CHANNELS", "[tool.extdeps]
  // conda-channels", a .condarc path, or "the default (conda-forge)".
  std::string source;
  std::string channel_alias;  // what names resolve against
};

// The channels, from the first of: `chosen` (the `channel` option as the settings resolved it:
// --channel, EXTDEPS_CONDA_CHANNELS, conda-channels of the project's or the user's
// configuration; its `from` names the place in messages), the first of $CONDA_PREFIX/.condarc
// and ~/.condarc that sets channels, conda-forge. channel_alias comes from the first of those two
// files that sets it. Paths from the environment are used as given, not under ctx.root().
Result<ChannelConfig> channel_config(const Context& ctx, const OptionValue* chosen);

// conda's subdir for a platform: ("Linux", "x86_64") -> "linux-64", ("Darwin", "arm64") ->
// "osx-arm64", ("Windows", "AMD64") -> "win-64". Machines may be spelt as uname -m or dpkg
// spells them (amd64, arm64, ppc64el, armhf). nullopt where conda has no subdir.
std::optional<std::string> subdir_for(std::string_view system, std::string_view machine);

// The subdir of a detected host (detection runs on Linux).
std::optional<std::string> host_subdir(const detect::HostFacts& facts);

// The subdir the provider reads for this machine: CONDA_SUBDIR when set (as conda does), else
// this machine's (EXTDEPS_OVERRIDE_ARCH applies).
std::optional<std::string> native_subdir(const Context& ctx);

// The subdirs to read: `native`, then noarch.
std::vector<std::string> subdirs_for(const std::string& native);

struct RepodataLocation {
  Channel channel;
  std::string subdir;
  std::string folder;             // "<channel url>/<subdir>/": package files are relative to it
  std::vector<std::string> urls;  // to try in order: <folder>repodata.json.zst, <folder>repodata.json
};

// One location per channel and subdir, channels first: conda-forge/linux-64, conda-forge/noarch,
// bioconda/linux-64, ...
std::vector<RepodataLocation> repodata_locations(const std::vector<Channel>& channels,
                                                 const std::vector<std::string>& subdirs);

}  // namespace extdeps::conda
