// pacman's databases: desc files, sync database archives (tar, compressed as the file's first
// bytes say), the local database folder.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/util/compressed_reader.h"
#include "core/util/limits.h"
#include "core/util/regular_file.h"
#include "core/util/text.h"
#include "providers/pacman/pacman_provider.h"

namespace extdeps::pacman {

namespace fs = std::filesystem;

namespace {

// "libfoo>=1:2.0", "foo-api=2.3", "sh", "python: for the scripts" (an optdepend's description is
// dropped). pacman's operators are = < <= > >=.
NativeDep parse_relation(std::string_view s) {
  if (auto colon = s.find(": "); colon != std::string_view::npos) s = s.substr(0, colon);
  NativeDep d;
  const auto op = s.find_first_of("<>=");
  if (op == std::string_view::npos) {
    d.name = std::string(s);
    return d;
  }
  d.name = std::string(s.substr(0, op));
  std::string_view rest = s.substr(op);
  if (rest.starts_with(">=")) d.op = DepOp::ge, rest.remove_prefix(2);
  else if (rest.starts_with("<=")) d.op = DepOp::le, rest.remove_prefix(2);
  else if (rest.starts_with("=")) d.op = DepOp::eq, rest.remove_prefix(1);
  else if (rest.starts_with(">")) d.op = DepOp::gt, rest.remove_prefix(1);
  else d.op = DepOp::lt, rest.remove_prefix(1);
  d.version = std::string(rest);
  if (d.version.empty()) d.op = DepOp::any;
  return d;
}

// A tar archive read from a decompressed stream, one member at a time.
class TarReader {
 public:
  explicit TarReader(CompressedReader& in, std::string name) : in_(in), name_(std::move(name)) {}

  struct Member {
    std::string path;
    char type = '0';
    std::string data;  // regular files only
  };

  // The next member; nullopt at the end of the archive.
  Result<std::optional<Member>> next() {
    std::string long_name;
    for (;;) {
      const std::uint64_t at = offset_;
      auto header = read_exactly(512);
      if (!header) return header.error();
      if (header->size() < 512) {
        if (header->empty()) return std::optional<Member>{};  // no end blocks: tolerated, as bsdtar does
        return bad(at, "a tar header cut short", "512 bytes");
      }
      const std::string& h = *header;
      if (std::all_of(h.begin(), h.end(), [](char c) { return c == 0; })) return std::optional<Member>{};
      if (!checksum_ok(h)) return bad(at, "a tar header with a wrong checksum", "a ustar header");
      auto size = octal(std::string_view(h).substr(124, 12));
      if (!size) return bad(at + 124, "a tar member size that is not a number", "an octal size");
      if (*size > kMaxMember)
        return bad(at + 124, "a tar member of " + std::to_string(*size) + " bytes", "at most 64 MiB");
      Member m;
      m.type = h[156] == 0 ? '0' : h[156];
      std::string path = field(h, 0, 100);
      if (std::memcmp(h.data() + 257, "ustar", 5) == 0) {
        const std::string prefix = field(h, 345, 155);
        if (!prefix.empty()) path = prefix + "/" + path;
      }
      auto body = read_exactly(static_cast<std::size_t>(*size));
      if (!body) return body.error();
      if (body->size() < *size) return bad(offset_, "a tar member cut short", std::to_string(*size) + " bytes");
      if (auto pad = (512 - *size % 512) % 512) {
        auto skipped = read_exactly(static_cast<std::size_t>(pad));
        if (!skipped) return skipped.error();
      }
      if (m.type == 'L') {  // GNU long name for the next member
        long_name = body->substr(0, body->find('\0'));
        continue;
      }
      if (m.type == 'x') {  // pax header: its path= record names the next member
        long_name = pax_path(*body);
        continue;
      }
      if (m.type == 'g') continue;
      m.path = long_name.empty() ? path : long_name;
      if (m.type == '0' || m.type == '7') m.data = std::move(*body);
      return std::optional<Member>{std::move(m)};
    }
  }

 private:
  static constexpr std::uint64_t kMaxMember = 64u << 20;

  Error bad(std::uint64_t at, const std::string& what, const std::string& expected) const {
    return error_at(ExitCode::environment, name_ + ": byte " + std::to_string(at) + " of the tar data", what, expected,
                    "the database may be damaged; pacman -Sy fetches it again");
  }

  static std::string field(const std::string& h, std::size_t at, std::size_t len) {
    const std::string_view f(h.data() + at, len);
    return std::string(f.substr(0, f.find('\0')));
  }

  static std::optional<std::uint64_t> octal(std::string_view f) {
    if (!f.empty() && (static_cast<unsigned char>(f[0]) & 0x80)) {  // base-256
      std::uint64_t v = 0;
      for (std::size_t i = 1; i < f.size(); ++i) v = (v << 8) | static_cast<unsigned char>(f[i]);
      return v;
    }
    std::uint64_t v = 0;
    bool any = false;
    for (char c : f) {
      if (c == ' ' && !any) continue;
      if (c == 0 || c == ' ') break;
      if (c < '0' || c > '7') return std::nullopt;
      v = v * 8 + static_cast<unsigned>(c - '0');
      any = true;
    }
    return v;
  }

  static bool checksum_ok(const std::string& h) {
    auto want = octal(std::string_view(h).substr(148, 8));
    if (!want) return false;
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < 512; ++i) sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(h[i]);
    return sum == *want;
  }

  // "NN path=VALUE\n" records.
  static std::string pax_path(const std::string& body) {
    std::size_t i = 0;
    while (i < body.size()) {
      const auto space = body.find(' ', i);
      if (space == std::string::npos) break;
      // The record's length, digits only, and within what is left (a bigger one is damage).
      std::size_t len = 0;
      bool digits = space > i;
      for (std::size_t k = i; k < space && digits; ++k) {
        digits = body[k] >= '0' && body[k] <= '9';
        len = len * 10 + static_cast<unsigned>(body[k] - '0');
        if (len > body.size()) break;
      }
      if (!digits || len <= space - i + 1 || len > body.size() - i) break;
      const std::string_view rec(body.data() + space + 1, i + len - space - 2);
      if (rec.starts_with("path=")) return std::string(rec.substr(5));
      i += len;
    }
    return {};
  }

  Result<std::string> read_exactly(std::size_t n) {
    std::string out(n, '\0');
    std::size_t got = 0;
    while (got < n) {
      auto r = in_.read(out.data() + got, n - got);
      if (!r) return r.error();
      if (*r == 0) break;
      got += *r;
    }
    out.resize(got);
    offset_ += got;
    return out;
  }

  CompressedReader& in_;
  std::string name_;
  std::uint64_t offset_ = 0;
};

}  // namespace

Result<bool> parse_desc(std::string_view text, const std::string& origin, PackageRecord& out) {
  PackageRecord r;
  std::string_view section;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      section = {};
      continue;
    }
    if (line.size() > 2 && line.front() == '%' && line.back() == '%') {
      section = line.substr(1, line.size() - 2);
      continue;
    }
    if (section.empty())
      return error_at(ExitCode::environment, origin + ":" + std::to_string(line_no),
                      "'" + shorten(line) + "' outside a section", "a %SECTION% line before the values");
    const bool relation = section == "DEPENDS" || section == "PROVIDES" || section == "CONFLICTS";
    if (section == "NAME" || section == "VERSION" || section == "ARCH" || relation) {
      // A desc is anyone's text (issue 31: a 16 KB database made 1 GB of relations): the lengths
      // of a deb822 index and at most kMaxRelations relations a package.
      if (line.size() > limits::kMaxNameLength + limits::kMaxVersionLength)
        return error_at(ExitCode::environment, origin + ":" + std::to_string(line_no),
                        "a %" + std::string(section) + "% value of " + std::to_string(line.size()) + " bytes",
                        "at most " + std::to_string(limits::kMaxNameLength + limits::kMaxVersionLength) + " bytes");
      if (relation && r.depends.size() + r.provides.size() + r.conflicts.size() >= limits::kMaxRelations)
        return error_at(ExitCode::environment, origin + ":" + std::to_string(line_no),
                        "more than " + std::to_string(limits::kMaxRelations) + " relations in one package",
                        "at most that (docs/limits.md)");
    }
    if (section == "NAME") r.name = std::string(line);
    else if (section == "VERSION") r.version = std::string(line);
    else if (section == "ARCH") r.arch = std::string(line);
    else if (section == "DEPENDS") r.depends.push_back({parse_relation(line)});
    else if (section == "PROVIDES") r.provides.push_back(parse_relation(line));
    else if (section == "CONFLICTS") r.conflicts.push_back(parse_relation(line));
  }
  if (r.name.empty() || r.version.empty()) return false;
  r.origin = origin;
  out = std::move(r);
  return true;
}

Result<void> read_sync_db(const std::string& path, std::string_view arch, const RecordSink& sink) {
  auto reader = CompressedReader::open_sniffed(path);
  if (!reader) return reader.error();
  return read_sync_db(**reader, path, arch, sink);
}

Result<void> read_sync_db(CompressedReader& in, const std::string& path, std::string_view arch,
                          const RecordSink& sink) {
  TarReader tar(in, path);
  std::size_t relations = 0;
  for (;;) {
    auto m = tar.next();
    if (!m) return m.error();
    if (!*m) return {};
    const auto& member = **m;
    if (!member.path.ends_with("/desc")) continue;
    PackageRecord r;
    auto parsed = parse_desc(member.data, path + ": " + member.path, r);
    if (!parsed) return parsed.error();
    if (!*parsed) continue;
    relations += r.depends.size() + r.provides.size() + r.conflicts.size();
    if (relations > limits::kMaxIndexRelations)
      return error_at(ExitCode::environment, path + ": " + member.path,
                      "more than " + std::to_string(limits::kMaxIndexRelations) + " relations in one database",
                      "at most that (docs/limits.md)");
    if (!arch.empty() && !r.arch.empty() && r.arch != "any" && r.arch != arch) continue;
    r.origin = path;
    sink(std::move(r));
  }
}

Result<void> read_local_db(const std::string& dir, const RecordSink& sink) {
  std::error_code ec;
  std::vector<std::string> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec)) entries.push_back(it->path().string());
  if (ec) return error_at(ExitCode::environment, dir, "cannot read the folder (" + ec.message() + ")");
  std::sort(entries.begin(), entries.end());
  for (const auto& e : entries) {
    const std::string file = e + "/desc";
    if (!fs::exists(fs::symlink_status(file, ec))) continue;  // pacman skips an entry without desc too
    // A desc that is a link (to /dev/zero: read whole, bad_alloc), a FIFO or past a stanza's bound
    // is an error at its path, never read.
    auto text = read_regular_file(file, limits::kMaxStanzaLength, Links::refuse);
    if (!text.ok()) return text.error();
    PackageRecord r;
    auto parsed = parse_desc(*text, file, r);
    if (!parsed) return parsed.error();
    if (!*parsed) continue;
    r.installed = true;
    sink(std::move(r));
  }
  return {};
}

}  // namespace extdeps::pacman
