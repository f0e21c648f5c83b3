#include "core/cli/show_command.h"
#include "core/cli/fail.h"

#include <algorithm>
#include <ostream>

#include "core/json/document.h"
#include "core/plan/render.h"

namespace extdeps::cli {

namespace {

std::string joined(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (const auto& x : items) out += (out.empty() ? "" : sep) + x;
  return out;
}

nlohmann::json found_json(const engine::Found& f) {
  nlohmann::json j{{"ecosystem", f.ecosystem}, {"id", f.id}, {"field", f.field}, {"text", f.text}, {"where", f.where}};
  j["release"] = f.release.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.release);
  return j;
}

std::string field_text(const engine::Found& f) { return f.field + (f.release.empty() ? "" : " on " + f.release); }

// `show PACKAGE`: the ids whose entries name it, one line per table's entry.
int show_package(Context& ctx, const ShowOptions& o, std::ostream& out, std::ostream& err) {
  const std::string& name = o.request.depurl;
  auto found = engine::find_in_tables(ctx, o.request, name, true);
  if (!found.ok()) return fail(err, found.error(), o.json ? &out : nullptr);
  if (o.json) {
    nlohmann::json j{{"package", name}, {"named_by", nlohmann::json::array()}};
    for (const auto& f : *found) j["named_by"].push_back(found_json(f));
    out << extdeps::json::dump(j, 2) << '\n';
  } else if (!found->empty()) {
    out << name << " is named by:\n";
    // One line per (ecosystem, id): its categories and releases together.
    for (std::size_t i = 0; i < found->size(); ++i) {
      const auto& f = (*found)[i];
      bool seen = false;
      for (std::size_t k = 0; k < i; ++k)
        seen = seen || ((*found)[k].ecosystem == f.ecosystem && (*found)[k].id == f.id);
      if (seen) continue;
      std::vector<std::string> fields;
      for (std::size_t k = i; k < found->size(); ++k)
        if ((*found)[k].ecosystem == f.ecosystem && (*found)[k].id == f.id) fields.push_back(field_text((*found)[k]));
      out << "  " << f.ecosystem << ": " << f.id << " (" << joined(fields, ", ") << ")  " << f.where << '\n';
    }
  }
  if (found->empty()) {
    Error e = bad_input("no mapping table names a package or module '" + name + "' (a DepURL is written " +
                        "dep:TYPE/NAME; extdeps search " + name + " looks for it anywhere)");
    e.code = ExitCode::unsatisfied;
    e.what = name;
    e.hint = "extdeps search " + name;
    if (!o.json) return fail(err, e);
    return static_cast<int>(e.code);
  }
  return 0;
}

}  // namespace

int cmd_search(Context& ctx, const ShowOptions& o, std::ostream& out, std::ostream& err) {
  const std::string& word = o.request.depurl;
  if (word.empty()) return fail(err, bad_input("search needs a word"));
  auto found = engine::find_in_tables(ctx, o.request, word, false);
  if (!found.ok()) return fail(err, found.error(), o.json ? &out : nullptr);
  if (o.json) {
    nlohmann::json j{{"word", word}, {"found", nlohmann::json::array()}};
    for (const auto& f : *found) j["found"].push_back(found_json(f));
    out << extdeps::json::dump(j, 2) << '\n';
    return found->empty() ? 1 : 0;
  }
  // Grouped by id, in the order the tables hold them; an id that matches by itself says in
  // which tables it is.
  std::vector<std::string> ids;
  for (const auto& f : *found)
    if (std::find(ids.begin(), ids.end(), f.id) == ids.end()) ids.push_back(f.id);
  for (const auto& id : ids) {
    out << id << '\n';
    std::vector<std::string> in;
    for (const auto& f : *found)
      if (f.id == id && f.field == "id") in.push_back(f.ecosystem);
    if (!in.empty()) out << "  in: " << joined(in, ", ") << '\n';
    // One line per ecosystem and name: `debian: libpq-dev (build, host)`.
    for (std::size_t i = 0; i < found->size(); ++i) {
      const auto& f = (*found)[i];
      auto same = [&](const engine::Found& g) {
        return g.id == id && g.field != "id" && g.ecosystem == f.ecosystem && g.text == f.text;
      };
      if (!same(f) || std::any_of(found->begin(), found->begin() + static_cast<std::ptrdiff_t>(i), same)) continue;
      std::vector<std::string> fields;
      for (std::size_t k = i; k < found->size(); ++k)
        if (same((*found)[k])) fields.push_back(field_text((*found)[k]));
      out << "  " << f.ecosystem << ": " << f.text << " (" << joined(fields, ", ") << ")\n";
    }
  }
  if (found->empty()) {
    err << "extdeps: nothing in the mapping tables holds '" << word << "'\n";
    return 1;
  }
  return 0;
}

int cmd_show(Context& ctx, const ShowOptions& o, std::ostream& out, std::ostream& err) {
  // A word that is no DepURL (no scheme): a native package name to go back from.
  if (o.request.depurl.find(':') == std::string::npos) return show_package(ctx, o, out, err);
  engine::ShowRequest request = o.request;
  request.use_cache = !o.no_cache;
  auto shown = engine::show(ctx, request);
  if (!shown.ok()) return fail(err, shown.error(), o.json ? &out : nullptr);
  const engine::Shown& s = *shown;
  if (!o.json) out << s.id << (s.canonical_id != s.id ? " (" + s.canonical_id + ")" : "") << '\n';
  if (s.mappings.empty()) {
    std::string hint = joined(s.suggestions, ", ");
    err << "error: no mapping table knows " << s.id << (hint.empty() ? "" : " (did you mean " + hint + "?)") << '\n';
    return 1;
  }
  nlohmann::json j;
  j["id"] = s.id;
  j["canonical_id"] = s.canonical_id;
  j["mappings"] = nlohmann::json::array();
  for (const auto& m : s.mappings) {
    nlohmann::json mj{{"ecosystem", m.ecosystem}, {"table", m.table}};
    if (!o.json) out << "  " << m.ecosystem << " (" << m.where << ")\n";
    for (const auto& [category, alternatives] : m.categories) {
      std::vector<std::string> shown_alternatives;
      for (const auto& a : alternatives) shown_alternatives.push_back(joined(a, " + "));
      mj[std::string(category_name(category))] = alternatives;
      std::string line = joined(shown_alternatives, " | ");
      if (!o.json) out << "    " << category_name(category) << ": " << (line.empty() ? "(none)" : line) << '\n';
    }
    if (!m.modules.empty()) {
      mj["modules"] = m.modules;
      if (!o.json) out << "    pkg-config: " << joined(m.modules, " | ") << '\n';
    }
    if (!m.note.empty()) {
      mj["note"] = m.note;
      if (!o.json) out << "    note: " << m.note << '\n';
    }
    if (m.unverified) {
      mj["unverified"] = true;
      if (!o.json) out << "    unverified: no real index confirmed these names\n";
    }
    j["mappings"].push_back(std::move(mj));
  }
  j["here"] = nlohmann::json::array();
  if (!o.json) out << "  here:\n";
  int rc = 0;  // 1 when a category has no plan here, as resolve would say for that need
  for (const auto& outcome : s.here) {
    nlohmann::json whole = plan::to_json(outcome);
    nlohmann::json here = whole["requirements"][0];
    if (whole.contains("removals")) here["removals"] = whole["removals"];
    j["here"].push_back(std::move(here));
    const auto& ro = outcome.requirements[0];
    if (ro.status != plan::Status::planned && ro.status != plan::Status::satisfied) rc = 1;
    if (o.json) continue;
    out << "    " << category_name(ro.requirement.category) << ": " << plan::status_name(ro.status);
    for (const auto& p : ro.packages)
      out << "  " << p.name << " " << p.version << (p.installed ? " (installed)" : " (" + p.manager + ")");
    if (!ro.message.empty()) out << "  " << ro.message;
    out << '\n';
    for (const auto& r : outcome.removals) out << "      removes: " << plan::removal_text(r) << '\n';
    for (const auto& c : ro.candidates) out << "      candidate: " << c << '\n';
  }
  if (o.json) out << extdeps::json::dump(j, 2) << '\n';
  return rc;
}

}  // namespace extdeps::cli
