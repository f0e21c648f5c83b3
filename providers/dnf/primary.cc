// rpm-md metadata: repomd.xml's primary location, and primary.xml's packages as records, read
// with libxml2's streaming reader (a 100 MB primary.xml is never held whole).
#include "providers/dnf/libxml_api.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "core/util/text.h"
#include "providers/dnf/dnf_provider.h"

namespace extdeps::dnf {

namespace {

struct ReaderDeleter {
  void operator()(xmlTextReader* r) const { libxml().xmlFreeTextReader(r); }
};
using ReaderPtr = std::unique_ptr<xmlTextReader, ReaderDeleter>;

std::string_view text_of(const xmlChar* s) { return s ? std::string_view(reinterpret_cast<const char*>(s)) : ""; }

// An attribute's value; empty when absent.
std::string attribute(xmlTextReader* r, const char* name) {
  xmlChar* v = libxml().xmlTextReaderGetAttribute(r, reinterpret_cast<const xmlChar*>(name));
  std::string out(text_of(v));
  libxml().free(v);
  return out;
}

// "EPOCH:VERSION-RELEASE" as rpm writes it, the epoch left out when it is 0 or absent.
std::string evr(const std::string& epoch, const std::string& ver, const std::string& rel) {
  std::string out;
  if (!epoch.empty() && epoch != "0") out = epoch + ":";
  out += ver;
  if (!rel.empty()) out += "-" + rel;
  return out;
}

DepOp op_of(std::string_view flags) {
  if (flags == "EQ") return DepOp::eq;
  if (flags == "LT") return DepOp::lt;
  if (flags == "LE") return DepOp::le;
  if (flags == "GT") return DepOp::gt;
  if (flags == "GE") return DepOp::ge;
  return DepOp::any;
}

// A rich (boolean) dependency, "(a or b)", "(a >= 1 and b)": `or` gives alternatives, `and`
// several relations. nullopt for what one record cannot say (`if`, `unless`, `with`, `without`,
// nesting): the caller says so.
std::optional<std::vector<DepAlternatives>> parse_rich(std::string_view text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') return std::nullopt;
  std::string_view inner = text.substr(1, text.size() - 2);
  if (inner.find('(') != std::string_view::npos && inner.find_first_of("()") != inner.find("(")) return std::nullopt;
  std::vector<std::string_view> words;
  for (std::size_t i = 0; i < inner.size();) {
    while (i < inner.size() && inner[i] == ' ') ++i;
    std::size_t start = i;
    if (i < inner.size() && inner[i] == '(') return std::nullopt;  // nested: not yet
    while (i < inner.size() && inner[i] != ' ') ++i;
    if (i > start) words.push_back(inner.substr(start, i - start));
  }
  // name [op version] (or|and name [op version])...
  std::vector<NativeDep> terms;
  std::string joiner;
  for (std::size_t k = 0; k < words.size();) {
    NativeDep d;
    d.name = std::string(words[k++]);
    if (k + 1 < words.size()) {
      static const std::pair<std::string_view, DepOp> kOps[] = {
          {"=", DepOp::eq}, {"<", DepOp::lt}, {"<=", DepOp::le}, {">", DepOp::gt}, {">=", DepOp::ge}};
      for (const auto& [word, op] : kOps)
        if (words[k] == word) {
          d.op = op;
          d.version = std::string(words[k + 1]);
          k += 2;
          break;
        }
    }
    terms.push_back(std::move(d));
    if (k >= words.size()) break;
    const std::string_view j = words[k++];
    if (j != "or" && j != "and") return std::nullopt;
    if (!joiner.empty() && joiner != j) return std::nullopt;  // mixed without parentheses
    joiner = std::string(j);
  }
  if (terms.empty()) return std::nullopt;
  std::vector<DepAlternatives> out;
  if (joiner == "or") {
    out.push_back(std::move(terms));
  } else {
    for (auto& t : terms) out.push_back({std::move(t)});
  }
  return out;
}

// libxml2 pulls the decompressed bytes through this.
struct Feed {
  CompressedReader* in;
  std::optional<Error> error;
};

int read_callback(void* context, char* buffer, int len) {
  auto* feed = static_cast<Feed*>(context);
  auto n = feed->in->read(buffer, static_cast<std::size_t>(len));
  if (!n) {
    feed->error = n.error();
    return -1;
  }
  return static_cast<int>(*n);
}

Error xml_error(xmlTextReader* r, const std::string& name, const char* what) {
  const int line = r ? libxml().xmlTextReaderGetParserLineNumber(r) : 0;
  return error_at(ExitCode::environment, name + ":" + std::to_string(line), what, "rpm-md metadata (createrepo_c)",
                  "the repository's metadata may be damaged; dnf makecache fetches it again");
}

}  // namespace

namespace {

// repomd.xml: the location (href) of its <data type="TYPE">; empty when it has none.
Result<std::string> data_location(std::string_view repomd, const std::string& name, std::string_view type) {
  if (auto api = load_libxml(); !api.ok()) return api.error();
  ReaderPtr r(libxml().xmlReaderForMemory(repomd.data(), static_cast<int>(repomd.size()), name.c_str(), nullptr,
                                          XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
  if (!r) return error_at(ExitCode::environment, name, "cannot read it as XML");
  bool in_type = false;
  int ret;
  while ((ret = libxml().xmlTextReaderRead(r.get())) == 1) {
    if (libxml().xmlTextReaderNodeType(r.get()) != XML_READER_TYPE_ELEMENT) continue;
    const std::string_view tag = text_of(libxml().xmlTextReaderConstLocalName(r.get()));
    if (tag == "data") in_type = attribute(r.get(), "type") == type;
    if (tag == "location" && in_type) {
      std::string href = attribute(r.get(), "href");
      if (href.empty() || href.find("..") != std::string::npos || href.front() == '/')
        return error_at(ExitCode::environment, name,
                        std::string(type) + "'s location '" + shorten(href) + "' is not a path inside the repository");
      return href;
    }
  }
  if (ret < 0) return xml_error(r.get(), name, "malformed XML");
  return std::string();
}

}  // namespace

Result<std::string> primary_location(std::string_view repomd, const std::string& name) {
  auto href = data_location(repomd, name, "primary");
  if (href && href->empty())
    return error_at(ExitCode::environment, name, "no primary metadata", "a <data type=\"primary\"> with a <location>");
  return href;
}

Result<std::string> modules_location(std::string_view repomd, const std::string& name) {
  return data_location(repomd, name, "modules");
}

// A metalink (Fedora's mirror manager: <metalink><files><file name="repomd.xml"><resources>
// <url protocol="https" preference="100">https://.../repodata/repomd.xml</url>...): the base
// URLs of its mirrors, by preference (highest first, the file's order among equals).
Result<std::vector<std::string>> metalink_urls(std::string_view xml, const std::string& name) {
  if (auto api = load_libxml(); !api.ok()) return api.error();
  ReaderPtr r(libxml().xmlReaderForMemory(xml.data(), static_cast<int>(xml.size()), name.c_str(), nullptr,
                                          XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
  if (!r) return error_at(ExitCode::environment, name, "cannot read it as XML");
  std::vector<std::pair<long, std::string>> found;
  int ret;
  while ((ret = libxml().xmlTextReaderRead(r.get())) == 1) {
    if (libxml().xmlTextReaderNodeType(r.get()) != XML_READER_TYPE_ELEMENT) continue;
    if (text_of(libxml().xmlTextReaderConstLocalName(r.get())) != "url") continue;
    const std::string protocol = attribute(r.get(), "protocol");
    const std::string pref = attribute(r.get(), "preference");
    xmlChar* inner = libxml().xmlTextReaderReadString(r.get());
    std::string url(text_of(inner));
    libxml().free(inner);
    while (!url.empty() && (url.back() == ' ' || url.back() == '\n')) url.pop_back();
    while (!url.empty() && (url.front() == ' ' || url.front() == '\n')) url.erase(0, 1);
    constexpr std::string_view kTail = "/repodata/repomd.xml";
    if (protocol == "rsync" || !url.ends_with(kTail)) continue;
    long p = 0;
    for (char c : pref)
      if (c >= '0' && c <= '9' && p < 1000000) p = p * 10 + (c - '0');
    found.emplace_back(p, url.substr(0, url.size() - kTail.size()));
  }
  if (ret < 0) return xml_error(r.get(), name, "malformed XML");
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  if (out.empty())
    return error_at(ExitCode::environment, name, "a metalink with no mirror of repomd.xml",
                    "<url>.../repodata/repomd.xml</url>");
  return out;
}

// The name of a source rpm from its file name: "zstd-1.5.5-4.fc39.src.rpm" -> "zstd" (NAME-
// VERSION-RELEASE, the last two fields cut); empty when it is not of that form.
std::string source_name(std::string_view file) {
  for (std::string_view tail : {".src.rpm", ".nosrc.rpm"})
    if (file.ends_with(tail)) {
      file.remove_suffix(tail.size());
      const auto release = file.rfind('-');
      if (release == std::string_view::npos || release == 0) return {};
      const auto version = file.rfind('-', release - 1);
      if (version == std::string_view::npos || version == 0) return {};
      return std::string(file.substr(0, version));
    }
  return {};
}

Result<void> read_primary(CompressedReader& in, const std::string& name, std::string_view arch,
                          const RecordSink& sink) {
  if (auto api = load_libxml(); !api.ok()) return api.error();
  Feed feed{&in, std::nullopt};
  ReaderPtr r(libxml().xmlReaderForIO(read_callback, nullptr, &feed, name.c_str(), nullptr,
                                      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_COMPACT));
  if (!r) return error_at(ExitCode::environment, name, "cannot read it as XML");
  PackageRecord rec;
  bool in_package = false;
  std::string section;  // provides, requires, conflicts, obsoletes
  std::string field;    // name, arch: their text comes next
  std::string epoch, ver, rel;
  std::string source;  // the source rpm's name
  int ret;
  while ((ret = libxml().xmlTextReaderRead(r.get())) == 1) {
    const int type = libxml().xmlTextReaderNodeType(r.get());
    const std::string_view tag = text_of(libxml().xmlTextReaderConstLocalName(r.get()));
    if (type == XML_READER_TYPE_ELEMENT) {
      if (tag == "package") {
        rec = PackageRecord{};
        in_package = true;
        epoch.clear(), ver.clear(), rel.clear(), source.clear();
        continue;
      }
      if (!in_package) continue;
      if (tag == "name" || tag == "arch" || tag == "file" || tag == "sourcerpm") field = std::string(tag);
      else if (tag == "version") {
        epoch = attribute(r.get(), "epoch");
        ver = attribute(r.get(), "ver");
        rel = attribute(r.get(), "rel");
      } else if (tag == "provides" || tag == "requires" || tag == "conflicts" || tag == "obsoletes") {
        section = std::string(tag);
      } else if (tag == "entry" && !section.empty()) {
        NativeDep d;
        d.name = attribute(r.get(), "name");
        const std::string flags = attribute(r.get(), "flags");
        d.op = op_of(flags);
        if (d.op != DepOp::any)
          d.version = evr(attribute(r.get(), "epoch"), attribute(r.get(), "ver"), attribute(r.get(), "rel"));
        if (d.name.empty()) continue;
        if (section == "requires") {
          if (d.name.starts_with("rpmlib(")) continue;  // rpm's own capabilities
          if (d.name.front() == '(') {
            auto rich = parse_rich(d.name);
            if (rich) {
              for (auto& alts : *rich) rec.depends.push_back(std::move(alts));
            } else {
              // What alternatives cannot say (if, unless, with, without, nesting): as written,
              // for the solver's complex relations.
              rec.rich_depends.push_back(std::move(d.name));
            }
            continue;
          }
          rec.depends.push_back({std::move(d)});
        } else if (section == "provides") {
          rec.provides.push_back(std::move(d));
        } else if (d.name.front() != '(') {  // conflicts, obsoletes: a package that may not stay
          rec.conflicts.push_back(std::move(d));
        }
      }
    } else if (type == XML_READER_TYPE_TEXT && in_package && !field.empty()) {
      const std::string value(text_of(libxml().xmlTextReaderConstValue(r.get())));
      if (field == "name") rec.name = value;
      else if (field == "arch") rec.arch = value;
      else if (field == "file") rec.provides.push_back(NativeDep{value, DepOp::any, {}});
      else if (field == "sourcerpm") source = source_name(value);
      field.clear();
    } else if (type == XML_READER_TYPE_END_ELEMENT) {
      if (tag == "provides" || tag == "requires" || tag == "conflicts" || tag == "obsoletes") section.clear();
      if (tag == "name" || tag == "arch" || tag == "file" || tag == "sourcerpm") field.clear();
      if (tag == "package" && in_package) {
        in_package = false;
        if (rec.name.empty() || ver.empty()) return xml_error(r.get(), name, "a package without a name or a version");
        // The source rpm it was built from, where it is named otherwise (libzstd-devel from
        // zstd-1.5.5-4.fc39.src.rpm), as the provide "src:zstd" (core/mapping/guess.h).
        if (!source.empty() && source != rec.name) rec.provides.push_back(NativeDep{"src:" + source, DepOp::any, {}});
        rec.version = evr(epoch, ver, rel);
        if (rec.arch == "src" || rec.arch == "nosrc") continue;
        if (!arch.empty() && rec.arch != "noarch" && rec.arch != arch) continue;
        rec.origin = name;
        sink(std::move(rec));
      }
    }
  }
  if (feed.error) return *feed.error;
  if (ret < 0) return xml_error(r.get(), name, "malformed XML");
  return {};
}

}  // namespace extdeps::dnf
