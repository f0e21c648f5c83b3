#include "core/config/values.h"

#include "core/config/variables.h"
#include "core/fetch/options.h"

namespace extdeps::config {

namespace {

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

// The first value, read by `parse`; the check already made sure it reads.
template <class T, class Parse>
Result<std::optional<T>> first(const Context& ctx, std::string_view name, Parse parse) {
  auto v = value(ctx, name);
  if (!v.ok()) return v.error();
  if (!*v || (*v)->values.empty()) return std::optional<T>();
  return std::optional<T>(parse((*v)->values.front()));
}

}  // namespace

const ProviderOption* find_option(std::string_view name) {
  for (const auto& o : core_options())
    if (o.name == name) return &o;
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& o : d->options)
      if (o.name == name) return &o;
  return nullptr;
}

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

Result<std::optional<OptionValue>> value(const Context& ctx, std::string_view name) {
  if (const Context::Options* resolved = ctx.options()) {
    auto it = resolved->find(name);
    if (it == resolved->end()) return std::optional<OptionValue>();
    return std::optional<OptionValue>(it->second);
  }
  const ProviderOption* o = find_option(name);
  if (!o) return std::optional<OptionValue>();
  auto v = from_environment(ctx, *o);
  if (v)
    if (auto checked = check_option_value(*o, *v); !checked.ok()) return checked.error();
  return v;
}

Result<std::optional<std::string>> text(const Context& ctx, std::string_view name) {
  return first<std::string>(ctx, name, [](const std::string& v) { return v; });
}

Result<std::optional<double>> seconds(const Context& ctx, std::string_view name) {
  return first<double>(ctx, name, [](const std::string& v) { return parse_seconds(v).value_or(0); });
}

Result<std::optional<std::uint64_t>> size(const Context& ctx, std::string_view name) {
  return first<std::uint64_t>(ctx, name, [](const std::string& v) { return fetch::parse_size(v).value_or(0); });
}

Result<std::optional<bool>> flag(const Context& ctx, std::string_view name) {
  return first<bool>(ctx, name, [](const std::string& v) { return v == "1"; });
}

}  // namespace extdeps::config
