// Guesses for an id that no mapping table knows (solve::Options::guess_unmapped): of the names
// mapping::guess_candidates gives, those a provider's index really has become a made-up
// mapping entry, one alternative per name in order, with the evidence in words. The solver then
// treats it as any entry, and the plan marks what it chose as a guess.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/declare/requirement.h"
#include "core/mapping/mapping.h"
#include "core/solve/bundles.h"
#include "core/solve/pool_builder.h"

namespace extdeps::solve {

struct GuessedEntry {
  mapping::Entry entry;               // id, a note saying it is a guess, the category's alternatives
  std::vector<std::string> evidence;  // "debian package libfoo-dev is in the index, named after ..."
};

// The names a guess for `requirement` may look up in `provider`'s ecosystem, for the pruning roots.
std::vector<std::string> guess_names(const Requirement& requirement, const Provider& provider);

// The package names a guess may choose among in a loaded provider, for BundleSet::index_names:
// the candidates of that name, and what comes from a source package or provides a name.
std::vector<std::string> guess_packages(const Requirement& requirement, const LoadedProvider& provider,
                                        PoolBuilder& builder);

// The entry for one provider, or nothing when its indexes have none of the names. `bundles`
// must have indexed the names (BundleSet::index_names).
std::optional<GuessedEntry> guess_entry(const Requirement& requirement, const LoadedProvider& provider,
                                        PoolBuilder& builder, const BundleSet& bundles);

}  // namespace extdeps::solve
