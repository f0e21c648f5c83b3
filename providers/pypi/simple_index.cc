// PEP 691 pages are small (a project's files, a few hundred at most): nlohmann reads them whole.
// PEP 503 pages are read with a scanner for <a ...>text</a>, which is all the format is.
#include "providers/pypi/simple_index.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "core/fetch/url.h"
#include "core/json/document.h"
#include "core/util/text.h"

namespace extdeps::pypi {

namespace {

// Whether a PEP 691 metadata value says the file's metadata is served: true, or a dict of hashes.
bool metadata_value(const nlohmann::json& v) { return (v.is_boolean() && v.get<bool>()) || v.is_object(); }

// &amp; &lt; &gt; &quot; &#39; &#NN; &#xNN; (enough for what indexes write in attributes).
std::string decode_entities(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    auto semi = s.find(';', i);
    if (semi == std::string_view::npos || semi - i > 10) {
      out += s[i];
      continue;
    }
    std::string_view e = s.substr(i + 1, semi - i - 1);
    std::string rep;
    if (e == "amp") rep = "&";
    else if (e == "lt") rep = "<";
    else if (e == "gt") rep = ">";
    else if (e == "quot") rep = "\"";
    else if (e == "apos") rep = "'";
    else if (e.size() > 1 && e[0] == '#') {
      unsigned long code = 0;
      try {
        code = (e[1] == 'x' || e[1] == 'X') ? std::stoul(std::string(e.substr(2)), nullptr, 16)
                                            : std::stoul(std::string(e.substr(1)), nullptr, 10);
      } catch (...) {
        code = 0;
      }
      if (code > 0 && code < 128) rep = std::string(1, static_cast<char>(code));
    }
    if (rep.empty()) {
      out += s[i];
      continue;
    }
    out += rep;
    i = semi;
  }
  return out;
}

std::string strip_tags(std::string_view s) {
  std::string out;
  bool in_tag = false;
  for (char c : s) {
    if (c == '<') in_tag = true;
    else if (c == '>') in_tag = false;
    else if (!in_tag) out += c;
  }
  return out;
}

// The attributes of one start tag's inside ("a href=\"x\" data-yanked"): names in lower case.
std::vector<std::pair<std::string, std::optional<std::string>>> attributes(std::string_view tag) {
  std::vector<std::pair<std::string, std::optional<std::string>>> out;
  size_t i = 0;
  auto skip_space = [&] {
    while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
  };
  while (i < tag.size() && !std::isspace(static_cast<unsigned char>(tag[i]))) ++i;  // the tag name
  while (true) {
    skip_space();
    if (i >= tag.size() || tag[i] == '/') break;
    size_t start = i;
    while (i < tag.size() && tag[i] != '=' && !std::isspace(static_cast<unsigned char>(tag[i])) && tag[i] != '/') ++i;
    std::string name = to_lower(tag.substr(start, i - start));
    skip_space();
    if (i < tag.size() && tag[i] == '=') {
      ++i;
      skip_space();
      std::string value;
      if (i < tag.size() && (tag[i] == '"' || tag[i] == '\'')) {
        char q = tag[i++];
        size_t end = tag.find(q, i);
        if (end == std::string_view::npos) end = tag.size();
        value = tag.substr(i, end - i);
        i = end + 1;
      } else {
        size_t vstart = i;
        while (i < tag.size() && !std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
        value = tag.substr(vstart, i - vstart);
      }
      out.emplace_back(name, decode_entities(value));
    } else if (!name.empty()) {
      out.emplace_back(name, std::nullopt);
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace

bool is_json_type(std::string_view content_type) {
  std::string t = to_lower(trim(content_type.substr(0, content_type.find(';'))));
  return t == kJsonType;
}

Result<std::vector<ProjectFile>> parse_json_page(std::string_view body, const std::string& page_url) {
  nlohmann::json j;
  if (auto e = json::parse_document(body, j)) {
    Error err = environment_error(page_url + ": not valid JSON at byte offset " + std::to_string(e->offset) + " (" +
                                  e->what + "; expected a PEP 691 project page)");
    err.place = page_url + ": byte " + std::to_string(e->offset);
    err.what = "not valid JSON (" + e->what + ")";
    err.expected = "a PEP 691 project page";
    return err;
  }
  auto bad = [&](const std::string& what, const std::string& at = {}) {
    return error_at(ExitCode::environment, at.empty() ? page_url : page_url + ": " + at, what,
                    "a PEP 691 project page");
  };
  if (!j.is_object()) return bad("the page is not a JSON object");
  if (auto m = j.find("meta"); m != j.end() && m->is_object()) {
    auto a = m->find("api-version");
    if (a != m->end() && !a->is_string()) return bad("meta.api-version is not a string");
    std::string api = a == m->end() ? "1.0" : a->get<std::string>();
    if (!api.starts_with("1.")) return bad("api-version " + shorten(api) + " is not one extdeps reads (1.x)");
  }
  auto files = j.find("files");
  if (files == j.end() || !files->is_array()) return bad("no \"files\" list");
  std::vector<ProjectFile> out;
  for (size_t i = 0; i < files->size(); ++i) {
    const auto& f = (*files)[i];
    std::string where = "files[" + std::to_string(i) + "]";
    if (!f.is_object()) return bad(where + " is not an object");
    auto fn = f.find("filename");
    auto url = f.find("url");
    if (fn == f.end() || !fn->is_string() || url == f.end() || !url->is_string())
      return bad(where + " has no \"filename\" and \"url\" strings");
    ProjectFile pf;
    pf.filename = fn->get<std::string>();
    auto resolved = fetch::resolve_url(page_url, url->get<std::string>());
    if (!resolved) {
      // The reference's error (its place is this page) at the field that holds it.
      const Error& inner = resolved.error();
      Error e = bad(inner.what.empty() ? inner.message : inner.what, where + ".url");
      e.hint = inner.hint;
      return e;
    }
    pf.url = *resolved;
    if (auto rp = f.find("requires-python"); rp != f.end() && rp->is_string())
      pf.requires_python = rp->get<std::string>();
    if (auto y = f.find("yanked"); y != f.end()) pf.yanked = (y->is_boolean() && y->get<bool>()) || y->is_string();
    for (const char* key : {"core-metadata", "dist-info-metadata", "data-dist-info-metadata"})
      if (auto m = f.find(key); m != f.end() && metadata_value(*m)) pf.has_metadata = true;
    out.push_back(std::move(pf));
  }
  return out;
}

Result<std::vector<ProjectFile>> parse_html_page(std::string_view body, const std::string& page_url) {
  std::vector<ProjectFile> out;
  std::string base = page_url;
  size_t i = 0;
  size_t close_a = 0;  // the last "</a" found; npos when there is none after it
  while (true) {
    size_t open = body.find('<', i);
    if (open == std::string_view::npos) break;
    size_t close = body.find('>', open);
    if (close == std::string_view::npos) break;
    std::string_view tag = body.substr(open + 1, close - open - 1);
    std::string name = to_lower(tag.substr(0, tag.find_first_of(" \t\r\n/")));
    i = close + 1;
    if (name == "base") {  // <base href="..."> moves what relative links resolve against
      for (const auto& [k, v] : attributes(tag))
        if (k == "href" && v)
          if (auto r = fetch::resolve_url(page_url, *v)) base = *r;
      continue;
    }
    if (name != "a") continue;
    // The first "</a" at or after i. Remembered: on a page of unclosed anchors every search
    // would scan to the end again (quadratic: minutes on a few MB).
    if (close_a != std::string_view::npos && close_a < i) {
      close_a = body.find("</", i);
      while (close_a != std::string_view::npos && (close_a + 2 >= body.size() || (body[close_a + 2] | 0x20) != 'a'))
        close_a = body.find("</", close_a + 2);
    }
    size_t end = close_a;
    std::string text = decode_entities(trim(strip_tags(body.substr(i, end == std::string_view::npos ? 0 : end - i))));
    ProjectFile pf;
    std::optional<std::string> href;
    for (const auto& [k, v] : attributes(tag)) {
      if (k == "href") href = v;
      else if (k == "data-requires-python" && v) pf.requires_python = *v;
      else if (k == "data-yanked") pf.yanked = true;
      else if ((k == "data-core-metadata" || k == "data-dist-info-metadata") && (!v || *v != "false"))
        pf.has_metadata = true;
    }
    if (!href) continue;
    auto resolved = fetch::resolve_url(base, *href);
    if (!resolved) {
      // The link's error, whole (its place is the URL it was resolved against), at its byte.
      Error e = environment_error(page_url + ": a link at byte offset " + std::to_string(open) + ": " +
                                  resolved.error().message);
      e.place = page_url + ": byte " + std::to_string(open);
      e.what = "a link: " + resolved.error().message;
      e.expected = resolved.error().expected;
      e.hint = resolved.error().hint;
      return e;
    }
    pf.url = *resolved;
    pf.filename = text;
    if (pf.filename.empty()) {
      // Some indexes leave the text out: the file name is the last part of the URL's path.
      std::string_view u = pf.url;
      u = u.substr(0, u.find('?'));
      pf.filename = std::string(u.substr(u.rfind('/') + 1));
    }
    out.push_back(std::move(pf));
    if (end != std::string_view::npos) i = end;
  }
  return out;
}

}  // namespace extdeps::pypi
