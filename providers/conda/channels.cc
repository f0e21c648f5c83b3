// Channels and subdirs. The .condarc reader is line-based on purpose: extdeps needs two keys of
// a YAML file, and a YAML library for that would be the largest dependency of the provider.
#include "providers/conda/channels.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/detect/os_release.h"
#include "core/util/regular_file.h"

namespace extdeps::conda {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (is_blank(s.front()) || s.front() == '\r' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (is_blank(s.back()) || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

bool has_scheme(std::string_view s) {
  return s.starts_with("https://") || s.starts_with("http://") || s.starts_with("file://");
}

std::string without_trailing_slashes(std::string_view s) {
  while (s.size() > 1 && s.back() == '/' && !s.ends_with("://")) s.remove_suffix(1);
  return std::string(s);
}

// A channel name: letters, digits and . _ - /, no empty or ".." segment ("conda-forge",
// "bioconda/label/dev").
bool valid_name(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.back() == '/') return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-' && c != '/') return false;
  size_t start = 0;
  while (start <= name.size()) {
    size_t slash = name.find('/', start);
    std::string_view seg = name.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (seg.empty() || seg == "." || seg == "..") return false;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return true;
}

// ---- .condarc ---------------------------------------------------------------------------------

class CondarcParser {
 public:
  CondarcParser(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  Result<CondaRc> parse() {
    enum class Block { none, channels, other } block = Block::none;
    size_t line_no = 0;
    for (size_t at = 0; at <= text_.size();) {
      size_t nl = text_.find('\n', at);
      if (nl == std::string_view::npos) nl = text_.size();
      std::string_view raw = text_.substr(at, nl - at);
      at = nl + 1;
      ++line_no;
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      line_start_ = raw.data();
      std::string_view line = raw.substr(0, comment_start(raw));
      size_t indent = 0;
      while (indent < line.size() && is_blank(line[indent])) ++indent;
      std::string_view content = trim(line.substr(indent));
      if (content.empty()) continue;
      size_t col = indent + 1;
      if (indent == 0 && (content == "---" || content == "...")) {
        block = Block::none;
        continue;
      }
      bool tab = line.substr(0, indent).find('\t') != std::string_view::npos;
      bool item = content == "-" || content.starts_with("- ");
      if (indent > 0 || item) {
        if (block == Block::other) continue;
        if (tab) return error(line_no, 1, "tab in the indentation", "spaces, as YAML requires");
        if (block == Block::none) return error(line_no, col, "indented line outside any key", "'key: value' before it");
        if (!item) return error(line_no, col, "'" + std::string(content) + "' under channels", "'- name'");
        std::string_view value = trim(content.substr(1));
        if (value.empty()) return error(line_no, col, "empty channel entry", "'- name'");
        auto name = scalar(value, line_no);
        if (!name) return name.error();
        rc_.channels->push_back(std::move(*name));
        continue;
      }
      if (tab) return error(line_no, 1, "tab in the indentation", "spaces, as YAML requires");
      size_t colon = key_end(content);
      if (colon == std::string_view::npos)
        return error(line_no, col, "'" + std::string(content) + "' is not a 'key: value' line");
      std::string_view key = trim(content.substr(0, colon));
      std::string_view value = trim(content.substr(colon + 1));
      block = Block::other;
      if (key == "channels") {
        rc_.channels.emplace();  // a repeated key replaces the earlier list, as in YAML loaders
        if (value.empty()) {
          block = Block::channels;
        } else if (value.front() == '[') {
          if (auto r = flow_list(value, line_no); !r) return r.error();
        } else {
          return error(line_no, column(value), "channels is '" + std::string(value) + "', not a list",
                       "'- name' lines below it, or [name, ...]");
        }
      } else if (key == "channel_alias") {
        if (value.empty()) return error(line_no, col, "channel_alias has no value", "a URL");
        auto alias = scalar(value, line_no);
        if (!alias) return alias.error();
        rc_.channel_alias = std::move(*alias);
      }
    }
    return std::move(rc_);
  }

 private:
  // The 1-based column of a part of the current line.
  size_t column(std::string_view part) const { return static_cast<size_t>(part.data() - line_start_) + 1; }

  Error error(size_t line, size_t col, std::string what, std::string expected = {}) const {
    return error_at(ExitCode::bad_input, path_ + ":" + std::to_string(line) + ":" + std::to_string(col),
                    std::move(what), std::move(expected));
  }

  // Where a comment starts: '#' at the start or after a blank, outside quotes.
  static size_t comment_start(std::string_view line) {
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        if (i == 0 || is_blank(line[i - 1]) || line[i - 1] == '[' || line[i - 1] == ',' || line[i - 1] == '-' ||
            line[i - 1] == ':')
          quote = c;
      } else if (c == '#' && (i == 0 || is_blank(line[i - 1]))) {
        return i;
      }
    }
    return line.size();
  }

  // The ':' that ends a mapping key: followed by a blank or the end of the line.
  static size_t key_end(std::string_view content) {
    for (size_t i = 0; i < content.size(); ++i)
      if (content[i] == ':' && (i + 1 == content.size() || is_blank(content[i + 1]))) return i;
    return std::string_view::npos;
  }

  // A plain, 'single' or "double" quoted scalar.
  Result<std::string> scalar(std::string_view value, size_t line) const {
    size_t col = column(value);
    char q = value.front();
    if (q != '\'' && q != '"') {
      if (q == '[' || q == '{' || q == '&' || q == '*' || q == '|' || q == '>')
        return error(line, col, "'" + std::string(value) + "' is not a plain name", "a name or a URL");
      return std::string(value);
    }
    std::string out;
    for (size_t i = 1; i < value.size(); ++i) {
      char c = value[i];
      if (c == q) {
        if (q == '\'' && i + 1 < value.size() && value[i + 1] == '\'') {
          out += '\'';
          ++i;
          continue;
        }
        if (!trim(value.substr(i + 1)).empty())
          return error(line, col + i + 1, "text after the closing quote", "nothing more");
        return out;
      }
      if (q == '"' && c == '\\' && i + 1 < value.size()) c = value[++i];
      out += c;
    }
    return error(line, col, "unterminated quoted string", "a closing " + std::string(1, q));
  }

  // "[a, 'b', c]" on one line.
  Result<void> flow_list(std::string_view value, size_t line) {
    if (value.back() != ']')
      return error(line, column(value), "channels list does not end with ']' on its line", "[name, ...]");
    std::string_view inner = value.substr(1, value.size() - 2);
    if (trim(inner).empty()) return {};
    size_t start = 0;
    char quote = 0;
    for (size_t i = 0; i <= inner.size(); ++i) {
      if (i < inner.size()) {
        char c = inner[i];
        if (quote) {
          if (c == quote) quote = 0;
          continue;
        }
        if (c == '\'' || c == '"') {
          quote = c;
          continue;
        }
        if (c != ',') continue;
      }
      std::string_view item = trim(inner.substr(start, i - start));
      if (item.empty()) {
        if (i >= inner.size() && start > 0) break;  // a trailing comma
        return error(line, column(inner) + start, "empty channel entry", "[name, ...]");
      }
      auto name = scalar(item, line);
      if (!name) return name.error();
      rc_.channels->push_back(std::move(*name));
      start = i + 1;
    }
    return {};
  }

  std::string_view text_;
  const std::string& path_;
  const char* line_start_ = nullptr;
  CondaRc rc_;
};

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ',' || is_blank(text[i]) || text[i] == '\n')) ++i;
    size_t start = i;
    while (i < text.size() && text[i] != ',' && !is_blank(text[i]) && text[i] != '\n') ++i;
    if (i > start) out.emplace_back(text.substr(start, i - start));
  }
  return out;
}

Result<std::vector<Channel>> resolve_all(const std::vector<std::string>& names, std::string_view alias,
                                         const std::string& source) {
  std::vector<Channel> out;
  for (const auto& n : names) {
    auto resolved = resolve_channel(n, alias);
    if (!resolved) {
      Error e = at_place(resolved.error(), source);
      e.from = source;  // the setting (a variable, a flag, a .condarc line) that named the channel
      return e;
    }
    for (auto& c : *resolved) {
      bool seen = false;
      for (const auto& o : out) seen = seen || o.url == c.url;
      if (!seen) out.push_back(std::move(c));
    }
  }
  return out;
}

std::string machine_family(std::string_view m) {
  if (m == "x86_64" || m == "amd64" || m == "AMD64" || m == "x64") return "64";
  if (m == "i386" || m == "i486" || m == "i586" || m == "i686" || m == "x86") return "32";
  if (m == "aarch64" || m == "arm64" || m == "ARM64") return "aarch64";
  if (m == "ppc64le" || m == "ppc64el") return "ppc64le";
  if (m == "s390x") return "s390x";
  if (m == "armv7l" || m == "armhf") return "armv7l";
  if (m == "armv6l") return "armv6l";
  if (m == "riscv64") return "riscv64";
  return "";
}

}  // namespace

Result<std::vector<Channel>> resolve_channel(std::string_view text, std::string_view alias) {
  std::string_view t = trim(text);
  if (t == "defaults")
    return std::vector<Channel>{{"https://repo.anaconda.com/pkgs/main", "https://repo.anaconda.com/pkgs/main"},
                                {"https://repo.anaconda.com/pkgs/r", "https://repo.anaconda.com/pkgs/r"}};
  if (has_scheme(t) && t.find_first_of(" \t") == std::string_view::npos && t.size() > t.find("://") + 3) {
    std::string url = without_trailing_slashes(t);
    return std::vector<Channel>{{url, url}};
  }
  if (t.starts_with("/") && t.find_first_of(" \t") == std::string_view::npos && t.size() > 1) {
    std::string path = without_trailing_slashes(t);
    return std::vector<Channel>{{path, "file://" + path}};
  }
  if (!valid_name(t))
    return error_at(ExitCode::bad_input, "", "invalid conda channel '" + std::string(text) + "'",
                    "a name such as conda-forge, or a URL");
  return std::vector<Channel>{{std::string(t), without_trailing_slashes(alias) + "/" + std::string(t)}};
}

Result<CondaRc> parse_condarc(std::string_view text, const std::string& path) {
  return CondarcParser(text, path).parse();
}

Result<std::optional<CondaRc>> read_condarc(const std::string& path) {
  // A FIFO or a device is an error, never a wait (docs/limits.md); an absent file is no file.
  auto text = read_regular_file_if_present(path, std::size_t{1} << 20, Links::follow);
  if (!text) return text.error();
  if (!*text) return std::optional<CondaRc>{};
  auto rc = parse_condarc(**text, path);
  if (!rc) return rc.error();
  return std::optional<CondaRc>{std::move(*rc)};
}

Result<ChannelConfig> channel_config(const Context& ctx, const OptionValue* chosen) {
  ChannelConfig config;
  config.channel_alias = std::string(kDefaultChannelAlias);
  std::vector<std::string> files;
  if (auto prefix = ctx.env("CONDA_PREFIX"); prefix && !prefix->empty()) files.push_back(*prefix + "/.condarc");
  if (auto home = ctx.env("HOME"); home && !home->empty()) files.push_back(*home + "/.condarc");
  std::optional<std::vector<std::string>> rc_channels;
  std::string rc_source;
  bool alias_set = false;
  for (const auto& f : files) {
    auto rc = read_condarc(f);
    if (!rc) return rc.error();
    if (!*rc) continue;
    if (!rc_channels && (*rc)->channels) {
      rc_channels = (*rc)->channels;
      rc_source = f;
    }
    if (!alias_set && (*rc)->channel_alias) {
      config.channel_alias = *(*rc)->channel_alias;
      alias_set = true;
    }
  }

  std::vector<std::string> names;
  if (chosen)  // one value may hold several names, split on blanks and commas
    for (const auto& v : chosen->values)
      for (auto& n : split_list(v)) names.push_back(std::move(n));
  if (!names.empty()) {
    config.source = chosen->from.empty() ? "[tool.extdeps] conda-channels" : chosen->from;
  } else if (rc_channels && !rc_channels->empty()) {
    names = *rc_channels;
    config.source = rc_source;
  } else {
    names = {std::string(kDefaultChannel)};
    config.source = "the default (conda-forge)";
  }
  auto channels = resolve_all(names, config.channel_alias, config.source);
  if (!channels) return channels.error();
  config.channels = std::move(*channels);
  return config;
}

std::optional<std::string> subdir_for(std::string_view system, std::string_view machine) {
  std::string family = machine_family(machine);
  if (family.empty()) return std::nullopt;
  if (system == "Linux") return "linux-" + family;
  if (system == "Darwin") {
    if (family == "64" || family == "aarch64") return family == "64" ? "osx-64" : "osx-arm64";
    return std::nullopt;
  }
  if (system == "Windows") {
    if (family == "64" || family == "32") return "win-" + family;
    if (family == "aarch64") return "win-arm64";
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> host_subdir(const detect::HostFacts& facts) { return subdir_for("Linux", facts.machine); }

std::optional<std::string> native_subdir(const Context& ctx) {
  if (auto s = ctx.env("CONDA_SUBDIR"); s && !s->empty()) return *s;
#if defined(__APPLE__)
  constexpr std::string_view kSystem = "Darwin";
#elif defined(_WIN32)
  constexpr std::string_view kSystem = "Windows";
#else
  constexpr std::string_view kSystem = "Linux";
#endif
  return subdir_for(kSystem, detect::machine(ctx));
}

std::vector<std::string> subdirs_for(const std::string& native) {
  if (native.empty() || native == "noarch") return {"noarch"};
  return {native, "noarch"};
}

std::vector<RepodataLocation> repodata_locations(const std::vector<Channel>& channels,
                                                 const std::vector<std::string>& subdirs) {
  std::vector<RepodataLocation> out;
  for (const auto& c : channels) {
    for (const auto& s : subdirs) {
      RepodataLocation loc{c, s, c.url + "/" + s + "/", {}};
      loc.urls = {loc.folder + "repodata.json.zst", loc.folder + "repodata.json"};
      out.push_back(std::move(loc));
    }
  }
  return out;
}

}  // namespace extdeps::conda
