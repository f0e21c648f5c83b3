// Looking ids up in loaded tables, and putting the tables of several folders together: the
// shipped folder first, then the extra folders, later entries replacing earlier ones by id.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <thread>
#include <unordered_map>

#include "core/declare/purl_types.h"
#include "core/mapping/mapping.h"
#include "core/mapping/spelling.h"
#include "core/mapping/table_cache.h"
#include "core/util/build_paths.h"
#include "core/util/sealed_file.h"
#include "core/util/text.h"

namespace fs = std::filesystem;

namespace extdeps::mapping {

namespace {

const Entry* find_id(const std::vector<Entry>& entries, std::string_view id) {
  auto it =
      std::lower_bound(entries.begin(), entries.end(), id, [](const Entry& e, std::string_view v) { return e.id < v; });
  return it != entries.end() && it->id == id ? &*it : nullptr;
}

const std::vector<Alternative>& no_alternatives() {
  static const std::vector<Alternative> none;
  return none;
}

// Aliases are shared: an alias one table gives to an id applies to that id in every table, so
// pkgconfig.toml need not repeat what debian.toml says. A table's own ids and aliases win.
void share_aliases(std::vector<Table>& tables) {
  std::map<std::string, std::string> alias_to_id;
  for (const auto& t : tables) {
    for (const auto& e : t.entries) {
      for (const auto& a : e.aliases) alias_to_id.emplace(a, e.id);
    }
  }
  for (auto& t : tables) {
    std::set<std::string> taken;
    for (const auto& e : t.entries) {
      taken.insert(e.id);
      taken.insert(e.aliases.begin(), e.aliases.end());
    }
    for (const auto& [alias, id] : alias_to_id) {
      if (taken.count(alias)) continue;
      auto it = std::lower_bound(t.entries.begin(), t.entries.end(), id,
                                 [](const Entry& x, const std::string& v) { return x.id < v; });
      if (it == t.entries.end() || it->id != id) continue;
      it->aliases.push_back(alias);
      taken.insert(alias);
    }
    t.invalidate_index();
  }
}

}  // namespace

const std::vector<Alternative>& Entry::alternatives(Category category) const {
  auto it = by_category.find(category);
  return it == by_category.end() ? no_alternatives() : it->second;
}

const VersionRule& Entry::module_version(const std::string& m) const {
  static const VersionRule native;
  auto it = module_versions.find(m);
  return it == module_versions.end() ? native : it->second;
}

bool Entry::unavailable() const {
  if (!modules.empty()) return false;
  return std::all_of(by_category.begin(), by_category.end(), [](const auto& kv) { return kv.second.empty(); });
}

std::vector<std::string> Entry::all_packages() const {
  std::vector<std::string> out;
  auto add = [&out](const std::string& p) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  for (const auto& [category, alternatives] : by_category) {
    (void)category;
    for (const auto& a : alternatives) {
      for (const auto& p : a.packages) add(p);
    }
  }
  for (const auto& m : modules) add(m);
  return out;
}

// What Table::find looks up besides the ids (which are sorted): each key names the first entry
// that has it, in the entries' order, as a scan would find it. Looked up by string_view: a find
// allocates nothing unless the id needs its spelling key made.
struct Table::FindIndex {
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using Map = std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>>;
  const Entry* data = nullptr;
  std::size_t size = 0;
  Map alias;      // an alias as written
  Map id_key;     // spelling_key of an id
  Map alias_key;  // spelling_key of an alias
};

namespace {

// Whether spelling_key(base) is `base` itself: nothing to lower-case, and not a name whose
// separators are normalised (PyPI's).
bool is_own_key(std::string_view base) {
  for (char c : base)
    if (c >= 'A' && c <= 'Z') return false;
  const PurlType* type = purl_type_of(base);
  return !type || !type->one_dash;
}

}  // namespace

const Entry* Table::find(std::string_view id) const {
  // Exact spellings first: the id (entries are sorted by id), then an alias; then the id without
  // version, qualifiers and subpath the same way; then by the PURL type's spelling rules, ids
  // before aliases, so an id never loses to another entry's alias. The index makes each step one
  // lookup: a plan of 1,000 needs asks every table about each (a scan per miss was most of it).
  std::shared_ptr<const FindIndex> index = find_index_;
  if (!index || index->data != entries.data() || index->size != entries.size()) {
    auto built = std::make_shared<FindIndex>();
    built->data = entries.data();
    built->size = entries.size();
    for (std::uint32_t i = 0; i < entries.size(); ++i) {
      built->id_key.emplace(spelling_key(entries[i].id), i);
      for (const auto& a : entries[i].aliases) {
        built->alias.emplace(a, i);
        built->alias_key.emplace(spelling_key(a), i);
      }
    }
    index = built;
    find_index_ = std::move(built);
  }
  auto in = [&](const FindIndex::Map& m, std::string_view v) -> const Entry* {
    auto it = m.find(v);
    return it == m.end() ? nullptr : &entries[it->second];
  };
  auto exact = [&](std::string_view v) -> const Entry* {
    if (const Entry* e = find_id(entries, v)) return e;
    return in(index->alias, v);
  };
  if (const Entry* e = exact(id)) return e;
  const std::string_view base = base_id(id);
  if (base != id)
    if (const Entry* e = exact(base)) return e;
  std::string made;
  std::string_view key = base;
  if (!is_own_key(base)) key = made = spelling_key(base);
  if (const Entry* e = in(index->id_key, key)) return e;
  return in(index->alias_key, key);
}

bool Entry::spelled(std::string_view id) const {
  const std::string_view base = base_id(id);
  return base == this->id || std::find(aliases.begin(), aliases.end(), base) != aliases.end();
}

std::string Entry::spelling_of(std::string_view id) const {
  const std::string key = spelling_key(id);
  if (spelling_key(this->id) == key) return this->id;
  for (const auto& a : aliases)
    if (spelling_key(a) == key) return a;
  return {};
}

const Entry* Tables::find(std::string_view id) const {
  for (const auto& t : tables)
    if (const Entry* e = t.find(id)) return e;
  return nullptr;
}

const Table* Tables::find_ecosystem(std::string_view ecosystem) const {
  for (const auto& t : tables) {
    if (t.ecosystem == ecosystem) return &t;
  }
  return nullptr;
}

std::vector<std::string> Tables::known_ids() const {
  std::set<std::string> ids;
  for (const auto& t : tables) {
    for (const auto& e : t.entries) {
      ids.insert(e.id);
      ids.insert(e.aliases.begin(), e.aliases.end());
    }
  }
  return {ids.begin(), ids.end()};
}

void merge_table(Table& base, Table overlay) {
  for (auto& e : overlay.entries) {
    // The overlay owns its id and aliases from now on: older entries lose them as aliases.
    for (auto& old : base.entries) {
      if (old.id == e.id) continue;
      std::erase_if(old.aliases, [&e](const std::string& a) {
        return a == e.id || std::find(e.aliases.begin(), e.aliases.end(), a) != e.aliases.end();
      });
    }
    auto it = std::lower_bound(base.entries.begin(), base.entries.end(), e.id,
                               [](const Entry& x, const std::string& v) { return x.id < v; });
    if (it != base.entries.end() && it->id == e.id) {
      *it = std::move(e);
    } else {
      base.entries.insert(it, std::move(e));
    }
  }
  if (!overlay.manager.empty()) base.manager = overlay.manager;
  if (!overlay.description.empty()) base.description = overlay.description;
  if (!overlay.release.empty()) base.release = overlay.release;
  base.overlays.push_back(overlay.path);
  base.overlays.insert(base.overlays.end(), overlay.overlays.begin(), overlay.overlays.end());
  base.invalidate_index();
}

namespace {

// The cache file for one list of table files (the folders' list and this version name it; the
// stamp inside says whether the files are still the ones it was read from).
std::string table_cache_path(const Context& ctx, const std::vector<std::string>& files) {
  std::string key = EXTDEPS_VERSION;
  for (const auto& f : files) key += "\n" + f;
  return ctx.cache_dir() + "/tables/" + fnv1a_hex(key) + ".tables";
}

// Keeps the newest few cache files (several projects with extra mapping folders share a cache).
void remove_stale_table_caches(const std::string& dir) {
  constexpr std::size_t kKeep = 8;
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".tables" || it->is_symlink(ec) || !it->is_regular_file(ec)) continue;
    auto t = it->last_write_time(ec);
    if (!ec) files.emplace_back(t, it->path());
  }
  if (files.size() <= kKeep) return;
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = kKeep; i < files.size(); ++i) fs::remove(files[i].second, ec);
}

}  // namespace

namespace {

// The tables to read, in reading order: the shipped folder's, then each extra folder's, each
// folder's sorted by name; a folder named twice (callers may pass the default) is read once.
Result<std::vector<std::string>> table_files(const Context& ctx, const std::vector<std::string>& dirs) {
  std::vector<std::string> all{default_mappings_dir(ctx)};
  all.insert(all.end(), dirs.begin(), dirs.end());
  std::vector<std::string> files;
  std::set<std::string> done;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string& dir = all[i];
    std::error_code ec;
    if (!done.insert(fs::weakly_canonical(dir, ec).string()).second) continue;
    if (!fs::is_directory(dir, ec)) {
      if (i == 0) {
        Error e = environment_error("the mappings folder " + dir +
                                    " does not exist (set EXTDEPS_MAPPINGS_DIR to the folder that "
                                    "holds the shipped tables, the *.toml files extdeps installs)");
        e.what = "the mappings folder " + dir + " does not exist";
        e.hint =
            "set EXTDEPS_MAPPINGS_DIR to the folder that holds the shipped tables, the *.toml files extdeps installs";
        return e;
      }
      return error_at(ExitCode::bad_input, "", "mappings folder " + dir + " does not exist");
    }
    std::vector<std::string> in_dir;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().extension() == ".toml" && it->is_regular_file(ec)) {
        in_dir.push_back(it->path().string());
      }
    }
    if (ec) return error_at(ExitCode::environment, "", "cannot list the mappings folder " + dir + ": " + ec.message());
    std::sort(in_dir.begin(), in_dir.end());
    files.insert(files.end(), in_dir.begin(), in_dir.end());
  }
  return files;
}

// The tables parsed on two threads (a cold run has nothing else to do meanwhile; each table is
// parsed on its own), merged in reading order: a later table of an ecosystem overlays the earlier.
Result<Tables> parse_tables(const std::vector<std::string>& files) {
  std::vector<std::optional<Result<Table>>> parsed(files.size());
  {
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      for (std::size_t i; (i = next++) < files.size();) parsed[i].emplace(load_table(files[i]));
    };
    std::thread helper;
    if (files.size() > 1) {
      try {
        helper = std::thread(work);
      } catch (const std::system_error&) {
        // No thread to be had (a process limit): this thread parses them all.
      }
    }
    work();
    if (helper.joinable()) helper.join();
  }
  Tables out;
  for (auto& slot : parsed) {
    auto& table = *slot;
    if (!table) return table.error();
    auto same = std::find_if(out.tables.begin(), out.tables.end(),
                             [&](const Table& t) { return t.ecosystem == table->ecosystem; });
    if (same == out.tables.end()) {
      out.tables.push_back(std::move(*table));
    } else {
      merge_table(*same, std::move(*table));
    }
  }
  share_aliases(out.tables);
  return out;
}

}  // namespace

Result<Tables> load_tables(const Context& ctx, const std::vector<std::string>& dirs,
                           const std::vector<std::string>* only_ids, const std::set<std::string>* only_ecosystems) {
  auto listed = table_files(ctx, dirs);
  if (!listed) return listed.error();
  const std::vector<std::string>& files = *listed;

  // A warm run reads what an earlier run parsed (table_cache.h).
  std::optional<std::string> stamp;
  std::string cache_path;
  if (ctx.cache_enabled()) {
    stamp = table_cache::stamp(files);
    cache_path = table_cache_path(ctx, files);
    if (stamp) {
      // Mapped, not read: a run that asks about a few ids touches the pages of their entries.
      if (auto file = sealed::MappedFile::open(cache_path)) {
        auto body = sealed::unseal_unchecked_body(table_cache::kKind, file->bytes());
        std::string damage;
        if (body.ok()) {
          if (auto cached = table_cache::decode(*body, *stamp, only_ids, &damage, only_ecosystems))
            return std::move(*cached);
        } else {
          damage = body.error().message;
        }
        if (!damage.empty())
          ctx.warn(cache_path + ": damaged cache file (" + damage + "); rebuilding it from the tables");
      }
    }
  }

  auto out = parse_tables(files);
  if (!out) return out.error();
  // Written only when no table changed while it was read (the stamp is taken again).
  if (stamp && table_cache::stamp(files) == stamp) {
    std::error_code ec;
    const std::string dir = ctx.cache_dir() + "/tables";
    fs::create_directories(dir, ec);
    if (!ec) {
      sealed::remove_stale_temps(dir);
      if (sealed::write_atomically(cache_path, table_cache::kKind, table_cache::encode(*stamp, *out)).ok())
        remove_stale_table_caches(dir);
    }
  }
  return out;
}

std::string default_mappings_dir(const Context& ctx) {
  if (auto v = ctx.env("EXTDEPS_MAPPINGS_DIR"); v && !v->empty()) return *v;
  std::error_code ec;
  // An installed tree, wherever it was installed (cmake --install --prefix): beside bin/extdeps.
  if (!ctx.self_exe().empty()) {
    fs::path exe = fs::canonical(ctx.self_exe(), ec);
    fs::path beside = exe.parent_path().parent_path() / "share" / "extdeps" / "mappings";
    if (!ec && fs::is_directory(beside, ec)) return beside.string();
  }
  if (fs::is_directory(build_paths::installed_mappings_dir, ec)) return build_paths::installed_mappings_dir;
  return build_paths::source_mappings_dir;
}

}  // namespace extdeps::mapping
