// The index reader: one pass over the top object; each attribute's fields are read as they
// come, meta's few fields that decide candidacy are read and the rest (descriptions,
// maintainers, licences) skipped.
#include "providers/nix/index.h"

#include "core/json/json_reader.h"
#include "core/util/limits.h"
#include "providers/nix/names.h"

namespace extdeps::nix {

using json::JsonKind;
using json::JsonReader;

std::string_view index_format_name(IndexFormat format) {
  switch (format) {
    case IndexFormat::nix_env: return "nix-env --json";
    case IndexFormat::packages_json: return "packages.json";
    case IndexFormat::nix_search: return "nix search --json";
  }
  return "nix-env --json";
}

std::string why_not_candidate(const Attribute& a, const Platform& platform) {
  if (a.broken.value_or(false)) return "broken";
  if (!a.available.value_or(true)) return "unavailable";
  if (!a.system.empty() && a.system != platform.system()) return "for " + a.system;
  if (!a.on_platform.value_or(true)) return "not for " + platform.system();
  return {};
}

namespace {

class IndexReader {
 public:
  IndexReader(json::ByteSource& source, const IndexOptions& options, const std::function<void(Attribute&&)>& each)
      : in_(source), options_(options), each_(each) {}

  Result<IndexSummary> read() {
    if (!read_top()) return in_.error();
    return summary_;
  }

 private:
  bool wrong(const std::string& what, JsonKind kind, std::string_view expected) {
    return in_.wrong_kind(what, kind, expected);
  }

  std::string field(std::string_view f) const { return "attribute '" + attr_.path + "': " + std::string(f); }

  bool read_top() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind != JsonKind::object)
      return wrong("the index", *kind, "an object of attributes, as nix-env -qaP --json --meta prints it");
    in_.begin_object();
    bool first = true;
    while (in_.next_key(key_)) {
      // A channel's packages.json starts with its version; nix-env's output never has an
      // attribute named so.
      if (first && key_ == "version") {
        if (!packages_json_version()) return false;
        summary_.format = IndexFormat::packages_json;
      } else if (summary_.format == IndexFormat::packages_json) {
        if (key_ != "packages") {
          if (!in_.skip_value()) return false;
        } else if (!attributes()) {
          return false;
        }
      } else {
        if (first) summary_.channel = channel_of_key(key_, options_.channels);
        if (!attribute(key_)) return false;
      }
      first = false;
    }
    return !in_.failed() && in_.expect_end();
  }

  bool packages_json_version() {
    std::uint64_t start = 0;
    std::string text;
    std::optional<std::uint64_t> value;
    if (!in_.read_count(value, text, start)) return false;
    if (value != 2u)
      return in_.fail("version is " + text + in_.at(start) +
                      " (expected 2, a packages.json as nixpkgs channels publish it; another format is not read)");
    return true;
  }

  bool attributes() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind != JsonKind::object) return wrong("packages", *kind, "an object of attributes");
    in_.begin_object();
    std::string path;
    while (in_.next_key(path))
      if (!attribute(path)) return false;
    return !in_.failed();
  }

  bool attribute(const std::string& key) {
    auto kind = in_.peek();
    if (!kind) return false;
    attr_ = Attribute{};
    attr_.path = std::string(nixpkgs_attr_path(key));
    if (!summary_.channel.empty() && attr_.path.size() > summary_.channel.size() &&
        attr_.path.compare(0, summary_.channel.size(), summary_.channel) == 0 &&
        attr_.path[summary_.channel.size()] == '.')
      attr_.path.erase(0, summary_.channel.size() + 1);
    if (key.size() > limits::kMaxNameLength)
      return in_.fail("an attribute path of " + std::to_string(key.size()) + " bytes" + in_.at(in_.offset()) +
                      " (expected at most " + std::to_string(limits::kMaxNameLength) + " bytes)");
    // A record needs a name: "" (or a flake output path that ends after the system) names none.
    if (attr_.path.empty())
      return in_.fail("attribute '" + key + "' names no attribute path" + in_.at(in_.offset()) +
                      " (expected a name like \"openssl\")");
    if (attr_.path.size() != key.size() && summary_.format == IndexFormat::nix_env)
      summary_.format = IndexFormat::nix_search;
    if (*kind != JsonKind::object)
      return wrong("attribute '" + key + "'", *kind, "an object with name, pname, version");
    in_.begin_object();
    std::string k;
    while (in_.next_key(k)) {
      bool ok = true;
      if (k == "name") ok = string(attr_.name, "name");
      else if (k == "pname") ok = string(attr_.pname, "pname");
      else if (k == "version") ok = string(attr_.version, "version");
      else if (k == "system") ok = string(attr_.system, "system");
      else if (k == "outputs") ok = outputs();
      else if (k == "meta") ok = meta();
      else ok = in_.skip_value();
      if (!ok) return false;
    }
    if (in_.failed()) return false;
    if (attr_.pname.empty() || (attr_.version.empty() && !attr_.name.empty())) {
      DrvName d = parse_drv_name(attr_.name);
      if (attr_.pname.empty()) attr_.pname = d.name;
      if (attr_.version.empty()) attr_.version = d.version;
    }
    if (attr_.pname.empty()) attr_.pname = attr_.path;
    ++summary_.attributes;
    if (options_.platform) {
      std::string why = why_not_candidate(attr_, *options_.platform);
      if (!why.empty()) {
        if (why == "broken") ++summary_.broken;
        else if (why == "unavailable") ++summary_.unavailable;
        else ++summary_.other_platform;
        if (why.rfind("for ", 0) == 0) summary_.other_system = attr_.system;
        return true;
      }
    }
    ++summary_.candidates;
    each_(std::move(attr_));
    return true;
  }

  bool string(std::string& out, std::string_view f) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind != JsonKind::string) return wrong(field(f), *kind, "a string");
    const std::uint64_t at = in_.offset();
    if (!in_.read_string(out)) return false;
    // Names and versions within docs/limits.md's bounds.
    const std::size_t most = f == "version"                ? limits::kMaxVersionLength
                             : f == "name" || f == "pname" ? limits::kMaxNameLength
                                                           : std::string::npos;
    if (out.size() > most)
      return in_.fail(field(f) + " of " + std::to_string(out.size()) + " bytes" + in_.at(at) + " (expected at most " +
                      std::to_string(most) + " bytes)");
    return true;
  }

  // {"bin": null, "dev": null} (or store paths with --out-path); a list of names elsewhere.
  bool outputs() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::object) {
      in_.begin_object();
      std::string name;
      while (in_.next_key(name)) {
        attr_.outputs.push_back(name);
        if (!in_.skip_value()) return false;
      }
      return !in_.failed();
    }
    if (*kind == JsonKind::array) {
      in_.begin_array();
      while (in_.next_element()) {
        std::string name;
        if (!string(name, "an output")) return false;
        attr_.outputs.push_back(std::move(name));
      }
      return !in_.failed();
    }
    return wrong(field("outputs"), *kind, "an object of output names");
  }

  bool boolean(std::optional<bool>& out, std::string_view f) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind != JsonKind::boolean) return wrong(field(f), *kind, "true or false");
    bool b = false;
    if (!in_.read_bool(b)) return false;
    out = b;
    return true;
  }

  bool meta() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind != JsonKind::object) return wrong(field("meta"), *kind, "an object");
    in_.begin_object();
    std::string k;
    std::optional<bool> listed, excluded;
    while (in_.next_key(k)) {
      bool ok = true;
      if (k == "available") ok = boolean(attr_.available, "meta.available");
      else if (k == "broken") ok = boolean(attr_.broken, "meta.broken");
      else if (k == "platforms") ok = platforms(listed, "meta.platforms");
      else if (k == "badPlatforms") ok = platforms(excluded, "meta.badPlatforms");
      else ok = in_.skip_value();
      if (!ok) return false;
    }
    if (excluded.value_or(false)) attr_.on_platform = false;
    else if (listed) attr_.on_platform = listed;
    return !in_.failed();
  }

  // Whether an element of the list matches the platform: true as soon as one does; false when
  // none does and none was unknown; nullopt otherwise. Without a platform, the list is skipped.
  bool platforms(std::optional<bool>& out, std::string_view f) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind != JsonKind::array) return wrong(field(f), *kind, "a list of systems or patterns");
    if (!options_.platform) return in_.skip_value();
    in_.begin_array();
    bool any = false, unknown = false;
    std::string system;
    while (in_.next_element()) {
      auto k = in_.peek();
      if (!k) return false;
      std::optional<bool> m;
      if (*k == JsonKind::string) {
        if (!in_.read_string(system)) return false;
        m = system == options_.platform->system();
      } else if (*k == JsonKind::object) {
        nlohmann::json pattern;
        if (!value(pattern, 0)) return false;
        m = options_.platform->matches(pattern);
      } else {
        return wrong(field(f) + " element", *k, "a system such as \"x86_64-linux\" or a pattern object");
      }
      if (m && *m) any = true;
      if (!m) unknown = true;
    }
    if (in_.failed()) return false;
    out = any ? std::optional<bool>(true) : unknown ? std::nullopt : std::optional<bool>(false);
    return true;
  }

  // Any value, into nlohmann's DOM (platform patterns are small and rare; a deeper one than any
  // nixpkgs writes is refused rather than recursed into).
  bool value(nlohmann::json& out, int depth) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (depth > 32)
      return in_.fail(field("a platform pattern") + " nests deeper than 32 levels" + in_.at(in_.offset()));
    std::string text;
    switch (*kind) {
      case JsonKind::object: {
        out = nlohmann::json::object();
        in_.begin_object();
        std::string k;
        while (in_.next_key(k)) {
          nlohmann::json v;
          std::string key = k;
          if (!value(v, depth + 1)) return false;
          out[key] = std::move(v);
        }
        return !in_.failed();
      }
      case JsonKind::array: {
        out = nlohmann::json::array();
        in_.begin_array();
        while (in_.next_element()) {
          nlohmann::json v;
          if (!value(v, depth + 1)) return false;
          out.push_back(std::move(v));
        }
        return !in_.failed();
      }
      case JsonKind::string:
        if (!in_.read_string(text)) return false;
        out = text;
        return true;
      case JsonKind::number: {
        std::optional<std::uint64_t> n;
        if (!in_.read_number(text, n)) return false;
        out = n ? nlohmann::json(*n) : nlohmann::json(text);
        return true;
      }
      case JsonKind::boolean: {
        bool b = false;
        if (!in_.read_bool(b)) return false;
        out = b;
        return true;
      }
      case JsonKind::null: out = nullptr; return in_.read_null();
    }
    return false;
  }

  JsonReader in_;
  const IndexOptions& options_;
  const std::function<void(Attribute&&)>& each_;
  IndexSummary summary_;
  Attribute attr_;
  std::string key_;
};

}  // namespace

Result<IndexSummary> read_index(json::ByteSource& source, const IndexOptions& options,
                                const std::function<void(Attribute&&)>& each) {
  return IndexReader(source, options, each).read();
}

}  // namespace extdeps::nix
