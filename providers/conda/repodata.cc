// repodata.json in one pass plus one step back. Its keys usually come sorted: "info",
// "packages", "packages.conda", "removed", "repodata_version". A .tar.bz2 record in "packages"
// can only be dropped once the .conda stems are known, so "packages" is skipped (cheaply, without
// copies) where it comes first and read again from its offset at the end; "packages.conda" is
// deferred the same way when it comes before "info", whose base_url every origin needs.
#include "providers/conda/repodata.h"

#include <cctype>
#include <functional>
#include <optional>
#include <vector>

#include "core/json/json_reader.h"
#include "core/util/string_index.h"
#include "providers/conda/package_json.h"

namespace extdeps::conda {

using json::ByteSource;
using json::json_kind_name;
using json::JsonKind;
using json::JsonReader;
using json::open_file;
using json::over_memory;

namespace {

constexpr std::string_view kTarBz2 = ".tar.bz2";
constexpr std::string_view kConda = ".conda";

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string with_slash(std::string_view s) {
  std::string out(s);
  if (!out.empty() && out.back() != '/') out += '/';
  return out;
}

// "https:" or "file:": a scheme as RFC 3986 spells it.
size_t scheme_length(std::string_view url) {
  if (url.empty() || !std::isalpha(static_cast<unsigned char>(url[0]))) return 0;
  for (size_t i = 1; i < url.size(); ++i) {
    char c = url[i];
    if (c == ':') return i;
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') return 0;
  }
  return 0;
}

// Where the path of `url` starts: after "scheme://authority", or 0 for a plain path.
size_t path_start(std::string_view url) {
  size_t s = scheme_length(url);
  if (s == 0) return 0;
  if (url.substr(s, 3) != "://") return s + 1;
  size_t slash = url.find('/', s + 3);
  return slash == std::string_view::npos ? url.size() : slash;
}

// RFC 3986 5.2.4, on the path part only: "a/b/../c/./d" -> "a/c/d".
std::string remove_dot_segments(std::string_view path) {
  std::vector<std::string_view> out;
  bool absolute = !path.empty() && path.front() == '/';
  bool trailing = false;
  size_t i = absolute ? 1 : 0;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view seg = path.substr(i, j - i);
    trailing = seg.empty() || seg == "." || seg == "..";
    if (seg == "..") {
      if (!out.empty()) out.pop_back();
    } else if (!seg.empty() && seg != ".") {
      out.push_back(seg);
    }
    i = j + 1;
  }
  std::string s = absolute ? "/" : "";
  for (size_t k = 0; k < out.size(); ++k) s += std::string(out[k]) + (k + 1 < out.size() ? "/" : "");
  if (trailing && !out.empty()) s += '/';
  return s;
}

enum class Section { tar_bz2, conda };

class RepodataReader {
 public:
  RepodataReader(ByteSource& source, const RepodataOptions& options, const RecordSink& sink)
      : in_(source), source_(source), options_(options), sink_(sink) {}

  Result<RepodataSummary> read() {
    if (!read_top()) return in_.error();
    if (conda_at_ && !(in_.seek(*conda_at_) && section(Section::conda))) return in_.error();
    if (tar_at_ && !(in_.seek(*tar_at_) && section(Section::tar_bz2))) return in_.error();
    return std::move(summary_);
  }

 private:
  bool read_top() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind != JsonKind::object)
      return in_.fail("the index is " + std::string(json_kind_name(*kind)) + in_.at(in_.offset()) +
                      " (expected an object with \"info\" and \"packages\")");
    in_.begin_object();
    bool info_seen = false, conda_done = false;
    while (in_.next_key(key_)) {
      bool ok = true;
      if (key_ == "info") {
        ok = info();
        info_seen = true;
        base_ = package_base_url(location(), base_url_);
      } else if (key_ == "packages.conda") {
        if (info_seen) ok = conda_done = section(Section::conda);
        else ok = defer(conda_at_);
      } else if (key_ == "packages") {
        if (info_seen && conda_done) ok = section(Section::tar_bz2);
        else ok = defer(tar_at_);
      } else if (key_ == "repodata_version") {
        ok = repodata_version();
      } else {
        ok = in_.skip_value();
      }
      if (!ok) return false;
    }
    if (in_.failed() || !in_.expect_end()) return false;
    if (!info_seen) base_ = package_base_url(location(), "");
    summary_.base_url = base_;
    return true;
  }

  std::string location() const {
    if (!options_.location.empty()) return options_.location;
    const std::string& name = source_.name();
    size_t slash = name.rfind('/');
    return slash == std::string::npos ? std::string() : name.substr(0, slash + 1);
  }

  bool info() {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::null) return in_.read_null();
    if (*kind != JsonKind::object)
      return in_.fail("info is " + std::string(json_kind_name(*kind)) + in_.at(in_.offset()) +
                      " (expected an object with subdir and base_url)");
    in_.begin_object();
    while (in_.next_key(key_)) {
      std::string* out = key_ == "subdir" ? &summary_.subdir : key_ == "base_url" ? &base_url_ : nullptr;
      if (!out) {
        if (!in_.skip_value()) return false;
        continue;
      }
      auto value = in_.peek();
      if (!value) return false;
      if (*value == JsonKind::null) {
        out->clear();
        if (!in_.read_null()) return false;
      } else if (*value == JsonKind::string) {
        if (!in_.read_string(*out)) return false;
      } else {
        return in_.fail("info." + key_ + " is " + std::string(json_kind_name(*value)) + in_.at(in_.offset()) +
                        " (expected a string)");
      }
    }
    return !in_.failed();
  }

  bool repodata_version() {
    auto kind = in_.peek();
    if (!kind) return false;
    std::uint64_t start = in_.offset();
    std::string text;
    std::optional<std::uint64_t> value;
    if (*kind == JsonKind::number) {
      if (!in_.read_number(text, value)) return false;
    } else {
      text = json_kind_name(*kind);
    }
    if (!value || *value < 1 || *value > 2)
      return in_.fail("repodata_version is " + text + in_.at(start) +
                      " (expected 1 or 2; a newer index format is not read)");
    summary_.repodata_version = static_cast<int>(*value);
    return true;
  }

  // Notes where a section starts and skips it; it is read once the whole file was seen.
  bool defer(std::optional<std::uint64_t>& at) {
    if (!check_section(key_)) return false;
    at = in_.offset();
    return in_.skip_value();
  }

  bool check_section(std::string_view label) {
    auto kind = in_.peek();
    if (!kind) return false;
    if (*kind == JsonKind::object || *kind == JsonKind::null) return true;
    return in_.fail(std::string(label) + " is " + std::string(json_kind_name(*kind)) + in_.at(in_.offset()) +
                    " (expected an object of package records by file name)");
  }

  bool section(Section which) {
    std::string_view label = which == Section::conda ? "packages.conda" : "packages";
    if (!check_section(label)) return false;
    if (in_.peek() == JsonKind::null) return in_.read_null();
    in_.begin_object();
    while (in_.next_key(file_)) {
      where_.assign(label).append("[\"").append(file_).append("\"]");
      if (!read_package(in_, where_, pkg_)) return false;
      std::string_view fn = file_;
      if (which == Section::conda) {
        if (ends_with(fn, kConda)) conda_stems_.insert(fn.substr(0, fn.size() - kConda.size()));
      } else if (ends_with(fn, kTarBz2) && conda_stems_.contains(fn.substr(0, fn.size() - kTarBz2.size()))) {
        ++summary_.replaced;
        continue;
      }
      PackageRecord& r = pkg_.record;
      r.arch = !pkg_.subdir.empty() ? pkg_.subdir : !summary_.subdir.empty() ? summary_.subdir : options_.subdir;
      r.origin = base_ + file_;
      ++summary_.records;
      sink_(std::move(r));
    }
    return !in_.failed();
  }

  JsonReader in_;
  ByteSource& source_;
  const RepodataOptions& options_;
  const RecordSink& sink_;
  RepodataSummary summary_;
  std::string base_url_;  // info.base_url as written
  std::string base_;      // what file names are appended to
  std::optional<std::uint64_t> conda_at_, tar_at_;
  StringIndex conda_stems_;  // of the .conda file names seen
  std::string key_, file_, where_;
  PackageJson pkg_;
};

}  // namespace

std::string package_base_url(std::string_view location, std::string_view base_url) {
  if (base_url.empty()) return with_slash(location);
  if (scheme_length(base_url) > 0) return with_slash(base_url);
  std::string loc = with_slash(location);
  size_t path_at = path_start(loc);
  if (base_url.substr(0, 2) == "//") {
    size_t s = scheme_length(loc);
    return with_slash((s ? loc.substr(0, s + 1) : std::string()) + std::string(base_url));
  }
  if (base_url.front() == '/') return with_slash(loc.substr(0, path_at) + remove_dot_segments(base_url));
  return with_slash(loc.substr(0, path_at) + remove_dot_segments(loc.substr(path_at) + std::string(base_url)));
}

Result<RepodataSummary> read_repodata(ByteSource& source, const RepodataOptions& options, const RecordSink& sink) {
  return RepodataReader(source, options, sink).read();
}

Result<RepodataSummary> read_repodata_file(const std::string& path, const RepodataOptions& options,
                                           const RecordSink& sink, const std::string& name) {
  auto source = open_file(path, name);
  if (!source) return source.error();
  return read_repodata(**source, options, sink);
}

Result<RepodataSummary> read_repodata_buffer(std::string_view data, const std::string& name,
                                             const RepodataOptions& options, const RecordSink& sink) {
  auto source = over_memory(data, name);
  return read_repodata(*source, options, sink);
}

}  // namespace extdeps::conda
