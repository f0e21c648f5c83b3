// A producer of chunks run on a thread of its own, a few chunks ahead of the one who reads them,
// so that decoding (zstd, lz4, xz) overlaps the parse of what was decoded before. Used by the
// JSON byte sources (core/json/byte_source.cc) and CompressedReader::prefetching. When no thread
// can be had (a process limit), the producer is called in next() instead: slower, never a crash.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "core/util/result.h"

namespace extdeps {

class ReadAhead {
 public:
  // Fills `out` (a buffer handed back for reuse) with the next chunk. An empty chunk ends the
  // data; an error ends it after the chunk returned with it.
  using Producer = std::function<std::optional<Error>(std::string& out)>;

  explicit ReadAhead(Producer produce, std::size_t ahead = 2);
  ~ReadAhead();
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next chunk, valid until the next call; empty at the end; the producer's error once the
  // chunks before it were handed out.
  Result<std::string_view> next();
  // Stops the thread (the producer is not called again until restart()), so that its source can
  // be moved; restart() goes on producing from where the source then is.
  void stop();
  void restart();

 private:
  void start();
  void run();

  Producer produce_;
  const std::size_t ahead_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> ready_;  // produced, not yet handed out
  std::string spare_;              // a handed-out chunk's buffer, for the next one
  bool ended_ = false, stop_ = false;
  std::optional<Error> error_;  // why the data ended early, when it did
  std::string current_;         // the chunk the reader holds
  bool direct_ = false;         // no thread: next() calls the producer itself
  std::thread thread_;
};

}  // namespace extdeps
