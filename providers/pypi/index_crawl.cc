#include "providers/pypi/index_crawl.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/util/file_stamp.h"
#include "core/util/text.h"
#include "core/version/pep440.h"
#include "providers/pypi/core_metadata.h"
#include "providers/pypi/crawl_memo.h"
#include "providers/pypi/simple_index.h"

namespace extdeps::pypi {

namespace {

// Wheel metadata never changes once uploaded: a year before it is asked again.
constexpr long kMetadataMaxAgeS = 365L * 24 * 3600;
constexpr int kMaxRounds = 50;

// What was done about an error (a damaged cached copy removed), after its text and as its hint.
Error with_note(Error e, const std::string& note) {
  e.message += " (" + note + ")";
  e.hint = e.hint.empty() ? note : e.hint + "; " + note;
  return e;
}

std::string read_body(const std::string& path) {
  std::string out;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return out;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

std::string page_url(const std::string& index, const std::string& name) {
  std::string base = index;
  while (!base.empty() && base.back() == '/') base.pop_back();
  std::string url = base + "/" + name + "/";
  // A local mirror is a folder tree: each project's page is its index.html.
  if (url.starts_with("file:")) url += "index.html";
  return url;
}

bool glibc_ok(const std::optional<std::pair<int, int>>& need, const std::optional<std::pair<int, int>>& have) {
  return !need || (have && *have >= *need);
}

struct Choice {
  ProjectFile file;
  WheelName wheel;
  std::size_t rank = 0;
  std::string platform;
  std::optional<std::pair<int, int>> glibc;
};

// The platform tag a wheel was ranked by, and the glibc it then needs.
void best_platform(const std::vector<std::string>& tags, std::size_t rank, Choice& c) {
  const std::string& best = tags[rank];
  c.platform = best.substr(best.rfind('-') + 1);
  c.glibc = manylinux_glibc(c.platform);
}

fetch::Request page_request(std::string url) {
  return {.url = std::move(url), .missing_ok = true, .accept = std::string(kAccept)};
}

// The pages of a memo of this input, asked again all at once: the memo's result when each
// comes back unchanged (crawl_memo.h). Either way, `answered` keeps the answers for the crawl.
std::optional<Result<CrawlResult>> recall(fetch::Fetcher& fetcher, const std::string& path, const std::string& key,
                                          std::map<std::string, fetch::Response>& answered) {
  auto memo = read_memo(path, key);
  if (!memo) return std::nullopt;
  std::vector<fetch::Request> pages;
  pages.reserve(memo->pages.size());
  for (const auto& p : memo->pages) pages.push_back(page_request(p.url));
  auto answers = fetcher.fetch_all(pages);
  bool same = true;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    // The same error as the crawl would meet: the last crawl of this input asked this page.
    if (!answers[i].ok()) return Result<CrawlResult>(answers[i].error());
    const auto& a = *answers[i];
    const auto& p = memo->pages[i];
    if (a.found != p.found || (a.found && file_stamp(a.body_path).value_or("") != p.stamp)) same = false;
    answered.emplace(pages[i].url, a);
  }
  // Metadata read from a file: index may have been edited; downloaded metadata never changes.
  const CrawlResult& r = memo->result;
  for (std::size_t i = 0; same && i < r.fetched.size(); ++i)
    if (r.fetched[i].starts_with("file:") && file_stamp(r.bodies[i]).value_or("missing") != r.stamps[i]) same = false;
  if (!same) return std::nullopt;
  return Result<CrawlResult>(std::move(memo->result));
}

}  // namespace

Result<CrawlResult> crawl(fetch::Fetcher& fetcher, const CrawlInput& in) {
  std::string key, path;
  std::map<std::string, fetch::Response> answered;  // pages the memo's check already asked
  if (!in.memo_dir.empty()) {
    key = memo_key(in);
    path = memo_path(in.memo_dir, key);
    if (auto recalled = recall(fetcher, path, key, answered)) return std::move(*recalled);
  }
  CrawlMemo memo;
  CrawlResult& out = memo.result;
  TagRanker ranker(in.tags);
  auto python = version::parse_pep440(in.python_version);
  std::set<std::string> seen;
  std::vector<std::string> todo;
  for (const auto& r : in.roots) {
    std::string n = normalize_name(r);
    if (seen.insert(n).second) todo.push_back(n);
  }
  for (int round = 0; !todo.empty() && round < kMaxRounds; ++round) {
    // Every page of this round, from every index, at once.
    std::vector<fetch::Request> pages;
    for (const auto& name : todo)
      for (const auto& index : in.index_urls) pages.push_back(page_request(page_url(index, name)));
    // Each page is read as it arrives, while the others are on their way; what it offers is
    // merged below in request order, so the choice among indexes and what the cache key lists
    // do not depend on which answer came first.
    struct Page {
      std::string stamp;  // taken before the body is read: a body replaced meanwhile reads as changed
      std::string body;
      std::optional<Result<std::vector<ProjectFile>>> files;  // unset: not found
    };
    std::vector<Page> read(pages.size());
    auto parse = [&](std::size_t i, const Result<fetch::Response>& answer) {
      if (!answer.ok() || !answer->found) return;
      const auto& a = *answer;
      Page& page = read[i];
      page.stamp = file_stamp(a.body_path).value_or("missing");
      page.body = read_body(a.body_path);
      const std::string& body = page.body;
      bool json = is_json_type(a.content_type) ||
                  (a.content_type.empty() && !body.empty() && body.find_first_not_of(" \t\r\n") != std::string::npos &&
                   body[body.find_first_not_of(" \t\r\n")] == '{');
      page.files = json ? parse_json_page(body, a.url) : parse_html_page(body, a.url);
    };
    // The pages the memo's check asked are not asked again.
    std::vector<fetch::Request> asked;
    std::vector<std::size_t> asked_at;
    std::vector<std::optional<Result<fetch::Response>>> known(pages.size());
    for (std::size_t i = 0; i < pages.size(); ++i) {
      if (auto it = answered.find(pages[i].url); it != answered.end()) {
        known[i] = Result<fetch::Response>(it->second);
        parse(i, *known[i]);
      } else {
        asked.push_back(pages[i]);
        asked_at.push_back(i);
      }
    }
    auto fresh =
        fetcher.fetch_all(asked, [&](std::size_t j, const Result<fetch::Response>& a) { parse(asked_at[j], a); });
    for (std::size_t j = 0; j < asked.size(); ++j) known[asked_at[j]] = std::move(fresh[j]);
    std::vector<Result<fetch::Response>> answers;
    answers.reserve(pages.size());
    for (auto& k : known) answers.push_back(std::move(*k));
    std::map<std::string, std::map<std::string, Choice>> chosen;  // name -> version -> wheel
    for (size_t i = 0; i < pages.size(); ++i) {
      if (!answers[i].ok()) return answers[i].error();
      const auto& a = *answers[i];
      memo.pages.push_back({pages[i].url, a.found, read[i].stamp});
      if (!a.found) continue;
      const std::string& name = todo[i / in.index_urls.size()];
      out.fetched.push_back(a.url);
      out.bodies.push_back(a.body_path);
      out.stamps.push_back(read[i].stamp);
      ++out.pages;
      auto& files = *read[i].files;
      if (!files) {
        if (fetcher.forget(a.url).ok() && !a.url.starts_with("file:"))
          return with_note(files.error(), "the cached copy was removed; the next run downloads it again");
        return files.error();
      }
      for (auto& f : *files) {
        if (f.yanked || !f.filename.ends_with(".whl")) continue;
        auto w = parse_wheel_filename(f.filename);
        if (!w || normalize_name(w->distribution) != name) continue;
        auto v = version::parse_pep440(w->version);
        if (!v) continue;
        // As pip does by default: no pre-releases, no development releases.
        if (v->pre != version::Pep440::Pre::none || v->dev) continue;
        if (!f.requires_python.empty() && python) {
          auto range = declare::parse_range(f.requires_python);
          if (range && !declare::range_contains(*range, in.python_version)) continue;
        }
        auto rank = ranker.rank(*w);
        if (!rank) continue;
        Choice c{f, *w, *rank, {}, {}};
        best_platform(in.tags, *rank, c);
        std::string key = version::pep440_canonical(*v);
        auto& slot = chosen[name];
        auto it = slot.find(key);
        if (it == slot.end()) {
          slot.emplace(key, std::move(c));
          continue;
        }
        // A wheel this glibc runs beats one it does not; then the better tag; then the first index.
        bool ok_new = glibc_ok(c.glibc, in.glibc), ok_old = glibc_ok(it->second.glibc, in.glibc);
        if ((ok_new && !ok_old) || (ok_new == ok_old && c.rank < it->second.rank)) it->second = std::move(c);
      }
    }
    // Their metadata, all at once.
    std::vector<fetch::Request> metas;
    std::vector<Candidate*> of_meta;
    size_t first = out.candidates.size();
    for (auto& [name, versions] : chosen)
      for (auto& [key, c] : versions) {
        Candidate cand;
        cand.name = name;
        cand.version = c.wheel.version;
        cand.filename = c.file.filename;
        cand.url = c.file.url;
        cand.platform = c.platform;
        cand.glibc = c.glibc;
        cand.metadata_known = c.file.has_metadata;
        out.candidates.push_back(std::move(cand));
      }
    for (size_t i = first; i < out.candidates.size(); ++i) {
      auto& cand = out.candidates[i];
      if (!cand.metadata_known) {
        if (out.no_metadata.empty() || out.no_metadata.back() != cand.name) out.no_metadata.push_back(cand.name);
        continue;
      }
      metas.push_back({.url = cand.url + ".metadata", .missing_ok = true, .max_age_s = kMetadataMaxAgeS});
      of_meta.push_back(&cand);
    }
    auto meta_answers = fetcher.fetch_all(metas);
    std::vector<std::string> next;
    for (size_t i = 0; i < metas.size(); ++i) {
      if (!meta_answers[i].ok()) return meta_answers[i].error();
      const auto& a = *meta_answers[i];
      if (!a.found) {  // announced but not there: its dependencies stay unknown
        of_meta[i]->metadata_known = false;
        out.no_metadata.push_back(of_meta[i]->name);
        continue;
      }
      out.fetched.push_back(a.url);
      out.bodies.push_back(a.body_path);
      out.stamps.push_back(file_stamp(a.body_path).value_or("missing"));
      auto m = parse_core_metadata(read_body(a.body_path), a.url);
      if (!m) {
        if (!a.url.starts_with("file:") && fetcher.forget(a.url).ok())
          return with_note(m.error(), "the cached copy was removed; the next run downloads it again");
        return m.error();
      }
      of_meta[i]->requires_dist = m->requires_dist;
      for (const auto& r : active_requirements(m->requires_dist, in.env))
        if (seen.insert(r.name).second) next.push_back(r.name);
    }
    todo = std::move(next);
  }
  // A memo that cannot be written costs the next run a crawl, nothing more.
  if (!path.empty()) (void)write_memo(path, key, memo);
  return std::move(memo.result);
}

}  // namespace extdeps::pypi
