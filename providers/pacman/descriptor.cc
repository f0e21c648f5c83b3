// The pacman provider as the rest of extdeps sees it (core/provider/descriptor.h).
#include <unordered_map>

#include "core/mapping/names.h"
#include "core/mapping/verify.h"
#include "providers/pacman/pacman_provider.h"
#include "providers/pacman/pacman_version.h"

namespace extdeps::pacman {

namespace {

// pacman's (makepkg's) rule for pkgname: lower-case letters, digits and @._+-, not starting
// with '-' or '.'.
std::optional<std::string> name_problem(std::string_view name) {
  if (name.empty()) return "an empty package name";
  if (name.front() == '-' || name.front() == '.')
    return "'" + mapping::printable(name) + "' starts with '" + name.front() + "', which pacman refuses";
  for (char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || std::string_view("@._+-").find(c) != std::string_view::npos;
    if (!ok)
      return "'" + mapping::printable(name) +
             "' is not a pacman package name (lower-case letters, digits and @._+- only)";
  }
  return std::nullopt;
}

// `mappings verify` of an arch table: the names (and the names only others provide) of the given
// sync databases, else of this machine's.
Result<mapping::NameIndex> verify_index(Context& ctx, const VerifyInput& input) {
  std::vector<std::string> dbs = input.sources;
  if (dbs.empty()) {
    auto conf = read_config(ctx.host_path("/etc/pacman.conf"), ctx.root());
    if (!conf) return conf.error();
    for (const auto& r : conf->repos) dbs.push_back(ctx.host_path(conf->dbpath + "/sync/" + r.name + ".db"));
    if (dbs.empty())
      return environment_error("no pacman repositories in " + ctx.host_path("/etc/pacman.conf") +
                               " (name sync databases with --index)");
  }
  mapping::NameIndex index;
  std::unordered_map<std::string, std::string> provided;
  for (const auto& db : dbs) {
    auto r = read_sync_db(db, "", [&](PackageRecord&& rec) {
      for (const auto& p : rec.provides) provided.emplace(p.name, rec.name);
      index.names.insert(std::move(rec.name));
    });
    if (!r) return r.error();
  }
  for (auto& [name, by] : provided)
    if (!index.names.count(name)) index.provided_by.emplace(name, std::move(by));
  index.description =
      std::string(input.sources.empty() ? "this machine's pacman sync databases" : "the given sync databases") + " (" +
      std::to_string(dbs.size()) + (dbs.size() == 1 ? " database, " : " databases, ") +
      std::to_string(index.names.size()) + " packages)";
  return index;
}

// Arch ships headers with the library: one package of the project's name (or one that provides
// it); a Python module is python-<name>.
std::vector<mapping::GuessForm> guess(const mapping::GuessSubject& s) {
  const std::string name(s.name);
  if (s.type == "pypi") return {{"python-" + name, "Arch's python-<name> form"}};
  return {{name, "a package of exactly that name"},
          {name, "a package that provides that name", mapping::GuessCandidate::Kind::provides}};
}

}  // namespace

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "pacman",
      .ecosystem = "arch",
      .manager = "pacman",
      .manager_aliases = {},
      .scheme = &version::pacman_scheme,
      .summary = "Arch Linux and derivatives: pacman's sync and local databases; pacman -S commands",
      .name_problem = name_problem,
      .guess = guess,
      .options =
          {
              {.name = "pacman-config",
               .value_name = "FILE",
               .help = "pacman.conf to read (default: /etc/pacman.conf under the root)",
               .config_key = "pacman-config",
               .env = {"EXTDEPS_PACMAN_CONFIG"},
               .kind = OptionKind::path},
              {.name = "pacman-db",
               .value_name = "FILE",
               .help = "a sync database to read instead of the configured repositories' (repeatable)",
               .list = true,
               .config_key = "pacman-dbs",
               .env = {"EXTDEPS_PACMAN_DBS"},
               .kind = OptionKind::path},
          },
      .reads_env = {},
      .verify_index = verify_index,
      .verify_reads = "pacman sync databases (arch tables)",
      // ID_LIKE as each one's /etc/os-release gives it.
      .derived_systems = {{"manjaro", {"arch"}}, {"endeavouros", {"arch"}}},
      .make = [](const Context& ctx, const ProviderSettings& settings) { return make_provider(ctx, settings); },
  };
  return d;
}

}  // namespace extdeps::pacman
