// The Homebrew provider (macOS, and Homebrew on Linux): the formula JSON API (formula.json, or the
// signed formula.jws.json that brew itself downloads and keeps in its cache), the kegs installed
// in the Cellar with their INSTALL_RECEIPT.json, the bottle each formula would pour on the host
// (its macOS release and CPU), and `brew install` commands. Homebrew cannot run on the machines
// extdeps is tested on: the readers follow the documented shapes, which the fixtures of
// tests/data/homebrew/ copy (their README says where each shape comes from). Internal to
// providers/homebrew.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json/byte_source.h"
#include "core/provider/provider.h"

namespace extdeps::homebrew {

const ProviderDescriptor& descriptor();

// The machine a plan pours bottles for.
struct Platform {
  bool macos = true;
  std::string macos_version;  // "14.5"; for Linux empty
  std::string arch;           // "arm64" or "x86_64"
  std::string prefix;         // HOMEBREW_PREFIX, as on the machine: "/opt/homebrew"

  // The bottle tag of the host: "arm64_sonoma", "sonoma" (Intel), "x86_64_linux", "arm64_linux";
  // empty for a macOS release Homebrew has no name for.
  std::string tag() const;
  std::string cellar() const { return prefix + "/Cellar"; }
};

// Homebrew's name of a macOS release ("14.5" -> "sonoma", "10.15.7" -> "catalina"); empty when
// unknown. And back: "sonoma" -> "14", "catalina" -> "10.15"; empty when unknown.
std::string macos_codename(std::string_view version);
std::string macos_version_of(std::string_view codename);

// The default prefix of each platform: /opt/homebrew (Apple silicon), /usr/local (Intel macs),
// /home/linuxbrew/.linuxbrew (Linux).
std::string default_prefix(bool macos, std::string_view arch);

// One bottle of a formula: its tag and the Cellar it was built for (":any",
// ":any_skip_relocation", or a path: then it pours only into that Cellar).
struct Bottle {
  std::string tag;
  std::string cellar;
  std::string url;
  std::string sha256;
};

// A dependency of uses_from_macos: a library macOS ships, which Linux (and macOS before `since`)
// gets from Homebrew. Build-only when its context says "build".
struct UsesFromMacos {
  std::string name;
  bool build_only = false;
  bool test_only = false;
  std::string since;  // a macOS codename: macOS from this release on ships it; empty: all do
};

// A requirement of the formula ("macos" >= version, "linux", "arch").
struct Requirement {
  std::string name;
  std::string version;  // "12" for macos, "arm64" for arch; empty when none
  bool build_only = false;
};

// The fields a variation (an OS/arch's override of the formula) may replace.
struct Fields {
  std::optional<std::vector<std::string>> dependencies, build_dependencies, conflicts_with;
  std::optional<std::vector<UsesFromMacos>> uses_from_macos;
  std::optional<std::vector<Requirement>> requirements;
};

struct Formula {
  std::string name;       // "openssl@3"
  std::string full_name;  // "openssl@3"; "user/tap/name" outside homebrew/core
  std::string tap;
  std::vector<std::string> aliases, oldnames;
  std::string stable;  // versions.stable
  unsigned revision = 0;
  std::vector<Bottle> bottles;  // bottle.stable.files
  bool keg_only = false;
  bool disabled = false;
  bool deprecated = false;
  std::string disable_reason;
  Fields fields;                                          // as written at the top level
  std::map<std::string, Fields, std::less<>> variations;  // by bottle tag
  std::uint64_t offset = 0;                               // where it starts in the index, for messages

  // version + "_" + revision when revision > 0: what Cellar folders and brew print.
  std::string pkg_version() const;
};

// Reads a formula index: the JSON array of formula.json, or formula.jws.json (an object whose
// "payload" member is that array as a string). `each` gets every formula; errors name the source
// and the byte offset.
Result<std::size_t> read_formulae(json::ByteSource& source, const std::function<void(Formula&&)>& each);

// The bottle the host pours, as brew chooses it: the host's tag, else "all", else (macOS) the
// newest bottle for an older macOS release of the same CPU; and only one whose Cellar is ":any",
// ":any_skip_relocation" or the host's. Null: brew builds from source.
const Bottle* choose_bottle(const Formula& f, const Platform& host);

// The formula as the host sees it: the variation of the host's tag applied, its bottle chosen,
// its relations in records' terms. A bottle that pours needs the runtime dependencies; a formula
// built from source needs the build dependencies too (its `build` is then "source"). On macOS
// uses_from_macos names what the system ships (a relation only before its `since` release); on
// Linux each is a dependency. Requirements: "macos" is "__osx >= V" (a spec relation), "linux"
// is "__linux"; a formula for another CPU ("arch") or a disabled one gives no record.
std::optional<PackageRecord> to_record(const Formula& f, const Platform& host, const std::string& origin);

// One installed keg: Cellar/NAME/PKG_VERSION with its INSTALL_RECEIPT.json.
struct Keg {
  std::string name;
  std::string pkg_version;
  std::string receipt;   // its path
  bool linked = false;   // PREFIX/var/homebrew/linked/NAME exists (keg-only formulae are not)
  bool current = false;  // PREFIX/opt/NAME points at it
  std::vector<std::string> runtime_dependencies;
  bool poured_from_bottle = false;
  std::vector<std::string> aliases;
};

// Reads a keg's INSTALL_RECEIPT.json into `keg` (its runtime dependencies, how it was poured).
Result<void> read_receipt(const std::string& path, Keg& keg);

// The kegs of a Cellar (PREFIX/Cellar under the root already), the one each opt/ link points at
// first; a folder without a receipt is skipped (brew itself treats it as not installed), a
// receipt that is not JSON is an error naming it.
Result<std::vector<Keg>> read_cellar(const std::string& prefix);

// "brew install --formula NAME...", run with HOMEBREW_NO_AUTO_UPDATE=1 so brew installs from the
// index the plan was made from. Never through sudo: brew refuses to run as root.
std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages);

std::unique_ptr<Provider> make_provider(const Context& ctx, const ProviderSettings& settings);

}  // namespace extdeps::homebrew
