// What the indexes offer for a set of projects and everything they depend on: project pages
// fetched in parallel (every index at once, round after round as Requires-Dist names new
// projects), one wheel chosen per version (the best tag the interpreter installs, preferring one
// this machine's glibc runs), and its PEP 658 metadata for the dependencies.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/context/context.h"
#include "core/declare/declare.h"
#include "core/fetch/fetch.h"
#include "core/util/result.h"
#include "providers/pypi/wheel_tags.h"

namespace extdeps::pypi {

struct CrawlInput {
  std::vector<std::string> roots;            // project names to start from (normalised)
  std::vector<std::string> index_urls;       // the first is the main index ("https://pypi.org/simple")
  std::vector<std::string> tags;             // compatible_tags(), best first
  std::string python_version;                // "3.12.1", for requires-python
  declare::MarkerEnv env;                    // for Requires-Dist markers
  std::optional<std::pair<int, int>> glibc;  // the host's, to prefer wheels that run here
  std::string memo_dir;                      // where the crawl's memo is kept (crawl_memo.h); empty: none
};

struct Candidate {
  std::string name;                          // normalised
  std::string version;                       // as the file name writes it
  std::string filename, url;                 // the wheel chosen for this version
  std::string platform;                      // its best platform tag ("manylinux2014_x86_64", "any")
  std::optional<std::pair<int, int>> glibc;  // what that manylinux tag needs
  bool metadata_known = false;               // its dependencies were read (PEP 658)
  std::vector<std::string> requires_dist;
};

struct CrawlResult {
  std::vector<Candidate> candidates;     // by name, then version as found
  std::vector<std::string> fetched;      // every page and metadata URL read, in order (for identity)
  std::vector<std::string> bodies;       // their cached bodies, same order
  std::vector<std::string> stamps;       // file_stamp of each body when it was read ("missing")
  std::vector<std::string> no_metadata;  // projects some of whose wheels had no PEP 658 metadata
  int pages = 0;                         // project pages read (found)
};

// Errors name the URL: a download that failed, a page or metadata that does not parse (its
// cached copy is dropped so the next run asks again). A project no index has is no error: it
// has no candidates. With input.memo_dir, a memo of the same input whose pages all come back
// unchanged is the result (crawl_memo.h); the crawl that reads the pages writes one.
Result<CrawlResult> crawl(fetch::Fetcher& fetcher, const CrawlInput& input);

}  // namespace extdeps::pypi
