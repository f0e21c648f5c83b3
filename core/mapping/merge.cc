#include "core/mapping/merge.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

namespace extdeps::mapping {

namespace {

// The text of one entry as write_table writes it: from its "[[id]]" line to its end, with one
// newline.
std::string entry_text(const DraftTable& imported, const DraftEntry& e) {
  DraftTable one;
  one.ecosystem = imported.ecosystem;
  one.manager = imported.manager;
  one.entries.push_back(e);
  std::string text = write_table(std::move(one));
  text = text.substr(text.find("[[id]]"));
  while (text.size() > 1 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n') text.pop_back();
  return text;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Where an entry whose [[id]] is on 1-based line `line` starts: above it, the comment lines
// that touch it (a comment written over an entry belongs to it). 0-based.
std::size_t start_of(const std::vector<std::string>& lines, int line) {
  if (line < 1 || static_cast<std::size_t>(line) > lines.size()) return lines.size();
  std::size_t i = static_cast<std::size_t>(line - 1);
  while (i > 0 && !lines[i - 1].empty() && lines[i - 1][0] == '#') --i;
  return i;
}

// The curated text with each added entry before the first curated entry whose id sorts after
// it, or at the end.
std::string insert_entries(const std::string& text, const Table& curated,
                           const std::vector<std::pair<std::string, std::string>>& added) {
  const std::vector<std::string> lines = split_lines(text);
  std::map<std::size_t, std::string> before;  // 0-based line -> the blocks that go above it
  std::string tail;
  for (const auto& [id, block] : added) {
    auto next = std::upper_bound(curated.entries.begin(), curated.entries.end(), id,
                                 [](const std::string& x, const Entry& e) { return x < e.id; });
    if (next == curated.entries.end()) tail += "\n" + block;
    else before[start_of(lines, next->where.line)] += block + "\n";
  }
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (auto b = before.find(i); b != before.end()) out += b->second;
    out += lines[i] + "\n";
  }
  // An entry whose place is unknown (no line) goes last, still whole.
  if (auto b = before.find(lines.size()); b != before.end()) tail = "\n" + b->second + tail;
  return out + tail;
}

Result<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error_at(ExitCode::bad_input, path, "cannot read the mapping table");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

Result<MergeResult> merge_into(const std::string& table_path, const DraftTable& imported) {
  auto text = read_text(table_path);
  if (!text) return text.error();
  auto curated = load_table_text(*text, table_path);
  if (!curated) return curated.error();
  if (curated->ecosystem != imported.ecosystem || curated->manager != imported.manager) {
    return error_at(ExitCode::bad_input, table_path,
                    "is the " + curated->ecosystem + " table (manager '" + curated->manager + "'); the import is for " +
                        imported.ecosystem + " (manager '" + imported.manager +
                        "'): give --ecosystem or merge into that ecosystem's table");
  }
  auto incoming = load_table_text(write_table(imported), "the import");
  if (!incoming) return incoming.error();
  MergeResult m;
  m.report = diff(*curated, *incoming);
  m.report.path_b = "the import";
  // An id the table spells as an alias is the table's entry: kept, not added twice.
  std::vector<std::string> to_add;
  for (const auto& id : m.report.added) {
    const Entry* e = curated->find(id);
    if (e && e->spelled(id)) m.aliased.emplace_back(id, e->id);
    else to_add.push_back(id);
  }
  m.report.added = to_add;
  std::vector<std::pair<std::string, std::string>> added;
  for (const auto& id : m.report.added) {
    auto e =
        std::find_if(imported.entries.begin(), imported.entries.end(), [&](const DraftEntry& x) { return x.id == id; });
    if (e != imported.entries.end()) added.emplace_back(id, entry_text(imported, *e));
  }
  m.text = insert_entries(*text, *curated, added);
  auto check = load_table_text(m.text, table_path + " (merged)");
  if (!check) return check.error();
  if (check->entries.size() != curated->entries.size() + added.size()) {
    return error_at(ExitCode::bad_input, table_path, "the merged table does not hold every entry of both");
  }
  // An added entry takes the table's default version rule: say so where the import's differs.
  std::size_t other_rule = 0;
  for (const auto& [id, block] : added) {
    const Entry* now = check->find(id);
    const Entry* was = incoming->find(id);
    if (!now || !was) continue;
    const auto& a = now->alternatives(Category::host);
    const auto& b = was->alternatives(Category::host);
    if (!a.empty() && !b.empty() &&
        (a[0].version.kind != b[0].version.kind || a[0].version.pattern != b[0].version.pattern))
      ++other_rule;
  }
  if (other_rule > 0) {
    m.warnings.push_back(std::to_string(other_rule) + " added entries take " + table_path +
                         "'s default version rule, not the import's ('" + imported.version +
                         "'): give them a `version` where the two differ");
  }
  return m;
}

void print_merge(const MergeResult& m, const std::string& table_path, std::ostream& out) {
  const TableDiff& d = m.report;
  out << "merge into " << table_path << ": " << d.added.size() << " added, " << d.changed.size()
      << " kept as the table says where the import says otherwise, " << d.same << " alike, " << d.removed.size()
      << " only in the table (kept)";
  if (!m.aliased.empty()) out << ", " << m.aliased.size() << " the table's aliases (kept)";
  out << '\n';
  for (const auto& id : d.added) out << "+ " << id << '\n';
  for (const auto& [id, entry] : m.aliased) out << "= " << id << " (an alias of " << entry << " in the table; kept)\n";
  for (const auto& e : d.changed) {
    out << "~ " << e.id << " (kept)\n";
    for (const auto& c : e.changes) {
      out << "    " << c.field << ": " << (c.before.empty() ? "(none)" : c.before) << " -> "
          << (c.after.empty() ? "(none)" : c.after) << '\n';
    }
  }
}

}  // namespace extdeps::mapping
