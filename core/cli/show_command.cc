#include "core/cli/show_command.h"
#include "core/cli/fail.h"

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

}  // namespace

int cmd_show(Context& ctx, const ShowOptions& o, std::ostream& out, std::ostream& err) {
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
