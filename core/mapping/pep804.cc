#include "core/mapping/pep804.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "core/json/document.h"
#include "core/mapping/names.h"
#include "core/provider/descriptor.h"

namespace extdeps::mapping {

namespace {

using nlohmann::json;

constexpr const char* kSchemaUrl =
    "https://raw.githubusercontent.com/jaimergp/external-metadata-mappings/main/schemas/"
    "external-mapping.schema.json";
constexpr const char* kKnownEcosystemsSchemaUrl =
    "https://raw.githubusercontent.com/jaimergp/external-metadata-mappings/main/schemas/"
    "known-ecosystems.schema.json";

struct Spec {
  std::string name;  // the package name
  std::string text;  // as written, when it is more than the name (a MatchSpec)
};

// "PLACE: expected WHAT": the error of a value that is not what the file format has there.
Error expected_at(const std::string& place, const std::string& expected) {
  Error e = error_at(ExitCode::bad_input, place, "expected " + expected);
  e.expected = expected;
  return e;
}

// One specs value of one category: a string or a list of strings.
Result<std::vector<std::string>> strings_of(const json& v, const std::string& where) {
  if (v.is_string()) return std::vector<std::string>{v.get<std::string>()};
  if (!v.is_array()) return expected_at(where, "a string or a list of strings");
  std::vector<std::string> out;
  for (const auto& x : v) {
    if (!x.is_string()) return expected_at(where, "a list of strings");
    out.push_back(x.get<std::string>());
  }
  return out;
}

Spec spec_of(const std::string& text) {
  std::string trimmed = text;
  while (!trimmed.empty() && trimmed.front() == ' ') trimmed.erase(trimmed.begin());
  while (!trimmed.empty() && trimmed.back() == ' ') trimmed.pop_back();
  // A recipe macro ("{{ compiler('c') }}") is not a name with a spec after it.
  if (trimmed.find("{{") != std::string::npos) return Spec{trimmed, ""};
  const auto cut = trimmed.find_first_of(" =<>!~[");
  if (cut == std::string::npos) return Spec{trimmed, ""};
  return Spec{trimmed.substr(0, cut), trimmed};
}

std::string ecosystem_from_path(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (const std::string suffix : {".mapping.json", ".json"}) {
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return name.substr(0, name.size() - suffix.size());
    }
  }
  return name;
}

// PEP 804's package_managers list for a table of `manager`: its provider's own (the descriptor's
// JSON text), else one generic entry made from the name.
json commands_for(const std::string& manager) {
  if (const ProviderDescriptor* d = descriptor_for_manager(manager); d && !d->pep804_managers.empty()) {
    json out;
    if (!extdeps::json::parse_document(d->pep804_managers, out) && out.is_array()) return out;
  }
  json null_ranges = nullptr;
  return json::array({{{"name", manager},
                       {"commands", {{"install", {{"command", {manager, "install", "{}"}}}}, {"query", nullptr}}},
                       {"specifier_syntax",
                        {{"name_only", {"{name}"}}, {"exact_version", nullptr}, {"version_ranges", null_ranges}}}}});
}

// A PEP 804 JSON file (`kind`: "mapping file", "known-ecosystems file") parsed. `shown`: the
// name messages give it (the URL of a body the download cache holds); empty: `path`.
Result<json> read_json_file(const std::string& path, const std::string& kind, const std::string& shown = {}) {
  const std::string& name = shown.empty() ? path : shown;
  std::ifstream in(path, std::ios::binary);
  if (!in) return error_at(ExitCode::bad_input, name, "cannot read the PEP 804 " + kind);
  std::stringstream ss;
  ss << in.rdbuf();
  json doc;
  if (auto e = extdeps::json::parse_document(ss.view(), doc)) {
    Error err = bad_input(name + ": not JSON at byte offset " + std::to_string(e->offset) + " (" + e->what +
                          "; a PEP 804 " + kind + " is JSON)");
    err.place = name + ": byte " + std::to_string(e->offset);
    err.what = "not JSON (" + e->what + ")";
    err.expected = "JSON";
    return err;
  }
  return doc;
}

// The file as JSON, an object with a "mappings" list.
Result<json> read_mapping_file(const std::string& path, const std::string& shown) {
  auto read = read_json_file(path, "mapping file", shown);
  if (!read) return read.error();
  json& doc = *read;
  if (!doc.is_object() || !doc.contains("mappings") || !doc["mappings"].is_array()) {
    return expected_at(shown.empty() ? path : shown, "a PEP 804 mapping file (an object with a \"mappings\" list)");
  }
  return doc;
}

Result<void> check_ecosystem(const std::string& ecosystem) {
  static const std::regex kEcosystem(R"([a-z0-9\-_.]+(\+[a-z0-9\-_.]+)?)");
  if (std::regex_match(ecosystem, kEcosystem)) return {};
  Error e = bad_input("ecosystem '" + ecosystem +
                      "' must match [a-z0-9-_.]+(+[a-z0-9-_.]+)? "
                      "(name it with --ecosystem)");
  e.what = "ecosystem '" + ecosystem + "' must match [a-z0-9-_.]+(+[a-z0-9-_.]+)?";
  e.hint = "name it with --ecosystem";
  return e;
}

// The table's own keys: its manager (the file's first package manager), the version rule the
// manager's provider gives imported tables, its description and a comment on where it came from.
void read_table_keys(const json& doc, const std::string& path, DraftTable& t) {
  t.version = "native";
  if (doc.contains("package_managers") && doc["package_managers"].is_array() && !doc["package_managers"].empty() &&
      doc["package_managers"][0].contains("name") && doc["package_managers"][0]["name"].is_string()) {
    t.manager = doc["package_managers"][0]["name"].get<std::string>();
  }
  if (const ProviderDescriptor* d = descriptor_for_manager(t.manager); d && !d->imported_version_rule.empty())
    t.version = std::string(d->imported_version_rule);
  std::string name = extdeps::json::string_at(doc, "name").value_or("");
  std::string description = doc.contains("description") && doc["description"].is_string()
                                ? doc["description"].get<std::string>()
                                : std::string();
  t.description = name.empty() ? description : description.empty() ? name : name + ": " + description;
  t.comments = {"Imported from the PEP 804 mapping file " + std::filesystem::path(path).filename().string() +
                    " by `extdeps mappings import pep804`.",
                "PEP 804 has no version rules or components; check them, and verify the names with",
                "`extdeps mappings verify` before shipping this table."};
}

// A mapping's specs per category (build, host, run): an object of them, or one value for all.
Result<std::array<std::optional<std::vector<std::string>>, 3>> category_specs(const json& specs,
                                                                              const std::string& where) {
  std::array<std::optional<std::vector<std::string>>, 3> lists;
  if (specs.is_object()) {
    const char* keys[] = {"build", "host", "run"};
    for (int i = 0; i < 3; ++i) {
      if (!specs.contains(keys[i])) continue;
      auto v = strings_of(specs[keys[i]], where + ": specs." + keys[i]);
      if (!v) return v.error();
      lists[i] = *v;
    }
  } else {
    auto v = strings_of(specs, where + ": specs");
    if (!v) return v.error();
    lists[1] = *v;  // the same packages for every category: host, and the fallback does the rest
  }
  return lists;
}

// Two alternatives are the same when they give the same packages once the category fallback is
// applied ("libblas" as a string, or as {build, host, run} of it).
std::array<std::vector<std::string>, 3> effective(const DraftAlternative& a) {
  const std::vector<std::string> none;
  const auto& b = a.build ? *a.build : a.host ? *a.host : none;
  const auto& h = a.host ? *a.host : a.build ? *a.build : none;
  const auto& r = a.run ? *a.run : h;
  return {b, h, r};
}

// The mappings read one by one into entries, in the file's order; an id given twice gathers
// its alternatives in one entry.
class Importer {
 public:
  Importer(std::string manager, ImportResult& r) : manager_(std::move(manager)), r_(r) {}

  Result<void> read(const json& m, const std::string& where) {
    if (!m.is_object() || !m.contains("id") || !m["id"].is_string()) {
      return expected_at(where, "an object with a string \"id\"");
    }
    const std::string id = m["id"].get<std::string>();
    if (!is_table_id(id)) {
      return error_at(ExitCode::bad_input, where, "id '" + id + "' is not a DepURL", "dep:TYPE/NAME");
    }
    if (m.contains("specs_from")) {
      if (!m["specs_from"].is_string()) return error_at(ExitCode::bad_input, where, "\"specs_from\" must be a string");
      specs_from_[id] = m["specs_from"].get<std::string>();
      return {};
    }
    if (!m.contains("specs"))
      return error_at(ExitCode::bad_input, where, id + " has neither \"specs\" nor \"specs_from\"");
    if (!entries_.count(id)) {
      order_.push_back(id);
      DraftEntry e;
      e.id = id;
      if (m.contains("description") && m["description"].is_string()) {
        e.description = m["description"].get<std::string>();
      }
      entries_.emplace(id, std::move(e));
    }
    auto lists = category_specs(m["specs"], where);
    if (!lists) return lists.error();
    auto alt = alternative_of(id, *lists);
    if (!alt) {
      saw_empty_[id] = true;
      return {};
    }
    DraftEntry& e = entries_[id];
    // A repeated id that says something of its own says it in its alternative's note.
    if (m.contains("description") && m["description"].is_string() && m["description"] != e.description) {
      const std::string d = m["description"].get<std::string>();
      alt->note = alt->note.empty() ? d : d + " (" + alt->note + ")";
    }
    auto found = std::find_if(e.alternatives.begin(), e.alternatives.end(),
                              [&](const DraftAlternative& a) { return effective(a) == effective(*alt); });
    if (found == e.alternatives.end()) {
      e.alternatives.push_back(std::move(*alt));
    } else if (!alt->note.empty()) {
      found->note += (found->note.empty() ? "" : "; ") + alt->note;
    }
    return {};
  }

  // The entries, in the file's order: one that maps to nothing says so, one whose every spec was
  // left out goes; then the specs_from ids, each an alias of the entry it (in the end) names.
  std::vector<DraftEntry> finish() {
    for (const auto& id : order_) {
      DraftEntry& e = entries_[id];
      if (!e.alternatives.empty()) continue;
      if (saw_empty_.count(id)) {
        e.note = "the PEP 804 mapping maps it to nothing";
      } else {
        r_.warnings.push_back(id + ": no spec is a valid name; the id is left out");
        entries_.erase(id);
      }
    }
    for (const auto& [alias, target] : specs_from_) {
      std::string to = target;
      for (int hops = 0; hops < 16 && specs_from_.count(to); ++hops) to = specs_from_.at(to);
      auto it = entries_.find(to);
      if (it == entries_.end() || entries_.count(alias)) {
        r_.warnings.push_back(alias + ": specs_from " + target + ", which has no mapping here; left out");
        continue;
      }
      it->second.aliases.push_back(alias);
    }
    std::vector<DraftEntry> out;
    for (auto& [id, e] : entries_) out.push_back(std::move(e));
    return out;
  }

 private:
  // The names of the specs, per category, with MatchSpecs kept in the note and invalid names
  // left out (with a warning); nullopt when no category names a package.
  std::optional<DraftAlternative> alternative_of(const std::string& id,
                                                 const std::array<std::optional<std::vector<std::string>>, 3>& lists) {
    DraftAlternative alt;
    std::vector<std::string> kept_specs;
    bool any = false;
    for (int i = 0; i < 3; ++i) {
      if (!lists[i]) continue;
      std::vector<std::string> names;
      for (const auto& text : *lists[i]) {
        Spec s = spec_of(text);
        if (auto problem = name_problem(manager_, s.name); problem || s.name.empty()) {
          r_.warnings.push_back(id + ": '" + text + "' " +
                                (problem ? problem->substr(problem->find(" is ") + 1) : "is empty") + "; left out");
          continue;
        }
        if (!s.text.empty() && std::find(kept_specs.begin(), kept_specs.end(), s.text) == kept_specs.end()) {
          kept_specs.push_back(s.text);
        }
        if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
      }
      if (!names.empty()) any = true;
      // An empty category beside others is "nothing extra" in PEP 804, where here it would say
      // "no package": leave it out and let the category fallback answer.
      if (!names.empty()) (i == 0 ? alt.build : i == 1 ? alt.host : alt.run) = names;
    }
    if (!any) return std::nullopt;
    for (const auto& s : kept_specs) alt.note += (alt.note.empty() ? "PEP 804 spec '" : ", '") + s + "'";
    return alt;
  }

  std::string manager_;
  ImportResult& r_;
  std::map<std::string, DraftEntry> entries_;
  std::vector<std::string> order_;
  std::map<std::string, std::string> specs_from_;  // id -> the id it is the same as
  std::map<std::string, bool> saw_empty_;          // id -> a mapping said "nothing"
};

}  // namespace

Result<ImportResult> import_pep804(const std::string& path, std::string ecosystem, const std::string& shown,
                                   const std::string& manager) {
  auto doc = read_mapping_file(path, shown);
  if (!doc) return doc.error();
  const std::string& name = shown.empty() ? path : shown;
  if (ecosystem.empty()) ecosystem = ecosystem_from_path(name);
  if (auto good = check_ecosystem(ecosystem); !good) return good.error();
  ImportResult r;
  r.table.ecosystem = ecosystem;
  read_table_keys(*doc, name, r.table);
  if (r.table.manager.empty()) r.table.manager = manager;
  Importer importer(r.table.manager, r);
  std::size_t index = 0;
  for (const auto& m : (*doc)["mappings"])
    if (auto read = importer.read(m, name + ": mappings[" + std::to_string(index++) + "]"); !read) return read.error();
  // PEP 804's schema requires package_managers: without one the packages would have no manager
  // to belong to (a table without one is a detector's, which lists modules, not packages).
  if (r.table.manager.empty()) {
    Error e = bad_input(name +
                        ": no package manager: a PEP 804 mapping file lists its managers in "
                        "\"package_managers\", each an object with a \"name\"");
    e.what = "no \"package_managers\" with a \"name\"";
    e.expected = "\"package_managers\": [{\"name\": ...}] (PEP 804's schema requires it)";
    return e;
  }
  r.table.entries = importer.finish();
  return r;
}

Result<nlohmann::json> export_pep804(const Table& table, const std::string& ecosystem_id) {
  if (table.manager.empty()) {
    return error_at(ExitCode::bad_input, "",
                    "the " + table.ecosystem +
                        " table names no package manager: PEP 804 "
                        "mappings are for package managers");
  }
  json doc;
  doc["$schema"] = kSchemaUrl;
  doc["schema_version"] = 1;
  // A release's file is named by its id alone ("debian+13"); the plain table's name says which
  // release its names are from ("debian (bookworm)").
  doc["name"] = !ecosystem_id.empty() ? ecosystem_id
                                      : table.ecosystem + (table.release.empty() ? "" : " (" + table.release + ")");
  doc["description"] = table.description.empty() ? "exported by extdeps from " + table.path
                                                 : table.description + " (exported by extdeps)";
  if (!table.selected_release.empty())
    doc["description"] = doc["description"].get<std::string>() + "; as on release " + table.selected_release;
  json mappings = json::array();
  const Category cats[] = {Category::build, Category::host, Category::run};
  for (const auto& e : table.entries) {
    auto base = [&]() {
      json m{{"id", e.id}};
      if (!e.description.empty()) m["description"] = e.description;
      if (!e.note.empty()) m["extra_metadata"]["note"] = e.note;
      return m;
    };
    if (e.unavailable()) {
      json m = base();
      m["specs"] = json::array();
      mappings.push_back(std::move(m));
    } else {
      std::size_t n = 0;
      for (Category c : cats) n = std::max(n, e.alternatives(c).size());
      for (std::size_t k = 0; k < n; ++k) {
        json m = base();
        json specs = json::object();
        std::string component;
        for (Category c : cats) {
          const auto& alts = e.alternatives(c);
          specs[std::string(category_name(c))] = k < alts.size() ? alts[k].packages : std::vector<std::string>{};
          if (k < alts.size() && alts[k].component != "main") component = alts[k].component;
          if (k < alts.size() && !alts[k].note.empty()) m["extra_metadata"]["alternative_note"] = alts[k].note;
        }
        if (!component.empty()) m["extra_metadata"]["component"] = component;
        m["specs"] = std::move(specs);
        mappings.push_back(std::move(m));
      }
    }
    for (const auto& a : e.aliases) mappings.push_back({{"id", a}, {"specs_from", e.id}});
  }
  doc["mappings"] = std::move(mappings);
  doc["package_managers"] = commands_for(table.manager);
  return doc;
}

Result<std::string> versioned_ecosystem(const std::string& ecosystem, const std::string& release) {
  static const std::regex kVersionId(R"([0-9][a-z0-9\-_.]*)");
  if (!std::regex_match(release, kVersionId)) {
    Error e = bad_input("release '" + release +
                        "' is not an os-release VERSION_ID (13, 24.04): PEP 804's versioned ecosystem "
                        "ids name the VERSION_ID, not the codename");
    e.what = "release '" + release + "' is not an os-release VERSION_ID";
    e.expected = "a VERSION_ID such as 13 or 24.04";
    return e;
  }
  std::string id = ecosystem.substr(0, ecosystem.find('+')) + "+" + release;
  if (auto good = check_ecosystem(id); !good) return good.error();
  return id;
}

Result<nlohmann::json> known_ecosystems_with(const std::string& path, const std::string& ecosystem,
                                             const std::string& url) {
  json doc = {{"$schema", kKnownEcosystemsSchemaUrl}, {"schema_version", 1}, {"ecosystems", json::object()}};
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    auto read = read_json_file(path, "known-ecosystems file");
    if (!read) return read.error();
    doc = std::move(*read);
    if (!doc.is_object() || !doc.contains("ecosystems") || !doc["ecosystems"].is_object())
      return expected_at(path, "a PEP 804 known-ecosystems file (an object with an \"ecosystems\" object)");
    if (doc.contains("schema_version") && doc["schema_version"] != 1)
      return expected_at(path + ": schema_version", "1 (the version this extdeps reads)");
    for (const auto& [id, details] : doc["ecosystems"].items()) {
      if (!details.is_object() || !details.contains("mapping") || !details["mapping"].is_string())
        return expected_at(path + ": ecosystems." + id, "an object with a string \"mapping\" (its URL)");
    }
  }
  doc["ecosystems"][ecosystem] = {{"mapping", url}};
  return doc;
}

}  // namespace extdeps::mapping
