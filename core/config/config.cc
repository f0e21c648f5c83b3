#include "core/config/config.h"
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
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, sep)) {
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// Split on any of `separators`, dropping empty items.
std::vector<std::string> split_any(std::string_view s, std::string_view separators) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && separators.find(s[i]) != std::string_view::npos) ++i;
    std::size_t start = i;
    while (i < s.size() && separators.find(s[i]) == std::string_view::npos) ++i;
    if (i > start) out.emplace_back(s.substr(start, i - start));
  }
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

// The first of the option's variables that is set, as an OptionValue; nullopt when none is (or
// a list splits into nothing).
std::optional<OptionValue> from_environment(const Context& ctx, const ProviderOption& o) {
  for (std::string_view var : o.env) {
    auto v = ctx.env(var);
    if (!v) continue;
    std::vector<std::string> values;
    if (o.list) values = split_any(*v, o.env_separators);
    else if (!v->empty()) values.push_back(*v);
    if (values.empty()) continue;  // set to nothing: as if unset
    return OptionValue{std::move(values), std::string(var)};
  }
  return std::nullopt;
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
    } else if (key == "max-download-size" || key == "max-download-total") {
      // A size: 2147483648 or "2G".
      std::optional<std::uint64_t> size;
      if (auto i = node.value<std::int64_t>(); i && *i > 0) size = static_cast<std::uint64_t>(*i);
      else if (auto t = node.value<std::string>()) size = fetch::parse_size(*t);
      if (!size)
        return at(path, node,
                  "'" + std::string(key.str()) + "' must be a size in bytes, or a string such as \"2G\" or \"512M\"");
      (key == "max-download-size" ? s.max_download_size : s.max_download_total) = size;
      s.core_options[std::string(key.str())] = OptionValue{{std::to_string(*size)}, where(path, node)};
    } else if (key == "allow-insecure-http") {
      auto b = node.value<bool>();
      if (!b) return at(path, node, "'allow-insecure-http' must be true or false");
      s.allow_insecure_http = *b;
      s.core_options["allow-insecure-http"] = OptionValue{{*b ? "1" : "0"}, where(path, node)};
    } else if (const ProviderOption* core = core_option_for_key(key.str())) {
      std::optional<std::string> v = scalar_text(node);
      if (!v || v->empty())
        return at(path, node, "'" + std::string(key.str()) + "' must be " + std::string(core->value_name));
      s.core_options[std::string(core->name)] = OptionValue{{std::move(*v)}, where(path, node)};
    } else if (const ProviderOption* option = option_for_key(key.str())) {
      std::vector<std::string> values;
      if (option->list) {
        auto v = string_list(path, node, key.str());
        if (!v.ok()) return v.error();
        values = std::move(*v);
      } else {
        auto v = scalar_text(node);
        if (!v) return at(path, node, "'" + std::string(key.str()) + "' must be a string");
        values.push_back(std::move(*v));
      }
      s.provider_options[std::string(option->name)] = OptionValue{std::move(values), where(path, node)};
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
    // The typed download settings of the files (the engine hands them to the fetcher); their
    // text with its origin is in core_options, as resolved over the environment.
    if (s.max_download_size) out.max_download_size = s.max_download_size;
    if (s.max_download_total) out.max_download_total = s.max_download_total;
    if (s.allow_insecure_http) out.allow_insecure_http = s.allow_insecure_http;
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
  return out;
}

void apply_to(Context& ctx, const Settings& settings) {
  std::map<std::string, Context::Resolved, std::less<>> overlay;
  auto add = [&](const ProviderOption& o, const std::map<std::string, OptionValue, std::less<>>& values) {
    auto it = values.find(o.name);
    if (it == values.end() || o.list || o.env.empty() || it->second.values.empty()) return;
    overlay[std::string(o.env.front())] = {it->second.values.front(), it->second.from};
  };
  for (const auto& o : core_options()) add(o, settings.core_options);
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& o : d->options) add(o, settings.provider_options);
  ctx.set_env_overlay(std::move(overlay));
}

}  // namespace extdeps::config
