// The flat binary form of Tables (table_cache.h). Every field in declaration order; a string is
// its length (u32, little-endian) and bytes, a list its count and items. The reader checks each
// length and count against the bytes left, so a damaged body ends in nullopt, never a crash or a
// huge allocation. Compiled regexes are not kept: upstream_version compiles a pattern on first
// use and keeps it.
#include "core/mapping/table_cache.h"

#include <sys/stat.h>

#include <cstdint>
#include <cstring>

namespace extdeps::mapping::table_cache {

namespace {

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  void u32(std::uint32_t v) {
    char b[4] = {static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16),
                 static_cast<char>(v >> 24)};
    out_.append(b, 4);
  }
  void str(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    out_.append(s);
  }
  void strs(const std::vector<std::string>& v) {
    u32(static_cast<std::uint32_t>(v.size()));
    for (const auto& s : v) str(s);
  }
  void span(const SourceSpan& s) {
    str(s.file);
    u32(static_cast<std::uint32_t>(s.line));
    u32(static_cast<std::uint32_t>(s.column));
  }
  void alternatives(const std::vector<Alternative>& alts) {
    u32(static_cast<std::uint32_t>(alts.size()));
    for (const auto& a : alts) {
      strs(a.packages);
      str(a.version.kind);
      str(a.version.pattern);
      str(a.version.from);
      str(a.component);
      str(a.note);
      span(a.where);
    }
  }
  void categories(const std::map<Category, std::vector<Alternative>>& by) {
    u32(static_cast<std::uint32_t>(by.size()));
    for (const auto& [category, alts] : by) {
      u32(static_cast<std::uint32_t>(category));
      alternatives(alts);
    }
  }

 private:
  std::string& out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool failed() const { return failed_; }
  bool at_end() const { return pos_ == in_.size(); }

  std::uint32_t u32() {
    if (in_.size() - pos_ < 4) return fail();
    const auto* p = reinterpret_cast<const unsigned char*>(in_.data() + pos_);
    pos_ += 4;
    return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
           std::uint32_t{p[3]} << 24;
  }
  // A count of items that take at least `min_size` bytes each: never more than the bytes left.
  std::uint32_t count(std::size_t min_size) {
    std::uint32_t n = u32();
    if (failed_ || n > (in_.size() - pos_) / min_size) return fail();
    return n;
  }
  std::string_view view() {
    std::uint32_t n = u32();
    if (failed_ || n > in_.size() - pos_) {
      fail();
      return {};
    }
    std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  void str(std::string& out) { out.assign(view()); }
  void strs(std::vector<std::string>& out) {
    std::uint32_t n = count(4);
    out.reserve(n);
    for (std::uint32_t i = 0; i < n && !failed_; ++i) str(out.emplace_back());
  }
  void span(SourceSpan& s) {
    str(s.file);
    s.line = static_cast<int>(u32());
    s.column = static_cast<int>(u32());
  }
  void alternatives(std::vector<Alternative>& out) {
    std::uint32_t n = count(8 * 4);
    out.reserve(n);
    for (std::uint32_t i = 0; i < n && !failed_; ++i) {
      Alternative& a = out.emplace_back();
      strs(a.packages);
      str(a.version.kind);
      str(a.version.pattern);
      str(a.version.from);
      str(a.component);
      str(a.note);
      span(a.where);
    }
  }
  void categories(std::map<Category, std::vector<Alternative>>& out) {
    std::uint32_t n = count(8);
    for (std::uint32_t i = 0; i < n && !failed_; ++i) {
      std::uint32_t c = u32();
      if (c > static_cast<std::uint32_t>(Category::run)) {
        fail();
        return;
      }
      alternatives(out[static_cast<Category>(c)]);
    }
  }

 private:
  std::uint32_t fail() {
    failed_ = true;
    pos_ = in_.size();
    return 0;
  }
  std::string_view in_;
  std::size_t pos_ = 0;
  bool failed_ = false;
};

// Written first and checked first: a body of another layout is refused before it is read.
constexpr std::uint32_t kFormat = 1;

}  // namespace

std::optional<std::string> stamp(const std::vector<std::string>& files) {
  std::string out;
  Writer w(out);
  w.u32(static_cast<std::uint32_t>(files.size()));
  for (const auto& f : files) {
    struct stat st {};
    if (::stat(f.c_str(), &st) != 0) return std::nullopt;
    char buf[128];
    int n = std::snprintf(buf, sizeof buf, "%lld.%09ld %lld %llu %llu",
                          static_cast<long long>(st.st_mtim.tv_sec), st.st_mtim.tv_nsec,
                          static_cast<long long>(st.st_size), static_cast<unsigned long long>(st.st_ino),
                          static_cast<unsigned long long>(st.st_dev));
    w.str(f);
    w.str(std::string_view(buf, static_cast<std::size_t>(n)));
  }
  return out;
}

std::string encode(std::string_view stamp, const Tables& tables) {
  std::string out;
  Writer w(out);
  w.u32(kFormat);
  w.str(stamp);
  w.u32(static_cast<std::uint32_t>(tables.tables.size()));
  for (const Table& t : tables.tables) {
    w.str(t.ecosystem);
    w.str(t.manager);
    w.str(t.description);
    w.str(t.release);
    w.str(t.path);
    w.strs(t.overlays);
    w.u32(static_cast<std::uint32_t>(t.entries.size()));
    for (const Entry& e : t.entries) {
      w.str(e.id);
      w.strs(e.aliases);
      w.str(e.description);
      w.str(e.note);
      w.categories(e.by_category);
      w.strs(e.pkgconfig);
      w.u32(static_cast<std::uint32_t>(e.releases.size()));
      for (const ReleaseOverride& r : e.releases) {
        w.str(r.release);
        w.categories(r.by_category);
        w.str(r.note);
        w.span(r.where);
      }
      w.u32(e.unverified ? 1 : 0);
      w.span(e.where);
    }
  }
  return out;
}

std::optional<Tables> decode(std::string_view body, std::string_view stamp) {
  Reader r(body);
  if (r.u32() != kFormat || r.failed() || r.view() != stamp || r.failed()) return std::nullopt;
  Tables out;
  std::uint32_t tables = r.count(7 * 4);
  out.tables.reserve(tables);
  for (std::uint32_t i = 0; i < tables && !r.failed(); ++i) {
    Table& t = out.tables.emplace_back();
    r.str(t.ecosystem);
    r.str(t.manager);
    r.str(t.description);
    r.str(t.release);
    r.str(t.path);
    r.strs(t.overlays);
    std::uint32_t entries = r.count(11 * 4);
    t.entries.reserve(entries);
    for (std::uint32_t j = 0; j < entries && !r.failed(); ++j) {
      Entry& e = t.entries.emplace_back();
      r.str(e.id);
      r.strs(e.aliases);
      r.str(e.description);
      r.str(e.note);
      r.categories(e.by_category);
      r.strs(e.pkgconfig);
      std::uint32_t releases = r.count(6 * 4);
      e.releases.reserve(releases);
      for (std::uint32_t k = 0; k < releases && !r.failed(); ++k) {
        ReleaseOverride& o = e.releases.emplace_back();
        r.str(o.release);
        r.categories(o.by_category);
        r.str(o.note);
        r.span(o.where);
      }
      std::uint32_t unverified = r.u32();
      if (unverified > 1) return std::nullopt;
      e.unverified = unverified == 1;
      r.span(e.where);
    }
  }
  if (r.failed() || !r.at_end()) return std::nullopt;
  // load_tables keeps entries sorted by id (Table::find searches them in halves); a body that is
  // not is not ours.
  for (const Table& t : out.tables) {
    for (std::size_t j = 1; j < t.entries.size(); ++j)
      if (t.entries[j].id < t.entries[j - 1].id) return std::nullopt;
  }
  return out;
}

}  // namespace extdeps::mapping::table_cache
