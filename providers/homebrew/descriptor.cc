// The Homebrew provider as the rest of extdeps sees it (core/provider/descriptor.h).
#include <unordered_map>

#include "core/detect/os_release.h"
#include "core/fetch/fetch.h"
#include "core/fetch/options.h"
#include "core/json/byte_source.h"
#include "core/mapping/names.h"
#include "core/mapping/verify.h"
#include "providers/homebrew/homebrew_provider.h"
#include "providers/homebrew/homebrew_version.h"

namespace extdeps::homebrew {

namespace {

// On a mac, the CPU as Homebrew's bottles name it: arm64 or x86_64.
std::string system_cpu(const detect::OsRelease& os, std::string_view machine) {
  if (os.id != "macos") return {};
  return machine == "aarch64" || machine == "arm64" ? "arm64" : "x86_64";
}

// A formula's name (Formulary's rule, as homebrew-core's names are): lower-case letters, digits
// and +-._@, starting with a letter or digit. "user/tap/name" names a tap's formula.
std::optional<std::string> name_problem(std::string_view name) {
  if (name.empty()) return "an empty formula name";
  if (!((name.front() >= 'a' && name.front() <= 'z') || (name.front() >= '0' && name.front() <= '9')))
    return "'" + mapping::printable(name) + "' does not start with a lower-case letter or a digit, as formula names do";
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    std::string_view("+-._@/").find(c) != std::string_view::npos;
    if (!ok)
      return "'" + mapping::printable(name) + "' is not a formula name (lower-case letters, digits and +-._@ only)";
  }
  return std::nullopt;
}

// `mappings verify` of a homebrew table: the formulae of a formula.json (or formula.jws.json),
// their aliases and old names as names other formulae stand for.
Result<mapping::NameIndex> verify_index(Context& ctx, const VerifyInput& input) {
  if (input.sources.empty())
    return environment_error("name a formula index with --index (formula.json or formula.jws.json, a file or URL)");
  mapping::NameIndex index;
  std::unordered_map<std::string, std::string> other;
  std::size_t total = 0;
  for (const auto& src : input.sources) {
    std::string path = src, name = src;
    std::unique_ptr<fetch::Fetcher> fetcher;
    if (src.starts_with("http://") || src.starts_with("https://") || src.starts_with("file://")) {
      fetch::FetchFlags flags;
      flags.offline = input.offline;
      auto fo = fetch::options_for(ctx, flags);
      if (!fo) return fo.error();
      fetcher = std::make_unique<fetch::Fetcher>(ctx, *fo);
      auto got = fetcher->fetch({.url = src});
      if (!got) return got.error();
      path = got->body_path;
    }
    auto source = json::open_file(path, name);
    if (!source) return source.error();
    auto n = read_formulae(**source, [&](Formula&& f) {
      for (const auto* names : {&f.aliases, &f.oldnames})
        for (const auto& a : *names) other.emplace(a, f.name);
      index.names.insert(std::move(f.name));
    });
    if (!n) return n.error();
    total += *n;
  }
  for (auto& [name, by] : other)
    if (!index.names.count(name)) index.provided_by.emplace(name, std::move(by));
  index.description = "the given formula index (" + std::to_string(total) + " formulae)";
  return index;
}

// Homebrew ships headers with the library: one formula of the project's name. Python modules
// are not formulae.
std::vector<mapping::GuessForm> guess(const mapping::GuessSubject& s) {
  if (s.type == "pypi") return {};
  return {{std::string(s.name), "a package of exactly that name"}};
}

}  // namespace

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "brew",
      .ecosystem = "homebrew",
      .manager = "brew",
      .manager_aliases = {"homebrew"},
      .scheme = &version::homebrew_scheme,
      .summary =
          "Homebrew (macOS, Linux): the formula API and the Cellar; bottles for the host's macOS and CPU; brew install "
          "commands",
      .name_problem = name_problem,
      .guess = guess,
      .options =
          {
              {.name = "homebrew-api",
               .value_name = "FILE|URL",
               .help = "the formula index to read: formula.json or formula.jws.json (default: brew's cached copy, else "
                       "HOMEBREW_API_DOMAIN's)",
               .config_key = "homebrew-api",
               .env = {"EXTDEPS_HOMEBREW_API"},
               .kind = OptionKind::path_or_url},
              {.name = "homebrew-prefix",
               .value_name = "DIR",
               .help = "Homebrew's prefix (default: /opt/homebrew on Apple silicon, /usr/local on Intel macs, "
                       "/home/linuxbrew/.linuxbrew on Linux)",
               .config_key = "homebrew-prefix",
               .env = {"HOMEBREW_PREFIX"},
               .kind = OptionKind::path},
          },
      .reads_env = {"HOMEBREW_API_DOMAIN", "HOMEBREW_CACHE"},
      .verify_index = verify_index,
      .verify_reads = "a Homebrew formula index (homebrew tables)",
      .system_cpu = system_cpu,
      .make = [](const Context& ctx, const ProviderSettings& settings) { return make_provider(ctx, settings); },
  };
  return d;
}

}  // namespace extdeps::homebrew
