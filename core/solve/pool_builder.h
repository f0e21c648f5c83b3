// Loading providers into one libsolv pool: records become solvables named "<ecosystem>:<name>"
// with versions normalised into the pool's rpm order (DESIGN.md decisions 2, 3, 6). The native
// version and the origin stay as attributes for display and commands. Loaded repos are cached as
// .solv files keyed by the provider's source identity, the tool version and libsolv's version.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/context/context.h"
#include "core/provider/provider.h"
#include "core/solve/handles.h"
#include "core/util/result.h"

namespace extdeps::solve {

// What the builder remembers of each loaded provider.
struct LoadedProvider {
  Provider* provider = nullptr;
  Repo* available = nullptr;  // null for a detector with nothing to offer
  int installed_start = 0;    // its solvables in the shared installed repo: [start, end)
  int installed_end = 0;
  bool from_cache = false;
};

class PoolBuilder {
 public:
  explicit PoolBuilder(const Context& ctx);

  Pool* pool() const { return pool_.get(); }
  Repo* installed() const { return installed_; }

  // Loads one provider's records (or its cached .solv files). priority: higher is preferred.
  // roots: the native names the mapping tables can ask for. When given, the available repo keeps
  // only what those names can reach through dependencies (every provider of every dependency,
  // transitively): nothing outside that closure can be part of any plan for a mapped need, and
  // the pruned index loads several times faster. The cache key includes the roots.
  Result<LoadedProvider> add_provider(Provider& provider, int priority, bool use_cache,
                                      const std::vector<std::string>& roots = {});

  // Id of a name in an ecosystem's namespace: "debian" + "libc6" -> "debian:libc6".
  Id name_id(std::string_view ecosystem, std::string_view name, bool create = true);

  // PackageRecord::family and ::set, kept as provides "<eco>:<family>#family" and
  // "<eco>:<set>#set" (every record with a family has a set; "" is the top level).
  Id family_id(std::string_view ecosystem, std::string_view family, bool create = true);
  Id set_id(std::string_view ecosystem, std::string_view set, bool create = true);
  Id family_of(Id solvable) const;  // 0 when it has none
  Id set_of(Id solvable) const;

  // The name versioned relations use: "debian:libc6#v" for "debian:libc6" (RecordAdder::dep_id
  // says why), and back; unversioned() returns a name that is not "#v" as it is.
  Id versioned(Id name);
  Id unversioned(Id name) const;

  // The native version and origin kept for a solvable.
  std::string native_version(Id solvable) const;
  std::string origin(Id solvable) const;
  // The native text of a version that appears in a relation ("1:1.5" for its pool form), as the
  // provider wrote it; the pool form where none is known.
  std::string native_of_evr(Id evr) const;
  void remember_native(Id evr, const std::string& native);

  // A DepOp::spec relation as a namespace dependency: the packages named `name` in `eco` whose
  // native version and build the provider's matcher accepts (unmatched: those it refuses, for a
  // conda `constrains`). Answered lazily by namespace_callback.
  Id spec_dep(const std::string& eco, const std::string& name, const std::string& spec, bool unmatched);
  std::string build_string(Id solvable) const;
  unsigned track_features(Id solvable) const;
  Id build_key() const { return key_build_; }
  Id track_features_key() const { return key_track_; }
  bool is_spec_namespace(Id ns) const { return ns == ns_match_ || ns == ns_unmatched_; }
  bool is_unmatched_namespace(Id ns) const { return ns == ns_unmatched_; }
  // "libxml2-dev" from "debian:libxml2-dev"; the ecosystem part from the same.
  static std::string_view native_name(std::string_view pooled);
  // The argument of a spec namespace dependency as the pool holds it ("conda-forge:numpy
  // >=1.20,<2" with its blanks and parentheses written %XX, one word for libsolv's testcases),
  // and back.
  static std::string encode_spec_arg(std::string_view text);
  static std::string decode_spec_arg(std::string_view text);
  static std::string_view ecosystem_of(std::string_view pooled);

  Id native_version_key() const { return key_native_; }
  Id origin_key() const { return key_origin_; }

 private:
  // Loads the provider's records: installed ones into `installed`; available ones into
  // `available`, only those in the closure of `roots` and of what is installed (all of them
  // when `roots` is empty), buffered until the closure is known (record_buffer.h).
  Result<void> load_records(Provider& provider, Repo* available, Repo* installed,
                            const std::vector<std::string>& roots);
  std::string cache_path(const Provider& provider, const SourceId& id, std::string_view roots,
                         std::string_view part) const;
  static Id namespace_callback(Pool* pool, void* data, Id ns, Id arg);
  // The text of the evr map of a provider's relations (kept beside its .solv cache).
  std::string evr_map_text(const LoadedProvider& lp);
  void remove_stale_cache(const std::string& eco) const;

  const Context& ctx_;
  PoolPtr pool_;
  Repo* installed_ = nullptr;
  Id key_native_ = 0;
  Id key_origin_ = 0;
  Id key_build_ = 0;
  Id key_track_ = 0;
  Id ns_match_ = 0;
  Id ns_unmatched_ = 0;
  std::map<std::string, Provider*> spec_providers_;                // by ecosystem
  std::unordered_map<Id, std::unique_ptr<SpecMatcher>> matchers_;  // by spec argument
  std::unordered_map<Id, Id> versioned_;
  mutable std::unordered_map<Id, std::string> evr_native_;
  mutable bool evr_maps_read_ = false;
  std::vector<std::string> evr_texts_;  // the evr maps of providers read from the .solv cache
  bool temps_swept_ = false;
};

// The kind of sealed file (core/util/sealed_file.h) a .solv cache file is.
inline constexpr std::string_view kSolvCacheKind = "solv";

// A .solv cache file's body: the length of the solv data (u64, little-endian), the solv data
// repowriter wrote, then `extra`, a text kept beside it (the native spelling of the versions in
// relations, PoolBuilder::native_of_evr). The text is not a libsolv attribute: repo_add_solv
// copies what is left of its read buffer once per solvable whenever one value is large, and a
// 100 KB meta string made that most of a warm run.
//
// Adds the solvables of a .solv cache file's bytes (header and body) to `repo`. The header is
// checked (magic, kind, extdeps version, length, CRC-32) before libsolv reads the body from
// memory; an error says what is wrong. `extra`, when given, receives the text after the solv
// data. A plain function over bytes, for tests and fuzzing.
Result<void> load_solv_cache(Repo* repo, std::string_view bytes, std::string* extra = nullptr);

// The body of a .solv cache file for a repo's solvables [start, end), with `extra` after it.
Result<std::string> solv_cache_body(Repo* repo, int start, int end, std::string_view extra = {});

// Writes a repo (or a range of its solvables) to `path` as a sealed .solv cache file,
// atomically: temporary file + rename.
bool write_solv_atomically(Repo* repo, int start, int end, const std::string& path, std::string_view extra = {});

}  // namespace extdeps::solve
