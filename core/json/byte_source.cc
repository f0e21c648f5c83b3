// Files are read through a 1 MiB buffer, memory is handed out whole, zstd is decoded one block
// at a time into a 1 MiB buffer, so an error lands at the start of the damaged block, and brotli
// into a 1 MiB buffer as its decoder allows. Both decode on a thread a few chunks ahead of the
// reader.
#include "core/json/byte_source.h"
#include "core/util/data_errors.h"
#include "core/util/lazy_library.h"
#include "core/util/read_ahead.h"
#include "core/util/regular_file.h"

#include <brotli/decode.h>
#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

namespace extdeps::json {

namespace {

constexpr size_t kChunk = 1 << 20;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

class FileSource final : public ByteSource {
 public:
  FileSource(std::string name, int fd) : ByteSource(std::move(name)), fd_(fd), buf_(kChunk) {}
  ~FileSource() override { ::close(fd_); }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  Result<std::string_view> next() override {
    while (true) {
      ssize_t n = ::read(fd_, buf_.data(), buf_.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return error_at(ExitCode::environment, name(), std::string("cannot read: ") + std::strerror(errno));
      return std::string_view(buf_.data(), static_cast<size_t>(n));
    }
  }

  Result<void> seek(std::uint64_t offset) override {
    if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0)
      return error_at(ExitCode::environment, name(), std::string("cannot seek: ") + std::strerror(errno));
    return {};
  }

  bool compressed() const override { return false; }

 private:
  int fd_;
  std::vector<char> buf_;
};

class MemorySource final : public ByteSource {
 public:
  MemorySource(std::string name, std::string_view data) : ByteSource(std::move(name)), data_(data) {}

  Result<std::string_view> next() override {
    std::string_view rest = data_.substr(pos_);
    pos_ = data_.size();
    return rest;
  }

  Result<void> seek(std::uint64_t offset) override {
    pos_ = static_cast<size_t>(std::min<std::uint64_t>(offset, data_.size()));
    return {};
  }

  bool compressed() const override { return false; }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

// A decompressing source: a seek decodes again from the start of the input and drops what
// comes before the offset. Subclasses decode one buffer at a time.
class DecodedSource : public ByteSource {
 public:
  explicit DecodedSource(std::unique_ptr<ByteSource> in) : ByteSource(in->name()), buf_(kChunk), in_(std::move(in)) {}

  Result<std::string_view> next() override {
    while (true) {
      auto chunk = decode();
      if (!chunk) return chunk;
      std::string_view out = *chunk;
      if (skip_ == 0 || out.empty()) return out;
      size_t drop = static_cast<size_t>(std::min<std::uint64_t>(skip_, out.size()));
      skip_ -= drop;
      out.remove_prefix(drop);
      if (!out.empty()) return out;
    }
  }

  Result<void> seek(std::uint64_t offset) override {
    if (auto r = restart(); !r) return r;
    if (auto r = in_->seek(0); !r) return r;
    input_ = {};
    consumed_ = 0;
    input_ended_ = false;
    skip_ = offset;
    return {};
  }

  bool compressed() const override { return true; }

 protected:
  // Up to one buffer of decoded data; empty at the end of the stream.
  virtual Result<std::string_view> decode() = 0;
  // Resets the decoder for a new pass over the input.
  virtual Result<void> restart() = 0;

  // Makes sure some input is at hand unless the input has ended.
  Result<void> refill() {
    if (!input_.empty() || input_ended_) return {};
    auto more = in_->next();
    if (!more) return more.error();
    input_ = *more;
    input_ended_ = input_.empty();
    return {};
  }
  void consume(size_t n) {
    input_.remove_prefix(n);
    consumed_ += n;
  }

  std::vector<char> buf_;
  std::string_view input_;
  std::uint64_t consumed_ = 0;  // compressed bytes fed to the decoder
  bool input_ended_ = false;

 private:
  std::unique_ptr<ByteSource> in_;
  std::uint64_t skip_ = 0;  // decoded bytes still to drop after a seek
};

class ZstdSource final : public DecodedSource {
 public:
  explicit ZstdSource(std::unique_ptr<ByteSource> in) : DecodedSource(std::move(in)), ctx_(ZSTD_createDCtx()) {}
  ~ZstdSource() override { ZSTD_freeDCtx(ctx_); }
  ZstdSource(const ZstdSource&) = delete;
  ZstdSource& operator=(const ZstdSource&) = delete;

 private:
  Result<void> restart() override {
    if (!ctx_) return error_at(ExitCode::environment, name(), "cannot create a zstd decoder");
    ZSTD_DCtx_reset(ctx_, ZSTD_reset_session_only);
    want_ = kHeader;
    frame_ended_ = false;
    return {};
  }

  Result<std::string_view> decode() override {
    if (!ctx_) return error_at(ExitCode::environment, name(), "cannot create a zstd decoder");
    size_t produced = 0;
    while (produced < buf_.size()) {
      if (auto r = refill(); !r) return r.error();
      // Feeding what the decoder asks for (a frame header, then one block at a time) places an
      // error at the start of the damaged block.
      ZSTD_inBuffer src{input_.data(), std::min(input_.size(), want_), 0};
      ZSTD_outBuffer dst{buf_.data() + produced, buf_.size() - produced, 0};
      size_t hint = ZSTD_decompressStream(ctx_, &dst, &src);
      if (ZSTD_isError(hint)) return corrupt(ZSTD_getErrorName(hint));
      consume(src.pos);
      produced += dst.pos;
      if (src.pos == 0 && dst.pos == 0) {
        if (!input_ended_) return corrupt("the decoder made no progress");
        if (!frame_ended_) return truncated();
        break;
      }
      frame_ended_ = hint == 0;  // 0: a frame ended exactly here; another may follow
      want_ = hint == 0 ? kHeader : hint;
    }
    return std::string_view(buf_.data(), produced);
  }

  Error corrupt(std::string_view why) const { return corrupt_data(name(), "zstd", consumed_, why); }
  Error truncated() const { return truncated_data(name(), "zstd", consumed_); }

  static constexpr size_t kHeader = 5;  // ZSTD_FRAMEHEADERSIZE_PREFIX
  ZSTD_DCtx* ctx_;
  size_t want_ = kHeader;
  bool frame_ended_ = false;
};

// libbrotlidec, loaded with dlopen when a .br file is first read (core/util/lazy_library.h).
struct BrotliApi {
  decltype(&::BrotliDecoderCreateInstance) create = nullptr;
  decltype(&::BrotliDecoderDestroyInstance) destroy = nullptr;
  decltype(&::BrotliDecoderDecompressStream) decompress = nullptr;
  decltype(&::BrotliDecoderGetErrorCode) error_code = nullptr;
  decltype(&::BrotliDecoderErrorString) error_string = nullptr;
};

const Result<const BrotliApi*>& brotli_api() {
  static const Result<const BrotliApi*> api = []() -> Result<const BrotliApi*> {
    static BrotliApi a;
    auto r = lazy::load("libbrotlidec.so.1", "libbrotli1", "reading .br files",
                        {{"BrotliDecoderCreateInstance", reinterpret_cast<void**>(&a.create)},
                         {"BrotliDecoderDestroyInstance", reinterpret_cast<void**>(&a.destroy)},
                         {"BrotliDecoderDecompressStream", reinterpret_cast<void**>(&a.decompress)},
                         {"BrotliDecoderGetErrorCode", reinterpret_cast<void**>(&a.error_code)},
                         {"BrotliDecoderErrorString", reinterpret_cast<void**>(&a.error_string)}});
    if (!r.ok()) return r.error();
    return &a;
  }();
  return api;
}

// brotli has no frames to feed one at a time: an error is placed at the compressed bytes fed so
// far, which is at or just after the damage.
class BrotliSource final : public DecodedSource {
 public:
  explicit BrotliSource(std::unique_ptr<ByteSource> in)
      : DecodedSource(std::move(in)),
        state_(brotli_api().ok() ? (*brotli_api())->create(nullptr, nullptr, nullptr) : nullptr) {}
  ~BrotliSource() override {
    if (state_) (*brotli_api())->destroy(state_);
  }
  BrotliSource(const BrotliSource&) = delete;
  BrotliSource& operator=(const BrotliSource&) = delete;

 private:
  Result<void> restart() override {
    if (!brotli_api().ok()) return brotli_api().error();
    if (state_) (*brotli_api())->destroy(state_);
    state_ = (*brotli_api())->create(nullptr, nullptr, nullptr);
    if (!state_) return error_at(ExitCode::environment, name(), "cannot create a brotli decoder");
    stream_ended_ = false;
    return {};
  }

  Result<std::string_view> decode() override {
    if (!brotli_api().ok()) return brotli_api().error();
    if (!state_) return error_at(ExitCode::environment, name(), "cannot create a brotli decoder");
    size_t produced = 0;
    while (produced < buf_.size() && !stream_ended_) {
      if (auto r = refill(); !r) return r.error();
      size_t avail_in = input_.size();
      const auto* next_in = reinterpret_cast<const std::uint8_t*>(input_.data());
      size_t avail_out = buf_.size() - produced;
      auto* next_out = reinterpret_cast<std::uint8_t*>(buf_.data() + produced);
      BrotliDecoderResult r = (*brotli_api())->decompress(state_, &avail_in, &next_in, &avail_out, &next_out, nullptr);
      consume(input_.size() - avail_in);
      produced = buf_.size() - avail_out;
      if (r == BROTLI_DECODER_RESULT_ERROR)
        return corrupt((*brotli_api())->error_string((*brotli_api())->error_code(state_)));
      if (r == BROTLI_DECODER_RESULT_SUCCESS) {
        stream_ended_ = true;
        if (auto more = refill(); !more) return more.error();
        if (!input_.empty()) return corrupt("data follows the end of the stream");
      } else if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT && input_ended_) {
        return truncated_data(name(), "brotli", consumed_);
      }
    }
    return std::string_view(buf_.data(), produced);
  }

  Error corrupt(std::string_view why) const { return corrupt_data(name(), "brotli", consumed_, why); }

  BrotliDecoderState* state_;
  bool stream_ended_ = false;
};

// Decodes on a thread of its own a couple of chunks ahead of the reader (core/util/read_ahead.h),
// so that decoding a large index (conda-forge's linux-64 is 250 MB of JSON) overlaps parsing it.
// seek() stops the thread, seeks the inner source and starts it again.
class PrefetchingSource final : public ByteSource {
 public:
  explicit PrefetchingSource(std::unique_ptr<ByteSource> inner)
      : ByteSource(inner->name()),
        inner_(std::move(inner)),
        compressed_(inner_->compressed()),
        ahead_([this](std::string& out) -> std::optional<Error> {
          auto chunk = inner_->next();
          if (!chunk) return chunk.error();
          out.assign(chunk->data(), chunk->size());
          return std::nullopt;
        }) {}

  Result<std::string_view> next() override { return ahead_.next(); }

  Result<void> seek(std::uint64_t offset) override {
    ahead_.stop();
    auto r = inner_->seek(offset);
    ahead_.restart();  // after an error too: the next read then says so again
    return r;
  }

  bool compressed() const override { return compressed_; }

 private:
  std::unique_ptr<ByteSource> inner_;  // only the read-ahead thread uses it while it runs
  const bool compressed_;
  ReadAhead ahead_;  // last: started once inner_ is there
};

std::unique_ptr<ByteSource> decoded(std::unique_ptr<ByteSource> in) {
  if (ends_with(in->name(), ".zst"))
    return std::make_unique<PrefetchingSource>(std::make_unique<ZstdSource>(std::move(in)));
  if (ends_with(in->name(), ".br"))
    return std::make_unique<PrefetchingSource>(std::make_unique<BrotliSource>(std::move(in)));
  return in;
}

}  // namespace

Result<std::unique_ptr<ByteSource>> open_file(const std::string& path, std::string name) {
  if (name.empty()) name = path;
  // A FIFO or a device is refused, never waited on or read for ever.
  auto opened = open_regular_file(path, Links::follow);
  if (!opened) {
    Error e = opened.error();
    if (name != path) e = error_at(e.code, name + " (" + path + ")", e.what.empty() ? e.message : e.what);
    return e;
  }
  const int fd = *opened;
  return decoded(std::make_unique<FileSource>(std::move(name), fd));
}

std::unique_ptr<ByteSource> over_memory(std::string_view data, std::string name) {
  return decoded(std::make_unique<MemorySource>(std::move(name), data));
}

}  // namespace extdeps::json
