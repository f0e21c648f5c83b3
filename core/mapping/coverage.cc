#include "core/mapping/coverage.h"

#include <algorithm>
#include <ostream>
#include <set>

#include "core/provider/descriptor.h"

namespace extdeps::mapping {

namespace {

// The columns follow the providers' order (EXTDEPS_PROVIDERS); tables no provider reads (a
// derivative's, a test's) come after, by name.
std::size_t rank(std::string_view ecosystem) {
  const auto& all = provider_descriptors();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i]->ecosystem == ecosystem) return i;
  return all.size();
}

std::string_view cell_text(Cover c) {
  switch (c) {
    case Cover::mapped: return "yes";
    case Cover::none: return "none";
    case Cover::absent: return "-";
  }
  return "-";
}

}  // namespace

std::string_view cover_name(Cover c) {
  switch (c) {
    case Cover::mapped: return "mapped";
    case Cover::none: return "none";
    case Cover::absent: return "absent";
  }
  return "absent";
}

std::size_t Coverage::count(std::size_t ecosystem, Cover c) const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [&](const CoverageRow& r) { return r.cells[ecosystem] == c; }));
}

std::size_t Coverage::count_unverified(std::size_t ecosystem, Cover c) const {
  return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [&](const CoverageRow& r) {
    return r.cells[ecosystem] == c && r.unverified[ecosystem];
  }));
}

Coverage coverage(const Tables& tables) {
  Coverage out;
  std::vector<const Table*> order;
  for (const auto& t : tables.tables) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [](const Table* a, const Table* b) {
    return std::make_pair(rank(a->ecosystem), a->ecosystem) < std::make_pair(rank(b->ecosystem), b->ecosystem);
  });
  std::set<std::string> ids;
  for (const Table* t : order) {
    out.ecosystems.push_back(t->ecosystem);
    for (const auto& e : t->entries) ids.insert(e.id);
  }
  for (const auto& id : ids) {
    CoverageRow row{id, {}, {}, {}};
    for (const Table* t : order) {
      // The id itself, or the entry it is an alias of there (an id spelled two ways is a lint
      // problem; here it counts where it is found).
      const Entry* e = t->find(id);
      row.cells.push_back(!e ? Cover::absent : e->unavailable() ? Cover::none : Cover::mapped);
      std::vector<std::string> releases;
      if (e) {
        for (const auto& r : e->releases) releases.push_back(r.release);
      }
      row.releases.push_back(std::move(releases));
      row.unverified.push_back(e && e->unverified);
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

void print_coverage(const Coverage& c, std::ostream& out) {
  std::size_t width = 2;
  for (const auto& r : c.rows) width = std::max(width, r.id.size());
  std::vector<std::size_t> col;
  for (const auto& e : c.ecosystems) col.push_back(std::max<std::size_t>(e.size(), 4));
  out << "id" << std::string(width - 2 + 2, ' ');
  for (std::size_t i = 0; i < c.ecosystems.size(); ++i) {
    out << c.ecosystems[i] << std::string(col[i] - c.ecosystems[i].size() + 2, ' ');
  }
  out << '\n';
  for (const auto& r : c.rows) {
    out << r.id << std::string(width - r.id.size() + 2, ' ');
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      std::string cell(cell_text(r.cells[i]));
      if (r.unverified[i]) cell += "?";
      if (!r.releases[i].empty()) cell += "+";
      out << cell << std::string(col[i] - std::min(col[i], cell.size()) + 2, ' ');
    }
    out << '\n';
  }
  out << '\n' << c.rows.size() << " ids";
  for (std::size_t i = 0; i < c.ecosystems.size(); ++i) {
    out << "; " << c.ecosystems[i] << ": " << c.count(i, Cover::mapped) << " mapped";
    const std::size_t u = c.count_unverified(i, Cover::mapped) + c.count_unverified(i, Cover::none);
    if (u > 0) out << " (" << u << " unverified)";
    out << ", " << c.count(i, Cover::none) << " none, " << c.count(i, Cover::absent) << " absent";
  }
  out << "\n(yes: mapped; none: the table says it has no package; -: not in the table; "
         "?: marked unverified, no real index confirmed the names; +: with per-release "
         "differences)\n";
}

nlohmann::json coverage_json(const Coverage& c) {
  using nlohmann::json;
  json j;
  j["ecosystems"] = c.ecosystems;
  json ids = json::array();
  for (const auto& r : c.rows) {
    json row{{"id", r.id}};
    json cells = json::object();
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      cells[c.ecosystems[i]] = cover_name(r.cells[i]);
      if (!r.releases[i].empty()) row["releases"][c.ecosystems[i]] = r.releases[i];
      if (r.unverified[i]) row["unverified"].push_back(c.ecosystems[i]);
    }
    row["mappings"] = std::move(cells);
    ids.push_back(std::move(row));
  }
  j["ids"] = std::move(ids);
  json totals = json::object();
  for (std::size_t i = 0; i < c.ecosystems.size(); ++i) {
    totals[c.ecosystems[i]] = {
        {"mapped", c.count(i, Cover::mapped)},
        {"none", c.count(i, Cover::none)},
        {"absent", c.count(i, Cover::absent)},
        {"unverified", c.count_unverified(i, Cover::mapped) + c.count_unverified(i, Cover::none)}};
  }
  j["totals"] = std::move(totals);
  j["count"] = c.rows.size();
  return j;
}

}  // namespace extdeps::mapping
