// The dnf provider (Fedora, RHEL and its rebuilds, openSUSE): rpm-md repositories (repomd.xml ->
// primary.xml, as createrepo_c writes them) configured in /etc/yum.repos.d and /etc/zypp/repos.d
// or named with --repo, downloaded through the fetcher; the installed set from the rpm database
// (asked of rpm itself, below); dnf, zypper or yum commands. Internal to providers/dnf.
//
// The installed set: `rpm --root R --dbpath DB -qa --queryformat ...` through the Context's
// ProcessRunner. Not librpm (a link dependency for one query, and its database backends differ
// by release: sqlite, bdb, ndb) and not libsolv's rpmdb reader (providers stay blind to libsolv):
// rpm is on every machine that has an rpm database, and reads whichever backend it has.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/provider/provider.h"
#include "core/util/compressed_reader.h"

namespace extdeps::dnf {

// rpm's order, named "rpm" (`version compare --scheme rpm`): core's segments order, which is
// libsolv's own (core/version/version.h, evr_compare).
extern const version::Scheme rpm_scheme;

const ProviderDescriptor& descriptor();

// A repository of a .repo file (yum/dnf INI, zypper's too): [id] with baseurl, enabled.
struct RepoConfig {
  std::string id;
  std::vector<std::string> baseurls;  // $releasever, $basearch, $arch not yet replaced
  bool enabled = true;
  std::string origin;      // "file:line" of its [id]
  std::string metalink;    // metalink= (Fedora's default), a URL; empty when none
  std::string mirrorlist;  // mirrorlist= (a list of base URLs, one a line)
  // excludepkgs= (exclude=) and includepkgs=: name globs (fnmatch) of packages dnf leaves out
  // of the repository, or keeps only.
  std::vector<std::string> exclude, include;
};

// The [main] section of dnf.conf that the provider uses: excludepkgs= for every repository.
struct MainConfig {
  std::vector<std::string> exclude;
};
// Reads <root>/etc/dnf/dnf.conf (`path` on the host); a missing file is the default.
Result<MainConfig> read_dnf_conf(const std::string& path);

// Whether dnf leaves a package of this name out of a repository with these settings.
bool excluded(std::string_view name, const std::vector<std::string>& exclude, const std::vector<std::string>& include);

// The base URLs a mirrorlist names (one a line; '#' comments), and those of a metalink (the
// <url> elements of its repomd.xml file, each's "/repodata/repomd.xml" dropped), in order.
std::vector<std::string> mirrorlist_urls(std::string_view text);
Result<std::vector<std::string>> metalink_urls(std::string_view xml, const std::string& name);

// Reads every *.repo of the folders (under the root already), in name order. A line that is not
// a section, a comment or key=value is an error at its line.
Result<std::vector<RepoConfig>> read_repo_files(const std::vector<std::string>& dirs);

// "$releasever", "$basearch", "$arch" replaced.
std::string expand(std::string text, const std::string& releasever, const std::string& basearch);

// repomd.xml: the location (href, relative to the repository's base) of its primary metadata.
Result<std::string> primary_location(std::string_view repomd, const std::string& name);

// Streams the packages of a primary.xml (decompressed by `in`) as records; `name` names it in
// errors and is their origin. Records of another architecture than `arch` (or noarch) are left
// out; "src" always. File provides (the paths primary lists) are added as provides.
Result<void> read_primary(CompressedReader& in, const std::string& name, std::string_view arch, const RecordSink& sink);
// A source rpm's name from its file name ("zstd-1.5.5-4.fc39.src.rpm" -> "zstd"); empty when the
// file name is not NAME-VERSION-RELEASE.src.rpm.
std::string source_name(std::string_view file);

// repomd.xml: the location of its module metadata (<data type="modules">); empty when it has none.
Result<std::string> modules_location(std::string_view repomd, const std::string& name);

// Modularity (modules.cc): the streams of modules.yaml and their packages, the default streams,
// the state /etc/dnf/modules.d gives each module, and what dnf then hides.
struct ModuleStream {
  std::string name, stream;
  std::vector<std::string> artifacts;  // "nodejs-1:18.20.4-1.module_el9.x86_64": NAME-EPOCH:VERSION-RELEASE.ARCH
};
struct ModuleIndex {
  std::vector<ModuleStream> streams;
  std::map<std::string, std::string> defaults;  // module -> its default stream
};
struct ModuleState {
  std::string stream;  // stream=
  std::string state;   // state=: enabled, disabled, or empty
};
// Adds a modules.yaml's modulemd (v2) and modulemd-defaults documents to `into`; bad YAML is an
// error naming `name` and its line.
Result<void> read_modules(std::string_view yaml, const std::string& name, ModuleIndex& into);
// The *.module files of a folder (<root>/etc/dnf/modules.d): [NAME] stream= state=.
std::map<std::string, ModuleState> read_module_states(const std::string& dir);

class ModularFilter {
 public:
  ModularFilter() = default;
  ModularFilter(const ModuleIndex& index, const std::map<std::string, ModuleState>& states);
  bool empty() const { return modular_.empty() && active_names_.empty(); }
  // Whether dnf hides this package: it belongs to a stream that is not active, or it is not
  // modular and an active stream ships a package of its name.
  bool hides(const PackageRecord& r) const;

 private:
  std::set<std::string> modular_;       // NEVRAs of streams that are not active
  std::set<std::string> allowed_;       // NEVRAs of active streams
  std::set<std::string> active_names_;  // package names active streams ship
};

// The installed set as `rpm -qa --queryformat kQueryFormat` prints it.
extern const char* const kQueryFormat;
Result<void> parse_rpm_query(std::string_view text, const std::string& origin, const RecordSink& sink);

// "dnf install -y NAME-[EPOCH:]VERSION-RELEASE.ARCH..." (or zypper, yum). With removals (dnf
// only: Provider::plans_removals), "dnf install -y --allowerasing ...": dnf then removes the
// installed packages that conflict with the ones named, which the plan lists.
enum class Frontend { dnf, yum, zypper };
std::vector<Command> install_commands(Frontend frontend, const std::vector<PlannedPackage>& packages,
                                      bool allow_erasing = false);

std::unique_ptr<Provider> make_provider(const Context& ctx, const ProviderSettings& settings);

}  // namespace extdeps::dnf
