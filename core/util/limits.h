// The sizes extdeps accepts in what it reads, in one place (docs/limits.md lists each with its
// message and exit code). They are far above anything real and far below what would overflow the
// stack or take minutes: each reader checks its own and says which limit a text crossed.
#pragma once

#include <cstddef>

namespace extdeps::limits {

// Declarations (pyproject.toml / extdeps.toml [external]).
inline constexpr std::size_t kMaxRequirements = 10000;     // specifiers in one declaration
inline constexpr std::size_t kMaxGroupDepth = 100;         // include-group chain, from one group
inline constexpr std::size_t kMaxMarkerDepth = 100;        // nested parentheses in one marker
inline constexpr std::size_t kMaxSpecifierLength = 65536;  // bytes of one specifier string

// Every TOML file (declarations, mapping tables, configuration): the dotted parts of one key plus
// the brackets it sits in. toml++ recurses on both; it bounds nested arrays and inline tables
// itself (256), not dotted keys.
inline constexpr std::size_t kMaxTomlDepth = 128;

// Every JSON document (plugin messages, --host files, caches, index pages, debug replay's
// request): nested arrays and objects. nlohmann::json parses iteratively but copies and dumps
// recursively, so a document 300000 deep crashed on its first copy.
inline constexpr std::size_t kMaxJsonDepth = 200;

// A dnf repository's modules.yaml (providers/dnf/modulemd_yaml.cc reads it, one pass): nested block
// and flow collections. libmodulemd writes 6 at most.
inline constexpr std::size_t kMaxYamlDepth = 64;

// A metadata file of the HTTP cache (core/fetch/cache_store.cc): extdeps writes a few hundred
// bytes; a larger one reads as absent.
inline constexpr std::size_t kMaxCacheMetaFile = std::size_t{1} << 20;

// Versions: a native version string (deb, rpm, conda, PEP 440, nix).
inline constexpr std::size_t kMaxVersionLength = 1024;

// Indexes (apt Packages and dpkg status, PEP 503/691 pages, repodata).
inline constexpr std::size_t kMaxNameLength = 1024;           // a package name
inline constexpr std::size_t kMaxFieldLength = 1 << 20;       // one deb822 field, continuation lines included
inline constexpr std::size_t kMaxStanzaLength = 16 << 20;     // one deb822 stanza (a package)
inline constexpr std::size_t kMaxAlternatives = 1000;         // '|' alternatives in one relation
inline constexpr std::size_t kMaxRelations = 10000;           // depends+provides+conflicts of one pacman package
inline constexpr std::size_t kMaxIndexRelations = 4000000;    // relations of one pacman sync database
inline constexpr std::size_t kMaxListEntries = 10000;         // entries of one list of one Homebrew formula
inline constexpr std::size_t kMaxIndexListEntries = 1000000;  // list entries of one formula.json, in all

// A mapping table's `regex` version rule: its length, and the largest repetition count
// (`{n,m}`); a back-reference has one digit. libstdc++'s regex compiler overflows a signed long
// on longer numbers (undefined behaviour) and builds automata the size of the counts.
inline constexpr std::size_t kMaxRegexLength = 1024;
inline constexpr std::size_t kMaxRegexRepeat = 1000;

// A provider plugin's answer to one request: in all, and one line (one JSON message).
inline constexpr std::size_t kMaxPluginAnswer = std::size_t{1} << 30;       // 1 GiB
inline constexpr std::size_t kMaxPluginAnswerLine = std::size_t{64} << 20;  // 64 MiB

// Did-you-mean: a word longer than this is compared with nothing (no candidate is near it).
inline constexpr std::size_t kMaxSuggestLength = 256;

// What a message shows of a name or text it quotes (text.h: shorten()).
inline constexpr std::size_t kMaxShownLength = 200;

}  // namespace extdeps::limits
