// The flat binary form of Tables (table_cache.h). The layout is written once, as `fields`
// functions that name each struct's fields in order; the Writer and the Reader walk the same
// functions, so the two cannot drift apart. A string is its length (u32, little-endian) and
// bytes, a list its count and items, a flag or number a u32. The Reader checks each length and
// count against the bytes left, so a damaged body ends in nullopt, never a crash or a huge
// allocation. Compiled regexes are not kept: upstream_version compiles a pattern on first use
// and keeps it.
#include "core/mapping/table_cache.h"

#include "core/mapping/spelling.h"

#include <sys/stat.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <set>
#include <type_traits>

namespace extdeps::mapping::table_cache {

namespace {

// Written first and checked first: a body of another layout is refused before it is read.
constexpr std::uint32_t kFormat = 3;  // 3: each entry led by its byte length, so a reader can skip it

// The layout. `A` is the Writer (over const objects) or the Reader (over ones it fills).
template <class A, class T>
void fields(A& a, T& x) requires std::is_same_v<std::remove_const_t<T>, SourceSpan> {
  a(x.file), a(x.line), a(x.column);
}
template <class A, class T>
void fields(A& a, T& x) requires std::is_same_v<std::remove_const_t<T>, Alternative> {
  a(x.packages), a(x.version.kind), a(x.version.pattern), a(x.version.from), a(x.component), a(x.note), a(x.where);
}
template <class A, class T>
void fields(A& a, T& x) requires std::is_same_v<std::remove_const_t<T>, ReleaseOverride> {
  a(x.release), a(x.by_category), a(x.note), a(x.where);
}
template <class A, class T>
void fields(A& a, T& x) requires std::is_same_v<std::remove_const_t<T>, Entry> {
  a(x.id), a(x.aliases), a(x.description), a(x.note), a(x.by_category), a(x.pkgconfig), a(x.releases),
      a(x.unverified), a(x.where);
}
template <class A, class T>
void fields(A& a, T& x) requires std::is_same_v<std::remove_const_t<T>, Table> {
  a(x.ecosystem), a(x.manager), a(x.description), a(x.release), a(x.path), a(x.overlays), a(x.entries);
}

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  void operator()(std::uint32_t v) {
    char b[4] = {static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16),
                 static_cast<char>(v >> 24)};
    out_.append(b, 4);
  }
  void operator()(int v) { (*this)(static_cast<std::uint32_t>(v)); }
  void operator()(bool v) { (*this)(std::uint32_t{v ? 1u : 0u}); }
  void operator()(std::string_view s) {
    (*this)(static_cast<std::uint32_t>(s.size()));
    out_.append(s);
  }
  void operator()(const std::string& s) { (*this)(std::string_view(s)); }
  void operator()(Category c) { (*this)(static_cast<std::uint32_t>(c)); }
  template <class T>
  void operator()(const std::vector<T>& v) {
    (*this)(static_cast<std::uint32_t>(v.size()));
    for (const auto& x : v) (*this)(x);
  }
  template <class K, class V>
  void operator()(const std::map<K, V>& m) {
    (*this)(static_cast<std::uint32_t>(m.size()));
    for (const auto& [k, v] : m) (*this)(k), (*this)(v);
  }
  template <class T>
  void operator()(const T& x) requires requires(Writer& w) { fields(w, x); } {
    fields(*this, x);
  }
  // An entry is led by its length, which the reader of a few ids skips by.
  void operator()(const Entry& e) {
    const std::size_t at = out_.size();
    (*this)(std::uint32_t{0});
    fields(*this, e);
    const auto n = static_cast<std::uint32_t>(out_.size() - at - 4);
    char b[4] = {static_cast<char>(n), static_cast<char>(n >> 8), static_cast<char>(n >> 16), static_cast<char>(n >> 24)};
    out_.replace(at, 4, b, 4);
  }

 private:
  std::string& out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool failed() const { return failed_; }
  bool at_end() const { return pos_ == in_.size(); }

  void operator()(std::uint32_t& v) {
    if (in_.size() - pos_ < 4) {
      fail();
      return;
    }
    const auto* p = reinterpret_cast<const unsigned char*>(in_.data() + pos_);
    pos_ += 4;
    v = std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
  }
  void operator()(int& v) {
    std::uint32_t u = 0;
    (*this)(u);
    v = static_cast<int>(u);
  }
  void operator()(bool& v) {
    std::uint32_t u = 0;
    (*this)(u);
    if (u > 1) fail();
    v = u == 1;
  }
  void operator()(Category& c) {
    std::uint32_t u = 0;
    (*this)(u);
    if (u > static_cast<std::uint32_t>(Category::run)) fail();
    c = static_cast<Category>(u);
  }
  std::string_view view() {
    std::uint32_t n = 0;
    (*this)(n);
    if (failed_ || n > in_.size() - pos_) {
      fail();
      return {};
    }
    std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  void operator()(std::string& s) { s.assign(view()); }
  // Every item takes at least 4 bytes: a count above a quarter of what is left is a lie.
  template <class T>
  void operator()(std::vector<T>& v) {
    std::uint32_t n = count();
    v.reserve(n);
    for (std::uint32_t i = 0; i < n && !failed_; ++i) (*this)(v.emplace_back());
  }
  template <class K, class V>
  void operator()(std::map<K, V>& m) {
    std::uint32_t n = count();
    for (std::uint32_t i = 0; i < n && !failed_; ++i) {
      K k{};
      (*this)(k);
      if (!failed_) (*this)(m[k]);
    }
  }
  template <class T>
  void operator()(T& x) requires requires(Reader& r) { fields(r, x); } {
    fields(*this, x);
  }
  // The entries of a table: each led by its length. With a filter, an entry it does not want is
  // skipped by that length once its id and aliases are read, and never built.
  void operator()(std::vector<Entry>& v) {
    std::uint32_t n = count();
    for (std::uint32_t i = 0; i < n && !failed_; ++i) {
      std::uint32_t len = 0;
      (*this)(len);
      if (failed_ || len > in_.size() - pos_) {
        fail();
        return;
      }
      Reader one(in_.substr(pos_, len));
      pos_ += len;
      if (want_) {
        Reader head = one;
        std::string id;
        std::vector<std::string> aliases;
        head(id), head(aliases);
        if (head.failed()) {
          fail();
          return;
        }
        if (!(*want_)(id, aliases)) continue;
      }
      fields(one, v.emplace_back());
      if (one.failed() || !one.at_end()) {
        fail();
        return;
      }
    }
  }
  const std::function<bool(const std::string&, const std::vector<std::string>&)>* want_ = nullptr;

 private:
  std::uint32_t count() {
    std::uint32_t n = 0;
    (*this)(n);
    if (!failed_ && n > (in_.size() - pos_) / 4) fail();
    return failed_ ? 0 : n;
  }
  void fail() {
    failed_ = true;
    pos_ = in_.size();
  }
  std::string_view in_;
  std::size_t pos_ = 0;
  bool failed_ = false;
};

}  // namespace

std::optional<std::string> stamp(const std::vector<std::string>& files) {
  std::string out;
  Writer w(out);
  w(static_cast<std::uint32_t>(files.size()));
  for (const auto& f : files) {
    struct stat st {};
    if (::stat(f.c_str(), &st) != 0) return std::nullopt;
    char buf[128];
    int n = std::snprintf(buf, sizeof buf, "%lld.%09ld %lld %llu %llu",
                          static_cast<long long>(st.st_mtim.tv_sec), st.st_mtim.tv_nsec,
                          static_cast<long long>(st.st_size), static_cast<unsigned long long>(st.st_ino),
                          static_cast<unsigned long long>(st.st_dev));
    w(f);
    w(std::string_view(buf, static_cast<std::size_t>(n)));
  }
  return out;
}

std::string encode(std::string_view stamp, const Tables& tables) {
  std::string out;
  Writer w(out);
  w(kFormat);
  w(stamp);
  w(tables.tables);
  return out;
}

std::optional<Tables> decode(std::string_view body, std::string_view stamp, const std::vector<std::string>* only_ids) {
  Reader r(body);
  // The spellings Table::find would match (core/mapping/tables.cc): an id or an alias, with or
  // without its version and qualifiers, by its type's spelling rules.
  std::set<std::string> keys;
  std::function<bool(const std::string&, const std::vector<std::string>&)> want;
  if (only_ids) {
    for (const auto& id : *only_ids) {
      keys.insert(spelling_key(id));
      keys.insert(spelling_key(base_id(id)));
    }
    want = [&keys](const std::string& id, const std::vector<std::string>& aliases) {
      if (keys.count(spelling_key(id))) return true;
      for (const auto& a : aliases)
        if (keys.count(spelling_key(a))) return true;
      return false;
    };
    r.want_ = &want;
  }
  std::uint32_t format = 0;
  r(format);
  if (r.failed() || format != kFormat || r.view() != stamp || r.failed()) return std::nullopt;
  Tables out;
  r(out.tables);
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
