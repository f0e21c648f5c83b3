#include "core/mapping/lint.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "core/declare/declare.h"
#include "core/mapping/mapping.h"

namespace fs = std::filesystem;

namespace extdeps::mapping {

namespace {

constexpr Category kCategories[] = {Category::build, Category::host, Category::run};

// A loader's error as a problem, from its parts: its place is "path:line:col" (or "path:line",
// or the path alone) as load_table builds it, and the text is the rest of it (what, expected,
// hint) without the place. An error of another shape keeps its whole line.
LintProblem from_load_error(const std::string& path, const Error& e) {
  LintProblem whole{path, 0, 0, e.message};
  if (e.what.empty() || e.place.size() < path.size() || e.place.compare(0, path.size(), path) != 0) return whole;
  LintProblem p{path, 0, 0, error_at(e.code, "", e.what, e.expected, e.hint).message};
  const std::string_view rest = std::string_view(e.place).substr(path.size());
  std::size_t at = 0;
  auto number = [&](int& out) {
    if (at >= rest.size() || rest[at] != ':') return false;
    std::size_t end = at + 1;
    int n = 0;
    while (end < rest.size() && std::isdigit(static_cast<unsigned char>(rest[end])) && n < 100000000)
      n = n * 10 + (rest[end++] - '0');
    if (end == at + 1) return false;
    out = n;
    at = end;
    return true;
  };
  if (number(p.line)) number(p.column);
  return at == rest.size() ? p : whole;
}

LintProblem at(const SourceSpan& s, std::string message) {
  return LintProblem{s.file, s.line, s.column, std::move(message)};
}

// The files a path names: itself, or a folder's *.toml in name order.
std::vector<std::string> files_of(const std::string& path, std::vector<LintProblem>& problems) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return {path};
  if (!fs::is_directory(path, ec)) {
    problems.push_back({path, 0, 0, "no such file or folder"});
    return {};
  }
  std::vector<std::string> out;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".toml" && it->is_regular_file(ec)) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  if (out.empty()) problems.push_back({path, 0, 0, "the folder holds no *.toml mapping table"});
  return out;
}

void check_order(const Table& t, std::vector<LintProblem>& out) {
  std::vector<const Entry*> by_line;
  for (const auto& e : t.entries) by_line.push_back(&e);
  std::sort(by_line.begin(), by_line.end(),
            [](const Entry* a, const Entry* b) { return a->where.line < b->where.line; });
  for (std::size_t i = 1; i < by_line.size(); ++i) {
    if (by_line[i - 1]->id < by_line[i]->id) continue;
    // Where it belongs: before the first entry (in file order) with a greater id.
    const Entry* next =
        *std::find_if(by_line.begin(), by_line.end(), [&](const Entry* e) { return e->id > by_line[i]->id; });
    out.push_back(at(by_line[i]->where, by_line[i]->id +
                                            " is out of order: entries are sorted by id (it belongs before " +
                                            next->id + ", line " + std::to_string(next->where.line) + ")"));
  }
}

void check_depurl(const std::string& text, const char* what, const Entry& e, std::vector<LintProblem>& out) {
  bool legacy = false;
  auto url = declare::parse_depurl(text, &legacy);
  if (!url) {
    out.push_back(at(e.where, std::string(what) + " '" + text + "': " + url.error().message));
    return;
  }
  if (legacy) {
    out.push_back(
        at(e.where, std::string(what) + " '" + text + "' uses an old spelling: write it as dep:" + url->type + "/..."));
  } else if (text.compare(4, url->type.size(), url->type) != 0) {
    out.push_back(
        at(e.where, std::string(what) + " '" + text + "': write the type in lower case ('" + url->type + "')"));
  }
}

void check_alternatives(const Entry& e, std::vector<LintProblem>& out) {
  const std::size_t n = e.alternatives(Category::host).size();
  auto same = [&](std::size_t a, std::size_t b) {
    for (Category c : kCategories) {
      const auto& alts = e.alternatives(c);
      if (a >= alts.size() || b >= alts.size() || alts[a].packages != alts[b].packages) return false;
    }
    return true;
  };
  for (std::size_t i = 1; i < n; ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (!same(i, j)) continue;
      out.push_back(at(e.alternatives(Category::host)[i].where,
                       "alternative " + std::to_string(i + 1) + " of " + e.id + " repeats alternative " +
                           std::to_string(j + 1) + " (line " +
                           std::to_string(e.alternatives(Category::host)[j].where.line) + ")"));
      break;
    }
  }
  auto packages = [](const std::map<Category, std::vector<Alternative>>& by) {
    std::vector<std::vector<std::string>> out;
    for (const auto& [c, alts] : by) {
      for (const auto& a : alts) out.push_back(a.packages);
    }
    return out;
  };
  for (const auto& r : e.releases) {
    if (packages(r.by_category) == packages(e.by_category)) {
      out.push_back(at(r.where, "release " + r.release + " of " + e.id + " says what the entry says: remove it"));
    }
  }
}

void check_modules(const Entry& e, std::vector<LintProblem>& out) {
  for (const auto& m : e.modules) {
    if (m.size() > 3 && m.compare(m.size() - 3, 3, ".pc") == 0) {
      out.push_back(
          at(e.where, "module '" + m + "' of " + e.id + " is a file name: write '" + m.substr(0, m.size() - 3) + "'"));
    } else if (m.find('/') != std::string::npos) {
      out.push_back(at(e.where, "module '" + m + "' of " + e.id + " is a path: write the module name"));
    }
  }
}

struct Loaded {
  Table table;
  std::string folder;
};

void check_across(const std::vector<Loaded>& all, std::vector<LintProblem>& out) {
  // Every id and alias, with the table that says it, to find one thing spelled two ways.
  struct Owner {
    const Entry* entry;
    const Table* table;
  };
  std::map<std::string, Owner> alias_of;
  for (const auto& l : all) {
    for (const auto& e : l.table.entries) {
      for (const auto& a : e.aliases) alias_of.emplace(a, Owner{&e, &l.table});
    }
  }
  std::set<std::string> package_ids;
  bool any_package_table = false;
  for (const auto& l : all) {
    if (l.table.manager.empty()) continue;  // a detector's table
    any_package_table = true;
    for (const auto& e : l.table.entries) {
      package_ids.insert(e.id);
      package_ids.insert(e.aliases.begin(), e.aliases.end());
    }
  }
  for (const auto& l : all) {
    for (const auto& e : l.table.entries) {
      auto it = alias_of.find(e.id);
      if (it != alias_of.end() && it->second.entry->id != e.id) {
        out.push_back(at(e.where, "id " + e.id + " is an alias of " + it->second.entry->id + " in " +
                                      it->second.entry->where.str() + ": use the same id in every table"));
      }
      if (l.table.manager.empty() && any_package_table && !package_ids.count(e.id)) {
        out.push_back(at(e.where, e.id + " is in no package manager's table: a pkg-config module "
                                         "proves a library that some table maps (add the id there)"));
      }
    }
  }
  // Two files of one folder for the same ecosystem merge; the same id in both is a mistake.
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (std::size_t j = i + 1; j < all.size(); ++j) {
      if (all[i].folder != all[j].folder || all[i].table.ecosystem != all[j].table.ecosystem) continue;
      for (const auto& e : all[j].table.entries) {
        if (const Entry* first = all[i].table.find(e.id); first && first->id == e.id) {
          out.push_back(at(e.where, e.id + " is also in " + first->where.str() + " (ecosystem '" +
                                        all[j].table.ecosystem + "' in the same folder): say it once"));
        }
      }
    }
  }
}

}  // namespace

std::string LintProblem::str() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line);
  if (line > 0 && column > 0) s += ":" + std::to_string(column);
  return s + ": " + message;
}

LintReport lint(const std::vector<std::string>& paths) {
  LintReport r;
  std::vector<Loaded> loaded;
  std::set<std::string> seen;
  for (const auto& path : paths) {
    for (const auto& file : files_of(path, r.problems)) {
      std::error_code ec;
      if (!seen.insert(fs::weakly_canonical(file, ec).string()).second) continue;
      ++r.tables;
      auto t = load_table(file);
      if (!t) {
        r.problems.push_back(from_load_error(file, t.error()));
        continue;
      }
      r.ids += t->entries.size();
      check_order(*t, r.problems);
      for (const auto& e : t->entries) {
        check_depurl(e.id, "id", e, r.problems);
        for (const auto& a : e.aliases) check_depurl(a, "alias", e, r.problems);
        check_alternatives(e, r.problems);
        check_modules(e, r.problems);
      }
      loaded.push_back({std::move(*t), fs::path(file).parent_path().string()});
    }
  }
  check_across(loaded, r.problems);
  std::stable_sort(r.problems.begin(), r.problems.end(), [](const LintProblem& a, const LintProblem& b) {
    return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
  });
  return r;
}

}  // namespace extdeps::mapping
