#include "providers/pypi/crawl_memo.h"

#include <charconv>
#include <climits>
#include <filesystem>
#include <system_error>

#include "core/util/sealed_file.h"
#include "core/util/text.h"

namespace extdeps::pypi {

namespace {

// Bump when a memo is written differently or the crawl chooses differently: the key changes,
// and memos of the old making are never read (another extdeps version's are refused by the seal).
constexpr std::string_view kMemoFormat = "pypi-crawl-memo-1";
constexpr std::string_view kKind = "pypc";
constexpr std::string_view kSuffix = ".crawl";

// The body: every string as "<length>:<bytes>", every number as "<digits>;", in a fixed order.
class Writer {
 public:
  void str(std::string_view s) {
    out_ += std::to_string(s.size());
    out_ += ':';
    out_ += s;
  }
  void num(std::size_t n) {
    out_ += std::to_string(n);
    out_ += ';';
  }
  void strs(const std::vector<std::string>& v) {
    num(v.size());
    for (const auto& s : v) str(s);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what Writer wrote; the first thing out of place fails the whole read.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool done() const { return ok_ && in_.empty(); }

  // Only as Writer writes them (no leading zero), so that what reads encodes to the same bytes.
  std::size_t num(char end = ';') {
    std::size_t n = 0;
    auto [p, ec] = std::from_chars(in_.data(), in_.data() + in_.size(), n);
    if (!ok_ || ec != std::errc() || p == in_.data() || p == in_.data() + in_.size() || *p != end ||
        (in_[0] == '0' && p - in_.data() > 1))
      return fail();
    in_.remove_prefix(static_cast<std::size_t>(p - in_.data()) + 1);
    return n;
  }
  int small() {
    std::size_t n = num();
    if (n > static_cast<std::size_t>(INT_MAX)) return static_cast<int>(fail());
    return static_cast<int>(n);
  }
  bool flag() {
    std::size_t n = num();
    if (n > 1) fail();
    return n == 1;
  }
  std::string str() {
    std::size_t n = num(':');
    if (!ok_ || n > in_.size()) return fail(), std::string();
    std::string s(in_.substr(0, n));
    in_.remove_prefix(n);
    return s;
  }
  // A count of things each at least `least` bytes long: never more than the bytes left could hold.
  std::size_t count(std::size_t least = 2) {
    std::size_t n = num();
    if (ok_ && n > in_.size() / least) return fail();
    return n;
  }
  std::vector<std::string> strs() {
    std::vector<std::string> v(count());
    for (auto& s : v) s = str();
    return v;
  }

 private:
  std::size_t fail() {
    ok_ = false;
    in_ = {};
    return 0;
  }
  std::string_view in_;
  bool ok_ = true;
};

}  // namespace

std::string memo_key(const CrawlInput& in) {
  Writer w;
  w.str(kMemoFormat);
  w.strs(in.roots);
  w.strs(in.index_urls);
  w.strs(in.tags);
  w.str(in.python_version);
  w.num(in.env.size());
  for (const auto& [k, v] : in.env) {
    w.str(k);
    w.str(v);
  }
  w.str(in.glibc ? std::to_string(in.glibc->first) + "." + std::to_string(in.glibc->second) : "");
  return w.take();
}

std::string memo_path(const std::string& dir, std::string_view key) {
  return dir + "/" + fnv1a_hex(key) + std::string(kSuffix);
}

std::optional<CrawlMemo> read_memo(const std::string& path, std::string_view key) {
  auto file = sealed::MappedFile::open(path);
  if (!file) return std::nullopt;
  auto body = sealed::unseal(kKind, file->bytes());
  if (!body.ok()) return std::nullopt;
  return parse_memo(*body, key);
}

std::optional<CrawlMemo> parse_memo(std::string_view body, std::string_view key) {
  Reader r(body);
  if (r.str() != key || !r.ok()) return std::nullopt;
  CrawlMemo m;
  m.pages.resize(r.count());
  for (auto& p : m.pages) {
    p.url = r.str();
    p.found = r.flag();
    p.stamp = r.str();
  }
  CrawlResult& out = m.result;
  out.pages = r.small();
  out.candidates.resize(r.count());
  for (auto& c : out.candidates) {
    c.name = r.str();
    c.version = r.str();
    c.filename = r.str();
    c.url = r.str();
    c.platform = r.str();
    if (r.flag()) {
      int major = r.small();
      c.glibc = std::make_pair(major, r.small());
    }
    c.metadata_known = r.flag();
    c.requires_dist = r.strs();
  }
  out.fetched = r.strs();
  out.bodies = r.strs();
  out.stamps = r.strs();
  out.no_metadata = r.strs();
  if (!r.done() || out.bodies.size() != out.fetched.size() || out.stamps.size() != out.fetched.size())
    return std::nullopt;
  return m;
}

std::string encode_memo(std::string_view key, const CrawlMemo& m) {
  Writer w;
  w.str(key);
  w.num(m.pages.size());
  for (const auto& p : m.pages) {
    w.str(p.url);
    w.num(p.found ? 1 : 0);
    w.str(p.stamp);
  }
  const CrawlResult& in = m.result;
  w.num(static_cast<std::size_t>(in.pages));
  w.num(in.candidates.size());
  for (const auto& c : in.candidates) {
    w.str(c.name);
    w.str(c.version);
    w.str(c.filename);
    w.str(c.url);
    w.str(c.platform);
    w.num(c.glibc ? 1 : 0);
    if (c.glibc) {
      w.num(static_cast<std::size_t>(c.glibc->first));
      w.num(static_cast<std::size_t>(c.glibc->second));
    }
    w.num(c.metadata_known ? 1 : 0);
    w.strs(c.requires_dist);
  }
  w.strs(in.fetched);
  w.strs(in.bodies);
  w.strs(in.stamps);
  w.strs(in.no_metadata);
  return w.take();
}

Result<void> write_memo(const std::string& path, std::string_view key, const CrawlMemo& m) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  return sealed::write_atomically(path, kKind, encode_memo(key, m));
}

}  // namespace extdeps::pypi
