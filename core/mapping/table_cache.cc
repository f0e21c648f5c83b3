// The flat binary form of Tables (table_cache.h). The layout is written once, as `fields`
// functions that name each struct's fields in order; the Writer and the Reader walk the same
// functions, so the two cannot drift apart. A string is its length (u32, little-endian) and
// bytes, a list its count and items, a flag or number a u32. The Reader checks each length and
// count against the bytes left, so a damaged body ends in nullopt, never a crash or a huge
// allocation. Compiled regexes are not kept: upstream_version compiles a pattern on first use
// and keeps it.
#include "core/mapping/table_cache.h"

#include "core/mapping/spelling.h"
#include "core/util/sealed_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <tuple>
#include <type_traits>

namespace extdeps::mapping::table_cache {

namespace {

// Written first and checked first: a body of another layout is refused before it is read.
// 4: the index of keys and a checksum per entry, so that a reader of a few ids reads only theirs.
constexpr std::uint32_t kFormat = 5;  // 5: version rules none and map
// Index records per checked block (see encode).
constexpr std::uint32_t kBlock = 256;
constexpr std::size_t kRecordSize = 20;  // u64 hash, u32 table, u32 entry, u32 offset

// The layout. `A` is the Writer (over const objects) or the Reader (over ones it fills).
template <class A, class T>
void fields(A& a, T& x) requires std::is_same_v<std::remove_const_t<T>, SourceSpan> {
  a(x.file), a(x.line), a(x.column);
}
template <class A, class T>
void fields(A& a, T& x) requires std::is_same_v<std::remove_const_t<T>, VersionRule> {
  a(x.kind), a(x.pattern), a(x.from), a(x.map);
}
template <class A, class T>
void fields(A& a, T& x) requires std::is_same_v<std::remove_const_t<T>, Alternative> {
  a(x.packages), a(x.version), a(x.component), a(x.note), a(x.where);
}
template <class A, class T>
void fields(A& a, T& x) requires std::is_same_v<std::remove_const_t<T>, ReleaseOverride> {
  a(x.release), a(x.by_category), a(x.note), a(x.where);
}
template <class A, class T>
void fields(A& a, T& x) requires std::is_same_v<std::remove_const_t<T>, Entry> {
  a(x.id), a(x.aliases), a(x.description), a(x.note), a(x.by_category), a(x.modules), a(x.module_versions),
      a(x.releases), a(x.unverified), a(x.where);
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
  void operator()(const T& x) requires requires(Writer& w) {
    fields(w, x);
  }
  { fields(*this, x); }
  void u64(std::uint64_t v) {
    (*this)(static_cast<std::uint32_t>(v));
    (*this)(static_cast<std::uint32_t>(v >> 32));
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
    return take(n);
  }
  void operator()(std::string& s) { s.assign(view()); }
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
  void operator()(T& x) requires requires(Reader& r) {
    fields(r, x);
  }
  { fields(*this, x); }
  std::uint64_t u64() {
    std::uint32_t lo = 0, hi = 0;
    (*this)(lo), (*this)(hi);
    return std::uint64_t{lo} | std::uint64_t{hi} << 32;
  }
  // `n` bytes, unread; empty and failed when fewer are left.
  std::string_view take(std::size_t n) {
    if (failed_ || n > in_.size() - pos_) {
      fail();
      return {};
    }
    std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::size_t pos() const { return pos_; }
  // A count of items of at least `item` bytes each: one above what is left is a lie.
  std::uint32_t count(std::size_t item = 4) {
    std::uint32_t n = 0;
    (*this)(n);
    if (!failed_ && n > (in_.size() - pos_) / item) fail();
    return failed_ ? 0 : n;
  }

 private:
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
    int n = std::snprintf(buf, sizeof buf, "%lld.%09ld %lld %llu %llu", static_cast<long long>(st.st_mtim.tv_sec),
                          st.st_mtim.tv_nsec, static_cast<long long>(st.st_size),
                          static_cast<unsigned long long>(st.st_ino), static_cast<unsigned long long>(st.st_dev));
    w(f);
    w(std::string_view(buf, static_cast<std::size_t>(n)));
  }
  return out;
}

// The body, format 4, every number a little-endian u32 unless said:
//
//   format (4), stamp (string)
//   head length, then the head:
//     table count; per table: ecosystem, manager, description, release, path (strings),
//       overlays (a list of strings), entry count
//     key count, block count; per block: the first hash in it (u64) and the CRC-32 of its records
//   CRC-32 of the head
//   records, sorted: key hash (u64), table, entry number, entry offset
//   entries, each: length, CRC-32 of its bytes, its bytes (fields(Entry))
//
// A key is the spelling_key of an entry's id or of one of its aliases (what Table::find matches),
// hashed with FNV-1a; an entry has a record per key. A reader of a few ids hashes their keys,
// finds the blocks that may hold them (the head's block list), checks those blocks and the
// entries they point to, and reads nothing else. A hash shared by two keys only builds one more
// entry than asked; Table::find still compares the real strings.

namespace {

std::uint64_t key_hash(std::string_view id) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : spelling_key(id)) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

struct Record {
  std::uint64_t hash;
  std::uint32_t table, entry, offset;
  auto key() const { return std::tie(hash, table, entry); }
};

}  // namespace

std::string encode(std::string_view stamp, const Tables& tables) {
  std::string entries;
  std::vector<Record> records;
  for (std::size_t t = 0; t < tables.tables.size(); ++t) {
    const auto& list = tables.tables[t].entries;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Entry& e = list[i];
      std::string bytes;
      Writer eb(bytes);
      fields(eb, e);
      const auto offset = static_cast<std::uint32_t>(entries.size());
      Writer w(entries);
      w(static_cast<std::uint32_t>(bytes.size()));
      w(sealed::crc32_of(bytes));
      entries += bytes;
      std::set<std::uint64_t> hashes{key_hash(e.id)};
      for (const auto& a : e.aliases) hashes.insert(key_hash(a));
      for (std::uint64_t h : hashes)
        records.push_back({h, static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(i), offset});
    }
  }
  std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.key() < b.key(); });
  std::string recs;
  Writer rw(recs);
  for (const Record& r : records) rw.u64(r.hash), rw(r.table), rw(r.entry), rw(r.offset);

  std::string head;
  Writer h(head);
  h(static_cast<std::uint32_t>(tables.tables.size()));
  for (const Table& t : tables.tables) {
    h(t.ecosystem), h(t.manager), h(t.description), h(t.release), h(t.path), h(t.overlays);
    h(static_cast<std::uint32_t>(t.entries.size()));
  }
  const auto blocks = static_cast<std::uint32_t>((records.size() + kBlock - 1) / kBlock);
  h(static_cast<std::uint32_t>(records.size()));
  h(blocks);
  for (std::uint32_t b = 0; b < blocks; ++b) {
    h.u64(records[std::size_t{b} * kBlock].hash);
    const std::size_t n = std::min<std::size_t>(kBlock, records.size() - std::size_t{b} * kBlock);
    h(sealed::crc32_of(std::string_view(recs).substr(std::size_t{b} * kBlock * kRecordSize, n * kRecordSize)));
  }

  std::string out;
  Writer w(out);
  w(kFormat);
  w(stamp);
  w(static_cast<std::uint32_t>(head.size()));
  out += head;
  w(sealed::crc32_of(head));
  out += recs;
  out += entries;
  return out;
}

namespace {

// Reads a body encode() wrote: its head (the tables, the index's blocks), then every entry or
// those of some ids through the index. A step returns false where the body is damaged, with
// `damage` saying how; a body of another format or stamp is not damaged, only not ours (`ours`).
class Decoder {
 public:
  Decoder(std::string_view body, std::string* damage) : body_(body), damage_(damage) {}

  bool ours = true;  // false: another layout or other tables; nothing to say about it
  Tables out;

  bool read_head(std::string_view stamp) {
    Reader r(body_);
    std::uint32_t format = 0;
    r(format);
    if (r.failed() || format != kFormat) return not_ours();
    const std::string_view its_stamp = r.view();
    if (r.failed()) return damaged("cut short in its stamp");
    if (its_stamp != stamp) return not_ours();  // the tables changed since
    std::uint32_t head_len = 0;
    r(head_len);
    const std::string_view head = r.take(head_len);
    std::uint32_t head_crc = 0;
    r(head_crc);
    if (r.failed()) return damaged("cut short in its head");
    if (sealed::crc32_of(head) != head_crc) return damaged("checksum mismatch in its head");
    if (!read_tables_and_blocks(head)) return false;
    recs_ = r.take(std::size_t{nkeys_} * kRecordSize);
    if (r.failed()) return damaged("cut short in its index");
    entries_ = body_.substr(r.pos());
    return true;
  }

  // Every entry, in order; the index is not needed.
  bool read_all() {
    std::size_t offset = 0;
    for (std::size_t t = 0; t < out.tables.size(); ++t) {
      if (counts_[t] > entries_.size() / 8) return damaged("an entry count larger than the file");
      out.tables[t].entries.resize(counts_[t]);
      for (auto& e : out.tables[t].entries)
        if (!read_entry(offset, e, &offset))
          return damaged("entry at offset " + std::to_string(offset) + " of table " + out.tables[t].ecosystem +
                         " does not match its checksum or does not read whole");
    }
    if (offset != entries_.size()) return damaged("bytes after its last entry");
    return true;
  }

  // The entries of `ids` (an id or an alias) in the tables of `ecosystems` (null: every table),
  // found through the index: built in table order, each table's in their own order (by id).
  bool read_some(const std::vector<std::string>& ids, const std::set<std::string>* ecosystems) {
    std::vector<char> kept(out.tables.size(), 1);  // the tables whose entries are built
    if (ecosystems)
      for (std::size_t t = 0; t < out.tables.size(); ++t) {
        const std::string& eco = out.tables[t].ecosystem;
        kept[t] = ecosystems->count(eco) || ecosystems->count(eco.substr(0, eco.find('+')));
      }
    checked_.assign(blocks_.size(), 0);
    std::set<std::uint64_t> hashes;
    for (const auto& id : ids) hashes.insert(key_hash(id));
    for (std::uint64_t want : hashes)
      if (!find_records(want, kept)) return false;
    for (const auto& [t, n] : wanted_) {
      Entry& e = out.tables[t].entries.emplace_back();
      if (!read_entry(offset_of_[{t, n}], e, nullptr))
        return damaged("entry " + std::to_string(n) + " of table " + out.tables[t].ecosystem +
                       " does not match its checksum or does not read whole");
    }
    return true;
  }

  // load_tables keeps entries sorted by id (Table::find searches them in halves); a body that is
  // not is not ours.
  bool check_order() {
    for (const Table& t : out.tables)
      for (std::size_t j = 1; j < t.entries.size(); ++j)
        if (t.entries[j].id < t.entries[j - 1].id) return damaged("entries out of order");
    return true;
  }

 private:
  bool not_ours() { return false; }
  bool damaged(std::string what) {
    if (damage_) *damage_ = std::move(what);
    return false;
  }

  // The head: each table's keys and entry count, then the index's blocks (first hash, CRC).
  bool read_tables_and_blocks(std::string_view head) {
    Reader h(head);
    const std::uint32_t ntables = h.count(28);
    for (std::uint32_t i = 0; i < ntables && !h.failed(); ++i) {
      Table& t = out.tables.emplace_back();
      h(t.ecosystem), h(t.manager), h(t.description), h(t.release), h(t.path), h(t.overlays);
      counts_.push_back(0);
      h(counts_.back());
    }
    std::uint32_t nblocks = 0;
    h(nkeys_), h(nblocks);
    if (!h.failed() && nblocks == (std::uint64_t{nkeys_} + kBlock - 1) / kBlock && nblocks <= head.size() / 12)
      for (std::uint32_t b = 0; b < nblocks && !h.failed(); ++b) {
        const std::uint64_t first = h.u64();
        std::uint32_t c = 0;
        h(c);
        blocks_.emplace_back(first, c);
      }
    if (h.failed() || !h.at_end() || blocks_.size() != nblocks) return damaged("its head does not read whole");
    for (std::size_t b = 1; b < blocks_.size(); ++b)
      if (blocks_[b].first < blocks_[b - 1].first) return damaged("its index is out of order");
    return true;
  }

  // One entry: its length and CRC checked, then its fields read whole.
  bool read_entry(std::size_t offset, Entry& e, std::size_t* next) const {
    Reader er(entries_.substr(std::min(offset, entries_.size())));
    std::uint32_t len = 0, c = 0;
    er(len), er(c);
    const std::string_view bytes = er.take(len);
    if (er.failed() || sealed::crc32_of(bytes) != c) return false;
    Reader fr(bytes);
    fields(fr, e);
    if (next) *next = offset + 8 + len;
    return !fr.failed() && fr.at_end();
  }

  Record record(std::size_t i) const {
    Reader rr(recs_.substr(i * kRecordSize, kRecordSize));
    Record x{};
    x.hash = rr.u64();
    rr(x.table), rr(x.entry), rr(x.offset);
    return x;
  }

  // Block b's records, checked once: their CRC, and their order (the search trusts it; a block
  // out of order is not one we wrote).
  bool check_block(std::size_t b, std::size_t from, std::size_t to) {
    if (checked_[b]) return true;
    if (sealed::crc32_of(recs_.substr(from * kRecordSize, (to - from) * kRecordSize)) != blocks_[b].second)
      return damaged("checksum mismatch in index block " + std::to_string(b));
    std::uint64_t last = blocks_[b].first;
    for (std::size_t i = from; i < to; ++i) {
      const std::uint64_t h = Reader(recs_.substr(i * kRecordSize, 8)).u64();
      if (h < last || (i == from && h != last)) return damaged("index block " + std::to_string(b) + " is out of order");
      last = h;
    }
    checked_[b] = 1;
    return true;
  }

  // The records of hash `want`, from the last block whose first hash is below it (records equal
  // to it may start there), into wanted_ where their table is kept.
  bool find_records(std::uint64_t want, const std::vector<char>& kept) {
    auto it = std::lower_bound(blocks_.begin(), blocks_.end(), want,
                               [](const auto& b, std::uint64_t v) { return b.first < v; });
    std::size_t b = it == blocks_.begin() ? 0 : static_cast<std::size_t>(it - blocks_.begin()) - 1;
    for (; b < blocks_.size() && blocks_[b].first <= want; ++b) {
      const std::size_t from = b * kBlock, to = std::min<std::size_t>(from + kBlock, nkeys_);
      if (!check_block(b, from, to)) return false;
      // Records are sorted by hash: the first one of `want` is found in halves.
      std::size_t lo = from, hi = to;
      while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (Reader(recs_.substr(mid * kRecordSize, 8)).u64() < want) lo = mid + 1;
        else hi = mid;
      }
      for (std::size_t i = lo; i < to; ++i) {
        const Record x = record(i);
        if (x.hash != want) break;
        if (x.table >= counts_.size() || x.entry >= counts_[x.table]) return damaged("an index record names no entry");
        if (!kept[x.table]) continue;
        wanted_.emplace(x.table, x.entry);
        offset_of_[{x.table, x.entry}] = x.offset;
      }
    }
    return true;
  }

  std::string_view body_;
  std::string* damage_;
  std::vector<std::uint32_t> counts_;                            // entries per table
  std::uint32_t nkeys_ = 0;                                      // index records
  std::vector<std::pair<std::uint64_t, std::uint32_t>> blocks_;  // first hash, CRC
  std::string_view recs_, entries_;
  std::vector<char> checked_;                                 // per block
  std::set<std::pair<std::uint32_t, std::uint32_t>> wanted_;  // (table, entry number)
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> offset_of_;
};

}  // namespace

std::optional<Tables> decode(std::string_view body, std::string_view stamp, const std::vector<std::string>* only_ids,
                             std::string* damage, const std::set<std::string>* only_ecosystems) {
  Decoder d(body, damage);
  if (!d.read_head(stamp)) return std::nullopt;
  if (!(only_ids ? d.read_some(*only_ids, only_ecosystems) : d.read_all())) return std::nullopt;
  if (!d.check_order()) return std::nullopt;
  return std::move(d.out);
}

}  // namespace extdeps::mapping::table_cache
