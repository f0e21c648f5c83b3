#include "core/config/config.h"
#include "core/config/values.h"
#include "core/config/variables.h"
#include "core/fetch/options.h"
#include "core/util/text.h"
#include "core/util/toml_depth.h"
#include "core/util/toml_once.h"

#include <sys/stat.h>

#include <toml++/toml.h>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace extdeps::config {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  append_split(s, sep, out);
  return out;
}

// The provider option a configuration file sets with `key` (conda-channels); null when none.
const ProviderOption* option_for_key(std::string_view key) {
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& o : d->options)
      if (!o.config_key.empty() && o.config_key == key) return &o;
  return nullptr;
}

// A one-value setting as text: a string, or a number or boolean written as one (timeout = 30,
// offline = true).
std::optional<std::string> scalar_text(const toml::node& node) {
  if (auto s = node.value<std::string>()) return s;
  if (node.is_integer()) return std::to_string(*node.value<std::int64_t>());
  if (node.is_floating_point()) {
    std::string t = std::to_string(*node.value<double>());
    while (t.size() > 1 && t.back() == '0') t.pop_back();
    if (t.back() == '.') t.pop_back();
    return t;
  }
  if (auto b = node.value<bool>()) return std::string(*b ? "1" : "0");
  return std::nullopt;
}

// Core's option a configuration file sets with `key` (plugin-timeout); null when none.
const ProviderOption* core_option_for_key(std::string_view key) {
  for (const auto& o : core_options())
    if (o.config_key == key) return &o;
  return nullptr;
}

std::string where(const std::string& path, const toml::node& n) {
  const auto& src = n.source();
  return path + ":" + std::to_string(src.begin.line) + ":" + std::to_string(src.begin.column);
}

// A bad value in a configuration file, at its place.
Error at(const std::string& path, const toml::node& n, const std::string& what) {
  return error_at(ExitCode::bad_input, where(path, n), what);
}

Result<std::vector<std::string>> string_list(const std::string& path, const toml::node& n, std::string_view key) {
  const toml::array* arr = n.as_array();
  if (!arr) return at(path, n, "'" + std::string(key) + "' must be an array of strings");
  std::vector<std::string> out;
  for (const auto& item : *arr) {
    auto s = item.value<std::string>();
    if (!s) return at(path, item, "'" + std::string(key) + "' must be an array of strings");
    out.push_back(*s);
  }
  return out;
}

// An option's value as a file gives it, checked against its kind: a list an array of strings,
// one value a string, or a number or boolean written as one.
Result<OptionValue> file_value(const std::string& path, const toml::node& node, const ProviderOption& option) {
  OptionValue v;
  v.from = where(path, node);
  if (option.list) {
    auto items = string_list(path, node, option.config_key);
    if (!items.ok()) return items.error();
    v.values = std::move(*items);
  } else {
    auto one = scalar_text(node);
    if (!one)
      return at(path, node,
                "'" + std::string(option.config_key) + "' must be " +
                    (option.value_name.empty() ? std::string("a string") : std::string(option.value_name)));
    v.values.push_back(std::move(*one));
  }
  if (auto checked = check_option_value(option, v, std::filesystem::path(path).parent_path().string()); !checked.ok())
    return checked.error();
  return v;
}

}  // namespace

Result<Settings> read_file(const std::string& path, bool under_tool_table) {
  Settings s;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return s;
  std::ifstream in(path, std::ios::binary);
  if (!in) return error_at(ExitCode::bad_input, path, "cannot read the configuration file");
  std::stringstream text;
  text << in.rdbuf();
  if (auto deep = toml_too_deep(text.view(), path)) return *deep;
  std::shared_ptr<const toml::table> parsed;
  try {
    parsed = parse_toml_once(text.view(), path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    return error_at(ExitCode::bad_input, path + ":" + std::to_string(b.line) + ":" + std::to_string(b.column),
                    lower_first(e.description()));
  }
  const toml::table& doc = *parsed;
  const toml::table* t = &doc;
  if (under_tool_table) {
    t = doc["tool"]["extdeps"].as_table();
    if (!t) return s;
  }
  for (const auto& [key, node] : *t) {
    if (key == "managers") {
      auto v = string_list(path, node, key.str());
      if (!v.ok()) return v.error();
      s.managers = *v;
      s.managers_from = where(path, node);
    } else if (key == "mapping-dirs") {
      auto v = string_list(path, node, key.str());
      if (!v.ok()) return v.error();
      // A relative folder is relative to the file that names it, not to where extdeps runs.
      std::string base = std::filesystem::path(path).parent_path().string();
      for (auto& d : *v)
        if (!d.empty() && d.front() != '/' && !base.empty()) d = base + "/" + d;
      s.mapping_dirs = *v;
      s.mapping_dirs_from = where(path, node);
    } else if (const ProviderOption* core = core_option_for_key(key.str())) {
      auto v = file_value(path, node, *core);
      if (!v.ok()) return v.error();
      s.core_options[std::string(core->name)] = std::move(*v);
    } else if (const ProviderOption* option = option_for_key(key.str())) {
      auto v = file_value(path, node, *option);
      if (!v.ok()) return v.error();
      s.provider_options[std::string(option->name)] = std::move(*v);
    } else if (key == "root") {
      auto r = node.value<std::string>();
      if (!r || r->empty()) return at(path, node, "'root' must be a folder");
      std::string base = std::filesystem::path(path).parent_path().string();
      s.root = r->front() != '/' && !base.empty() ? base + "/" + *r : *r;
      s.root_from = where(path, node);
    } else if (key == "build-backend") {
      // read by the Python build hook, not by the resolver
    } else if (key == "extdeps-required" || key == "external-metadata") {
      // read by the Python build hook (hooks/python/README.md), not by the resolver
      if (!node.value<bool>()) return at(path, node, "'" + std::string(key.str()) + "' must be true or false");
    } else {
      std::string known = "managers, mapping-dirs";
      for (const auto& o : core_options()) known += ", " + std::string(o.config_key);
      for (const ProviderDescriptor* d : provider_descriptors())
        for (const auto& o : d->options)
          if (!o.config_key.empty()) known += ", " + std::string(o.config_key);
      Error e =
          at(path, node, "unknown configuration key '" + std::string(key.str()) + "' (known: " + known + ", root)");
      e.what = "unknown configuration key '" + std::string(key.str()) + "'";
      e.expected = "one of " + known + ", root";
      return e;
    }
  }
  return s;
}

std::string user_config_path(const Context& ctx) {
  if (auto x = ctx.env("XDG_CONFIG_HOME"); x && !x->empty()) return *x + "/extdeps/config.toml";
  if (auto h = ctx.env("HOME"); h && !h->empty()) return *h + "/.config/extdeps/config.toml";
  return {};
}

Result<Settings> load(const Context& ctx, const std::string& declaration_path, const Settings& cli) {
  Settings out;
  // A value set at a level replaces the lower level's, with where it came from.
  auto take = [](const auto& value, const std::string& from, auto& into, std::string& into_from) {
    if (!value) return;
    into = value;
    into_from = from;
  };
  auto apply = [&](const Settings& s) {
    take(s.managers, s.managers_from, out.managers, out.managers_from);
    take(s.mapping_dirs, s.mapping_dirs_from, out.mapping_dirs, out.mapping_dirs_from);
    for (const auto& [name, value] : s.provider_options) out.provider_options[name] = value;
    for (const auto& [name, value] : s.core_options) out.core_options[name] = value;
    take(s.root, s.root_from, out.root, out.root_from);
  };
  if (auto user = user_config_path(ctx); !user.empty()) {
    auto u = read_file(user, false);
    if (!u.ok()) return u.error();
    apply(*u);
  }
  if (!declaration_path.empty()) {
    auto p = read_file(declaration_path, true);
    if (!p.ok()) return p.error();
    apply(*p);
  }
  Settings env;
  if (auto m = ctx.env("EXTDEPS_MANAGERS"); m && !m->empty()) {
    env.managers = split(*m, ',');
    env.managers_from = "EXTDEPS_MANAGERS";
  }
  if (auto d = ctx.env("EXTDEPS_MAPPING_DIRS"); d && !d->empty()) {
    env.mapping_dirs = split(*d, ':');
    env.mapping_dirs_from = "EXTDEPS_MAPPING_DIRS";
  }
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& o : d->options)
      if (auto v = from_environment(ctx, o)) env.provider_options[std::string(o.name)] = std::move(*v);
  for (const auto& o : core_options())
    if (auto v = from_environment(ctx, o)) env.core_options[std::string(o.name)] = std::move(*v);
  apply(env);
  apply(cli);
  // Each option's value as it is decided, checked once against its kind, so that a reader takes
  // it as it is. A file's were checked as it was read (then relative to it); the check does not
  // change a checked value. A bad variable that a flag overrides is not in the way.
  for (auto* values : {&out.provider_options, &out.core_options})
    for (auto& [name, v] : *values)
      if (const ProviderOption* o = find_option(name))
        if (auto checked = check_option_value(*o, v); !checked.ok()) return checked.error();
  return out;
}

void apply_to(Context& ctx, const Settings& settings) {
  Context::Options options = settings.core_options;
  for (const auto& [name, v] : settings.provider_options) options[name] = v;
  ctx.set_options(std::move(options));
}

}  // namespace extdeps::config
