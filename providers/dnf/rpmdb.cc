// The installed set, as rpm prints it: one "=PKG" line a package, then one line a relation.
#include <string>

#include "core/util/text.h"
#include "providers/dnf/dnf_provider.h"

namespace extdeps::dnf {

// %{EPOCHNUM} is 0 without an epoch; depflags print < > = <= >= or nothing. Files are kept as
// primary.xml keeps them (/etc/*, *bin/*), for file dependencies.
const char* const kQueryFormat =
    "=PKG\\t%{NAME}\\t%{EPOCHNUM}\\t%{VERSION}\\t%{RELEASE}\\t%{ARCH}\\n"
    "[P\\t%{PROVIDENAME}\\t%{PROVIDEFLAGS:depflags}\\t%{PROVIDEVERSION}\\n]"
    "[R\\t%{REQUIRENAME}\\t%{REQUIREFLAGS:depflags}\\t%{REQUIREVERSION}\\n]"
    "[C\\t%{CONFLICTNAME}\\t%{CONFLICTFLAGS:depflags}\\t%{CONFLICTVERSION}\\n]"
    "[O\\t%{OBSOLETENAME}\\t%{OBSOLETEFLAGS:depflags}\\t%{OBSOLETEVERSION}\\n]"
    "[F\\t%{FILENAMES}\\n]";

namespace {

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const auto tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) return out;
    start = tab + 1;
  }
}

DepOp op_of(std::string_view f) {
  if (f == "=") return DepOp::eq;
  if (f == "<") return DepOp::lt;
  if (f == "<=") return DepOp::le;
  if (f == ">") return DepOp::gt;
  if (f == ">=") return DepOp::ge;
  return DepOp::any;
}

bool kept_file(std::string_view path) {
  return path.starts_with("/etc/") || path.find("bin/") != std::string_view::npos || path == "/usr/lib/sendmail";
}

}  // namespace

Result<void> parse_rpm_query(std::string_view text, const std::string& origin, const RecordSink& sink) {
  PackageRecord rec;
  bool open = false;
  std::size_t line_no = 0;
  auto flush = [&] {
    if (open) sink(std::move(rec));
    rec = PackageRecord{};
    open = false;
  };
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (line.empty()) continue;
    const auto f = fields(line);
    const std::string place = origin + ": line " + std::to_string(line_no);
    if (f[0] == "=PKG") {
      if (f.size() != 6)
        return error_at(ExitCode::environment, place, "a package line of " + std::to_string(f.size()) + " fields", "6");
      flush();
      rec.name = std::string(f[1]);
      rec.version =
          (f[2] == "0" ? std::string() : std::string(f[2]) + ":") + std::string(f[3]) + "-" + std::string(f[4]);
      rec.arch = std::string(f[5]) == "(none)" ? std::string() : std::string(f[5]);
      rec.installed = true;
      rec.origin = origin;
      open = true;
      continue;
    }
    if (!open)
      return error_at(ExitCode::environment, place, "'" + shorten(line) + "' before any package", "=PKG first");
    if (f[0] == "F") {
      if (f.size() == 2 && kept_file(f[1])) rec.provides.push_back({std::string(f[1]), DepOp::any, {}});
      continue;
    }
    if (f.size() != 4)
      return error_at(ExitCode::environment, place, "a relation line of " + std::to_string(f.size()) + " fields", "4");
    NativeDep d{std::string(f[1]), op_of(f[2]), std::string(f[3])};
    if (d.op == DepOp::any) d.version.clear();
    if (d.name.empty()) continue;
    if (f[0] == "P") rec.provides.push_back(std::move(d));
    else if (f[0] == "R") {
      if (d.name.starts_with("rpmlib(") || d.name.front() == '(') continue;  // rpm's own; rich: see primary.cc
      rec.depends.push_back({std::move(d)});
    } else if (f[0] == "C" || f[0] == "O") {
      rec.conflicts.push_back(std::move(d));
    }
  }
  flush();
  return {};
}

}  // namespace extdeps::dnf
