// The progress line drawn on stderr while downloads run: one line, redrawn in place with '\r' at
// most ten times a second and wiped when they end. Only when the caller asks (a terminal);
// batches that finish within the first 200 ms draw nothing.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace extdeps::fetch {

struct ProgressState {
  std::size_t done = 0;        // transfers finished
  std::size_t total = 0;       // transfers in the batch
  std::uint64_t bytes = 0;     // received so far
  std::uint64_t expected = 0;  // announced by Content-Length; 0 when some are unknown
  std::string current;         // the last path component of a transfer running now
};

// "downloading 2/5  1.2 of 3.4 MiB  repodata.json", at most 79 columns.
std::string progress_line(const ProgressState& state);
// "512 B", "4.0 KiB", "12.3 MiB", "1.1 GiB"
std::string size_text(std::uint64_t bytes);

class ProgressBar {
 public:
  using Clock = std::chrono::steady_clock;
  // out == nullptr: draws nothing.
  explicit ProgressBar(std::ostream* out, std::chrono::milliseconds delay = std::chrono::milliseconds(200));
  ~ProgressBar();
  void update(const ProgressState& state);
  // Wipes the line if one was drawn.
  void finish();

 private:
  std::ostream* out_;
  Clock::time_point start_;
  Clock::time_point last_draw_{};
  std::chrono::milliseconds delay_;
  bool drawn_ = false;
};

}  // namespace extdeps::fetch
