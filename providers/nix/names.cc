#include "providers/nix/names.h"

namespace extdeps::nix {

namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

DrvName parse_drv_name(std::string_view full) {
  for (size_t i = 0; i + 1 < full.size(); ++i)
    if (full[i] == '-' && !is_letter(full[i + 1]))
      return {std::string(full.substr(0, i)), std::string(full.substr(i + 1))};
  return {std::string(full), ""};
}

std::string_view store_path_name(std::string_view path) {
  auto slash = path.rfind('/');
  if (slash == std::string_view::npos) return path;
  std::string_view base = path.substr(slash + 1);
  // <32 characters of hash>-<name>
  auto dash = base.find('-');
  if (dash != 32) return path;
  return base.substr(dash + 1);
}

std::string_view nixpkgs_attr_path(std::string_view p) {
  for (std::string_view prefix : {"legacyPackages.", "packages."}) {
    if (p.substr(0, prefix.size()) != prefix) continue;
    std::string_view rest = p.substr(prefix.size());
    auto dot = rest.find('.');
    if (dot == std::string_view::npos) return p;
    return rest.substr(dot + 1);
  }
  return p;
}

std::string channel_of_key(std::string_view key, const std::vector<std::string>& known) {
  // The machine's names first, whole: a channel may have a dot in its name (nixos-24.05).
  for (const auto& k : known)
    if (!k.empty() && key.size() > k.size() + 1 && key.compare(0, k.size(), k) == 0 && key[k.size()] == '.') return k;
  const auto dot = key.find('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  const std::string_view first = key.substr(0, dot);
  for (std::string_view base : {"nixpkgs", "nixos"}) {
    if (first.substr(0, base.size()) != base) continue;
    if (first.size() == base.size() || first[base.size()] == '-' || first[base.size()] == '_')
      return std::string(first);
  }
  return {};
}

std::string_view package_set(std::string_view attr_path) {
  bool quoted = false;
  size_t last_dot = std::string_view::npos;
  for (size_t i = 0; i < attr_path.size(); ++i) {
    if (attr_path[i] == '"') quoted = !quoted;
    else if (attr_path[i] == '.' && !quoted) last_dot = i;
  }
  return last_dot == std::string_view::npos ? std::string_view() : attr_path.substr(0, last_dot);
}

}  // namespace extdeps::nix
