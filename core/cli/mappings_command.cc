#include "core/cli/mappings_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>

#include <unistd.h>

#include "core/cli/fail.h"
#include "core/config/command_options.h"
#include "core/config/config.h"
#include "core/fetch/fetch.h"
#include "core/fetch/options.h"
#include "core/json/document.h"
#include "core/mapping/coverage.h"
#include "core/mapping/diff.h"
#include "core/mapping/lint.h"
#include "core/mapping/mapping.h"
#include "core/mapping/merge.h"
#include "core/mapping/names.h"
#include "core/mapping/pep804.h"
#include "core/mapping/rosdep.h"
#include "core/mapping/verify.h"
#include "core/provider/descriptor.h"

namespace extdeps::cli {

namespace {

using config::add_command_option;
using config::Command;

// The extra folders: --mapping-dir, else EXTDEPS_MAPPING_DIRS, else the user's configuration.
Result<std::vector<std::string>> extra_dirs(const Context& ctx, const std::vector<std::string>& cli) {
  config::Settings s;
  if (!cli.empty()) {
    s.mapping_dirs = cli;
    s.mapping_dirs_from = "command line";
  }
  auto settings = config::load(ctx, "", s);
  if (!settings) return settings.error();
  return settings->mapping_dirs.value_or(std::vector<std::string>{});
}

Result<mapping::Tables> tables_for(const Context& ctx, const std::vector<std::string>& cli) {
  auto dirs = extra_dirs(ctx, cli);
  if (!dirs) return dirs.error();
  return mapping::load_tables(ctx, *dirs);
}

// Writes `text` to `path` ("" or "-": to out): whole or not at all (a temporary file beside it,
// renamed over it), so that a failed write leaves the file that was there.
Result<void> emit(const std::string& text, const std::string& path, std::ostream& out) {
  if (path.empty() || path == "-") {
    out << text;
    return {};
  }
  const std::string temp = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream f(temp, std::ios::binary | std::ios::trunc);
    if (f && (f << text) && f.flush()) {
      f.close();
      std::error_code ec;
      std::filesystem::rename(temp, path, ec);
      if (!ec) return {};
    }
  }
  std::error_code ignored;
  std::filesystem::remove(temp, ignored);
  return error_at(ExitCode::environment, path, "cannot write the output");
}

}  // namespace

struct MappingsCommand::Impl {
  CLI::App* group = nullptr;
  CLI::App* lint = nullptr;
  CLI::App* coverage = nullptr;
  CLI::App* verify = nullptr;
  CLI::App* import_pep804 = nullptr;
  CLI::App* import_rosdep = nullptr;
  CLI::App* export_pep804 = nullptr;
  CLI::App* diff = nullptr;

  std::vector<std::string> mapping_dirs;
  std::vector<std::string> paths;
  bool json = false;
  std::string ecosystem;
  std::string release;
  std::vector<std::string> index_files;
  // What each provider's other name of --index gave (ProviderDescriptor::verify_index_flag).
  std::deque<std::vector<std::string>> index_aliases;
  bool offline = false;
  std::string cache_dir;
  std::string file;
  std::string os;
  std::string output;
  std::string known_ecosystems;
  std::string mapping_url;
  std::string table_a, table_b;
  std::string merge_into;
  bool dry_run = false;

  int write_import(const mapping::DraftTable& table, std::ostream& out, std::ostream& err);

  int run_lint(const Context& ctx, std::ostream& out, std::ostream& err);
  int run_coverage(const Context& ctx, std::ostream& out, std::ostream& err);
  int run_verify(Context& ctx, std::ostream& out, std::ostream& err);
  int run_import_pep804(std::ostream& out, std::ostream& err);
  int run_import_rosdep(std::ostream& out, std::ostream& err);
  int run_export(const Context& ctx, std::ostream& out, std::ostream& err);
  int run_diff(std::ostream& out, std::ostream& err);
};

MappingsCommand::MappingsCommand(CLI::App& app) : impl_(std::make_unique<Impl>()) {
  Impl& o = *impl_;
  o.group =
      app.add_subcommand("mappings", "tools for the mapping tables: lint, coverage, verify, diff, import, export");
  o.group->require_subcommand(1);
  auto dirs = [&o](CLI::App* c, Command command) { add_command_option(*c, command, "mapping-dir", o.mapping_dirs); };

  o.lint = o.group->add_subcommand("lint", "check tables: schema, order, duplicates, ids, names (exit 1 on a problem)");
  o.lint->add_option("path", o.paths, "table files or folders (default: the shipped tables and the mapping dirs)");
  dirs(o.lint, Command::mappings_lint);

  o.coverage = o.group->add_subcommand("coverage", "which ids each ecosystem maps");
  add_command_option(*o.coverage, Command::mappings_coverage, "json", o.json);
  dirs(o.coverage, Command::mappings_coverage);

  o.verify =
      o.group->add_subcommand("verify", "check every name of a table against a real index (exit 1 on a missing name)");
  const Command verify = Command::mappings_verify;
  add_command_option(*o.verify, verify, "ecosystem", o.ecosystem);
  add_command_option(*o.verify, verify, "release", o.release);
  add_command_option(*o.verify, verify, "index", o.index_files);
  for (const ProviderDescriptor* d : provider_descriptors()) {
    if (d->verify_index_flag.empty()) continue;
    o.index_aliases.emplace_back();
    o.verify
        ->add_option("--" + std::string(d->verify_index_flag), o.index_aliases.back(),
                     "the same as --index, for the " + std::string(d->ecosystem) + " table")
        ->type_name("FILE|URL");
  }
  add_command_option(*o.verify, verify, "offline", o.offline);
  add_command_option(*o.verify, verify, "cache-dir", o.cache_dir);
  dirs(o.verify, verify);

  o.diff =
      o.group->add_subcommand("diff", "what changes from table A to table B, entry by entry (exit 1 when they differ)");
  o.diff->add_option("A", o.table_a, "the table before")->required();
  o.diff->add_option("B", o.table_b, "the table after")->required();
  add_command_option(*o.diff, Command::mappings_diff, "json", o.json);

  auto* import = o.group->add_subcommand("import", "write a mapping table from another format");
  import->require_subcommand(1);
  o.import_pep804 = import->add_subcommand("pep804", "from a PEP 804 {ecosystem}.mapping.json");
  o.import_pep804->add_option("file", o.file, "the mapping file")->required();
  add_command_option(*o.import_pep804, Command::mappings_import_pep804, "ecosystem", o.ecosystem);
  add_command_option(*o.import_pep804, Command::mappings_import_pep804, "output", o.output);
  add_command_option(*o.import_pep804, Command::mappings_import_pep804, "merge-into", o.merge_into);
  add_command_option(*o.import_pep804, Command::mappings_import_pep804, "dry-run", o.dry_run);
  o.import_rosdep = import->add_subcommand("rosdep", "from a rosdep YAML table, for one OS release");
  o.import_rosdep->add_option("file", o.file, "the rosdep file (e.g. rosdistro's rosdep/base.yaml)")->required();
  add_command_option(*o.import_rosdep, Command::mappings_import_rosdep, "os", o.os);
  add_command_option(*o.import_rosdep, Command::mappings_import_rosdep, "output", o.output);
  add_command_option(*o.import_rosdep, Command::mappings_import_rosdep, "merge-into", o.merge_into);
  add_command_option(*o.import_rosdep, Command::mappings_import_rosdep, "dry-run", o.dry_run);

  auto* exp = o.group->add_subcommand("export", "write a mapping table in another format");
  exp->require_subcommand(1);
  o.export_pep804 = exp->add_subcommand("pep804", "as a PEP 804 {ecosystem}.mapping.json");
  add_command_option(*o.export_pep804, Command::mappings_export_pep804, "ecosystem", o.ecosystem);
  add_command_option(*o.export_pep804, Command::mappings_export_pep804, "output", o.output);
  add_command_option(*o.export_pep804, Command::mappings_export_pep804, "release", o.release);
  add_command_option(*o.export_pep804, Command::mappings_export_pep804, "known-ecosystems", o.known_ecosystems);
  add_command_option(*o.export_pep804, Command::mappings_export_pep804, "mapping-url", o.mapping_url);
  dirs(o.export_pep804, Command::mappings_export_pep804);
}

MappingsCommand::~MappingsCommand() = default;

bool MappingsCommand::selected() const { return impl_->group->parsed(); }

int MappingsCommand::run(Context& ctx, std::ostream& out, std::ostream& err) {
  Impl& o = *impl_;
  if (*o.lint) return o.run_lint(ctx, out, err);
  if (*o.coverage) return o.run_coverage(ctx, out, err);
  if (*o.verify) return o.run_verify(ctx, out, err);
  if (*o.import_pep804) return o.run_import_pep804(out, err);
  if (*o.import_rosdep) return o.run_import_rosdep(out, err);
  if (*o.export_pep804) return o.run_export(ctx, out, err);
  if (*o.diff) return o.run_diff(out, err);
  return 2;
}

int MappingsCommand::Impl::run_lint(const Context& ctx, std::ostream& out, std::ostream& err) {
  std::vector<std::string> targets = paths;
  for (const auto& p : targets) {
    std::error_code ec;
    if (!std::filesystem::exists(p, ec)) return fail(err, error_at(ExitCode::bad_input, p, "no such file or folder"));
  }
  if (targets.empty()) {
    auto dirs = extra_dirs(ctx, mapping_dirs);
    if (!dirs) return fail(err, dirs.error());
    targets.push_back(mapping::default_mappings_dir(ctx));
    targets.insert(targets.end(), dirs->begin(), dirs->end());
  }
  auto report = mapping::lint(targets);
  for (const auto& p : report.problems) out << p.str() << '\n';
  if (report.problems.empty()) {
    out << "ok: " << report.tables << (report.tables == 1 ? " table, " : " tables, ") << report.ids
        << " entries, no problems\n";
    return 0;
  }
  out << report.problems.size() << (report.problems.size() == 1 ? " problem" : " problems") << " in " << report.tables
      << (report.tables == 1 ? " table" : " tables") << '\n';
  return 1;
}

int MappingsCommand::Impl::run_coverage(const Context& ctx, std::ostream& out, std::ostream& err) {
  auto tables = tables_for(ctx, mapping_dirs);
  if (!tables) return fail(err, tables.error());
  auto c = mapping::coverage(*tables);
  if (json) out << extdeps::json::dump(mapping::coverage_json(c), 2) << '\n';
  else mapping::print_coverage(c, out);
  return 0;
}

namespace {

// The table of --ecosystem, or the error naming the ecosystems there are.
Result<const mapping::Table*> table_of(const mapping::Tables& tables, const std::string& ecosystem) {
  if (const mapping::Table* t = tables.find_ecosystem(ecosystem)) return t;
  std::string known;
  for (const auto& x : tables.tables) known += (known.empty() ? "" : ", ") + x.ecosystem;
  Error e = bad_input("no mapping table for ecosystem '" + ecosystem + "' (known: " + known + ")");
  e.what = "no mapping table for ecosystem '" + ecosystem + "'";
  e.expected = "one of " + known;
  return e;
}

}  // namespace

int MappingsCommand::Impl::run_verify(Context& ctx, std::ostream& out, std::ostream& err) {
  if (!cache_dir.empty()) ctx.set_cache_dir(cache_dir);
  auto tables = tables_for(ctx, mapping_dirs);
  if (!tables) return fail(err, tables.error());
  auto found = table_of(*tables, ecosystem);
  if (!found) return fail(err, found.error());
  const mapping::Table* t = *found;
  // The names as the release to check sees them: this machine's, or --release.
  mapping::HostRelease host = mapping::host_release(ctx);
  if (!release.empty()) host = mapping::HostRelease{host.id, host.id_like, release, ""};
  mapping::select_for_host(*tables, host);
  t = tables->find_ecosystem(ecosystem);
  const std::string shown_release = host.codename.empty() ? host.version_id : host.codename;
  // The reader of the provider whose manager the table names.
  const ProviderDescriptor* d = descriptor_for_manager(t->manager);
  if (!d || !d->verify_index) {
    std::string reads;
    std::vector<std::string> readers;
    for (const ProviderDescriptor* x : provider_descriptors())
      if (x->verify_index) readers.emplace_back(x->verify_reads);
    for (std::size_t i = 0; i < readers.size(); ++i)
      reads += (i == 0 ? "" : i + 1 == readers.size() ? " and " : ", ") + readers[i];
    return fail(err, error_at(ExitCode::bad_input, "",
                              "no index to verify the " + ecosystem + " table against: verify reads " +
                                  (reads.empty() ? "no index in this build" : reads)));
  }
  VerifyInput input;
  input.sources = index_files;
  for (const auto& more : index_aliases) input.sources.insert(input.sources.end(), more.begin(), more.end());
  input.release = shown_release;
  input.offline = offline;
  Result<mapping::NameIndex> index = d->verify_index(ctx, input);
  if (!index) return fail(err, index.error());
  auto report = mapping::verify(*t, *index);
  mapping::print_verify(*t, *index, report, out);
  return report.found == report.checked ? 0 : 1;
}

int MappingsCommand::Impl::run_import_pep804(std::ostream& out, std::ostream& err) {
  auto r = mapping::import_pep804(file, ecosystem);
  if (!r) return fail(err, r.error());
  for (const auto& w : r->warnings) warn(err, w);
  return write_import(r->table, out, err);
}

int MappingsCommand::Impl::run_import_rosdep(std::ostream& out, std::ostream& err) {
  auto r = mapping::import_rosdep(file, os);
  if (!r) return fail(err, r.error());
  for (const auto& w : r->warnings) warn(err, w);
  err << "rosdep: " << r->keys << " keys; " << r->mapped << " mapped and " << r->unavailable << " not available for "
      << os << "; " << r->warnings.size() << " left out\n";
  return write_import(r->table, out, err);
}

// The imported table written whole (-o, else stdout), or merged into --merge-into's table
// (written there unless -o says elsewhere; --dry-run: the report alone, on stdout).
int MappingsCommand::Impl::write_import(const mapping::DraftTable& table, std::ostream& out, std::ostream& err) {
  if (merge_into.empty()) {
    if (dry_run) return fail(err, bad_input("--dry-run goes with --merge-into TABLE"));
    auto written = emit(mapping::write_table(table), output, out);
    if (!written) return fail(err, written.error());
    return 0;
  }
  auto merged = mapping::merge_into(merge_into, table);
  if (!merged) return fail(err, merged.error());
  for (const auto& w : merged->warnings) warn(err, w);
  mapping::print_merge(*merged, merge_into, dry_run ? out : err);
  if (dry_run) return 0;
  auto written = emit(merged->text, output.empty() ? merge_into : output, out);
  if (!written) return fail(err, written.error());
  return 0;
}

int MappingsCommand::Impl::run_export(const Context& ctx, std::ostream& out, std::ostream& err) {
  const bool to_stdout = output.empty() || output == "-";
  if (!known_ecosystems.empty() && to_stdout && mapping_url.empty()) {
    return fail(err, bad_input("--known-ecosystems names the mapping's URL: give --output FILE (its file:// URL) "
                               "or --mapping-url URL"));
  }
  auto tables = tables_for(ctx, mapping_dirs);
  if (!tables) return fail(err, tables.error());
  // --release: the table as that release sees it (its versioned table, its [id.release.X]),
  // written under PEP 804's versioned id.
  std::string id = ecosystem;
  if (!release.empty()) {
    auto versioned = mapping::versioned_ecosystem(ecosystem, release);
    if (!versioned) return fail(err, versioned.error());
    id = *versioned;
    mapping::select_for_host(*tables, mapping::HostRelease{ecosystem, {}, "", release});
  }
  auto t = table_of(*tables, ecosystem);
  if (!t) return fail(err, t.error());
  auto j = mapping::export_pep804(**t, release.empty() ? std::string() : id);
  if (!j) return fail(err, j.error());
  // The known-ecosystems file is read before anything is written: a bad one leaves both as they were.
  std::optional<nlohmann::json> known;
  if (!known_ecosystems.empty()) {
    std::string url = mapping_url;
    if (url.empty()) {
      std::error_code ec;
      url = "file://" + std::filesystem::absolute(output, ec).lexically_normal().string();
    }
    auto read = mapping::known_ecosystems_with(known_ecosystems, id, url);
    if (!read) return fail(err, read.error());
    known = std::move(*read);
  }
  auto written = emit(j->dump(2) + "\n", output, out);
  if (!written) return fail(err, written.error());
  if (known) written = emit(known->dump(2) + "\n", known_ecosystems, out);
  if (!written) return fail(err, written.error());
  return 0;
}

// Like diff(1): 0 when the tables map every id alike, 1 when they differ, 2 on bad input.
int MappingsCommand::Impl::run_diff(std::ostream& out, std::ostream& err) {
  std::ostream* json_out = json ? &out : nullptr;
  auto a = mapping::load_table(table_a);
  if (!a) return fail(err, a.error(), json_out);
  auto b = mapping::load_table(table_b);
  if (!b) return fail(err, b.error(), json_out);
  auto d = mapping::diff(*a, *b);
  if (json) out << extdeps::json::dump(mapping::diff_json(d), 2) << '\n';
  else mapping::print_diff(d, out);
  return d.empty() ? 0 : 1;
}

}  // namespace extdeps::cli
