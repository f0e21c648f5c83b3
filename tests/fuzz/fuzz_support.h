// What the fuzz harnesses share: the input as text, splitting it into parts, a private temporary
// folder for entry points that read a path, and a check that turns a broken property into a
// crash libFuzzer (or the standalone driver) reports with the input that caused it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace extdeps::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// At most `max` parts of `text` separated by `sep`; the last part keeps any further separators.
inline std::vector<std::string_view> split(std::string_view text, char sep, std::size_t max) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < max) {
    auto at = text.find(sep);
    if (at == std::string_view::npos) break;
    parts.push_back(text.substr(0, at));
    text.remove_prefix(at + 1);
  }
  parts.push_back(text);
  return parts;
}

// A broken property: print it and abort, which both drivers report as a crash on this input.
[[noreturn]] inline void fail(const char* what, std::string_view a = {}, std::string_view b = {}) {
  // std::string copies: an empty view's data() may be null, which %.*s must not get.
  const std::string sa(a), sb(b);
  std::fprintf(stderr, "fuzz property broken: %s\n  a = '%s'\n  b = '%s'\n", what, sa.c_str(), sb.c_str());
  std::abort();
}

inline int sign(int v) { return (v > 0) - (v < 0); }

// One temporary folder per process, made on first use and removed at exit: harnesses whose entry
// point reads a file write the input there, and nothing is written anywhere else.
class TempDir {
 public:
  static const std::string& path() {
    static TempDir dir;
    return dir.path_;
  }
  // Writes `bytes` to <temp>/<name> (replacing it) and returns the path.
  static std::string write(const std::string& name, std::string_view bytes) {
    std::string p = path() + "/" + name;
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) fail("cannot write a temporary file", p);
    return p;
  }

 private:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "extdeps-fuzz-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) fail("cannot make a temporary folder", tmpl);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string path_;
};

}  // namespace extdeps::fuzz
