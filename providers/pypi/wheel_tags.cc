#include "providers/pypi/wheel_tags.h"

#include <algorithm>
#include <charconv>

namespace extdeps::pypi {

namespace {

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  while (true) {
    auto at = s.find(sep);
    out.emplace_back(s.substr(0, at));
    if (at == std::string_view::npos) return out;
    s.remove_prefix(at + 1);
  }
}

std::optional<int> number(std::string_view s) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// "2_17_x86_64" -> (2, 17): the two numbers after a prefix, then '_' and the arch.
std::optional<std::pair<int, int>> two_numbers(std::string_view rest) {
  auto a = rest.find('_');
  if (a == std::string_view::npos) return std::nullopt;
  auto b = rest.find('_', a + 1);
  if (b == std::string_view::npos) return std::nullopt;
  auto x = number(rest.substr(0, a)), y = number(rest.substr(a + 1, b - a - 1));
  if (!x || !y) return std::nullopt;
  return std::make_pair(*x, *y);
}

}  // namespace

Result<WheelName> parse_wheel_filename(std::string_view filename) {
  std::string name(filename);
  if (name.size() < 4 || name.substr(name.size() - 4) != ".whl")
    return error_at(ExitCode::bad_input, name, "not a wheel", "a file name ending in .whl");
  auto parts = split(std::string_view(name).substr(0, name.size() - 4), '-');
  const std::string form = "name-version[-build]-python-abi-platform.whl";
  if (parts.size() != 5 && parts.size() != 6) {
    Error e = error_at(ExitCode::bad_input, name, "expected " + form);
    e.expected = form;
    return e;
  }
  for (const auto& p : parts)
    if (p.empty()) return error_at(ExitCode::bad_input, name, "an empty part", form);
  WheelName w;
  w.distribution = parts[0];
  w.version = parts[1];
  if (parts.size() == 6) {
    if (!std::isdigit(static_cast<unsigned char>(parts[2][0])))
      return error_at(ExitCode::bad_input, name, "the build tag '" + parts[2] + "' does not start with a digit");
    w.build = parts[2];
  }
  size_t t = parts.size() - 3;
  w.python = split(parts[t], '.');
  w.abi = split(parts[t + 1], '.');
  w.platform = split(parts[t + 2], '.');
  return w;
}

std::optional<std::pair<int, int>> manylinux_glibc(std::string_view tag) {
  if (tag.starts_with("manylinux1_")) return std::make_pair(2, 5);
  if (tag.starts_with("manylinux2010_")) return std::make_pair(2, 12);
  if (tag.starts_with("manylinux2014_")) return std::make_pair(2, 17);
  if (tag.starts_with("manylinux_")) return two_numbers(tag.substr(10));
  return std::nullopt;
}

std::optional<std::pair<int, int>> musllinux_version(std::string_view tag) {
  if (tag.starts_with("musllinux_")) return two_numbers(tag.substr(10));
  return std::nullopt;
}

std::vector<std::string> compatible_tags(const TagTarget& t) {
  // Platforms, best first.
  std::vector<std::string> platforms;
  if (t.libc == "musl") {
    for (int minor = t.musl_minor; minor >= 0; --minor)
      platforms.push_back("musllinux_" + std::to_string(t.musl_major) + "_" + std::to_string(minor) + "_" + t.arch);
  } else {
    // The legacy names only exist for the architectures PEP 513/571/599 defined them for.
    bool legacy = t.arch == "x86_64" || t.arch == "i686" || t.arch == "aarch64" || t.arch == "ppc64le" ||
                  t.arch == "ppc64" || t.arch == "s390x" || t.arch == "armv7l";
    bool legacy_old = t.arch == "x86_64" || t.arch == "i686";  // manylinux1 and 2010
    // glibc 2.17 is the oldest manylinux for every architecture but x86 (2.5).
    for (int minor = 50; minor >= (legacy_old ? 5 : 17); --minor) {
      platforms.push_back("manylinux_2_" + std::to_string(minor) + "_" + t.arch);
      if (minor == 17 && legacy) platforms.push_back("manylinux2014_" + t.arch);
      if (minor == 12 && legacy_old) platforms.push_back("manylinux2010_" + t.arch);
      if (minor == 5 && legacy_old) platforms.push_back("manylinux1_" + t.arch);
    }
  }
  platforms.push_back("linux_" + t.arch);

  std::vector<std::string> out;
  auto add = [&](const std::string& py, const std::string& abi, const std::string& plat) {
    out.push_back(py + "-" + abi + "-" + plat);
  };
  const std::string impl = t.implementation + std::to_string(t.major) + std::to_string(t.minor);
  // The interpreter's own ABI, abi3 (CPython: this version and every earlier one down to 3.2),
  // then none.
  if (!t.abi.empty())
    for (const auto& p : platforms) add(impl, t.abi, p);
  if (t.abi3 && t.implementation == "cp")
    for (const auto& p : platforms) add(impl, "abi3", p);
  for (const auto& p : platforms) add(impl, "none", p);
  if (t.abi3 && t.implementation == "cp")
    for (int minor = t.minor - 1; minor >= 2; --minor)
      for (const auto& p : platforms) add("cp" + std::to_string(t.major) + std::to_string(minor), "abi3", p);
  // Then wheels for any interpreter of this Python, newest first (py312, py3, py311 ... py30):
  // for a platform, then for any.
  std::vector<std::string> pys = {"py" + std::to_string(t.major) + std::to_string(t.minor),
                                  "py" + std::to_string(t.major)};
  for (int minor = t.minor - 1; minor >= 0; --minor)
    pys.push_back("py" + std::to_string(t.major) + std::to_string(minor));
  for (const auto& py : pys)
    for (const auto& p : platforms) add(py, "none", p);
  add(impl, "none", "any");
  for (const auto& py : pys) add(py, "none", "any");
  return out;
}

TagRanker::TagRanker(const std::vector<std::string>& tags) : tags_(tags) {
  for (size_t i = 0; i < tags.size(); ++i) sorted_.emplace_back(tags[i], i);
  std::sort(sorted_.begin(), sorted_.end());
}

std::optional<std::size_t> TagRanker::rank(const WheelName& w) const {
  std::optional<std::size_t> best;
  for (const auto& py : w.python)
    for (const auto& abi : w.abi)
      for (const auto& plat : w.platform) {
        std::string tag = py + "-" + abi + "-" + plat;
        auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::make_pair(tag, std::size_t{0}));
        if (it != sorted_.end() && it->first == tag && (!best || it->second < *best)) best = it->second;
      }
  return best;
}

}  // namespace extdeps::pypi
