#include "core/cli/config_command.h"
#include "core/cli/fail.h"

#include <ostream>

#include "core/config/config.h"
#include "core/config/variables.h"
#include "core/declare/declare.h"
#include "core/json/document.h"
#include "core/util/printable.h"
#include "core/util/text.h"

namespace extdeps::cli {

namespace {

struct Line {
  std::string name;
  std::vector<std::string> values;
  bool list = false;
  std::string from;
};

std::vector<Line> settings_lines(const config::Settings& s) {
  std::vector<Line> out;
  if (s.managers) out.push_back({"managers", *s.managers, true, s.managers_from});
  if (s.mapping_dirs) out.push_back({"mapping-dirs", *s.mapping_dirs, true, s.mapping_dirs_from});
  if (s.root) out.push_back({"root", {*s.root}, false, s.root_from});
  for (const auto& o : config::core_options())
    if (auto it = s.core_options.find(o.name); it != s.core_options.end())
      out.push_back({std::string(o.name), it->second.values, false, it->second.from});
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& o : d->options)
      if (auto it = s.provider_options.find(o.name); it != s.provider_options.end())
        out.push_back({std::string(o.name), it->second.values, o.list, it->second.from});
  return out;
}

}  // namespace

int cmd_config(Context& ctx, const std::string& path, bool variables, bool json, std::ostream& out, std::ostream& err) {
  nlohmann::json j = nlohmann::json::object();
  if (variables) {
    nlohmann::json all = nlohmann::json::array();
    std::size_t width = 0;
    const auto vars = config::variables();
    for (const auto& v : vars) width = std::max(width, v.name.size());
    for (const auto& v : vars) {
      const bool family = v.name.ends_with('*');
      std::optional<std::string> value = family ? std::nullopt : ctx.env(v.name);
      if (json) {
        all.push_back({{"name", v.name},
                       {"owner", v.owner},
                       {"setting", v.setting.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.setting)},
                       {"help", v.help},
                       {"value", value ? nlohmann::json(*value) : nlohmann::json(nullptr)}});
        continue;
      }
      out << v.name << std::string(width + 2 - v.name.size(), ' ') << v.owner;
      if (!v.setting.empty()) out << " (" << v.setting << ")";
      if (!v.help.empty()) out << ": " << v.help;
      if (value) out << " [set: " << printable_text(shorten(*value, 80)) << "]";
      out << '\n';
    }
    if (json) out << json::dump(nlohmann::json{{"variables", all}}, 2) << '\n';
    return 0;
  }

  std::string declaration;
  if (!path.empty()) {
    auto found = declare::find_declaration(path);
    if (!found.ok()) return fail(err, found.error(), json ? &out : nullptr);
    declaration = *found;
  }
  auto settings = config::load(ctx, declaration, {});
  if (!settings.ok()) return fail(err, settings.error(), json ? &out : nullptr);
  const auto lines = settings_lines(*settings);
  if (json) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& l : lines) {
      nlohmann::json value = l.list ? nlohmann::json(l.values) : nlohmann::json(l.values.empty() ? "" : l.values[0]);
      all.push_back({{"name", l.name}, {"value", value}, {"from", l.from}});
    }
    j["declaration"] = declaration.empty() ? nlohmann::json(nullptr) : nlohmann::json(declaration);
    j["user_config"] = config::user_config_path(ctx);
    j["settings"] = all;
    out << json::dump(j, 2) << '\n';
    return 0;
  }
  out << "# project: " << (declaration.empty() ? "none" : declaration) << '\n';
  out << "# user configuration: " << config::user_config_path(ctx) << '\n';
  if (lines.empty()) out << "# nothing is set: every setting has its default\n";
  for (const auto& l : lines) {
    std::string value;
    for (const auto& v : l.values) value += (value.empty() ? "" : ", ") + v;
    std::string text = l.name + " = " + printable_text(value);
    out << text << std::string(text.size() < 40 ? 40 - text.size() : 1, ' ') << "# " << l.from << '\n';
  }
  return 0;
}

}  // namespace extdeps::cli
