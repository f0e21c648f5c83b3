// One decoder per compression the indexes come in. Each pulls the compressed file through a
// small buffer and reports errors at the byte offset of the compressed input it had consumed.
#include "core/util/compressed_reader.h"
#include "core/util/lazy_library.h"

#include <bzlib.h>
#include <fcntl.h>
#include <lz4frame.h>
#include <lzma.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/util/data_errors.h"
#include "core/util/read_ahead.h"
#include "core/util/regular_file.h"

namespace extdeps {

namespace {

// The compressed input: a file read through a 256 KiB buffer, or bytes already in memory.
class Input {
 public:
  Input(std::string path, int fd) : path_(std::move(path)), fd_(fd), buf_(256 * 1024) {}
  Input(std::string name, std::string_view memory) : path_(std::move(name)), memory_(memory) {}
  ~Input() {
    if (fd_ >= 0) ::close(fd_);
  }
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;

  const std::string& path() const { return path_; }
  const char* data() const { return base_ + pos_; }
  size_t size() const { return len_ - pos_; }
  bool eof() const { return eof_ && pos_ == len_; }
  size_t offset() const { return offset_; }  // compressed bytes consumed so far
  void consume(size_t n) {
    pos_ += n;
    offset_ += n;
  }
  // Makes input available when all was consumed; at the end of the input, eof() turns true.
  Result<void> fill() {
    if (pos_ < len_ || eof_) return {};
    pos_ = len_ = 0;
    if (fd_ < 0) {  // memory: all of it at once, then the end
      if (memory_.empty()) eof_ = true;
      base_ = memory_.data();
      len_ = memory_.size();
      memory_ = {};
      return {};
    }
    base_ = buf_.data();
    while (true) {
      ssize_t n = ::read(fd_, buf_.data(), buf_.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return error_at(ExitCode::environment, path_, std::string("cannot read: ") + std::strerror(errno));
      if (n == 0) eof_ = true;
      len_ = static_cast<size_t>(n);
      return {};
    }
  }

  Error corrupt(std::string_view codec, size_t at, std::string_view why) const {
    return corrupt_data(path_, codec, at, why);
  }
  Error truncated(std::string_view codec) const { return truncated_data(path_, codec, offset_); }

 private:
  std::string path_;
  int fd_ = -1;
  std::vector<char> buf_;
  std::string_view memory_;
  const char* base_ = nullptr;
  size_t pos_ = 0, len_ = 0, offset_ = 0;
  bool eof_ = false;
};

class PlainReader final : public CompressedReader {
 public:
  explicit PlainReader(std::unique_ptr<Input> in) : in_(std::move(in)) {}
  Result<size_t> read(char* dst, size_t cap) override {
    if (auto r = in_->fill(); !r) return r.error();
    size_t n = std::min(cap, in_->size());
    if (n == 0) return n;
    std::memcpy(dst, in_->data(), n);
    in_->consume(n);
    return n;
  }

 private:
  std::unique_ptr<Input> in_;
};

class Lz4Reader final : public CompressedReader {
 public:
  explicit Lz4Reader(std::unique_ptr<Input> in) : in_(std::move(in)) {
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx_, LZ4F_VERSION))) ctx_ = nullptr;
  }
  ~Lz4Reader() override { LZ4F_freeDecompressionContext(ctx_); }

  Result<size_t> read(char* dst, size_t cap) override {
    if (!ctx_) return error_at(ExitCode::environment, in_->path(), "cannot create an lz4 decoder");
    size_t produced = 0;
    while (produced < cap) {
      if (auto r = in_->fill(); !r) return r.error();
      // Feeding what the decoder asks for (a header, then one block at a time) lets it decode
      // straight into `dst`, and places an error at the start of the damaged block.
      size_t src = std::min(in_->size(), want_), out = cap - produced;
      size_t hint = LZ4F_decompress(ctx_, dst + produced, &out, src ? in_->data() : nullptr, &src, nullptr);
      if (LZ4F_isError(hint)) return in_->corrupt("lz4", in_->offset(), LZ4F_getErrorName(hint));
      in_->consume(src);
      produced += out;
      if (src == 0 && out == 0) {  // no input left and nothing more to flush
        if (!in_->eof()) return in_->corrupt("lz4", in_->offset(), "the decoder made no progress");
        if (!frame_ended_) return in_->truncated("lz4");
        break;
      }
      frame_ended_ = hint == 0;  // 0: a frame ended exactly here; another may follow
      want_ = hint == 0 ? kHeader : hint;
    }
    return produced;
  }

 private:
  std::unique_ptr<Input> in_;
  static constexpr size_t kHeader = 7;  // the smallest frame header
  LZ4F_dctx* ctx_ = nullptr;
  size_t want_ = kHeader;
  bool frame_ended_ = false;
};

class GzipReader final : public CompressedReader {
 public:
  explicit GzipReader(std::unique_ptr<Input> in) : in_(std::move(in)) {
    ok_ = inflateInit2(&zs_, 15 + 32) == Z_OK;  // gzip or zlib header
  }
  ~GzipReader() override {
    if (ok_) inflateEnd(&zs_);
  }

  Result<size_t> read(char* dst, size_t cap) override {
    if (!ok_) return error_at(ExitCode::environment, in_->path(), "cannot create a gzip decoder");
    size_t produced = 0;
    while (produced < cap && !done_) {
      if (auto r = in_->fill(); !r) return r.error();
      if (ended_member_) {  // another gzip member may follow, as in `cat a.gz b.gz`
        if (in_->eof()) {
          done_ = true;
          break;
        }
        inflateReset(&zs_);
        ended_member_ = false;
      }
      zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in_->data()));
      zs_.avail_in = static_cast<uInt>(in_->size());
      zs_.next_out = reinterpret_cast<Bytef*>(dst + produced);
      zs_.avail_out = static_cast<uInt>(std::min<size_t>(cap - produced, 1u << 30));
      uInt in_before = zs_.avail_in, out_before = zs_.avail_out;
      int rc = inflate(&zs_, Z_NO_FLUSH);
      size_t used = in_before - zs_.avail_in;
      if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_MEM_ERROR || rc == Z_STREAM_ERROR)
        return in_->corrupt("gzip", in_->offset() + used, zs_.msg ? zs_.msg : "inflate failed");
      in_->consume(used);
      produced += out_before - zs_.avail_out;
      if (rc == Z_STREAM_END) {
        ended_member_ = true;
        continue;
      }
      if (used == 0 && out_before == zs_.avail_out && in_->eof()) return in_->truncated("gzip");
    }
    return produced;
  }

 private:
  std::unique_ptr<Input> in_;
  z_stream zs_{};
  bool ok_ = false, ended_member_ = false, done_ = false;
};

class XzReader final : public CompressedReader {
 public:
  explicit XzReader(std::unique_ptr<Input> in) : in_(std::move(in)) {
    ok_ = lzma_stream_decoder(&zs_, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
  }
  ~XzReader() override { lzma_end(&zs_); }

  Result<size_t> read(char* dst, size_t cap) override {
    if (!ok_) return error_at(ExitCode::environment, in_->path(), "cannot create an xz decoder");
    size_t produced = 0;
    while (produced < cap && !done_) {
      if (auto r = in_->fill(); !r) return r.error();
      zs_.next_in = reinterpret_cast<const uint8_t*>(in_->data());
      zs_.avail_in = in_->size();
      zs_.next_out = reinterpret_cast<uint8_t*>(dst + produced);
      zs_.avail_out = cap - produced;
      size_t in_before = zs_.avail_in, out_before = zs_.avail_out;
      lzma_ret rc = lzma_code(&zs_, in_->eof() ? LZMA_FINISH : LZMA_RUN);
      size_t used = in_before - zs_.avail_in;
      produced += out_before - zs_.avail_out;
      if (rc == LZMA_STREAM_END) {
        in_->consume(used);
        done_ = true;
        break;
      }
      if (rc == LZMA_BUF_ERROR) {
        in_->consume(used);
        return in_->truncated("xz");
      }
      if (rc != LZMA_OK) {
        const char* why = rc == LZMA_FORMAT_ERROR    ? "not an xz stream"
                          : rc == LZMA_DATA_ERROR    ? "compressed data is corrupt"
                          : rc == LZMA_OPTIONS_ERROR ? "unsupported options"
                          : rc == LZMA_MEM_ERROR     ? "out of memory"
                                                     : "decoder error";
        return in_->corrupt("xz", in_->offset() + used, why);
      }
      in_->consume(used);
    }
    return produced;
  }

 private:
  std::unique_ptr<Input> in_;
  lzma_stream zs_ = LZMA_STREAM_INIT;
  bool ok_ = false, done_ = false;
};

// bzip2 (rpm-md's primary.xml.bz2 of older createrepo, SUSE's and EPEL's repositories);
// concatenated streams are read one after another, as bzip2 -d does.
// libbzip2, loaded with dlopen when a .bz2 file is first read (core/util/lazy_library.h).
struct Bz2Api {
  int (*decompress_init)(bz_stream*, int, int) = nullptr;
  int (*decompress)(bz_stream*) = nullptr;
  int (*decompress_end)(bz_stream*) = nullptr;
};

const Result<const Bz2Api*>& bz2_api() {
  static const Result<const Bz2Api*> api = []() -> Result<const Bz2Api*> {
    static Bz2Api a;
    auto r = lazy::load("libbz2.so.1.0", "libbz2-1.0", "reading .bz2 files",
                        {{"BZ2_bzDecompressInit", reinterpret_cast<void**>(&a.decompress_init)},
                         {"BZ2_bzDecompress", reinterpret_cast<void**>(&a.decompress)},
                         {"BZ2_bzDecompressEnd", reinterpret_cast<void**>(&a.decompress_end)}});
    if (!r.ok()) return r.error();
    return &a;
  }();
  return api;
}

const Bz2Api& bz() { return **bz2_api(); }

class Bz2Reader final : public CompressedReader {
 public:
  explicit Bz2Reader(std::unique_ptr<Input> in) : in_(std::move(in)) {
    if (bz2_api().ok()) ok_ = bz().decompress_init(&bz_, 0, 0) == BZ_OK;
  }
  ~Bz2Reader() override {
    if (ok_) bz().decompress_end(&bz_);
  }

  Result<size_t> read(char* dst, size_t cap) override {
    if (!bz2_api().ok()) return bz2_api().error();
    if (!ok_) return error_at(ExitCode::environment, in_->path(), "cannot create a bzip2 decoder");
    size_t produced = 0;
    while (produced < cap) {
      if (auto r = in_->fill(); !r) return r.error();
      if (in_->eof() && !in_stream_) break;
      if (!in_stream_) {  // the next of concatenated streams
        bz().decompress_end(&bz_);
        bz_ = bz_stream{};
        if (bz().decompress_init(&bz_, 0, 0) != BZ_OK) {
          ok_ = false;
          return error_at(ExitCode::environment, in_->path(), "cannot create a bzip2 decoder");
        }
        in_stream_ = true;
      }
      const unsigned avail_in = static_cast<unsigned>(std::min<size_t>(in_->size(), 1u << 30));
      const unsigned avail_out = static_cast<unsigned>(std::min<size_t>(cap - produced, 1u << 30));
      bz_.next_in = const_cast<char*>(in_->data());
      bz_.avail_in = avail_in;
      bz_.next_out = dst + produced;
      bz_.avail_out = avail_out;
      const int rc = bz().decompress(&bz_);
      const size_t used = avail_in - bz_.avail_in;
      const size_t made = avail_out - bz_.avail_out;
      produced += made;
      // The input has ended inside a stream, and the decoder has nothing left to give.
      if (rc == BZ_OK && in_->eof() && used == 0 && made == 0) return in_->truncated("bzip2");
      if (rc == BZ_STREAM_END) {
        in_->consume(used);
        in_stream_ = false;
        continue;
      }
      if (rc != BZ_OK) {
        const char* why = rc == BZ_DATA_ERROR_MAGIC ? "not a bzip2 stream"
                          : rc == BZ_DATA_ERROR     ? "compressed data is corrupt"
                          : rc == BZ_MEM_ERROR      ? "out of memory"
                                                    : "decoder error";
        return in_->corrupt("bzip2", in_->offset() + used, why);
      }
      in_->consume(used);
    }
    return produced;
  }

 private:
  std::unique_ptr<Input> in_;
  bz_stream bz_{};
  bool ok_ = false;
  bool in_stream_ = true;
};

class ZstdReader final : public CompressedReader {
 public:
  explicit ZstdReader(std::unique_ptr<Input> in) : in_(std::move(in)), ctx_(ZSTD_createDCtx()) {}
  ~ZstdReader() override { ZSTD_freeDCtx(ctx_); }

  Result<size_t> read(char* dst, size_t cap) override {
    if (!ctx_) return error_at(ExitCode::environment, in_->path(), "cannot create a zstd decoder");
    size_t produced = 0;
    while (produced < cap) {
      if (auto r = in_->fill(); !r) return r.error();
      // As for lz4: one block at a time, so an error lands at the start of the damaged block.
      ZSTD_inBuffer src{in_->data(), std::min(in_->size(), want_), 0};
      ZSTD_outBuffer out{dst + produced, cap - produced, 0};
      size_t hint = ZSTD_decompressStream(ctx_, &out, &src);
      if (ZSTD_isError(hint)) return in_->corrupt("zstd", in_->offset(), ZSTD_getErrorName(hint));
      in_->consume(src.pos);
      produced += out.pos;
      if (src.pos == 0 && out.pos == 0) {
        if (!in_->eof()) return in_->corrupt("zstd", in_->offset(), "the decoder made no progress");
        if (!frame_ended_) return in_->truncated("zstd");
        break;
      }
      want_ = hint == 0 ? kHeader : hint;
      frame_ended_ = hint == 0;
    }
    return produced;
  }

 private:
  std::unique_ptr<Input> in_;
  static constexpr size_t kHeader = 5;  // ZSTD_FRAMEHEADERSIZE_PREFIX
  ZSTD_DCtx* ctx_;
  size_t want_ = kHeader;
  bool frame_ended_ = false;
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

enum class Codec { plain, lz4, gzip, xz, zstd, bzip2 };

std::unique_ptr<CompressedReader> make_reader(std::unique_ptr<Input> in, Codec codec) {
  switch (codec) {
    case Codec::lz4: return std::make_unique<Lz4Reader>(std::move(in));
    case Codec::gzip: return std::make_unique<GzipReader>(std::move(in));
    case Codec::xz: return std::make_unique<XzReader>(std::move(in));
    case Codec::zstd: return std::make_unique<ZstdReader>(std::move(in));
    case Codec::bzip2: return std::make_unique<Bz2Reader>(std::move(in));
    case Codec::plain: break;
  }
  return std::make_unique<PlainReader>(std::move(in));
}

std::unique_ptr<CompressedReader> make_reader(std::unique_ptr<Input> in) {
  const std::string& path = in->path();
  const Codec codec = ends_with(path, ".lz4")   ? Codec::lz4
                      : ends_with(path, ".gz")  ? Codec::gzip
                      : ends_with(path, ".xz")  ? Codec::xz
                      : ends_with(path, ".zst") ? Codec::zstd
                      : ends_with(path, ".bz2") ? Codec::bzip2
                                                : Codec::plain;
  return make_reader(std::move(in), codec);
}

}  // namespace

Result<std::unique_ptr<CompressedReader>> CompressedReader::open(const std::string& path) {
  // A FIFO or a device (a list linked to /dev/zero) is refused, never waited on or read for ever.
  auto opened = open_regular_file(path, Links::follow);
  if (!opened) return opened.error();
  const int fd = *opened;
  return make_reader(std::make_unique<Input>(path, fd));
}

std::unique_ptr<CompressedReader> CompressedReader::over(std::string_view data, const std::string& name) {
  return make_reader(std::make_unique<Input>(name, data));
}

namespace {

class PrefetchingReader final : public CompressedReader {
 public:
  explicit PrefetchingReader(std::unique_ptr<CompressedReader> inner)
      : inner_(std::move(inner)), ahead_([this](std::string& out) -> std::optional<Error> {
          out.resize(kChunk);
          std::size_t len = 0;
          std::optional<Error> error;
          while (len < out.size()) {
            auto n = inner_->read(out.data() + len, out.size() - len);
            if (!n) {
              error = n.error();
              break;
            }
            if (*n == 0) break;
            len += *n;
          }
          out.resize(len);
          return error;
        }) {}

  Result<size_t> read(char* dst, size_t cap) override {
    while (at_ == current_.size()) {
      auto chunk = ahead_.next();
      if (!chunk) return chunk.error();
      if (chunk->empty()) return size_t{0};
      current_ = *chunk;
      at_ = 0;
    }
    const size_t n = std::min(cap, current_.size() - at_);
    std::memcpy(dst, current_.data() + at_, n);
    at_ += n;
    return n;
  }

 private:
  static constexpr size_t kChunk = 1 << 20;

  std::unique_ptr<CompressedReader> inner_;  // only the read-ahead thread uses it
  std::string_view current_;                 // the chunk being handed out (ahead_'s)
  size_t at_ = 0;
  ReadAhead ahead_;  // last: started once everything else is built
};

}  // namespace

std::unique_ptr<CompressedReader> CompressedReader::prefetching(std::unique_ptr<CompressedReader> inner) {
  return std::make_unique<PrefetchingReader>(std::move(inner));
}

Result<std::string> read_all(CompressedReader& reader) {
  std::string out;
  size_t used = 0;
  while (true) {
    if (out.size() - used < (1 << 16)) out.resize(std::max<size_t>(out.size() * 2, 1 << 20));
    auto n = reader.read(out.data() + used, out.size() - used);
    if (!n) return n.error();
    if (*n == 0) break;
    used += *n;
  }
  out.resize(used);
  return out;
}

Result<std::unique_ptr<CompressedReader>> CompressedReader::open_sniffed(const std::string& path) {
  // A FIFO or a device (a list linked to /dev/zero) is refused, never waited on or read for ever.
  auto opened = open_regular_file(path, Links::follow);
  if (!opened) return opened.error();
  const int fd = *opened;
  auto in = std::make_unique<Input>(path, fd);
  if (auto r = in->fill(); !r) return r.error();
  const std::string_view head(in->data(), in->size());
  auto starts = [&](std::string_view magic) { return head.substr(0, magic.size()) == magic; };
  Codec codec = starts("\x1f\x8b") ? Codec::gzip
                : starts(
                      "\xfd"
                      "7zXZ")
                    ? Codec::xz
                : starts("\x28\xb5\x2f\xfd") ? Codec::zstd
                : starts("\x04\x22\x4d\x18") ? Codec::lz4
                : starts("BZh")              ? Codec::bzip2
                                             : Codec::plain;
  return make_reader(std::move(in), codec);
}

}  // namespace extdeps
