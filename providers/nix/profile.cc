#include "providers/nix/profile.h"

#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "core/json/json_reader.h"
#include "providers/nix/names.h"

namespace extdeps::nix {

using json::JsonKind;
using json::JsonReader;

namespace {

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Outputs nixpkgs appends to store path names ("openssl-3.0.15-dev").
bool is_output_name(std::string_view s, const std::vector<std::string>& outputs) {
  static const char* kCommon[] = {"bin",    "dev",     "lib",    "man",  "doc",     "info",   "debug",
                                  "static", "devdoc",  "devman", "out",  "py",      "python", "libexec",
                                  "sbin",   "modules", "tools",  "data", "examples"};
  if (std::find(outputs.begin(), outputs.end(), s) != outputs.end()) return true;
  return std::any_of(std::begin(kCommon), std::end(kCommon), [&](const char* o) { return s == o; });
}

class ManifestReader {
 public:
  ManifestReader(json::ByteSource& source, const std::string& origin, const RecordSink& sink)
      : in_(source), origin_(origin), sink_(sink) {}

  Result<ProfileSummary> read() {
    if (!top()) return in_.error();
    return summary_;
  }

 private:
  bool wrong(const std::string& what, JsonKind kind, std::string_view expected) {
    return in_.wrong_kind(what, kind, expected);
  }

  bool top() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind != JsonKind::object) return wrong("the manifest", *kind, "an object with version and elements");
    in_.begin_object();
    std::string key;
    std::optional<std::uint64_t> elements_at;
    while (in_.next_key(key)) {
      if (key == "version") {
        if (!version()) return false;
      } else if (key == "elements") {
        // The version decides the names of the fields: read the elements once it is known.
        auto k = in_.peek();
        if (!k) return false;
        if (*k != JsonKind::object && *k != JsonKind::array)
          return wrong("elements", *k, "a list (versions 1 and 2) or an object (version 3)");
        elements_at = in_.offset();
        if (!in_.skip_value()) return false;
      } else if (!in_.skip_value()) {
        return false;
      }
    }
    if (in_.failed() || !in_.expect_end()) return false;
    if (summary_.version == 0) return in_.fail("the manifest has no version (expected 1, 2 or 3)");
    if (!elements_at) return true;
    return in_.seek(*elements_at) && elements();
  }

  bool version() {
    std::uint64_t start = 0;
    std::string text;
    std::optional<std::uint64_t> value;
    if (!in_.read_count(value, text, start)) return false;
    if (!value || *value < 1 || *value > 3)
      return in_.fail("version is " + text + in_.at(start) + " (expected 1, 2 or 3; a newer manifest is not read)");
    summary_.version = static_cast<int>(*value);
    return true;
  }

  bool elements() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::array) {
      if (summary_.version == 3) return wrong("elements", *kind, "an object of elements by name in version 3");
      in_.begin_array();
      size_t i = 0;
      while (in_.next_element())
        if (!element("elements[" + std::to_string(i++) + "]")) return false;
    } else {
      if (summary_.version != 3)
        return wrong("elements", *kind, "a list in version " + std::to_string(summary_.version));
      in_.begin_object();
      std::string name;
      while (in_.next_key(name))
        if (!element("elements[\"" + name + "\"]")) return false;
    }
    return !in_.failed();
  }

  bool string(std::string& out, const std::string& what) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::string) return in_.read_string(out);
    if (*kind == JsonKind::null) return in_.read_null();
    return wrong(what, *kind, "a string");
  }

  bool strings(std::vector<std::string>& out, const std::string& what) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null) return in_.read_null();
    if (*kind != JsonKind::array) return wrong(what, *kind, "a list of strings");
    in_.begin_array();
    while (in_.next_element()) {
      std::string s;
      if (!string(s, what + " element")) return false;
      out.push_back(std::move(s));
    }
    return !in_.failed();
  }

  bool element(const std::string& where) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind != JsonKind::object) return wrong(where, *kind, "an object");
    in_.begin_object();
    std::string key, attr_path, url, original_url;
    std::vector<std::string> store_paths, outputs;
    bool active = true;
    // v1 spells the flake references uri and originalUri, later versions url and originalUrl.
    const bool v1 = summary_.version == 1;
    while (in_.next_key(key)) {
      bool ok = true;
      if (key == "attrPath") ok = string(attr_path, where + ".attrPath");
      else if (key == (v1 ? "uri" : "url")) ok = string(url, where + "." + key);
      else if (key == (v1 ? "originalUri" : "originalUrl")) ok = string(original_url, where + "." + key);
      else if (key == "storePaths") ok = strings(store_paths, where + ".storePaths");
      else if (key == "outputs") ok = strings(outputs, where + ".outputs");
      else if (key == "active") {
        auto k = in_.peek();
        if (!k) return false;
        if (*k != JsonKind::boolean) return wrong(where + ".active", *k, "true or false");
        ok = in_.read_bool(active);
      } else {
        ok = in_.skip_value();
      }
      if (!ok) return false;
    }
    if (in_.failed()) return false;
    ++summary_.elements;
    if (!active || store_paths.empty()) return true;
    DrvName d = parse_drv_name(store_path_name(store_paths.front()));
    // "3.0.15-bin": the output is not part of the version.
    if (auto dash = d.version.rfind('-');
        dash != std::string::npos && is_output_name(d.version.substr(dash + 1), outputs))
      d.version.erase(dash);
    PackageRecord r;
    bool from_nixpkgs = url.find("nixpkgs") != std::string::npos || original_url.find("nixpkgs") != std::string::npos;
    r.name = from_nixpkgs && !attr_path.empty() ? std::string(nixpkgs_attr_path(attr_path)) : d.name;
    if (r.name.empty())  // an installed record needs a name
      return in_.fail(where + " names no package" + in_.at(in_.offset()) +
                      " (expected an attrPath or a store path like /nix/store/<hash>-hello-2.12.1)");
    r.version = d.version;
    r.family = d.name;
    r.set = std::string(package_set(r.name));
    r.origin = origin_;
    r.installed = true;
    ++summary_.installed;
    sink_(std::move(r));
    return true;
  }

  JsonReader in_;
  const std::string& origin_;
  const RecordSink& sink_;
  ProfileSummary summary_;
};

}  // namespace

ProfileKind profile_kind(const std::string& profile) {
  if (profile.empty()) return ProfileKind::none;
  if (exists(profile + "/manifest.json")) return ProfileKind::nix_profile;
  if (exists(profile + "/manifest.nix")) return ProfileKind::nix_env;
  return ProfileKind::none;
}

Result<ProfileSummary> read_profile_manifest(json::ByteSource& source, const std::string& origin,
                                             const RecordSink& installed) {
  return ManifestReader(source, origin, installed).read();
}

Result<size_t> read_nix_env_installed(json::ByteSource& source, const std::string& origin,
                                      const RecordSink& installed) {
  JsonReader in(source);
  auto fail = [&](const std::string& what, JsonKind kind, std::string_view expected) -> Error {
    in.wrong_kind(what, kind, expected);
    return in.error();
  };
  auto kind = in.peek();
  if (!kind) return in.error();
  if (*kind != JsonKind::object) return fail("the nix-env -q --json output", *kind, "an object of installed packages");
  in.begin_object();
  std::string key, field;
  size_t count = 0;
  while (in.next_key(key)) {
    std::string where = "element \"" + key + "\"";
    auto k = in.peek();
    if (!k) return in.error();
    if (*k != JsonKind::object) return fail(where, *k, "an object with name, pname, version");
    in.begin_object();
    std::string name, pname, version;
    while (in.next_key(field)) {
      std::string* target = field == "name"      ? &name
                            : field == "pname"   ? &pname
                            : field == "version" ? &version
                                                 : nullptr;
      if (!target) {
        if (!in.skip_value()) return in.error();
        continue;
      }
      auto fk = in.peek();
      if (!fk) return in.error();
      if (*fk != JsonKind::string) return fail(where + "." + field, *fk, "a string");
      if (!in.read_string(*target)) return in.error();
    }
    if (in.failed()) return in.error();
    DrvName d = parse_drv_name(name);
    PackageRecord r;
    r.name = pname.empty() ? d.name : pname;
    if (r.name.empty()) {  // an installed record needs a name
      in.fail(where + " names no package" + in.at(in.offset()) + " (expected a pname or a name like hello-2.12.1)");
      return in.error();
    }
    r.version = version.empty() ? d.version : version;
    r.family = r.name;
    r.origin = origin;
    r.installed = true;
    ++count;
    installed(std::move(r));
  }
  if (in.failed() || !in.expect_end()) return in.error();
  return count;
}

}  // namespace extdeps::nix
