#include "providers/nix/index_source.h"
#include "core/json/document.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/detect/process.h"
#include "core/util/text.h"

namespace extdeps::nix {

namespace {

namespace fs = std::filesystem;

bool is_url(std::string_view s) {
  return s.rfind("http://", 0) == 0 || s.rfind("https://", 0) == 0 || s.rfind("file://", 0) == 0;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// The last line of a command's stderr, for a message.
std::string last_line(const std::string& err) {
  std::string t = trim(err);
  auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

std::string shell_words(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

// Runs a nix command into `out`; an error says which command failed and what nix said.
Result<void> run_nix(const Context& ctx, std::vector<std::string> argv, const std::string& out, int timeout_ms) {
  std::string tool = argv[0];
  argv[0] = detect::find_on_path(ctx, tool);
  if (argv[0].empty()) return error_at(ExitCode::environment, "", tool + " is not on PATH");
  auto ran = detect::run_to_file(ctx, argv, nix_environment(ctx), out, timeout_ms);
  argv[0] = tool;
  if (!ran) return ran.error();
  if (ran->exit_status != 0) {
    std::string why = last_line(ran->err_tail);
    return error_at(ExitCode::environment, "",
                    shell_words(argv) + " failed with exit code " + std::to_string(ran->exit_status) +
                        (why.empty() ? "" : ": " + why));
  }
  return {};
}

// Makes `target` by running `argv` into a temporary file beside it, renamed in when complete.
Result<void> make_cached(const Context& ctx, const std::vector<std::string>& argv, const std::string& target,
                         int timeout_ms) {
  std::string tmp = target + ".tmp-" + std::to_string(::getpid());
  auto r = run_nix(ctx, argv, tmp, timeout_ms);
  if (!r) {
    ::unlink(tmp.c_str());
    return r;
  }
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return error_at(ExitCode::environment, target, "cannot write the nixpkgs index");
  }
  return {};
}

std::string cache_folder(const Context& ctx) {
  std::string dir =
      ctx.cache_enabled() ? ctx.cache_dir() + "/nix" : (fs::temp_directory_path() / "extdeps-nix").string();
  std::error_code ec;
  fs::create_directories(dir, ec);
  return dir;
}

}  // namespace

std::vector<std::string> nix_environment(const Context& ctx) {
  static const char* kNames[] = {"PATH",
                                 "HOME",
                                 "USER",
                                 "LOGNAME",
                                 "TMPDIR",
                                 "LANG",
                                 "LC_ALL",
                                 "LOCALE_ARCHIVE",
                                 "TZ",
                                 "NIX_PATH",
                                 "NIX_REMOTE",
                                 "NIX_STORE_DIR",
                                 "NIX_STATE_DIR",
                                 "NIX_LOG_DIR",
                                 "NIX_CONF_DIR",
                                 "NIX_DATA_DIR",
                                 "NIX_CONFIG",
                                 "NIX_USER_CONF_FILES",
                                 "NIX_SSL_CERT_FILE",
                                 "SSL_CERT_FILE",
                                 "NIX_PROFILES",
                                 "NIXPKGS_CONFIG",
                                 "NIXPKGS_ALLOW_UNFREE",
                                 "NIXPKGS_ALLOW_BROKEN",
                                 "NIXPKGS_ALLOW_INSECURE",
                                 "NIXPKGS_ALLOW_UNSUPPORTED_SYSTEM",
                                 "XDG_CONFIG_HOME",
                                 "XDG_CONFIG_DIRS",
                                 "XDG_CACHE_HOME",
                                 "XDG_DATA_HOME",
                                 "XDG_STATE_HOME",
                                 "http_proxy",
                                 "https_proxy",
                                 "no_proxy"};
  std::vector<std::string> env;
  for (const char* n : kNames)
    if (auto v = ctx.env(n)) env.push_back(std::string(n) + "=" + *v);
  return env;
}

Result<IndexFile> locate_index(fetch::Fetcher& fetcher, const std::string& index) {
  if (!is_url(index)) {
    struct stat st {};
    if (::stat(index.c_str(), &st) != 0) {
      Error e = bad_input(index + ": no such nixpkgs index (--nix-index takes a file or a URL)");
      e.place = index;
      e.what = "no such nixpkgs index";
      e.hint = "--nix-index takes a file or a URL";
      return e;
    }
    return IndexFile{index, index, "", ""};
  }
  std::vector<fetch::Request> requests{{.url = index}};
  // A channel publishes its commit next to its index: https://channels.nixos.org/nixos-24.05/git-revision.
  std::string base = index.substr(0, index.rfind('/') + 1);
  bool channel = ends_with(index, "/packages.json.br") || ends_with(index, "/packages.json");
  if (channel) requests.push_back({.url = base + "git-revision", .missing_ok = true});
  auto answers = fetcher.fetch_all(requests);
  if (!answers[0]) return answers[0].error();
  IndexFile f{answers[0]->body_path, index, index, ""};
  if (channel && answers[1] && answers[1]->found) {
    std::string rev = trim(read_text(answers[1]->body_path));
    bool hex = rev.size() == 40 && rev.find_first_not_of("0123456789abcdef") == std::string::npos;
    if (hex) f.revision = rev;
  }
  return f;
}

Result<IndexFile> generate_index(const Context& ctx, const std::string& system, int timeout_ms) {
  std::string dir = cache_folder(ctx);
  if (!detect::find_on_path(ctx, "nix-instantiate").empty() && !detect::find_on_path(ctx, "nix-env").empty()) {
    std::string found_file = dir + "/find-file-" + std::to_string(::getpid());
    auto found = run_nix(ctx, {"nix-instantiate", "--find-file", "nixpkgs"}, found_file, timeout_ms);
    std::string nixpkgs = trim(read_text(found_file));
    ::unlink(found_file.c_str());
    if (found && !nixpkgs.empty()) {
      std::error_code ec;
      std::string resolved = fs::canonical(nixpkgs, ec).string();
      if (ec) resolved = nixpkgs;
      std::string target = dir + "/nixpkgs-" + fnv1a_hex(resolved + "\n" + system) + ".json";
      struct stat st {};
      if (::stat(target.c_str(), &st) != 0) {
        auto made =
            make_cached(ctx, {"nix-env", "-qaP", "--json", "--meta", "-f", resolved, "--argstr", "system", system},
                        target, timeout_ms);
        if (!made) return made.error();
      }
      return IndexFile{target, "nix-env -qaP --json --meta -f " + resolved, "", ""};
    }
  }
  if (!detect::find_on_path(ctx, "nix").empty()) {
    const std::vector<std::string> nix = {"nix", "--extra-experimental-features", "nix-command flakes"};
    std::string meta_file = dir + "/flake-metadata-" + std::to_string(::getpid());
    auto argv = nix;
    argv.insert(argv.end(), {"flake", "metadata", "nixpkgs", "--json"});
    auto meta = run_nix(ctx, argv, meta_file, timeout_ms);
    std::string text = read_text(meta_file);
    ::unlink(meta_file.c_str());
    if (!meta) return meta.error();
    auto j = json::parse_or_discarded(text);
    if (j.is_discarded() || !j.contains("url") || !j["url"].is_string())
      return error_at(ExitCode::environment, "", "nix flake metadata nixpkgs --json printed no locked url");
    std::string locked = j["url"].get<std::string>();
    std::string target = dir + "/search-" + fnv1a_hex(locked + "\n" + system) + ".json";
    struct stat st {};
    if (::stat(target.c_str(), &st) != 0) {
      argv = nix;
      argv.insert(argv.end(), {"search", "nixpkgs", "^", "--json"});
      auto made = make_cached(ctx, argv, target, timeout_ms);
      if (!made) return made.error();
    }
    return IndexFile{target, "nix search " + locked + " ^ --json", "", ""};
  }
  return error_at(ExitCode::environment, "",
                  "no nixpkgs index: nix-env found no nixpkgs on NIX_PATH and nix (flakes) is not on PATH", "",
                  "give one with --nix-index FILE|URL, e.g. --nix-index "
                  "https://channels.nixos.org/nixos-24.05/packages.json.br");
}

}  // namespace extdeps::nix
