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
    // What a descriptor names, each with a detail: {NAME: detail} in JSON, "NAME (detail)" in text.
    struct Named {
      nlohmann::json json = nlohmann::json::object();
      std::vector<std::string> text;
      void add(std::string_view name, const std::string& detail, nlohmann::json value) {
        json[std::string(name)] = std::move(value);
        text.push_back(std::string(name) + " (" + detail + ")");
      }
    } facts, systems, formats, files;
    for (const auto& f : d->fact_overrides) facts.add(f.variable, std::string(f.fact), std::string(f.fact));
    for (const auto& sys : d->derived_systems)
      systems.add(sys.id, "like " + joined(sys.like), std::vector<std::string>(sys.like.begin(), sys.like.end()));
    for (const auto& f : d->host_formats) formats.add(f.name, std::string(f.help), std::string(f.help));
    for (const auto& f : d->environment_formats) files.add(f.name, std::string(f.help), std::string(f.help));
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
                   {"fact_variables", facts.json},
                   {"derived_systems", systems.json},
                   {"host_formats", formats.json},
                   {"environment_formats", files.json},
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
    if (!facts.text.empty()) out << "  host facts from: " << joined(facts.text) << '\n';
    if (!systems.text.empty()) out << "  systems: " << joined(systems.text) << '\n';
    if (!formats.text.empty()) out << "  detect --format: " << joined(formats.text) << '\n';
    if (!files.text.empty()) out << "  resolve --format: " << joined(files.text) << '\n';
    if (!d->plugin_path.empty()) out << "  plugin: " << d->plugin_path << '\n';
  }
  if (json) out << extdeps::json::dump(all, 2) << '\n';
  return 0;
}

}  // namespace extdeps::cli
