// Reading the [external] table (PEP 725) of a pyproject.toml or an extdeps.toml into Requirements,
// with file:line:col on every error a user can cause.
//
// Categories: build-requires -> build, host-requires -> host, dependencies -> run, and the same
// for their optional-* tables. dependency-groups are run: PEP 725 defines them as PEP 735 groups
// of external dependency specifiers, i.e. what a development environment needs installed next to
// the project (test tools, debuggers), not what its build links against.
//
// A file with no [external] table is an error, an empty file too (it declares nothing, which is
// never what was meant when it is passed by path).
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

#include <toml++/toml.h>

#include "core/declare/declare.h"
#include "core/util/limits.h"
#include "core/util/text.h"
#include "core/util/toml_depth.h"
#include "core/util/toml_once.h"

namespace extdeps::declare {

namespace {

constexpr std::array<std::string_view, 7> kKeys = {
    "build-requires",         "host-requires",         "dependencies",      "optional-build-requires",
    "optional-host-requires", "optional-dependencies", "dependency-groups",
};

struct Legacy {
  std::string_view old_name, new_name;
};
constexpr std::array<Legacy, 2> kLegacyKeys = {{
    {"build-host-requires", "host-requires"},
    {"optional-build-host-requires", "optional-host-requires"},
}};

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

bool valid_group_name(std::string_view s) {
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (s.empty() || !alnum(s.front()) || !alnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}

bool before(const toml::source_region& a, const toml::source_region& b) {
  return std::tie(a.begin.line, a.begin.column) < std::tie(b.begin.line, b.begin.column);
}

class Reader {
 public:
  Reader(const Context& ctx, std::string path) : ctx_(ctx) { decl_.path = std::move(path); }

  Result<Declaration> read(const toml::table& doc) {
    const toml::node* external = doc.get("external");
    if (!external) {
      // An empty file and one with other tables only are the same mistake: nothing declared.
      const std::string hint = "declare the needs as [external] host-requires = [\"dep:generic/zlib\"], PEP 725";
      return worded(
          ExitCode::bad_input,
          "no [external] table in " + decl_.path + " (" + (doc.empty() ? "the file is empty; " : "") + hint + ")",
          decl_.path, std::string("no [external] table") + (doc.empty() ? " (the file is empty)" : ""), {}, hint);
    }
    if (!external->is_table()) {
      return at(external->source(), "expected [external] to be a table, got " + std::string(type_name(*external)));
    }
    const toml::table& table = *external->as_table();
    if (auto r = check_keys(table); !r) return r.error();

    for (std::string_view key : kKeys) {
      auto found = lookup(table, key);
      if (!found) return found.error();
      const toml::node* node = *found;
      if (!node) continue;
      Result<void> r;
      if (key == "build-requires") r = read_list(*node, key, Category::build, std::nullopt);
      if (key == "host-requires") r = read_list(*node, key, Category::host, std::nullopt);
      if (key == "dependencies") r = read_list(*node, key, Category::run, std::nullopt);
      if (key == "optional-build-requires") r = read_optional(*node, key, Category::build);
      if (key == "optional-host-requires") r = read_optional(*node, key, Category::host);
      if (key == "optional-dependencies") r = read_optional(*node, key, Category::run);
      if (key == "dependency-groups") r = read_dependency_groups(*node);
      if (!r) return r.error();
    }
    if (bad_count_ > 0) {
      // One error, one line per specifier; the edge prints "error: " before the first, so the
      // others carry it too. Its parts (place, what, expected) are the first specifier's.
      std::string msg;
      for (const auto& b : bad_) msg += (msg.empty() ? "" : "\nerror: ") + b.message;
      if (bad_count_ > bad_.size())
        msg += "\nerror: " + decl_.path + ": " + std::to_string(bad_count_ - bad_.size()) +
               " more bad specifiers not shown";
      Error e = bad_.front();
      e.code = ExitCode::bad_input;
      e.message = std::move(msg);
      return e;
    }
    return std::move(decl_);
  }

 private:
  Error at(const toml::source_region& where, const std::string& message) const {
    return error_at(ExitCode::bad_input, place(where), message);
  }
  std::string place(const toml::source_region& where) const {
    return SourceSpan{decl_.path, static_cast<int>(where.begin.line), static_cast<int>(where.begin.column)}.str();
  }

  // Every key of [external] is known; the first unknown one (in file order) is the error.
  Result<void> check_keys(const toml::table& table) const {
    const toml::key* unknown = nullptr;
    for (auto&& [key, node] : table) {
      // A named copy of the binding's text: clang before 16 cannot capture a structured binding.
      const std::string_view name = key.str();
      bool known =
          std::find(kKeys.begin(), kKeys.end(), name) != kKeys.end() ||
          std::any_of(kLegacyKeys.begin(), kLegacyKeys.end(), [&](const Legacy& l) { return l.old_name == name; });
      if (!known && (!unknown || before(key.source(), unknown->source()))) unknown = &key;
    }
    if (!unknown) return {};
    std::string msg = "unknown key '" + shorten(unknown->str()) + "' in [external]";
    if (auto near = did_you_mean(unknown->str(), kKeys)) msg += " (did you mean '" + *near + "'?)";
    return at(unknown->source(), msg);
  }

  // The node for `key`, under its name or its older one (with a warning, once per file).
  Result<const toml::node*> lookup(const toml::table& table, std::string_view key) const {
    const toml::node* node = table.get(key);
    for (const Legacy& l : kLegacyKeys) {
      if (l.new_name != key) continue;
      auto it = table.find(l.old_name);
      if (it == table.end()) continue;
      if (node) {
        return at(it->first.source(), "'" + std::string(l.old_name) + "' repeats '" + std::string(key) +
                                          "' under its older name (keep '" + std::string(key) + "')");
      }
      ctx_.warn(place(it->first.source()) + ": '" + std::string(l.old_name) + "' is the older name of '" +
                std::string(key) + "'; rename it to '" + std::string(key) + "'");
      node = &it->second;
    }
    return node;
  }

  Result<void> add(const toml::node& item, std::string_view context, Category category,
                   const std::optional<std::string>& group) {
    const auto* text = item.as_string();
    if (!text) {
      return at(item.source(),
                "expected a string in " + std::string(context) + ", got " + std::string(type_name(item)));
    }
    if (decl_.requirements.size() >= limits::kMaxRequirements) {
      return at(item.source(), "more than " + std::to_string(limits::kMaxRequirements) + " requirements in " +
                                   decl_.path + " (extdeps reads at most that)");
    }
    if (text->get().size() > limits::kMaxSpecifierLength) {
      return at(item.source(), "a specifier of " + std::to_string(text->get().size()) +
                                   " bytes (extdeps reads at most " + std::to_string(limits::kMaxSpecifierLength) +
                                   ")");
    }
    bool legacy = false;
    auto req = parse_requirement(text->get(), &legacy);
    if (!req) {
      // Every bad specifier of the file is reported, not only the first: a user fixes them in
      // one go. The read goes on; read() fails at the end.
      if (bad_.size() < kMaxReported) bad_.push_back(at_place(req.error(), place(item.source())));
      ++bad_count_;
      return {};
    }
    req->category = category;
    req->group = group;
    req->where = SourceSpan{decl_.path, static_cast<int>(item.source().begin.line),
                            static_cast<int>(item.source().begin.column)};
    if (legacy) {
      ctx_.warn(req->where.str() + ": '" + text->get() + "' uses an older DepURL spelling; write '" + req->url.str() +
                "'");
    }
    decl_.requirements.push_back(std::move(*req));
    return {};
  }

  Result<void> read_list(const toml::node& node, std::string_view key, Category category,
                         const std::optional<std::string>& group) {
    const toml::array* array = node.as_array();
    std::string context = "'" + std::string(key) + "'";
    if (group) context += " group '" + *group + "'";
    if (!array) {
      return at(node.source(), "expected an array of strings for " + context + ", got " + std::string(type_name(node)));
    }
    for (const toml::node& item : *array) {
      if (auto r = add(item, context, category, group); !r) return r;
    }
    return {};
  }

  // Table entries in file order (toml::table iterates by key).
  static std::vector<std::pair<const toml::key*, const toml::node*>> in_file_order(const toml::table& table) {
    std::vector<std::pair<const toml::key*, const toml::node*>> out;
    for (auto&& [key, node] : table) out.emplace_back(&key, &node);
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return before(a.first->source(), b.first->source()); });
    return out;
  }

  Result<void> check_group_name(const toml::key& key) const {
    if (key.str().size() > limits::kMaxNameLength) {
      return at(key.source(), "a group name of " + std::to_string(key.str().size()) + " bytes (extdeps reads at most " +
                                  std::to_string(limits::kMaxNameLength) + ")");
    }
    if (valid_group_name(key.str())) return {};
    return at(key.source(), "invalid group name '" + shorten(key.str()) +
                                "' (expected letters, digits, '-', '_' or '.', starting and "
                                "ending with a letter or digit)");
  }

  Result<void> read_optional(const toml::node& node, std::string_view key, Category category) {
    const toml::table* table = node.as_table();
    if (!table) {
      return at(node.source(), "expected a table of groups for '" + std::string(key) + "' (like [external." +
                                   std::string(key) + "] name = [...]), got " + std::string(type_name(node)));
    }
    for (auto [name, list] : in_file_order(*table)) {
      if (auto r = check_group_name(*name); !r) return r;
      std::string group(name->str());
      if (std::find(decl_.optional_groups.begin(), decl_.optional_groups.end(), group) == decl_.optional_groups.end()) {
        decl_.optional_groups.push_back(group);
      }
      if (auto r = read_list(*list, key, category, group); !r) return r;
    }
    return {};
  }

  struct Group {
    std::string name;  // as written
    const toml::key* key = nullptr;
    const toml::array* items = nullptr;
  };

  // A requirement string of a group, with the name of the group that writes it.
  struct Item {
    const toml::node* node = nullptr;
    std::string group;
  };

  Result<void> read_dependency_groups(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (!table) {
      return at(node.source(),
                "expected a table of groups for 'dependency-groups', got " + std::string(type_name(node)));
    }
    std::map<std::string, Group> groups;  // by normalised name
    std::vector<std::string> order;
    for (auto [key, value] : in_file_order(*table)) {
      if (auto r = check_group_name(*key); !r) return r;
      std::string norm = normalize_name(key->str());
      if (auto it = groups.find(norm); it != groups.end()) {
        return at(key->source(), "dependency group '" + shorten(key->str()) + "' repeats '" + it->second.name +
                                     "' (group names are compared normalised)");
      }
      if (!value->is_array()) {
        return at(value->source(), "expected an array for dependency group '" + shorten(key->str()) + "', got " +
                                       std::string(type_name(*value)));
      }
      groups[norm] = Group{std::string(key->str()), key, value->as_array()};
      order.push_back(norm);
      decl_.dependency_groups.push_back(std::string(key->str()));
    }
    // Each group's requirements, its includes' flattened in (each item once), memoised: a chain
    // or a diamond of includes costs one visit per group, not one per path through it.
    std::map<std::string, std::vector<Item>> flat;
    for (const std::string& norm : order) {
      if (auto r = flatten(groups, norm, flat); !r) return r;
    }
    for (const std::string& norm : order) {
      for (const Item& item : flat.at(norm)) {
        std::string context = "dependency group '" + shorten(item.group) + "'";
        if (auto r = add(*item.node, context, Category::run, groups.at(norm).name); !r) return r;
      }
    }
    return {};
  }

  // Flattens group `norm` into flat[norm], without recursion: a stack of (group, next item),
  // bounded by kMaxGroupDepth. An include of a group on the stack is a cycle.
  Result<void> flatten(const std::map<std::string, Group>& groups, const std::string& norm,
                       std::map<std::string, std::vector<Item>>& flat) const {
    if (flat.count(norm)) return {};
    struct Frame {
      std::string norm;
      std::size_t next = 0;
    };
    std::vector<Frame> stack{{norm, 0}};
    while (!stack.empty()) {
      Frame& top = stack.back();
      const Group& group = groups.at(top.norm);
      if (top.next < group.items->size()) {
        const toml::node& item = *group.items->get(top.next++);
        auto target = include_target(groups, group, item);
        if (!target) return target.error();
        if (target->empty() || flat.count(*target)) continue;
        auto on_stack = std::find_if(stack.begin(), stack.end(), [&](const Frame& f) { return f.norm == *target; });
        const toml::source_region& where = item.as_table()->get("include-group")->source();
        if (on_stack != stack.end()) {
          std::string cycle;
          for (auto f = on_stack; f != stack.end(); ++f) cycle += shorten(groups.at(f->norm).name) + " -> ";
          return at(where,
                    "dependency groups include each other in a cycle: " + cycle + shorten(groups.at(*target).name));
        }
        if (stack.size() >= limits::kMaxGroupDepth) {
          return at(where, "dependency group '" + shorten(groups.at(stack.front().norm).name) +
                               "' includes groups more than " + std::to_string(limits::kMaxGroupDepth) +
                               " deep (extdeps reads at most that)");
        }
        stack.push_back({*target, 0});
        continue;
      }
      // Every include of the group is flat: its own strings and theirs, each node once.
      std::vector<Item> out;
      std::set<const toml::node*> seen;
      auto keep = [&](const Item& i) {
        if (seen.insert(i.node).second) out.push_back(i);
      };
      for (const toml::node& item : *group.items) {
        if (item.is_string()) {
          keep({&item, group.name});
          continue;
        }
        std::string wanted = normalize_name(item.as_table()->get("include-group")->as_string()->get());
        for (const Item& i : flat.at(wanted)) keep(i);
      }
      if (out.size() > limits::kMaxRequirements) {
        return at(group.key->source(), "dependency group '" + shorten(group.name) + "' has more than " +
                                           std::to_string(limits::kMaxRequirements) +
                                           " requirements with its includes (extdeps reads at most that)");
      }
      flat[top.norm] = std::move(out);
      stack.pop_back();
    }
    return {};
  }

  // The normalised name of the group an item includes; empty for a requirement string.
  Result<std::string> include_target(const std::map<std::string, Group>& groups, const Group& group,
                                     const toml::node& item) const {
    if (item.is_string()) return std::string();
    std::string context = "dependency group '" + shorten(group.name) + "'";
    const toml::table* include = item.as_table();
    if (!include) {
      return at(item.source(), "expected a string or {include-group = \"name\"} in " + context + ", got " +
                                   std::string(type_name(item)));
    }
    const toml::node* target = nullptr;
    for (auto&& [key, value] : *include) {
      if (key.str() != "include-group") {
        return at(key.source(), "unknown key '" + shorten(key.str()) + "' in an include of " + context +
                                    " (expected 'include-group')");
      }
      target = &value;
    }
    if (!target || !target->is_string()) {
      return at(target ? target->source() : item.source(), "expected include-group = \"name\" in " + context);
    }
    const std::string& wanted = target->as_string()->get();
    std::string wanted_norm = normalize_name(wanted);
    if (groups.count(wanted_norm)) return wanted_norm;
    std::vector<std::string_view> names;
    for (const auto& [n, g] : groups) names.push_back(g.name);
    std::string msg = context + " includes unknown group '" + shorten(wanted) + "'";
    if (auto near = did_you_mean(wanted, names)) msg += " (did you mean '" + *near + "'?)";
    return at(target->source(), msg);
  }

  static constexpr std::size_t kMaxReported = 20;

  const Context& ctx_;
  Declaration decl_;
  std::vector<Error> bad_;  // the first kMaxReported, each at its file:line:col
  std::size_t bad_count_ = 0;
};

// What to look at on a line toml++ refused: the usual slips in a hand-written [external].
std::string toml_hint(const std::string& path, std::size_t line_number, std::string_view description) {
  if (description.find("comma") != std::string_view::npos)
    return "the strings of an array are separated by commas; one is likely missing at the end of the line before";
  std::ifstream in(path);
  std::string line;
  for (std::size_t i = 0; i < line_number && std::getline(in, line); ++i) {
  }
  const auto quotes = std::count(line.begin(), line.end(), '"');
  if (quotes % 2 == 1) return "a string is not closed on this line: TOML strings end with '\"' on the same line";
  if (line.find('[') != std::string::npos && line.find(']') == std::string::npos && line.find('=') != std::string::npos)
    return "an array that goes on over several lines needs its closing ']' and commas between strings";
  if (line.find('=') == std::string::npos && line.find('[') == std::string::npos)
    return "expected 'key = value' or a [table] header; DepURLs go in quotes inside an array";
  return "not valid TOML; DepURLs are quoted strings in an array: host-requires = [\"dep:generic/zlib\"]";
}

// Parses a TOML file; errors carry file:line:col and a hint.
Result<std::shared_ptr<const toml::table>> parse_toml(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    if (std::filesystem::exists(path, ec))
      return worded(ExitCode::bad_input, path + " is not a file", path, "not a file");
    return worded(ExitCode::bad_input, "no such file: " + path, path, "no such file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return worded(ExitCode::environment, "cannot read " + path, path, "cannot read it");
  std::stringstream text;
  text << in.rdbuf();
  if (auto deep = toml_too_deep(text.view(), path)) return *deep;
  try {
    return parse_toml_once(text.view(), path);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    if (where.line == 0)
      return worded(ExitCode::environment, "cannot read " + path + ": " + std::string(e.description()), path,
                    "cannot read it: " + std::string(e.description()));
    const std::string hint = toml_hint(path, where.line, e.description());
    Error error = error_at(ExitCode::bad_input,
                           SourceSpan{path, static_cast<int>(where.line), static_cast<int>(where.column)}.str(),
                           lower_first(e.description()) + " (" + hint + ")");
    error.what = lower_first(e.description());
    error.hint = hint;
    return error;
  } catch (const std::exception& e) {
    return worded(ExitCode::environment, "cannot read " + path + ": " + e.what(), path,
                  std::string("cannot read it: ") + e.what());
  }
}

}  // namespace

Result<Declaration> read_declaration(const Context& ctx, const std::string& path) {
  auto doc = parse_toml(path);
  if (!doc) return doc.error();
  return Reader(ctx, path).read(**doc);
}

Result<std::string> find_declaration(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec))
    return worded(ExitCode::bad_input, "no such file or directory: " + path, path, "no such file or directory");
  if (!fs::is_directory(path, ec)) return path;
  std::string dir = path;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  std::string pyproject = dir + "/pyproject.toml";
  std::string extdeps = dir + "/extdeps.toml";
  bool has_pyproject = fs::is_regular_file(pyproject, ec);
  if (has_pyproject) {
    auto doc = parse_toml(pyproject);
    if (!doc) return doc.error();
    if ((*doc)->contains("external")) return pyproject;
  }
  if (fs::is_regular_file(extdeps, ec)) return extdeps;
  if (has_pyproject) {
    return worded(ExitCode::bad_input, "no [external] table in " + pyproject + " and no " + extdeps, dir,
                  "no [external] table in pyproject.toml and no extdeps.toml");
  }
  return worded(ExitCode::bad_input, "no pyproject.toml or extdeps.toml in " + dir, dir,
                "no pyproject.toml or extdeps.toml");
}

}  // namespace extdeps::declare
