// The dnf provider as the rest of extdeps sees it (core/provider/descriptor.h).
#include "core/mapping/names.h"
#include "providers/dnf/dnf_provider.h"

namespace extdeps::dnf {

namespace {

// rpm's rule for a package name: no blank or control character, no leading '-'; letters, digits
// and -._+ in practice (rpmbuild refuses others).
std::optional<std::string> name_problem(std::string_view name) {
  if (name.empty()) return "an empty package name";
  if (name.front() == '-') return "'" + mapping::printable(name) + "' starts with '-'";
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("-._+").find(c) != std::string_view::npos;
    if (!ok) return "'" + mapping::printable(name) + "' is not an rpm package name (letters, digits and -._+ only)";
  }
  return std::nullopt;
}

}  // namespace

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "dnf",
      .ecosystem = "fedora",
      .manager = "dnf",
      .manager_aliases = {"yum", "zypper"},
      .scheme = VersionScheme::rpm,
      .summary = "Fedora, RHEL and rebuilds, openSUSE: rpm-md repositories and the rpm database; dnf, yum or zypper commands",
      .name_problem = name_problem,
      .options =
          {
              {.name = "dnf-repo",
               .value_name = "URL",
               .help = "an rpm-md repository's base URL to read instead of /etc/yum.repos.d's (repeatable)",
               .list = true,
               .config_key = "dnf-repos",
               .env = {"EXTDEPS_DNF_REPOS"}},
              {.name = "dnf-frontend",
               .value_name = "dnf|yum|zypper",
               .help = "what the plan's step runs (default: zypper on openSUSE, dnf elsewhere)",
               .config_key = "dnf-frontend",
               .env = {"EXTDEPS_DNF_FRONTEND"}},
          },
      .reads_env = {},
      .verify_index = nullptr,
      .verify_reads = "",
      .make = [](const Context& ctx, const ProviderSettings& settings) { return make_provider(ctx, settings); },
  };
  return d;
}

}  // namespace extdeps::dnf
