#include "core/mapping/verify.h"

#include <algorithm>
#include <ostream>
#include <tuple>

namespace extdeps::mapping {

VerifyReport verify(const Table& table, const NameIndex& index) {
  VerifyReport r;
  for (const auto& e : table.entries) {
    // Each alternative once (the category fallback repeats them), each name once per alternative.
    std::set<std::tuple<std::string, int, int, std::string>> done;
    bool any = false;
    const std::size_t problems_before = r.problems.size();
    for (const auto& [category, alternatives] : e.by_category) {
      (void)category;
      for (const auto& a : alternatives) {
        if (!index.components.empty() && !index.components.count(a.component)) {
          for (const auto& p : a.packages) {
            if (done.insert({a.where.file, a.where.line, a.where.column, p}).second) {
              ++r.skipped;
              r.skipped_components.insert(a.component);
            }
          }
          continue;
        }
        for (const auto& p : a.packages) {
          if (!done.insert({a.where.file, a.where.line, a.where.column, p}).second) continue;
          any = true;
          ++r.checked;
          if (index.names.count(p)) {
            ++r.found;
            continue;
          }
          std::string message = e.id + ": " + p + " is not in the index";
          if (auto v = index.provided_by.find(p); v != index.provided_by.end()) {
            message =
                e.id + ": " + p + " is only a virtual package (provided by " + v->second + "): name a real package";
          }
          r.problems.push_back(LintProblem{a.where.file, a.where.line, a.where.column, message});
        }
      }
    }
    if (any) ++r.ids;
    if (e.unverified && any) {
      r.missing_unverified += r.problems.size() - problems_before;
      if (r.problems.size() == problems_before) r.confirmed_unverified.push_back(e.id);
    }
    for (const auto& rel : e.releases) {
      if (rel.release == table.selected_release) continue;
      std::set<std::string> names;
      for (const auto& [c, alts] : rel.by_category) {
        for (const auto& a : alts) names.insert(a.packages.begin(), a.packages.end());
      }
      r.other_releases += names.size();
    }
  }
  std::stable_sort(r.problems.begin(), r.problems.end(), [](const LintProblem& a, const LintProblem& b) {
    return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
  });
  return r;
}

void print_verify(const Table& table, const NameIndex& index, const VerifyReport& r, std::ostream& out) {
  for (const auto& p : r.problems) out << p.str() << '\n';
  const std::size_t missing = r.checked - r.found;
  out << (missing ? "" : "ok: ") << table.ecosystem << ": checked " << r.checked << " names of " << r.ids
      << " ids against " << index.description << ": " << r.found << " found, " << missing << " missing\n";
  if (r.missing_unverified) {
    out << r.missing_unverified << " of the missing names are in entries marked unverified\n";
  }
  if (!r.confirmed_unverified.empty()) {
    out << r.confirmed_unverified.size()
        << " entries marked unverified have all their names in the index (remove the mark):";
    for (const auto& id : r.confirmed_unverified) out << ' ' << id;
    out << '\n';
  }
  if (r.skipped) {
    std::string components;
    for (const auto& c : r.skipped_components) components += (components.empty() ? "" : ", ") + c;
    out << "skipped " << r.skipped << " names in " << components
        << " (not in the index: add those lists, e.g. with --index)\n";
  }
  if (r.other_releases) {
    out << "not checked: " << r.other_releases
        << " names of [id.release.X] for other releases (verify on that release, or with "
           "--release and --index)\n";
  }
}

}  // namespace extdeps::mapping
