#include "core/mapping/write_table.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace extdeps::mapping {

namespace {

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + toml_string(items[i]);
  return out + "]";
}

void write_lists(std::ostream& out, const DraftAlternative& a) {
  if (a.build) out << "build = " << list(*a.build) << '\n';
  if (a.host) out << "host = " << list(*a.host) << '\n';
  if (a.run) out << "run = " << list(*a.run) << '\n';
}

}  // namespace

std::string toml_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string write_table(DraftTable t) {
  std::sort(t.entries.begin(), t.entries.end(), [](const DraftEntry& a, const DraftEntry& b) { return a.id < b.id; });
  std::ostringstream out;
  for (const auto& c : t.comments) out << (c.empty() ? "#" : "# " + c) << '\n';
  out << "schema = 1\n";
  out << "ecosystem = " << toml_string(t.ecosystem) << '\n';
  if (!t.manager.empty()) out << "manager = " << toml_string(t.manager) << '\n';
  if (!t.release.empty()) out << "release = " << toml_string(t.release) << '\n';
  if (!t.description.empty()) out << "description = " << toml_string(t.description) << '\n';
  if (!t.version.empty()) out << "version = " << toml_string(t.version) << '\n';
  const bool detector = t.manager.empty();  // its entries list modules
  for (const auto& e : t.entries) {
    out << "\n[[id]]\nid = " << toml_string(e.id) << '\n';
    if (!e.aliases.empty()) out << "aliases = " << list(e.aliases) << '\n';
    if (!e.description.empty()) out << "description = " << toml_string(e.description) << '\n';
    if (detector) {
      out << "modules = " << list(e.modules) << '\n';
      if (!e.note.empty()) out << "note = " << toml_string(e.note) << '\n';
      continue;
    }
    if (e.alternatives.empty()) out << "host = []\n";
    if (e.alternatives.size() == 1) write_lists(out, e.alternatives[0]);
    std::string note = e.note;
    if (e.alternatives.size() == 1 && !e.alternatives[0].note.empty()) {
      note += (note.empty() ? "" : "; ") + e.alternatives[0].note;
    }
    if (!note.empty()) out << "note = " << toml_string(note) << '\n';
    if (e.alternatives.size() > 1) {
      for (const auto& a : e.alternatives) {
        out << "\n[[id.alternative]]\n";
        write_lists(out, a);
        if (!a.note.empty()) out << "note = " << toml_string(a.note) << '\n';
      }
    }
  }
  return out.str();
}

}  // namespace extdeps::mapping
