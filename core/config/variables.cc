#include "core/config/variables.h"

#include <cctype>
#include <set>

namespace extdeps::config {

namespace {

// Core's variables that are not options: read as they are, from the environment only.
struct Plain {
  std::string_view name;
  std::string_view help;
};

constexpr Plain kCorePlain[] = {
    {"EXTDEPS_MANAGERS", "package managers in order of preference (managers in a config file; --manager)"},
    {"EXTDEPS_MAPPING_DIRS", "extra mapping-table folders, ':'-separated (mapping-dirs; --mapping-dir)"},
    {"EXTDEPS_MAPPINGS_DIR", "the shipped mapping tables' folder, instead of the installed one"},
    {"EXTDEPS_ROOT", "the folder the machine's files are read under (root; --root)"},
    {"EXTDEPS_PLUGIN_PATH", "folders searched for extdeps-provider-* programs before PATH"},
    {"EXTDEPS_OVERRIDE_*",
     "host facts to use instead of the detected ones (CUDA, CUDA_ARCH, GLIBC, LINUX, ARCH, OS, ...)"},
    {"EXTDEPS_CUDA_LIBRARY", "the libcuda.so.1 the driver probe loads, instead of the system's"},
    {"EXTDEPS_NVML_LIBRARY", "the libnvidia-ml.so.1 the driver probe loads, instead of the system's"},
    {"EXTDEPS_LIBCURL", "the libcurl the downloads load, instead of libcurl.so.4"},
    {"EXTDEPS_BIN", "the extdeps program the library runs the driver probe in"},
    {"EXTDEPS_TIMINGS", "when set, each phase's time in milliseconds on stderr at exit (for bench/run.sh --phases)"},
    {"EXTDEPS_FAKE_*", "passed to the driver probe's child for the tests' fake libcuda and libnvidia-ml only"},
    {"NO_COLOR", "when set and not empty, no colour on a terminal (--color auto; no-color.org)"},
    {"TERM", "dumb: no colour on a terminal (--color auto)"},
    {"PATH", "where compilers, python3, nvidia-smi, plugins and the package managers' programs are looked for"},
    {"HOME", "the default cache and configuration folders (and the providers' files under it: extdeps providers)"},
    {"XDG_CACHE_HOME", "the cache folder is $XDG_CACHE_HOME/extdeps"},
    {"XDG_CONFIG_HOME", "the user's configuration is $XDG_CONFIG_HOME/extdeps/config.toml"},
    {"CURL_CA_BUNDLE", "CA certificates for downloads (before SSL_CERT_FILE)"},
    {"SSL_CERT_FILE", "CA certificates for downloads"},
    {"SSL_CERT_DIR", "a folder of CA certificates for downloads"},
};

}  // namespace

const std::vector<ProviderOption>& core_options() {
  static const std::vector<ProviderOption> options = {
      {.name = "offline",
       .value_name = "1|0",
       .help = "use only cached downloads; fail where there is none (--offline)",
       .config_key = "offline",
       .env = {"EXTDEPS_OFFLINE"},
       .kind = OptionKind::flag},
      {.name = "plugin-timeout",
       .value_name = "SECONDS",
       .help = "how long a provider plugin may take to answer (default 120)",
       .config_key = "plugin-timeout",
       .env = {"EXTDEPS_PLUGIN_TIMEOUT"},
       .kind = OptionKind::seconds,
       .min_seconds = 0.001,
       .max_seconds = 86400},
      {.name = "detect-ttl",
       .value_name = "SECONDS",
       .help = "how long detected host facts are reused (default 86400)",
       .config_key = "detect-ttl",
       .env = {"EXTDEPS_DETECT_TTL"},
       .kind = OptionKind::seconds,
       .max_seconds = 365 * 24 * 3600},
      {.name = "probe-timeout",
       .value_name = "SECONDS",
       .help = "how long the CUDA driver probe may take (default 10)",
       .config_key = "probe-timeout",
       .env = {"EXTDEPS_PROBE_TIMEOUT"},
       .kind = OptionKind::seconds,
       .max_seconds = 3600},
      {.name = "max-download-size",
       .value_name = "SIZE",
       .help = "the largest download, in bytes or as 512M, 2G",
       .config_key = "max-download-size",
       .env = {"EXTDEPS_MAX_DOWNLOAD_SIZE"},
       .kind = OptionKind::size},
      {.name = "max-download-total",
       .value_name = "SIZE",
       .help = "the most bytes one run downloads, in bytes or as 512M, 2G",
       .config_key = "max-download-total",
       .env = {"EXTDEPS_MAX_DOWNLOAD_TOTAL"},
       .kind = OptionKind::size},
      {.name = "download-deadline",
       .value_name = "SECONDS",
       .help = "how long all downloads of one run may take (default 1800)",
       .config_key = "download-deadline",
       .env = {"EXTDEPS_DOWNLOAD_DEADLINE"},
       .kind = OptionKind::seconds,
       .min_seconds = 1},
      {.name = "allow-insecure-http",
       .value_name = "1|0",
       .help = "fetch plain http URLs (https only by default)",
       .config_key = "allow-insecure-http",
       .env = {"EXTDEPS_ALLOW_INSECURE_HTTP"},
       .kind = OptionKind::flag},
      {.name = "system",
       .value_name = "ID[:VERSION]",
       .help = "plan for this system instead of the machine's: an os-release ID and VERSION_ID (rocky:9, "
               "linuxmint:22) or macos:VERSION",
       .config_key = "system",
       .env = {"EXTDEPS_OVERRIDE_OS"}},
      {.name = "use-mapping",
       .value_name = "[ECOSYSTEM=]FILE",
       .help = "use this mapping table (.toml) or PEP 804 mapping file (.json) instead of the ecosystem's own "
               "(--use-mapping)",
       .list = true,
       .config_key = "use-mapping",
       .env = {"EXTDEPS_USE_MAPPING"},
       .env_separators = ","},
      {.name = "patch-mapping",
       .value_name = "[ECOSYSTEM=]FILE",
       .help = "replace the ecosystem table's entries this mapping file names, add the others (--patch-mapping)",
       .list = true,
       .config_key = "patch-mapping",
       .env = {"EXTDEPS_PATCH_MAPPING"},
       .env_separators = ","},
      {.name = "extend-mapping",
       .value_name = "[ECOSYSTEM=]FILE",
       .help = "add this mapping file's packages after the ecosystem table's own, as more alternatives "
               "(--extend-mapping)",
       .list = true,
       .config_key = "extend-mapping",
       .env = {"EXTDEPS_EXTEND_MAPPING"},
       .env_separators = ","},
      {.name = "python-version",
       .value_name = "X.Y[.Z]",
       .help = "the Python version markers are evaluated for, instead of python3's on PATH",
       .config_key = "python-version",
       .env = {"EXTDEPS_PYTHON_VERSION"}},
  };
  return options;
}

std::vector<Variable> variables() {
  std::vector<Variable> out;
  std::set<std::string, std::less<>> seen;
  auto add = [&](std::string_view name, std::string_view owner, std::string_view setting, std::string_view help) {
    if (seen.insert(std::string(name)).second)
      out.push_back({std::string(name), std::string(owner), std::string(setting), std::string(help)});
  };
  for (const auto& o : core_options())
    for (auto var : o.env) add(var, "core", o.name, o.help);
  for (const auto& p : kCorePlain) add(p.name, "core", "", p.help);
  for (const ProviderDescriptor* d : provider_descriptors()) {
    for (const auto& o : d->options)
      for (auto var : o.env) add(var, d->name, o.name, o.help);
    for (const auto& f : d->fact_overrides) {
      std::string ours = "EXTDEPS_OVERRIDE_";
      for (char c : f.fact) ours += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      add(f.variable, d->name, "", "honoured as " + ours + " (which wins when both are set)");
    }
    for (auto var : d->reads_env) add(var, d->name, "", "");
  }
  return out;
}

bool is_registered(std::string_view name) {
  for (const auto& v : variables()) {
    if (v.name == name) return true;
    if (v.name.ends_with('*') && name.starts_with(std::string_view(v.name).substr(0, v.name.size() - 1))) return true;
  }
  return false;
}

}  // namespace extdeps::config
