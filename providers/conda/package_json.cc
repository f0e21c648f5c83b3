// The keys of a conda package record: strings for the identity, a list of "name spec" strings
// per relation, an integer build number, and track_features in either of its two spellings.
#include "providers/conda/package_json.h"

#include <cstdint>
#include <limits>
#include <optional>

#include "core/util/limits.h"
#include "core/util/text.h"
#include "providers/conda/matchspec.h"

namespace extdeps::conda {

using json::json_kind_name;
using json::JsonKind;
using json::JsonReader;

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

enum class Key {
  name,
  version,
  build,
  build_number,
  depends,
  constrains,
  track_features,
  subdir,
  channel,
  fn,
  url,
  other
};

// By length first: every record has a dozen keys, most of them skipped (md5, sha256, license ...).
Key key_of(std::string_view k) {
  switch (k.size()) {
    case 2: return k == "fn" ? Key::fn : Key::other;
    case 3: return k == "url" ? Key::url : Key::other;
    case 4: return k == "name" ? Key::name : Key::other;
    case 5: return k == "build" ? Key::build : Key::other;
    case 6: return k == "subdir" ? Key::subdir : Key::other;
    case 7:
      return k == "version" ? Key::version : k == "depends" ? Key::depends : k == "channel" ? Key::channel : Key::other;
    case 10: return k == "constrains" ? Key::constrains : Key::other;
    case 12: return k == "build_number" ? Key::build_number : Key::other;
    case 14: return k == "track_features" ? Key::track_features : Key::other;
    default: return Key::other;
  }
}

// Reads one record's keys. Holds the scratch strings so a record costs no allocation beyond
// what it keeps.
class PackageReader {
 public:
  PackageReader(JsonReader& in, std::string_view where, PackageJson& out) : in_(in), where_(where), out_(out) {}

  bool read() {
    if (!in_.peek()) return false;
    std::uint64_t start = in_.offset();  // the '{', blanks skipped
    if (!in_.begin_object()) return false;
    bool has_name = false, has_version = false, has_build = false;
    std::string_view key;
    while (in_.next_key(key)) {
      bool ok = true;
      const Key which = key_of(key);
      if (which != Key::other) key_ = key;  // one of the names key_of() knows: kept for messages
      switch (which) {
        case Key::name: ok = has_name = string_field(out_.record.name, kRequired); break;
        case Key::version: ok = has_version = string_field(out_.record.version, kRequired); break;
        case Key::build: ok = has_build = string_field(out_.record.build, kRequired); break;
        case Key::build_number: ok = build_number(); break;
        case Key::depends: ok = relations(&out_.record.depends, nullptr); break;
        case Key::constrains: ok = relations(nullptr, &out_.record.constrains); break;
        case Key::track_features: ok = track_features(); break;
        case Key::subdir: ok = string_field(out_.subdir, kNullable); break;
        case Key::channel: ok = string_field(out_.channel, kNullable); break;
        case Key::fn: ok = string_field(out_.fn, kNullable); break;
        case Key::url: ok = string_field(out_.url, kNullable); break;
        case Key::other: ok = in_.skip_value(); break;
      }
      if (!ok) return false;
    }
    if (in_.failed()) return false;
    const char* missing = !has_name ? "name" : !has_version ? "version" : !has_build ? "build" : nullptr;
    if (missing)
      return in_.fail(object_name() + " has no \"" + missing + "\"" + in_.at(start) +
                      " (expected name, version and build strings)");
    return plain(out_.record.name, "name", start) && plain(out_.record.version, "version", start);
  }

 private:
  static constexpr bool kRequired = false, kNullable = true;

  std::string object_name() const { return where_.empty() ? "the package record" : std::string(where_); }
  std::string field(std::string_view key) const {
    return where_.empty() ? std::string(key) : std::string(where_) + "." + std::string(key);
  }

  // A name or version is one non-empty word, of at most limits::kMaxNameLength or
  // kMaxVersionLength bytes (docs/limits.md).
  bool plain(const std::string& value, std::string_view key, std::uint64_t start) {
    const std::size_t most = key == "name" ? limits::kMaxNameLength : limits::kMaxVersionLength;
    if (value.size() > most)
      return in_.fail(field(key) + " '" + shorten(value) + "' of " + std::to_string(value.size()) + " bytes" +
                      in_.at(start) + " (expected at most " + std::to_string(most) + " bytes)");
    if (!value.empty() && trim(value).size() == value.size()) return true;
    return in_.fail(field(key) + " is '" + shorten(value) + "'" + in_.at(start) +
                    " (expected a non-empty string without blanks around it)");
  }

  // "<field> is a number at byte offset N (expected <what>)" for the value at the reader.
  bool wrong_kind(const std::string& name, JsonKind kind, std::string_view expected) {
    return in_.fail(name + " is " + std::string(json_kind_name(kind)) + in_.at(in_.offset()) + " (expected " +
                    std::string(expected) + ")");
  }
  std::string element(size_t i) const { return field(key_) + "[" + std::to_string(i) + "]"; }

  bool string_field(std::string& out, bool nullable) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::string) return in_.read_string(out);
    if (nullable && *kind == JsonKind::null) {
      out.clear();
      return in_.read_null();
    }
    return wrong_kind(field(key_), *kind, "a string");
  }

  bool build_number() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind != JsonKind::number) return wrong_kind(field(key_), *kind, "a non-negative integer");
    std::uint64_t start = in_.offset();
    std::optional<std::uint64_t> value;
    if (!in_.read_number(text_, value)) return false;
    if (!value || *value > std::numeric_limits<unsigned>::max())
      return in_.fail(field(key_) + " is " + text_ + in_.at(start) + " (expected a non-negative integer)");
    out_.record.build_number = static_cast<unsigned>(*value);
    return true;
  }

  // depends (one DepAlternatives per entry) or constrains: a list of "name spec" strings, or null.
  bool relations(std::vector<DepAlternatives>* depends, std::vector<NativeDep>* constrains) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null) return in_.read_null();
    if (*kind != JsonKind::array) return wrong_kind(field(key_), *kind, "a list of strings such as \"numpy >=1.20\"");
    if (!in_.begin_array()) return false;
    for (size_t i = 0; in_.next_element(); ++i) {
      auto kind_i = in_.peek();
      if (!kind_i) return false;
      if (*kind_i != JsonKind::string) return wrong_kind(element(i), *kind_i, "a string such as \"numpy >=1.20\"");
      std::uint64_t start = in_.offset();
      std::string_view text;
      if (!in_.read_string(text)) return false;
      auto [dep_name, rest] = split_name(text);
      if (dep_name.empty())
        return in_.fail(element(i) + " is '" + std::string(text) + "'" + in_.at(start) +
                        " (expected a package name, then an optional version and build)");
      DepOp op = rest.empty() ? DepOp::any : DepOp::spec;
      NativeDep dep{std::move(dep_name), op, std::move(rest)};
      if (depends) depends->push_back(DepAlternatives{std::move(dep)});
      else constrains->push_back(std::move(dep));
    }
    return !in_.failed();
  }

  // A string of names separated by blanks or commas (conda's own spelling), or a list of names.
  bool track_features() {
    auto kind = in_.peek();
    if (!kind) return false;
    unsigned count = 0;
    if (*kind == JsonKind::null) {
      if (!in_.read_null()) return false;
    } else if (*kind == JsonKind::string) {
      if (!in_.read_string(text_)) return false;
      bool in_word = false;
      for (char c : text_) {
        bool sep = c == ',' || is_blank(c);
        if (!sep && !in_word) ++count;
        in_word = !sep;
      }
    } else if (*kind == JsonKind::array) {
      if (!in_.begin_array()) return false;
      for (size_t i = 0; in_.next_element(); ++i) {
        auto kind_i = in_.peek();
        if (!kind_i) return false;
        if (*kind_i != JsonKind::string) return wrong_kind(element(i), *kind_i, "a string");
        if (!in_.read_string(text_)) return false;
        if (!trim(text_).empty()) ++count;
      }
      if (in_.failed()) return false;
    } else {
      return wrong_kind(field(key_), *kind, "a string or a list of strings");
    }
    out_.record.track_features = count;
    return true;
  }

  JsonReader& in_;
  std::string_view where_;
  PackageJson& out_;
  std::string key_, text_;  // key_: the field being read, for messages
};

}  // namespace

bool read_package(JsonReader& in, std::string_view where, PackageJson& out) {
  out.record = PackageRecord{};
  out.subdir.clear();
  out.channel.clear();
  out.fn.clear();
  out.url.clear();
  return PackageReader(in, where, out).read();
}

}  // namespace extdeps::conda
