// The formula index (formula.json, formula.jws.json) read in one pass: each formula's few fields
// that decide what it needs and which bottle pours are read, the rest (descriptions, URLs,
// caveats, services) skipped.
#include <algorithm>

#include "core/json/json_reader.h"
#include "core/util/limits.h"
#include "providers/homebrew/homebrew_provider.h"

namespace extdeps::homebrew {

using json::JsonKind;
using json::JsonReader;

std::string Formula::pkg_version() const { return revision > 0 ? stable + "_" + std::to_string(revision) : stable; }

namespace {

class FormulaReader {
 public:
  FormulaReader(json::ByteSource& source, const std::function<void(Formula&&)>& each)
      : in_(source), each_(each), name_(source.name()) {}

  Result<std::size_t> read() {
    auto kind = in_.peek();
    if (!kind) return in_.failed() ? Result<std::size_t>(in_.error()) : Result<std::size_t>(empty());
    if (*kind == JsonKind::object) {
      // formula.jws.json: {"payload": "<the array, as a string>", "signatures": [...]}.
      in_.begin_object();
      std::string key;
      bool found = false;
      while (in_.next_key(key)) {
        if (key != "payload") {
          if (!in_.skip_value()) return in_.error();
          continue;
        }
        auto k = in_.peek();
        if (!k) return in_.error();
        if (*k != JsonKind::string) {
          in_.wrong_kind("payload", *k, "a string holding the formula array (formula.jws.json)");
          return in_.error();
        }
        if (!in_.read_string(payload_)) return in_.error();
        found = true;
      }
      if (in_.failed() || !in_.expect_end()) return in_.error();
      if (!found) {
        in_.fail("an object without \"payload\"", 0,
                 "formula.json's array of formulae, or formula.jws.json's object with a payload");
        return in_.error();
      }
      auto inner = json::over_memory(payload_, name_ + " (its payload)");
      FormulaReader nested(*inner, each_);
      return nested.read_array();
    }
    return read_array();
  }

 private:
  Error empty() const { return error_at(ExitCode::bad_input, name_, "no data", "formula.json's array of formulae"); }

  Result<std::size_t> read_array() {
    auto kind = in_.peek();
    if (!kind) return in_.failed() ? in_.error() : empty();
    if (*kind != JsonKind::array) {
      in_.wrong_kind("the formula index", *kind, "an array of formulae, as formula.json holds");
      return in_.error();
    }
    in_.begin_array();
    std::size_t n = 0;
    while (in_.next_element()) {
      if (!formula()) return in_.error();
      ++n;
    }
    if (in_.failed() || !in_.expect_end()) return in_.error();
    return n;
  }

  // Room for one more entry in a list of `in_list` entries: each list and the whole index are
  // bounded (a 20 MB formula.json of empty names once took 650 MB).
  bool room(std::size_t in_list, std::string_view field) {
    if (in_list >= limits::kMaxListEntries)
      return in_.fail(where(field) + " has more than " + std::to_string(limits::kMaxListEntries) + " entries" +
                      in_.at(in_.offset()));
    if (++entries_ > limits::kMaxIndexListEntries)
      return in_.fail("more than " + std::to_string(limits::kMaxIndexListEntries) +
                      " list entries in all (names, bottles, variations)" + in_.at(in_.offset()));
    return true;
  }

  std::string where(std::string_view field) const {
    return (f_.name.empty() ? std::string("a formula") : "formula '" + f_.name + "'") + ": " + std::string(field);
  }

  bool string(std::string& out, std::string_view field, bool null_ok = true) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null && null_ok) return in_.read_null();
    if (*kind != JsonKind::string) return in_.wrong_kind(where(field), *kind, "a string");
    if (!in_.read_string(out)) return false;
    if (out.size() > limits::kMaxNameLength * 16)
      return in_.fail(where(field) + " is " + std::to_string(out.size()) + " bytes long" + in_.at(in_.offset()));
    return true;
  }

  bool boolean(bool& out, std::string_view field) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null) {
      out = false;
      return in_.read_null();
    }
    if (*kind != JsonKind::boolean) return in_.wrong_kind(where(field), *kind, "true or false");
    return in_.read_bool(out);
  }

  bool count(unsigned& out, std::string_view field) {
    std::optional<std::uint64_t> v;
    std::string text;
    std::uint64_t start = 0;
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null) return in_.read_null();
    if (!in_.read_count(v, text, start)) return false;
    if (!v || *v > 1000000)
      return in_.fail(where(field) + " is " + text + in_.at(start), start, "a count such as 0 or 1");
    out = static_cast<unsigned>(*v);
    return true;
  }

  // A list of names: ["pkgconf", "openssl@3"].
  bool names(std::vector<std::string>& out, std::string_view field) {
    out.clear();
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null) return in_.read_null();
    if (*kind != JsonKind::array) return in_.wrong_kind(where(field), *kind, "an array of formula names");
    in_.begin_array();
    while (in_.next_element()) {
      std::string s;
      if (!room(out.size(), field) || !string(s, field, false)) return false;
      out.push_back(std::move(s));
    }
    return !in_.failed();
  }

  // A dependency's contexts: "build", ["build", "test"].
  bool contexts(bool& build_only, bool& test_only, std::string_view field) {
    auto kind = in_.peek();
    if (!kind) return false;
    std::vector<std::string> cs;
    if (*kind == JsonKind::string) {
      std::string s;
      if (!in_.read_string(s)) return false;
      cs.push_back(std::move(s));
    } else if (*kind == JsonKind::array) {
      if (!names(cs, field)) return false;
    } else if (*kind == JsonKind::null) {
      return in_.read_null();
    } else {
      return in_.wrong_kind(where(field), *kind, "a context such as \"build\", or an array of them");
    }
    const bool build = std::find(cs.begin(), cs.end(), "build") != cs.end();
    const bool test = std::find(cs.begin(), cs.end(), "test") != cs.end();
    // A dependency for the build (and maybe the tests) is not needed once poured; one for the
    // tests alone is never needed by users.
    build_only = build;
    test_only = test && !build && std::none_of(cs.begin(), cs.end(), [](const std::string& c) { return c != "test"; });
    return true;
  }

  // uses_from_macos: ["zlib", {"perl": "build"}, {"python": ["build", "test"]}].
  bool uses(std::vector<UsesFromMacos>& out) {
    out.clear();
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null) return in_.read_null();
    if (*kind != JsonKind::array) return in_.wrong_kind(where("uses_from_macos"), *kind, "an array");
    in_.begin_array();
    while (in_.next_element()) {
      if (!room(out.size(), "uses_from_macos")) return false;
      auto k = in_.peek();
      if (!k) return false;
      UsesFromMacos u;
      if (*k == JsonKind::string) {
        if (!in_.read_string(u.name)) return false;
      } else if (*k == JsonKind::object) {
        in_.begin_object();
        std::string key;
        while (in_.next_key(key)) {
          u.name = key;
          if (!contexts(u.build_only, u.test_only, "uses_from_macos")) return false;
        }
        if (in_.failed()) return false;
        if (u.name.empty()) return in_.fail(where("uses_from_macos") + " has an empty object" + in_.at(in_.offset()));
      } else {
        return in_.wrong_kind(where("uses_from_macos[]"), *k, "a name, or {name: context}");
      }
      out.push_back(std::move(u));
    }
    return !in_.failed();
  }

  // uses_from_macos_bounds: [{}, {"since": "catalina"}], one per uses_from_macos entry.
  bool bounds(std::vector<std::string>& out) {
    out.clear();
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null) return in_.read_null();
    if (*kind != JsonKind::array) return in_.wrong_kind(where("uses_from_macos_bounds"), *kind, "an array");
    in_.begin_array();
    while (in_.next_element()) {
      if (!room(out.size(), "uses_from_macos_bounds")) return false;
      auto k = in_.peek();
      if (!k) return false;
      std::string since;
      if (*k == JsonKind::object) {
        in_.begin_object();
        std::string key;
        while (in_.next_key(key)) {
          if (key == "since") {
            if (!string(since, "uses_from_macos_bounds[].since")) return false;
          } else if (!in_.skip_value()) {
            return false;
          }
        }
        if (in_.failed()) return false;
      } else if (!in_.skip_value()) {
        return false;
      }
      out.push_back(std::move(since));
    }
    return !in_.failed();
  }

  // requirements: [{"name": "macos", "cask": null, "download": null, "version": "12",
  // "contexts": ["build"], "specs": ["stable"]}].
  bool requirements(std::vector<Requirement>& out) {
    out.clear();
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null) return in_.read_null();
    if (*kind != JsonKind::array) return in_.wrong_kind(where("requirements"), *kind, "an array");
    in_.begin_array();
    while (in_.next_element()) {
      if (!room(out.size(), "requirements")) return false;
      auto k = in_.peek();
      if (!k) return false;
      if (*k != JsonKind::object) return in_.wrong_kind(where("requirements[]"), *k, "an object with a name");
      in_.begin_object();
      Requirement r;
      bool stable = true;
      std::string key;
      while (in_.next_key(key)) {
        bool ok = true;
        if (key == "name") ok = string(r.name, "requirements[].name");
        else if (key == "version") ok = version_text(r.version);
        else if (key == "contexts") {
          bool test_only = false;
          ok = contexts(r.build_only, test_only, "requirements[].contexts");
          r.build_only = r.build_only || test_only;
        } else if (key == "specs") {
          std::vector<std::string> specs;
          ok = names(specs, "requirements[].specs");
          stable = specs.empty() || std::find(specs.begin(), specs.end(), "stable") != specs.end();
        } else ok = in_.skip_value();
        if (!ok) return false;
      }
      if (in_.failed()) return false;
      if (stable && !r.name.empty()) out.push_back(std::move(r));
    }
    return !in_.failed();
  }

  // A requirement's version: a string ("12", "arm64"), or a number some writers give.
  bool version_text(std::string& out) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::number) {
      std::optional<std::uint64_t> v;
      return in_.read_number(out, v);
    }
    return string(out, "requirements[].version");
  }

  // One field of a formula or of a variation; false on an error. Unknown keys are skipped.
  bool field(const std::string& key, Fields& into) {
    if (key == "dependencies") return names(into.dependencies.emplace(), key);
    if (key == "build_dependencies") return names(into.build_dependencies.emplace(), key);
    if (key == "conflicts_with") return names(into.conflicts_with.emplace(), key);
    if (key == "uses_from_macos") return uses(into.uses_from_macos.emplace());
    if (key == "uses_from_macos_bounds") {
      std::vector<std::string> b;
      if (!bounds(b)) return false;
      bounds_ = std::move(b);
      return true;
    }
    if (key == "requirements") return requirements(into.requirements.emplace());
    return in_.skip_value();
  }

  // Joins uses_from_macos_bounds (read before or after) to its entries.
  void join_bounds(Fields& into) {
    if (into.uses_from_macos && !bounds_.empty())
      for (std::size_t i = 0; i < into.uses_from_macos->size() && i < bounds_.size(); ++i)
        (*into.uses_from_macos)[i].since = bounds_[i];
    bounds_.clear();
  }

  bool versions() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind != JsonKind::object) return in_.wrong_kind(where("versions"), *kind, "an object with stable");
    in_.begin_object();
    std::string key;
    while (in_.next_key(key)) {
      if (key == "stable") {
        if (!string(f_.stable, "versions.stable")) return false;
      } else if (!in_.skip_value()) {
        return false;
      }
    }
    return !in_.failed();
  }

  // bottle: {"stable": {"rebuild": 0, "root_url": "...", "files": {TAG: {cellar, url, sha256}}}}.
  bool bottle() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null) return in_.read_null();
    if (*kind != JsonKind::object) return in_.wrong_kind(where("bottle"), *kind, "an object");
    in_.begin_object();
    std::string key;
    while (in_.next_key(key)) {
      if (key != "stable") {
        if (!in_.skip_value()) return false;
        continue;
      }
      auto k = in_.peek();
      if (!k) return false;
      if (*k != JsonKind::object) return in_.wrong_kind(where("bottle.stable"), *k, "an object with files");
      in_.begin_object();
      std::string sk;
      while (in_.next_key(sk)) {
        if (sk != "files") {
          if (!in_.skip_value()) return false;
          continue;
        }
        auto fk = in_.peek();
        if (!fk) return false;
        if (*fk != JsonKind::object) return in_.wrong_kind(where("bottle.stable.files"), *fk, "an object of tags");
        in_.begin_object();
        std::string tag;
        while (in_.next_key(tag)) {
          if (!room(f_.bottles.size(), "bottle.stable.files")) return false;
          Bottle b;
          b.tag = tag;
          auto bk = in_.peek();
          if (!bk) return false;
          if (*bk != JsonKind::object)
            return in_.wrong_kind(where("bottle.stable.files." + tag), *bk, "an object with cellar, url, sha256");
          in_.begin_object();
          std::string bkey;
          while (in_.next_key(bkey)) {
            bool ok = true;
            if (bkey == "cellar") ok = string(b.cellar, "bottle cellar");
            else if (bkey == "url") ok = string(b.url, "bottle url");
            else if (bkey == "sha256") ok = string(b.sha256, "bottle sha256");
            else ok = in_.skip_value();
            if (!ok) return false;
          }
          if (in_.failed()) return false;
          f_.bottles.push_back(std::move(b));
        }
        if (in_.failed()) return false;
      }
      if (in_.failed()) return false;
    }
    return !in_.failed();
  }

  bool keg_only() { return boolean(f_.keg_only, "keg_only"); }

  // variations: {TAG: {dependencies: [...], ...}}.
  bool variations() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null) return in_.read_null();
    if (*kind != JsonKind::object) return in_.wrong_kind(where("variations"), *kind, "an object of bottle tags");
    in_.begin_object();
    std::string tag;
    while (in_.next_key(tag)) {
      if (!room(f_.variations.size(), "variations")) return false;
      auto k = in_.peek();
      if (!k) return false;
      if (*k != JsonKind::object) return in_.wrong_kind(where("variations." + tag), *k, "an object");
      in_.begin_object();
      Fields v;
      std::string key;
      while (in_.next_key(key))
        if (!field(key, v)) return false;
      if (in_.failed()) return false;
      join_bounds(v);
      f_.variations.emplace(tag, std::move(v));
    }
    return !in_.failed();
  }

  bool formula() {
    auto kind = in_.peek();
    if (!kind) return false;
    f_ = Formula{};
    f_.offset = in_.offset();
    if (*kind != JsonKind::object) return in_.wrong_kind("a formula", *kind, "an object with name and versions");
    in_.begin_object();
    std::string key;
    while (in_.next_key(key)) {
      bool ok = true;
      if (key == "name") ok = string(f_.name, "name", false);
      else if (key == "full_name") ok = string(f_.full_name, "full_name");
      else if (key == "tap") ok = string(f_.tap, "tap");
      else if (key == "aliases") ok = names(f_.aliases, key);
      else if (key == "oldnames") ok = names(f_.oldnames, key);
      else if (key == "oldname") {  // before oldnames (Homebrew 4.0): one name or null
        std::string one;
        ok = string(one, key);
        if (ok && !one.empty()) ok = room(f_.oldnames.size(), key);
        if (ok && !one.empty()) f_.oldnames.push_back(std::move(one));
      } else if (key == "versions") ok = versions();
      else if (key == "revision") ok = count(f_.revision, key);
      else if (key == "bottle") ok = bottle();
      else if (key == "keg_only") ok = keg_only();
      else if (key == "disabled") ok = boolean(f_.disabled, key);
      else if (key == "deprecated") ok = boolean(f_.deprecated, key);
      else if (key == "disable_reason") {
        auto k = in_.peek();
        ok = k && (*k == JsonKind::string ? in_.read_string(f_.disable_reason) : in_.skip_value());
      } else if (key == "variations") ok = variations();
      else ok = field(key, f_.fields);
      if (!ok) return false;
    }
    if (in_.failed()) return false;
    join_bounds(f_.fields);
    if (f_.name.empty())
      return in_.fail("a formula without a name" + in_.at(f_.offset), f_.offset, "\"name\": \"...\"");
    if (f_.stable.empty())
      return in_.fail(where("no versions.stable") + in_.at(f_.offset), f_.offset,
                      "\"versions\": {\"stable\": \"1.2.3\"}");
    if (f_.full_name.empty()) f_.full_name = f_.name;
    each_(std::move(f_));
    return true;
  }

  JsonReader in_;
  const std::function<void(Formula&&)>& each_;
  Formula f_;
  std::vector<std::string> bounds_;
  std::string payload_;
  std::string name_;
  std::size_t entries_ = 0;  // list entries read in the whole index (room())
};

}  // namespace

Result<std::size_t> read_formulae(json::ByteSource& source, const std::function<void(Formula&&)>& each) {
  FormulaReader r(source, each);
  return r.read();
}

}  // namespace extdeps::homebrew
