#include "core/cli/providers_command.h"

#include <ostream>

#include "core/json/document.h"
#include "core/provider/descriptor.h"
#include "core/version/version.h"

namespace extdeps::cli {

namespace {

template <typename Strings>
std::string joined(const Strings& items) {
  std::string out;
  for (auto x : items) out += (out.empty() ? "" : ", ") + std::string(x);
  return out;
}

}  // namespace

int cmd_providers(bool json, std::ostream& out) {
  nlohmann::json all = nlohmann::json::array();
  for (const ProviderDescriptor* d : provider_descriptors()) {
    nlohmann::json options = nlohmann::json::array();
    for (const auto& o : d->options) {
      nlohmann::json oj{{"name", o.name}, {"flag", "--" + std::string(o.name)}, {"help", o.help}, {"list", o.list}};
      oj["config_key"] = o.config_key.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.config_key);
      oj["env"] = nlohmann::json::array();
      for (auto e : o.env) oj["env"].push_back(e);
      options.push_back(std::move(oj));
    }
    nlohmann::json reads = nlohmann::json::array();
    for (auto e : d->reads_env) reads.push_back(e);
    nlohmann::json facts = nlohmann::json::object();
    std::vector<std::string> fact_text;
    for (const auto& f : d->fact_overrides) {
      facts[std::string(f.variable)] = std::string(f.fact);
      fact_text.push_back(std::string(f.variable) + " (" + std::string(f.fact) + ")");
    }
    nlohmann::json systems = nlohmann::json::object();
    std::vector<std::string> system_text;
    for (const auto& sys : d->derived_systems) {
      systems[std::string(sys.id)] = std::vector<std::string>(sys.like.begin(), sys.like.end());
      system_text.push_back(std::string(sys.id) + " (like " + joined(sys.like) + ")");
    }
    nlohmann::json formats = nlohmann::json::object();
    std::vector<std::string> format_text;
    for (const auto& f : d->host_formats) {
      formats[std::string(f.name)] = std::string(f.help);
      format_text.push_back(std::string(f.name) + " (" + std::string(f.help) + ")");
    }
    nlohmann::json aliases = nlohmann::json::array();
    for (auto a : d->manager_aliases) aliases.push_back(a);
    all.push_back({{"name", d->name},
                   {"ecosystem", d->ecosystem},
                   {"manager", d->manager.empty() ? nlohmann::json(nullptr) : nlohmann::json(d->manager)},
                   {"manager_aliases", aliases},
                   {"scheme", d->scheme->name},
                   {"summary", d->summary},
                   {"options", options},
                   {"reads_env", reads},
                   {"fact_variables", facts},
                   {"derived_systems", systems},
                   {"host_formats", formats},
                   {"verifies_tables", d->verify_index != nullptr},
                   {"plugin", d->plugin_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(d->plugin_path)}});
    if (json) continue;
    out << d->name << ": " << d->summary << '\n';
    out << "  table: " << d->ecosystem
        << ".toml; manager: " << (d->manager.empty() ? std::string("none (a detector)") : std::string(d->manager))
        << (d->manager_aliases.empty() ? "" : " (also " + joined(d->manager_aliases) + ")")
        << "; versions: " << d->scheme->name << '\n';
    for (const auto& o : d->options) {
      out << "  --" << o.name << (o.value_name.empty() ? "" : " " + std::string(o.value_name)) << ": " << o.help
          << '\n';
      std::string from;
      if (!o.env.empty()) from += "environment " + joined(o.env);
      if (!o.config_key.empty())
        from += (from.empty() ? "" : "; ") + std::string("configuration key ") + std::string(o.config_key);
      if (!from.empty()) out << "      also from: " << from << '\n';
    }
    if (!d->reads_env.empty()) out << "  reads: " << joined(d->reads_env) << '\n';
    if (!fact_text.empty()) out << "  host facts from: " << joined(fact_text) << '\n';
    if (!system_text.empty()) out << "  systems: " << joined(system_text) << '\n';
    if (!format_text.empty()) out << "  detect --format: " << joined(format_text) << '\n';
    if (!d->plugin_path.empty()) out << "  plugin: " << d->plugin_path << '\n';
  }
  if (json) out << extdeps::json::dump(all, 2) << '\n';
  return 0;
}

}  // namespace extdeps::cli
