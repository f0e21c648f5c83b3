#include "core/util/read_ahead.h"

#include <system_error>

namespace extdeps {

ReadAhead::ReadAhead(Producer produce, std::size_t ahead) : produce_(std::move(produce)), ahead_(ahead) { start(); }

ReadAhead::~ReadAhead() { stop(); }

void ReadAhead::start() {
  ready_.clear();
  ended_ = stop_ = false;
  error_.reset();
  direct_ = false;
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error&) {
    direct_ = true;  // no thread to be had (a process limit): produced as it is asked for
  }
}

void ReadAhead::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void ReadAhead::restart() {
  stop();
  start();
}

void ReadAhead::run() {
  for (;;) {
    std::string chunk;
    {
      std::lock_guard<std::mutex> lock(mu_);
      chunk = std::move(spare_);
    }
    chunk.clear();
    std::optional<Error> error = produce_(chunk);
    const bool last = error || chunk.empty();
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return ready_.size() < ahead_ || stop_; });
    if (stop_) return;
    if (!chunk.empty()) ready_.push_back(std::move(chunk));
    if (last) {
      error_ = std::move(error);
      ended_ = true;
    }
    lock.unlock();
    cv_.notify_all();
    if (last) return;
  }
}

Result<std::string_view> ReadAhead::next() {
  if (direct_) {
    if (ended_) return error_ ? Result<std::string_view>(*error_) : std::string_view();
    current_.clear();
    error_ = produce_(current_);
    if (error_ || current_.empty()) ended_ = true;
    if (!current_.empty()) return std::string_view(current_);
    return error_ ? Result<std::string_view>(*error_) : std::string_view();
  }
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return !ready_.empty() || ended_; });
  if (ready_.empty()) {
    if (error_) return *error_;
    return std::string_view();
  }
  current_.swap(ready_.front());  // the old chunk's buffer goes back for reuse
  spare_ = std::move(ready_.front());
  ready_.pop_front();
  lock.unlock();
  cv_.notify_all();
  return std::string_view(current_);
}

}  // namespace extdeps
