#include "core/cli/manual_command.h"

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <string_view>

#include "core/config/variables.h"
#include "core/provider/descriptor.h"

namespace extdeps::cli {

namespace {

// Text for roff: a backslash doubled, '-' as \- (so that man shows and searches a hyphen), and a
// line that would start with '.' or '\'' guarded so that it is not read as a request.
std::string roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
    line_start = c == '\n';
  }
  return out;
}

// "--manager NAME", "-y, --yes": the spellings of an option and its value's name.
std::string spellings(const CLI::Option& o) {
  std::string out;
  for (const std::string& s : o.get_snames()) out += (out.empty() ? "" : ", ") + ("\\fB" + roff("-" + s) + "\\fR");
  for (const std::string& l : o.get_lnames()) out += (out.empty() ? "" : ", ") + ("\\fB" + roff("--" + l) + "\\fR");
  if (o.get_expected_min() > 0) {  // a flag expects none
    std::string type = o.get_type_name();
    if (type.empty()) type = "VALUE";
    out += " \\fI" + roff(type) + "\\fR";
  }
  return out;
}

// The positional arguments, for the synopsis: "[PATH]", "DIR".
std::string arguments(const CLI::App& app) {
  std::string out;
  for (const CLI::Option* o : app.get_options()) {
    if (!o->get_positional() || o->nonpositional()) continue;
    std::string name = o->get_name(true);
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out += " " + (o->get_required() ? "\\fI" + roff(name) + "\\fR" : "[\\fI" + roff(name) + "\\fR]");
  }
  return out;
}

void write_options(const CLI::App& app, std::ostream& out) {
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty() || (o->get_positional() && !o->nonpositional())) continue;
    if (o->get_lnames().empty() && o->get_snames().empty()) continue;
    out << ".TP\n" << spellings(*o) << '\n' << roff(o->get_description()) << '\n';
  }
}

// Each command that runs (a group such as `mappings` only lists its own), depth first.
void write_commands(const CLI::App& app, const std::string& path, std::ostream& out) {
  const auto subcommands = app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); });
  for (const CLI::App* s : subcommands) {
    const std::string here = path.empty() ? s->get_name() : path + " " + s->get_name();
    out << ".SS \"" << roff("extdeps " + here) << "\"\n";
    out << ".B extdeps " << roff(here) << "\n";
    const bool group = !s->get_subcommands([](const CLI::App* c) { return !c->get_group().empty(); }).empty();
    out << (group ? "\\fISUBCOMMAND\\fR" : "[\\fIOPTIONS\\fR]" + arguments(*s)) << "\n.PP\n";
    out << roff(s->get_description()) << ".\n";
    write_options(*s, out);
    write_commands(*s, here, out);
  }
}

void write_providers(std::ostream& out) {
  out << ".SH PROVIDERS\nThe package managers and detectors this build plans with, in their default order of "
         "preference (\\fBextdeps providers\\fR says more):\n";
  for (const ProviderDescriptor* d : provider_descriptors())
    out << ".TP\n.B " << roff(d->name) << '\n' << roff(d->summary) << '\n';
}

void write_environment(std::ostream& out) {
  out << ".SH ENVIRONMENT\nA variable that sets an option is read after the command line and before the "
         "project's \\fB[tool.extdeps]\\fR table and the user's configuration file "
         "(\\fBextdeps config \\-\\-variables\\fR shows each with its value and where it came from).\n";
  for (const config::Variable& v : config::variables()) {
    out << ".TP\n.B " << roff(v.name) << '\n';
    // The help as text, then the markup around the option's name: every part escaped once.
    std::string help = roff(v.help);
    if (!v.setting.empty()) help += (help.empty() ? "" : " ") + ("(the option \\fB\\-\\-" + roff(v.setting) + "\\fR)");
    if (v.owner != "core") help += " [" + roff(v.owner) + "]";
    out << help << '\n';
  }
}

}  // namespace

int cmd_manual(const CLI::App& app, std::ostream& out) {
  out << ".\\\" Written by `extdeps manual` from the command line itself; do not edit.\n";
  out << ".TH EXTDEPS 1 \"\" \"extdeps " << roff(EXTDEPS_VERSION) << "\" \"User Commands\"\n";
  out << ".SH NAME\nextdeps \\- " << roff(app.get_description().substr(app.get_description().find(": ") + 2)) << '\n';
  out << ".SH SYNOPSIS\n.B extdeps\n[\\fB\\-\\-root\\fR \\fIDIR\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] "
         "[\\fIARGUMENTS\\fR]\n";
  out << ".SH DESCRIPTION\n\\fBextdeps\\fR reads what a project needs outside its language's package manager "
         "(the \\fB[external]\\fR table of a \\fIpyproject.toml\\fR, PEP 725, or an \\fIextdeps.toml\\fR), maps each "
         "need through the mapping tables to the packages of the package managers here, and solves it all at "
         "once against what they offer, what is installed and what the machine is, into a plan: the commands "
         "that install what is missing, or why no plan exists.\n";
  out << ".SH OPTIONS\nOptions every command takes:\n";
  write_options(app, out);
  out << ".SH COMMANDS\n";
  write_commands(app, "", out);
  write_providers(out);
  write_environment(out);
  out << ".SH EXIT STATUS\n.TP\n.B 0\nsuccess: a plan, every need met, the command done\n"
         ".TP\n.B 1\nno plan: a need cannot be met here (or, for \\fBcheck\\fR, is not met yet)\n"
         ".TP\n.B 2\nbad input: a malformed file, an unknown option or key, a bad value; the message names "
         "the file, line and column\n"
         ".TP\n.B 3\nthe machine failed: an unreadable index, the network, a command that failed\n";
  out << ".SH FILES\n.TP\n.I pyproject.toml\nthe project's \\fB[external]\\fR table and its \\fB[tool.extdeps]\\fR "
         "settings\n.TP\n.I extdeps.toml\nthe same for a project without a pyproject.toml\n"
         ".TP\n.I $XDG_CONFIG_HOME/extdeps/config.toml\nthe user's settings (\\fI~/.config/extdeps/config.toml\\fR)\n"
         ".TP\n.I $XDG_CACHE_HOME/extdeps/\nthe cache: downloads, solver pools, parsed tables, host facts "
         "(\\fBextdeps cache info\\fR)\n";
  out << ".SH SEE ALSO\nPEP 725 (the \\fB[external]\\fR table), PEP 804 (the mapping of its names), and the "
         "manuals of the package managers a plan names.\n";
  return 0;
}

}  // namespace extdeps::cli
