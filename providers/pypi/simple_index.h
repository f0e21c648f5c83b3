// A project's page on a simple repository: PEP 691 JSON (application/vnd.pypi.simple.v1+json)
// or PEP 503 HTML, into the list of its files with what PEP 592 (yanked), PEP 658/714 (core
// metadata beside the file) and requires-python say of each.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace extdeps::pypi {

inline constexpr std::string_view kJsonType = "application/vnd.pypi.simple.v1+json";
// What extdeps asks an index for: JSON, HTML as the fallback of servers without PEP 691.
inline constexpr std::string_view kAccept =
    "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01";

struct ProjectFile {
  std::string filename;         // "nvidia_cublas_cu12-12.4.5.8-py3-none-manylinux2014_x86_64.whl"
  std::string url;              // absolute, without the fragment
  std::string requires_python;  // ">=3"; empty when none is given
  bool yanked = false;
  bool has_metadata = false;  // <url>.metadata exists (PEP 658; "core-metadata" since PEP 714)
};

// Whether a Content-Type is PEP 691's JSON ("application/vnd.pypi.simple.v1+json; charset=...").
bool is_json_type(std::string_view content_type);

// `page_url` is what relative file URLs are resolved against, and what errors name (with the
// byte offset for JSON).
Result<std::vector<ProjectFile>> parse_json_page(std::string_view body, const std::string& page_url);
// The anchors of a PEP 503 page: href (with #sha256=... dropped), the text as the file name,
// data-requires-python, data-yanked, data-core-metadata or data-dist-info-metadata. HTML entities
// in attributes are decoded. Tolerant of what HTML allows (case, quotes, other tags).
Result<std::vector<ProjectFile>> parse_html_page(std::string_view body, const std::string& page_url);

}  // namespace extdeps::pypi
