// Downloading the indexes of conda channels through the fetcher: per channel and subdir,
// repodata.json.zst first and repodata.json where the server has no .zst. A missing .zst is
// remembered for a week, so a channel without one is not asked for it on every run.
#pragma once

#include <vector>

#include "core/context/context.h"
#include "core/fetch/fetch.h"
#include "core/util/result.h"
#include "providers/conda/channels.h"
#include "providers/conda/repodata.h"

namespace extdeps::conda {

inline constexpr long kMissingZstdRememberedS = 7 * 24 * 3600;

// One file per location that has an index, in the order of `locations`. A platform subdir with
// neither file is skipped (many channels are noarch only); a channel whose noarch subdir has
// neither is not a conda channel, an error naming both URLs. Download errors name the URL.
Result<std::vector<RepodataFile>> fetch_repodata(fetch::Fetcher& fetcher,
                                                 const std::vector<RepodataLocation>& locations);

}  // namespace extdeps::conda
