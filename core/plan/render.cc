#include "core/plan/render.h"

#include <algorithm>
#include <ostream>
#include <sstream>

#include "core/util/printable.h"
#include "core/util/text.h"

namespace extdeps::plan {

std::string_view status_name(Status s) {
  switch (s) {
    case Status::satisfied: return "satisfied";
    case Status::planned: return "planned";
    case Status::unsatisfiable: return "unsatisfiable";
    case Status::unmapped: return "unmapped";
  }
  return "unsatisfiable";
}

std::string shell_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !a.empty() && std::all_of(a.begin(), a.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) ||
             std::string_view("-_=.:/+,@%").find(c) != std::string_view::npos;
    });
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) {
      if (c == '\'') out += "'\\''";
      else out += c;
    }
    out += '\'';
  }
  return out;
}

std::string removal_text(const Removal& r) {
  return printable_text(r.name + " " + r.version + " (" + r.manager + "): " + r.reason);
}

nlohmann::json to_json(const Outcome& o) {
  using nlohmann::json;
  json j;
  j["status"] = o.ok() ? "ok" : "unsatisfiable";
  json reqs = json::array();
  for (const auto& r : o.requirements) {
    json x;
    x["id"] = r.requirement.url.id();
    x["canonical_id"] = r.canonical_id.empty() ? r.requirement.url.id() : r.canonical_id;
    x["spec"] = r.requirement.spec;
    x["category"] = category_name(r.requirement.category);
    x["range"] = r.requirement.range.str();
    if (r.requirement.group) x["group"] = *r.requirement.group;
    if (!r.requirement.marker.empty()) x["marker"] = r.requirement.marker;
    x["where"] = r.requirement.where.str();
    x["status"] = status_name(r.status);
    json pk = json::array();
    for (const auto& p : r.packages) {
      json q{{"manager", p.manager},
             {"ecosystem", p.ecosystem},
             {"name", p.name},
             {"version", p.version},
             {"installed", p.installed}};
      if (!p.where.empty()) q["where"] = p.where;
      pk.push_back(std::move(q));
    }
    x["packages"] = std::move(pk);
    if (!r.message.empty()) x["message"] = r.message;
    if (!r.suggestions.empty()) x["suggestions"] = r.suggestions;
    if (!r.candidates.empty()) x["candidates"] = r.candidates;
    if (!r.guess.empty()) x["guess"] = {{"evidence", r.guess}};
    reqs.push_back(std::move(x));
  }
  j["requirements"] = std::move(reqs);
  json steps = json::array();
  for (const auto& s : o.steps) {
    json pk = json::array();
    auto package = [](const PlannedPackage& p) {
      json q{{"name", p.name}, {"version", p.version}};
      if (!p.arch.empty()) q["arch"] = p.arch;
      if (!p.build.empty()) q["build"] = p.build;
      return q;
    };
    for (const auto& p : s.packages) pk.push_back(package(p));
    json step{{"manager", s.manager},
              {"packages", std::move(pk)},
              {"command", s.command},
              {"requires_elevation", s.requires_elevation}};
    if (!s.removals.empty()) {
      json rm = json::array();
      for (const auto& p : s.removals) rm.push_back(package(p));
      step["removals"] = std::move(rm);
    }
    steps.push_back(std::move(step));
  }
  j["steps"] = std::move(steps);
  if (!o.removals.empty()) {
    json removals = json::array();
    for (const auto& r : o.removals)
      removals.push_back(
          {{"manager", r.manager}, {"name", r.name}, {"version", r.version}, {"reason", r.reason}, {"for", r.needs}});
    j["removals"] = std::move(removals);
  }
  json problems = json::array();
  for (const auto& p : o.problems) {
    json q{{"requirement", p.requirement}, {"message", p.message}};
    if (!p.details.empty()) q["details"] = p.details;
    problems.push_back(std::move(q));
  }
  j["problems"] = std::move(problems);
  if (!o.warnings.empty()) j["warnings"] = o.warnings;
  return j;
}

namespace {

std::string requirement_text(const RequirementOutcome& r) {
  std::string s = r.requirement.url.id();
  if (!r.requirement.range.any()) s += " " + r.requirement.range.str();
  return printable_text(s);
}

std::string packages_text(const RequirementOutcome& r) {
  std::string out;
  for (const auto& p : r.packages) {
    if (!out.empty()) out += ", ";
    out += p.name + " " + p.version;
    if (p.installed) out += p.where.empty() ? " (installed)" : " (" + p.where + ")";
    else out += " (" + p.manager + ")";
  }
  return out;
}

constexpr std::string_view kGreen = "\x1b[32m", kCyan = "\x1b[36m", kRed = "\x1b[1;31m", kYellow = "\x1b[1;33m";

std::string_view status_colour(Status s) {
  return s == Status::satisfied ? kGreen : s == Status::planned ? kCyan : kRed;
}

}  // namespace

void print_text(const Outcome& o, const TextOptions& opt, std::ostream& out) {
  // ANSI SGR: the words stay as they are, so the columns are counted without the codes.
  auto paint = [&opt](std::string_view word, std::string_view sgr) {
    return opt.colour ? std::string(sgr) + std::string(word) + "\x1b[0m" : std::string(word);
  };
  auto tag = [](const RequirementOutcome& r) {
    return printable_text("[" + std::string(category_name(r.requirement.category)) +
                          (r.requirement.group ? ", " + *r.requirement.group : "") + "]");
  };
  size_t width = 0, tag_width = 0;
  for (const auto& r : o.requirements) {
    width = std::max(width, requirement_text(r).size());
    tag_width = std::max(tag_width, tag(r).size());
  }
  for (const auto& r : o.requirements) {
    if (!opt.show_satisfied && r.status == Status::satisfied) continue;
    std::string label(status_name(r.status));
    std::string req = requirement_text(r);
    std::string t = tag(r);
    out << "  " << paint(label, status_colour(r.status)) << std::string(14 - std::min<size_t>(13, label.size()), ' ')
        << req << std::string(width + 2 - req.size(), ' ') << t << std::string(tag_width + 2 - t.size(), ' ');
    if (r.status == Status::satisfied || r.status == Status::planned) out << printable_text(packages_text(r));
    else out << printable_text(r.message);
    if (!r.guess.empty() && (r.status == Status::satisfied || r.status == Status::planned))
      out << "  [guess: no mapping table knows it]";
    out << '\n';
    if (!r.guess.empty() && (opt.explain || r.status == Status::satisfied || r.status == Status::planned))
      for (const auto& g : r.guess) out << "      guessed: " << printable_text(g) << '\n';
    if (opt.explain)
      for (const auto& c : r.candidates) out << "      considered: " << printable_text(c) << '\n';
  }
  if (!o.steps.empty()) {
    out << '\n' << (o.steps.size() == 1 ? "1 step:" : std::to_string(o.steps.size()) + " steps:") << '\n';
    for (const auto& s : o.steps) {
      std::string prefix = s.requires_elevation && !opt.sudo.empty() ? opt.sudo + " " : "";
      out << "  " << prefix << printable_text(shell_line(s.command)) << '\n';
    }
  } else if (o.ok()) {
    out << "\nnothing to install: every need is already met\n";
  }
  if (!o.removals.empty()) {
    out << '\n'
        << (o.removals.size() == 1 ? "1 installed package is"
                                   : std::to_string(o.removals.size()) + " installed packages are")
        << " removed by this plan (extdeps install asks first; with --yes it needs --allow-removals):\n";
    for (const auto& r : o.removals)
      out << "  " << removal_text(r) << (r.needs.empty() ? "" : "; for " + printable_text(join(r.needs, ", "))) << '\n';
  }
  if (!o.warnings.empty()) out << '\n';
  for (const auto& w : o.warnings) out << paint("warning:", kYellow) << ' ' << printable_text(w) << '\n';
  if (!o.problems.empty()) {
    out << '\n';
    for (const auto& p : o.problems) {
      out << paint("error:", kRed) << ' ' << printable_text(p.message) << '\n';
      if (opt.explain)
        for (const auto& d : p.details) out << "  - " << printable_text(d) << '\n';
    }
    if (!opt.explain) out << "(run with --explain for every candidate considered)\n";
  }
}

std::string missing_text(const Outcome& o, const std::string& declaration, const std::string& sudo) {
  size_t missing = 0;
  for (const auto& r : o.requirements)
    if (r.status != Status::satisfied) ++missing;
  std::ostringstream out;
  out << "error: " << missing << " of " << o.requirements.size() << " needs of " << printable_text(declaration)
      << " are not met; a build would not find them\n\n";
  TextOptions t;
  t.show_satisfied = false;
  t.sudo = sudo;
  print_text(o, t, out);
  return out.str();
}

std::vector<std::string> command_line(const Step& step, const std::string& sudo) {
  std::vector<std::string> argv;
  if (step.requires_elevation && !sudo.empty()) argv.push_back(sudo);
  argv.insert(argv.end(), step.command.begin(), step.command.end());
  return argv;
}

}  // namespace extdeps::plan
