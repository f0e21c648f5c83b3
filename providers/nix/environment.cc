#include "providers/nix/environment.h"

#include <algorithm>

#include "core/util/printable.h"
#include "core/version/detail.h"

namespace extdeps::nix {

namespace {

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  auto first = [](char c) { return version::detail::is_alpha(c) || c == '_'; };
  auto rest = [&](char c) { return first(c) || version::detail::is_digit(c) || c == '\'' || c == '-'; };
  if (!first(s.front())) return false;
  if (s == "let" || s == "in" || s == "if" || s == "then" || s == "else" || s == "with" || s == "rec" ||
      s == "inherit" || s == "assert" || s == "or")
    return false;
  return std::all_of(s.begin() + 1, s.end(), rest);
}

// A Nix string literal: '"', '\\' and '$' (so no "${" interpolates) escaped, and the control
// characters Nix has escapes for.
std::string nix_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else {
      if (c == '"' || c == '\\' || c == '$') out += '\\';
      out += c;
    }
  }
  return out + "\"";
}

// Text for a "# ..." comment: a line break (or any control character) in a need, a version or
// a path would end the comment and put the rest of the line in the code, so each is \xNN.
std::string comment(std::string_view s) { return escape_controls(s); }

// The attributes of one list, each once, with the needs it meets and its version as a comment.
std::string list(const std::vector<ShellPackage>& packages, bool build, std::string_view indent) {
  struct Line {
    std::string attr, version;
    std::vector<std::string> needs;
  };
  std::vector<Line> lines;
  for (const auto& p : packages) {
    if ((p.category == "build") != build) continue;
    auto it = std::find_if(lines.begin(), lines.end(), [&](const Line& l) { return l.attr == p.attr; });
    if (it == lines.end()) it = lines.insert(lines.end(), Line{p.attr, p.version, {}});
    if (std::find(it->needs.begin(), it->needs.end(), p.need) == it->needs.end()) it->needs.push_back(p.need);
  }
  size_t width = 0;
  for (const auto& l : lines) width = std::max(width, attr_expression("pkgs", l.attr).size());
  std::string out;
  for (const auto& l : lines) {
    std::string e = attr_expression("pkgs", l.attr);
    std::string needs;
    for (const auto& n : l.needs) needs += (needs.empty() ? "" : ", ") + n;
    out += std::string(indent) + e + std::string(width + 2 - e.size(), ' ') + "# " + comment(needs) + " (" +
           comment(l.version) + ")\n";
  }
  return out;
}

std::string mk_shell(const std::vector<ShellPackage>& packages, std::string_view indent) {
  std::string in(indent);
  std::string out = "pkgs.mkShell {\n";
  std::string tools = list(packages, true, in + "    "), libs = list(packages, false, in + "    ");
  out += in + "  # tools that run during the build\n";
  out += in + "  nativeBuildInputs = [\n" + tools + in + "  ];\n";
  out += in + "  # what the build links against and what runs\n";
  out += in + "  buildInputs = [\n" + libs + in + "  ];\n";
  out += in + "}";
  return out;
}

std::string header(const ShellOptions& o, std::string_view file) {
  std::string out = "# " + std::string(file) + " for " + comment(o.declaration) + ", planned by extdeps for " +
                    comment(o.system) + "\n";
  for (const auto& n : o.notes) out += "# " + comment(n) + "\n";
  return out;
}

bool has_cuda(const std::vector<ShellPackage>& packages) {
  return std::any_of(packages.begin(), packages.end(),
                     [](const ShellPackage& p) { return p.attr.rfind("cudaPackages", 0) == 0; });
}

}  // namespace

std::string attr_expression(std::string_view pkgs, std::string_view attr_path) {
  std::string out(pkgs);
  size_t start = 0;
  bool in_quotes = false;
  for (size_t i = 0; i <= attr_path.size(); ++i) {
    if (i < attr_path.size() && attr_path[i] == '"') in_quotes = !in_quotes;
    if (i < attr_path.size() && (attr_path[i] != '.' || in_quotes)) continue;
    std::string_view part = attr_path.substr(start, i - start);
    if (part.size() >= 2 && part.front() == '"' && part.back() == '"') part = part.substr(1, part.size() - 2);
    out += '.';
    out += is_identifier(part) ? std::string(part) : nix_string(part);
    start = i + 1;
  }
  return out;
}

std::string render_shell_nix(const std::vector<ShellPackage>& packages, const ShellOptions& o) {
  std::string nixpkgs = o.revision.empty()
                            ? "<nixpkgs>"
                            : "(fetchTarball \"https://github.com/NixOS/nixpkgs/archive/" + o.revision + ".tar.gz\")";
  return header(o, "shell.nix") + "{ pkgs ? import " + nixpkgs + " { } }:\n\n" + mk_shell(packages, "") + "\n";
}

std::string render_flake(const std::vector<ShellPackage>& packages, const ShellOptions& o) {
  std::string url = o.revision.empty() ? "nixpkgs" : "github:NixOS/nixpkgs/" + o.revision;
  std::string import = has_cuda(packages)
                           ? "import nixpkgs {\n        inherit system;\n        # CUDA is unfree in nixpkgs\n"
                             "        config.allowUnfree = true;\n      }"
                           : "nixpkgs.legacyPackages.${system}";
  std::string out = header(o, "flake.nix");
  out += "{\n";
  out += "  description = " + nix_string("development shell for " + o.declaration) + ";\n\n";
  out += "  inputs.nixpkgs.url = " + nix_string(url) + ";\n\n";
  out += "  outputs = { self, nixpkgs }:\n";
  out += "    let\n";
  out += "      system = " + nix_string(o.system) + ";\n";
  out += "      pkgs = " + import + ";\n";
  out += "    in {\n";
  out += "      devShells.${system}.default = " + mk_shell(packages, "      ") + ";\n";
  out += "    };\n";
  out += "}\n";
  return out;
}

}  // namespace extdeps::nix
