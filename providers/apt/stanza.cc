// deb822 stanzas of a Packages or dpkg status file, as deb-control(5) and dpkg read them: one
// pass over the lines, keeping views of the eleven fields the model needs and skipping the rest
// (Description, SHA256, Tag ...) without copying. A record is built only for a stanza that passes
// the arch and status filters.
#include <cstring>
#include <string>
#include <string_view>

#include "core/util/compressed_reader.h"
#include "core/util/limits.h"
#include "providers/apt/apt_provider.h"
#include "providers/apt/multiarch.h"
#include "providers/apt/relations.h"

namespace extdeps::apt {

namespace {

enum FieldId : int {
  kPackage,
  kVersion,
  kArchitecture,
  kMultiArch,
  kStatus,
  kProvides,
  kPreDepends,
  kDepends,
  kConflicts,
  kBreaks,
  kSource,
  kFieldCount
};

constexpr const char* kFieldNames[kFieldCount] = {"Package",   "Version",  "Architecture", "Multi-Arch",
                                                  "Status",    "Provides", "Pre-Depends",  "Depends",
                                                  "Conflicts", "Breaks",   "Source"};

struct Field {
  std::string_view value;  // from just after ':' to the end of its last continuation line
  size_t line = 0;
  bool seen = false;
};

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

bool same_name(std::string_view name, const char* canonical) {
  for (size_t i = 0; i < name.size(); ++i)
    if (name[i] != canonical[i] && lower(name[i]) != lower(canonical[i])) return false;
  return true;
}

// Field names are case-insensitive (deb822); real files use the canonical spelling.
int field_id(std::string_view name) {
  auto is = [&](FieldId id) { return same_name(name, kFieldNames[id]) ? id : -1; };
  int id = -1;
  switch (name.size()) {
    case 6: (id = is(kStatus)) >= 0 || (id = is(kBreaks)) >= 0 || (id = is(kSource)) >= 0; break;
    case 7: (id = is(kPackage)) >= 0 || (id = is(kVersion)) >= 0 || (id = is(kDepends)) >= 0; break;
    case 8: id = is(kProvides); break;
    case 9: id = is(kConflicts); break;
    case 10: id = is(kMultiArch); break;
    case 11: id = is(kPreDepends); break;
    case 12: id = is(kArchitecture); break;
    default: break;
  }
  return id;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view v) {
  while (!v.empty() && is_space(v.front())) v.remove_prefix(1);
  while (!v.empty() && is_space(v.back())) v.remove_suffix(1);
  return v;
}

bool has_space(std::string_view v) {
  for (char c : v)
    if (is_space(c)) return true;
  return false;
}

// A line for a message: at most 60 characters, quoted by the caller.
std::string excerpt(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > 60) return std::string(line.substr(0, 57)) + "...";
  return std::string(line);
}

class StanzaParser {
 public:
  StanzaParser(const std::string& origin, const Architectures& archs, bool installed_only, const RecordSink& sink)
      : origin_(origin), archs_(archs), installed_only_(installed_only), sink_(sink) {}

  // Parses whole lines; a chunk that does not end with a newline is the end of a truncated
  // file. Chunks may end inside a stanza only when the next chunk continues the same buffer.
  Result<void> feed(std::string_view text) {
    // memchr must not get the null data() of an empty view (UBSan; an empty file).
    if (const void* nul = text.empty() ? nullptr : std::memchr(text.data(), '\0', text.size())) {
      size_t off = static_cast<const char*>(nul) - text.data();
      size_t line = line_ + 1, line_start = 0;
      for (size_t i = 0; i < off; ++i)
        if (text[i] == '\n') ++line, line_start = i + 1;
      return fail(line, "NUL byte at column " + std::to_string(off - line_start + 1), "text; the file may be corrupt");
    }
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
      ++line_;
      const char* eol = static_cast<const char*>(std::memchr(p, '\n', end - p));
      if (!eol)
        return fail(line_, "file ends in the middle of a line",
                    "a newline at the end of every line; the file may be truncated");
      char c = *p;
      if (c == ' ' || c == '\t' || c == '\r' || p == eol) {
        const char* q = p;
        while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
        if (q == eol) {  // an empty or blank line ends the stanza
          if (in_stanza_) {
            if (auto r = finish(); !r) return r;
          }
          current_ = nullptr;
          in_field_ = false;
        } else {
          if (!in_field_)
            return fail(line_, "continuation line '" + excerpt({p, static_cast<size_t>(eol - p)}) + "' outside a field",
                        "'Field: value' before it");
          if (current_) current_->value = {current_->value.data(), static_cast<size_t>(eol - current_->value.data())};
        }
      } else {
        std::string_view whole(p, static_cast<size_t>(eol - p));
        if (c == '#')
          return fail(line_, "comment line '" + excerpt(whole) + "'",
                      "'Field: value'; Packages and status files have no comments");
        const char* colon = static_cast<const char*>(std::memchr(p, ':', eol - p));
        if (!colon)
          return fail(line_, "missing ':' in line '" + excerpt(whole) + "'",
                      "'Field: value' or an indented continuation line");
        if (colon == p) return fail(line_, "empty field name in line '" + excerpt(whole) + "'", "'Field: value'");
        for (const char* q = p; q < colon; ++q)
          if (*q == ' ' || *q == '\t')
            return fail(line_, "bad field name '" + excerpt({p, static_cast<size_t>(colon - p)}) + "'",
                        "a name without spaces before ':'");
        if (!in_stanza_) {
          in_stanza_ = true;
          stanza_line_ = line_;
        }
        int id = field_id({p, static_cast<size_t>(colon - p)});
        current_ = nullptr;
        if (id >= 0) {
          Field& f = fields_[id];
          if (f.seen)
            return fail(line_, "duplicate " + std::string(kFieldNames[id]) + " field",
                        "one per stanza; a blank line may be missing between stanzas");
          f.seen = true;
          f.line = line_;
          f.value = {colon + 1, static_cast<size_t>(eol - colon - 1)};
          current_ = &f;
        }
        in_field_ = true;
      }
      p = eol + 1;
    }
    return {};
  }

  // The line the next chunk starts on.
  size_t next_line() const { return line_ + 1; }

  // "origin:line: what (expected ...)": for the caller that cuts the file into chunks.
  Error error_at(size_t line, std::string what, std::string_view expected) const {
    return make_error(line, std::move(what), expected);
  }

  // The last stanza need not end with a blank line.
  Result<void> end() {
    current_ = nullptr;
    in_field_ = false;
    if (in_stanza_) return finish();
    return {};
  }

 private:
  Error make_error(size_t line, std::string what, std::string_view expected) const {
    return extdeps::error_at(ExitCode::environment, origin_ + ":" + std::to_string(line), std::move(what),
                             std::string(expected));
  }
  Result<void> fail(size_t line, std::string what, std::string_view expected) const {
    return make_error(line, std::move(what), expected);
  }

  void reset() {
    for (auto& f : fields_) f = Field{};
    in_stanza_ = false;
  }

  // One required single-word field: the word, or an error. Messages are built only on error.
  Result<std::string_view> word(FieldId id, std::string_view package) const {
    const Field& f = fields_[id];
    auto name = [&] { return std::string(kFieldNames[id]); };
    auto of = [&] { return package.empty() ? std::string() : " of package '" + std::string(package) + "'"; };
    if (!f.seen) {
      if (id == kPackage) return make_error(stanza_line_, "stanza without a Package field", "'Package: <name>'");
      return make_error(stanza_line_, "package '" + std::string(package) + "' has no " + name() + " field",
                        "'" + name() + ": <" + (id == kVersion ? "version" : "arch") + ">'");
    }
    std::string_view v = trim(f.value);
    if (v.empty()) return make_error(f.line, "empty " + name() + " field" + of(), "a value after '" + name() + ":'");
    // A name or version is kept and printed: one of a gigabyte would cost gigabytes.
    const size_t most = id == kPackage ? limits::kMaxNameLength : limits::kMaxVersionLength;
    if (v.size() > most)
      return make_error(f.line, name() + " '" + excerpt(v) + "' of " + std::to_string(v.size()) + " bytes" + of(),
                        "at most " + std::to_string(most) + " bytes");
    if (has_space(v))
      return make_error(f.line, "bad " + name() + " '" + excerpt(v) + "'" + of(), "one word without spaces");
    return v;
  }

  Error relation_error(size_t line, const RelationError& err) const {
    // Renders as before: "<place>: <what> (expected <what>)".
    return make_error(line, err.what, err.expected);
  }

  Result<void> finish() {
    for (int id = 0; id < kFieldCount; ++id)
      if (fields_[id].seen && fields_[id].value.size() > limits::kMaxFieldLength)
        return fail(fields_[id].line,
                    std::string(kFieldNames[id]) + " field of " + std::to_string(fields_[id].value.size()) + " bytes",
                    "at most " + std::to_string(limits::kMaxFieldLength) + " bytes");
    auto pkg = word(kPackage, "");
    if (!pkg) return pkg.error();
    package_ = *pkg;
    bool installed = false;
    if (fields_[kStatus].seen) {
      std::string_view s = trim(fields_[kStatus].value);
      size_t a = s.find(' '), b = a == std::string_view::npos ? a : s.find(' ', a + 1);
      if (a == std::string_view::npos || b == std::string_view::npos || s.find(' ', b + 1) != std::string_view::npos)
        return fail(fields_[kStatus].line, "bad Status '" + excerpt(s) + "' of package '" + std::string(package_) + "'",
                    "three words such as 'install ok installed'");
      // What is on disk matters, not what the user selected: "hold ok installed" and
      // "deinstall ok installed" packages are installed too.
      installed = s.substr(a + 1, b - a - 1) == "ok" && s.substr(b + 1) == "installed";
    } else if (installed_only_) {
      return fail(stanza_line_, "package '" + std::string(package_) + "' has no Status field",
                  "'Status: install ok installed' or another dpkg state");
    }
    if (installed_only_ && !installed) {
      reset();
      return {};
    }
    auto version = word(kVersion, package_);
    if (!version) return version.error();
    auto arch = word(kArchitecture, package_);
    if (!arch) return arch.error();
    if (!wanted_arch(*arch)) {
      reset();
      return {};
    }
    MultiArch ma = MultiArch::no;
    if (fields_[kMultiArch].seen) {
      std::string_view m = trim(fields_[kMultiArch].value);
      if (m == "same") ma = MultiArch::same;
      else if (m == "foreign") ma = MultiArch::foreign;
      else if (m == "allowed") ma = MultiArch::allowed;
      else if (m != "no")
        return fail(fields_[kMultiArch].line,
                    "bad Multi-Arch '" + excerpt(m) + "' of package '" + std::string(package_) + "'",
                    "no, same, foreign or allowed");
    }

    ArchNaming naming(archs_, *arch, ma);
    PackageRecord r;
    r.name = naming.own_name(package_);
    r.version = std::string(*version);
    r.arch = std::string(*arch);
    r.origin = origin_;
    r.installed = installed;
    struct Step {
      FieldId id;
      RelationField kind;
    };
    static constexpr Step kSteps[] = {{kProvides, RelationField::provides},
                                      {kPreDepends, RelationField::pre_depends},
                                      {kDepends, RelationField::depends},
                                      {kConflicts, RelationField::conflicts},
                                      {kBreaks, RelationField::breaks}};
    for (const Step& s : kSteps) {
      if (!fields_[s.id].seen) continue;
      RelationError err;
      if (!parse_relations(fields_[s.id].value, s.kind, *arch, scratch_, err)) {
        size_t line = fields_[s.id].line;
        for (size_t i = 0; i < err.offset && i < fields_[s.id].value.size(); ++i)
          if (fields_[s.id].value[i] == '\n') ++line;
        return relation_error(line, err);
      }
      switch (s.kind) {
        case RelationField::provides: naming.add_provides(package_, *version, scratch_, r.provides); break;
        case RelationField::pre_depends:
        case RelationField::depends: naming.add_depends(scratch_, r.depends); break;
        case RelationField::conflicts:
        case RelationField::breaks: naming.add_conflicts(scratch_, r.conflicts); break;
      }
    }
    if (!fields_[kProvides].seen && ma != MultiArch::no && ma != MultiArch::same) {
      scratch_.clear();
      naming.add_provides(package_, *version, scratch_, r.provides);
    }
    // The source package it was built from, where it is named otherwise ("Source: gdal (3.6.2)"
    // on libgdal-dev), as the provide "src:gdal": a guess for dep:generic/gdal finds the binary
    // packages of that source (core/mapping/guess.h). Native and arch-all records only.
    if (fields_[kSource].seen && (*arch == "all" || *arch == archs_.native)) {
      std::string_view src = trim(fields_[kSource].value);
      src = src.substr(0, src.find(' '));
      if (!src.empty() && src != package_) r.provides.push_back(NativeDep{"src:" + std::string(src), DepOp::any, {}});
    }
    reset();
    sink_(std::move(r));
    return {};
  }

  bool wanted_arch(std::string_view arch) const {
    if (arch == "all" || arch == archs_.native) return true;
    for (const auto& a : archs_.foreign)
      if (a == arch) return true;
    return false;
  }

  const std::string& origin_;
  const Architectures& archs_;
  bool installed_only_;
  const RecordSink& sink_;

  Field fields_[kFieldCount];
  size_t line_ = 0;
  Field* current_ = nullptr;  // the kept field a continuation line extends, if any
  bool in_field_ = false;
  bool in_stanza_ = false;
  size_t stanza_line_ = 0;
  std::string_view package_;
  Relations scratch_;
};

}  // namespace

Result<void> parse_stanzas(std::string_view text, const std::string& origin, const Architectures& archs,
                           bool installed_only, const RecordSink& sink) {
  StanzaParser parser(origin, archs, installed_only, sink);
  if (auto r = parser.feed(text); !r) return r;
  return parser.end();
}

Result<void> parse_index_file(const std::string& path, const Architectures& archs, bool installed_only,
                              const RecordSink& sink) {
  auto opened = CompressedReader::open(path);
  if (!opened) return opened.error();
  // Decoded a chunk ahead on another thread while this one parses.
  auto reader = CompressedReader::prefetching(std::move(*opened));
  StanzaParser parser(path, archs, installed_only, sink);
  // A chunk small enough to stay in cache; it grows only for a stanza larger than itself.
  std::string buf(1 << 20, '\0');
  size_t len = 0;
  bool eof = false;
  while (!eof) {
    while (len < buf.size()) {
      auto n = reader->read(buf.data() + len, buf.size() - len);
      if (!n) return n.error();
      if (*n == 0) {
        eof = true;
        break;
      }
      len += *n;
    }
    if (eof) break;
    // Cut after the last blank line, so that no stanza spans two chunks.
    size_t cut = std::string_view(buf.data(), len).rfind("\n\n");
    if (cut == std::string_view::npos) {
      // One stanza as large as the buffer: grow it, up to a limit (a 1 GB name is no package).
      if (buf.size() >= limits::kMaxStanzaLength)
        return parser.error_at(parser.next_line(),
                               "a stanza of more than " + std::to_string(limits::kMaxStanzaLength) + " bytes",
                               "at most that; the file may be corrupt");
      buf.resize(buf.size() * 2);
      continue;
    }
    cut += 2;
    if (auto r = parser.feed({buf.data(), cut}); !r) return r;
    std::memmove(buf.data(), buf.data() + cut, len - cut);
    len -= cut;
  }
  if (auto r = parser.feed({buf.data(), len}); !r) return r;
  return parser.end();
}

}  // namespace extdeps::apt

namespace extdeps::apt {

Result<std::string> read_index_file(const std::string& path) {
  auto reader = CompressedReader::open(path);
  if (!reader) return reader.error();
  return read_all(**reader);
}

Result<std::string> decompress_index(std::string_view data, const std::string& name) {
  return read_all(*CompressedReader::over(data, name));
}

}  // namespace extdeps::apt
