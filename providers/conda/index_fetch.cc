// Two rounds of parallel requests: every .zst at once, then the plain .json of the locations
// whose .zst is missing.
#include "providers/conda/index_fetch.h"

#include <optional>

namespace extdeps::conda {

Result<std::vector<RepodataFile>> fetch_repodata(fetch::Fetcher& fetcher,
                                                 const std::vector<RepodataLocation>& locations) {
  std::vector<fetch::Request> first;
  for (const auto& loc : locations) {
    fetch::Request r;
    r.url = loc.urls.front();
    r.missing_ok = true;
    if (loc.urls.size() > 1) r.missing_max_age_s = kMissingZstdRememberedS;
    first.push_back(std::move(r));
  }
  auto answers = fetcher.fetch_all(first);

  std::vector<std::optional<fetch::Response>> found(locations.size());
  std::vector<size_t> again;  // locations whose first URL is missing
  std::vector<fetch::Request> second;
  for (size_t i = 0; i < locations.size(); ++i) {
    if (!answers[i].ok()) return answers[i].error();
    if (answers[i]->found) {
      found[i] = std::move(*answers[i]);
    } else if (locations[i].urls.size() > 1) {
      again.push_back(i);
      second.push_back({.url = locations[i].urls[1], .missing_ok = true});
    }
  }
  auto more = fetcher.fetch_all(second);
  for (size_t k = 0; k < again.size(); ++k) {
    if (!more[k].ok()) return more[k].error();
    if (more[k]->found) found[again[k]] = std::move(*more[k]);
  }

  std::vector<RepodataFile> out;
  for (size_t i = 0; i < locations.size(); ++i) {
    const auto& loc = locations[i];
    if (!found[i]) {
      if (loc.subdir != "noarch") continue;
      std::string tried;
      for (const auto& u : loc.urls) tried += (tried.empty() ? "" : " nor ") + u;
      return error_at(ExitCode::environment, "",
                      "channel " + loc.channel.name + " (" + loc.channel.url +
                          ") is not a conda channel here: neither " + tried + " exists");
    }
    out.push_back({loc.channel.url, loc.subdir, found[i]->body_path, found[i]->url});
  }
  return out;
}

}  // namespace extdeps::conda
