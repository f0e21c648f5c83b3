// What a crawl read, kept for the next crawl of the same projects for the same interpreter: the
// project pages it fetched (each with its body's stamp, or "not found") and the result made from
// them. The next crawl revalidates those pages all at once, in one round, and when every one comes
// back as it was (the same body file with the same stamp; "not found" again) the result is the
// same, and the pages are neither read nor parsed and no metadata is looked up. PEP 658 metadata
// files never change once uploaded, so they are not asked again; one read from a file: index (a
// local mirror, which anyone may edit) is checked by its stamp.
//
// A memo is sealed (core/util/sealed_file.h, kind "pypc") under
// <cache>/pypi/crawls/<16 hex>.crawl, named after a key that holds all of the crawl's input
// (projects, indexes, tags, Python version, marker values, glibc); the key is stored too and
// compared whole, so a hash collision is a miss. A damaged, foreign or older file reads as
// absent and is rewritten by the crawl that follows.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"
#include "providers/pypi/index_crawl.h"

namespace extdeps::pypi {

struct MemoPage {
  std::string url;
  bool found = false;
  std::string stamp;  // file_stamp of the cached body; empty when not found
};

struct CrawlMemo {
  std::vector<MemoPage> pages;  // every project page asked, in the order asked
  CrawlResult result;
};

// Everything the crawl's result depends on, as text.
std::string memo_key(const CrawlInput& input);

// The file under `dir` for `key`.
std::string memo_path(const std::string& dir, std::string_view key);

// A memo's body (what the seal holds) and back: parse_memo is nullopt for anything encode_memo
// did not write for `key`.
std::string encode_memo(std::string_view key, const CrawlMemo& memo);
std::optional<CrawlMemo> parse_memo(std::string_view body, std::string_view key);

// The memo stored at `path` for exactly `key`; nullopt when there is none, or it is damaged,
// foreign, of another extdeps version, or for another key.
std::optional<CrawlMemo> read_memo(const std::string& path, std::string_view key);

// Writes it atomically, making the folder.
Result<void> write_memo(const std::string& path, std::string_view key, const CrawlMemo& memo);

}  // namespace extdeps::pypi
