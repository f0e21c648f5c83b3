#include "core/fetch/progress.h"

#include <cstdio>
#include <ostream>

namespace extdeps::fetch {

std::string size_text(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes) / 1024;
  int u = 0;
  while (v >= 1024 && u < 3) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string progress_line(const ProgressState& s) {
  std::string line = "downloading " + std::to_string(s.done) + "/" + std::to_string(s.total) + "  ";
  if (s.expected > 0 && s.expected >= s.bytes) {
    std::string total = size_text(s.expected);
    std::string now = size_text(s.bytes);
    // "1.2 of 3.4 MiB" when both have the same unit.
    auto unit = total.substr(total.find(' '));
    if (now.size() > unit.size() && now.substr(now.size() - unit.size()) == unit) now.resize(now.size() - unit.size());
    line += now + " of " + total;
  } else {
    line += size_text(s.bytes);
  }
  if (!s.current.empty()) line += "  " + s.current;
  if (line.size() > 79) line = line.substr(0, 76) + "...";
  return line;
}

ProgressBar::ProgressBar(std::ostream* out, std::chrono::milliseconds delay)
    : out_(out), start_(Clock::now()), delay_(delay) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(const ProgressState& state) {
  if (!out_) return;
  auto now = Clock::now();
  if (now - start_ < delay_) return;
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  // "\033[K" clears what a longer earlier line left on the right.
  *out_ << '\r' << progress_line(state) << "\033[K" << std::flush;
  drawn_ = true;
  last_draw_ = now;
}

void ProgressBar::finish() {
  if (!out_ || !drawn_) return;
  *out_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

}  // namespace extdeps::fetch
