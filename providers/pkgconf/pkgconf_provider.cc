// The pkgconf detector. libpkgconf parses every .pc file (variables, Version truncation, the
// Name/Description/Version validation pkg-config applies) and its messages reach ctx.warn(); this
// file owns the search path, the walk over it, and the cache identity. See README.md for why the
// walk is ours and not pkgconf_scan_all().
#include "providers/pkgconf/pkgconf_provider.h"

#include "core/util/file_stamp.h"
#include "providers/pkgconf/pkgconfig_version.h"

#include <libpkgconf/libpkgconf.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

namespace extdeps::pkgconf {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kPcSuffix = ".pc";
constexpr std::string_view kUninstalledSuffix = "-uninstalled.pc";

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// "a:b::c" -> {a, b, c}, as pkgconf_path_split() reads PKG_CONFIG_PATH (empty entries dropped).
std::vector<std::string> split_path_list(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    size_t colon = text.find(':');
    std::string_view entry = text.substr(0, colon);
    if (!entry.empty()) out.emplace_back(entry);
    if (colon == std::string_view::npos) break;
    text.remove_prefix(colon + 1);
  }
  return out;
}

// "/a//b/" -> "/a/b". ".." stays: "/a/../b" is not "/b" when a is a symlink.
std::string normalize_dir(const std::string& dir) {
  std::string out;
  for (char c : dir) {
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out += c;
  }
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// libpkgconf writes "<file>: warning: <what>\n" (or "<file>:<line>: warning: ..."); ctx.warn()
// adds its own "warning: ", so the inner one and the newline go.
std::string tidy_message(std::string_view msg) {
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.remove_suffix(1);
  std::string out(msg);
  constexpr std::string_view inner = ": warning: ";
  if (size_t at = out.find(inner); at != std::string::npos) out.replace(at, inner.size(), ": ");
  return out;
}

// Where libpkgconf's messages go. Errors reach ctx.warn() at once. Warnings are held per file:
// they only matter when the file is then rejected ("does not declare a `Version' field"); on a
// file that parses they are lint (ICU's "whitespace encountered while parsing key section"),
// which pkg-config itself shows only with --validate.
struct Messages {
  const Context* ctx = nullptr;
  std::vector<std::string> pending;
};

// C callbacks: nothing may unwind through libpkgconf.
bool on_error(const char* msg, const pkgconf_client_t*, const void* data) {
  try {
    if (msg && data) static_cast<const Messages*>(data)->ctx->warn(tidy_message(msg));
  } catch (...) {
  }
  return true;
}

bool on_warning(const char* msg, const pkgconf_client_t*, const void* data) {
  try {
    if (msg && data) {
      auto* messages = static_cast<Messages*>(const_cast<void*>(data));
      messages->pending.push_back(tidy_message(msg));
    }
  } catch (...) {
  }
  return true;
}

// One libpkgconf client reporting through a Messages. Its directory list is filled from
// search_path(), never from pkgconf_client_dir_list_build(), which reads getenv().
class Client {
 public:
  explicit Client(const Context& ctx) {
    messages_.ctx = &ctx;
    client_ = pkgconf_client_new(on_error, &messages_, pkgconf_cross_personality_default());
    if (client_) pkgconf_client_set_warn_handler(client_, on_warning, &messages_);
  }
  ~Client() {
    if (client_) pkgconf_client_free(client_);
  }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  pkgconf_client_t* get() const { return client_; }
  // The warnings held since the last call.
  std::vector<std::string> take_warnings() { return std::exchange(messages_.pending, {}); }

 private:
  Messages messages_;
  pkgconf_client_t* client_ = nullptr;
};

// pkg-config's own filter: missing dirs are dropped and a dir reached twice (same device and
// inode, e.g. through a symlink) is scanned once, at its first place.
std::vector<std::string> existing_dirs(pkgconf_client_t* client, const std::vector<std::string>& dirs) {
  for (const auto& d : dirs) pkgconf_path_add(d.c_str(), &client->dir_list, true);
  std::vector<std::string> out;
  pkgconf_node_t* n;
  PKGCONF_FOREACH_LIST_ENTRY(client->dir_list.head, n) {
    out.emplace_back(static_cast<pkgconf_path_t*>(n->data)->path);
  }
  return out;
}

// The .pc file names of a directory, sorted so records come out in the same order every run.
std::vector<std::string> pc_files(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (ends_with(name, kPcSuffix) && name.size() > kPcSuffix.size()) {
      names.push_back(std::move(name));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<DepOp> dep_op(pkgconf_pkg_comparator_t cmp) {
  switch (cmp) {
    case PKGCONF_CMP_ANY: return DepOp::any;
    case PKGCONF_CMP_LESS_THAN: return DepOp::lt;
    case PKGCONF_CMP_LESS_THAN_EQUAL: return DepOp::le;
    case PKGCONF_CMP_EQUAL: return DepOp::eq;
    case PKGCONF_CMP_GREATER_THAN: return DepOp::gt;
    case PKGCONF_CMP_GREATER_THAN_EQUAL: return DepOp::ge;
    case PKGCONF_CMP_NOT_EQUAL: return std::nullopt;  // a provide says what it is, not what not
  }
  return std::nullopt;
}

// The record for a parsed module: its id, Version, where it is, and what its Provides field
// declares beyond itself. Requires are left out on purpose (README.md).
PackageRecord to_record(const pkgconf_pkg_t& pkg, const std::string& path) {
  PackageRecord rec;
  rec.name = pkg.id;
  rec.version = pkg.version;
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec);
  rec.origin = ec ? path : abs.string();
  rec.installed = true;
  pkgconf_node_t* n;
  PKGCONF_FOREACH_LIST_ENTRY(pkg.provides.head, n) {
    const auto* dep = static_cast<const pkgconf_dependency_t*>(n->data);
    if (!dep->package || rec.name == dep->package) continue;
    auto op = dep_op(dep->compare);
    if (!op) continue;
    NativeDep p{dep->package, *op, *op == DepOp::any || !dep->version ? "" : dep->version};
    if (p.op != DepOp::any && p.version.empty()) p.op = DepOp::any;
    rec.provides.push_back(std::move(p));
  }
  return rec;
}

enum class Parsed { record, skipped };

// Opens and parses one .pc file. Problems (unreadable, not a file, invalid) are warnings.
Parsed parse_one(Client& client, const Context& ctx, const std::string& path, PackageRecord& out) {
  FILE* f = std::fopen(path.c_str(), "r");
  if (!f) {
    ctx.warn(path + ": cannot be read (" + std::strerror(errno) + "), skipped");
    return Parsed::skipped;
  }
  struct stat st {};
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    std::fclose(f);
    ctx.warn(path + ": not a regular file, skipped");
    return Parsed::skipped;
  }
  // Takes f and closes it; on an invalid file it warns through the client and returns null.
  pkgconf_pkg_t* pkg = pkgconf_pkg_new_from_file(client.get(), path.c_str(), f);
  std::vector<std::string> warnings = client.take_warnings();
  if (!pkg) {
    for (const auto& w : warnings) ctx.warn(w);
    return Parsed::skipped;
  }
  Parsed result = Parsed::skipped;
  if (!pkg->id || !pkg->version || pkg->version[0] == '\0') {
    ctx.warn(path + ": file declares an empty `Version' field, skipped");
  } else {
    out = to_record(*pkg, path);
    result = Parsed::record;
  }
  pkgconf_pkg_unref(client.get(), pkg);
  return result;
}

// 64-bit FNV-1a: folds every .pc file's name, size, mtime and inode into one short number.
struct Fingerprint {
  std::uint64_t h = 1469598103934665603ull;
  void add(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  }
  void add(std::string_view s) {
    add(s.data(), s.size());
    add("", 1);  // the terminator keeps "ab"+"c" apart from "a"+"bc"
  }
  void add(std::int64_t v) { add(&v, sizeof v); }
};

// Folders a compiler and linker search without being told: nothing to add for them.
bool is_system_dir(std::string_view dir) {
  for (std::string_view d :
       {"/usr/include", "/usr/local/include", "/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib"})
    if (dir == d) return true;
  // The multiarch folders: /usr/lib/x86_64-linux-gnu, /lib/aarch64-linux-gnu, ...
  for (std::string_view base : {"/usr/lib/", "/lib/", "/usr/local/lib/"}) {
    if (dir.substr(0, base.size()) != base) continue;
    std::string_view rest = dir.substr(base.size());
    if (rest.find('/') == std::string_view::npos && rest.find("-linux-") != std::string_view::npos) return true;
  }
  return false;
}

struct PcDirs {
  std::string prefix, includedir, libdir;
};

// prefix, includedir and libdir of a .pc file, expanded as pkg-config expands them.
std::optional<PcDirs> pc_dirs(const Context& ctx, const std::string& path) {
  Client client(ctx);
  if (!client.get()) return std::nullopt;
  FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return std::nullopt;
  pkgconf_pkg_t* pkg = pkgconf_pkg_new_from_file(client.get(), path.c_str(), f);  // closes f
  client.take_warnings();
  if (!pkg) return std::nullopt;
  auto var = [&](const char* key) {
    const char* v = pkgconf_tuple_find(client.get(), &pkg->vars, key);
    return std::string(v ? v : "");
  };
  PcDirs out{var("prefix"), var("includedir"), var("libdir")};
  pkgconf_pkg_unref(client.get(), pkg);
  return out;
}

class PkgconfProvider final : public Provider {
 public:
  std::string_view ecosystem() const override { return "pkgconfig"; }
  std::string_view manager() const override { return ""; }
  const version::Scheme& scheme() const override { return version::pkgconfig_scheme; }

  bool available(const Context& ctx) const override {
    std::error_code ec;
    for (const auto& d : search_path(ctx)) {
      if (fs::is_directory(d, ec)) return true;
    }
    return false;
  }

  Result<SourceId> identity(const Context& ctx) const override {
    std::string key = "pkgconf " LIBPKGCONF_VERSION_STR "\n";
    for (const auto& dir : search_path(ctx)) {
      struct stat st {};
      if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        key += dir + " missing\n";
        continue;
      }
      Fingerprint fp;
      size_t count = 0;
      for (const auto& name : pc_files(dir)) {
        struct stat fst {};
        fp.add(name);
        if (::stat((dir + "/" + name).c_str(), &fst) == 0) {
          fp.add(static_cast<std::int64_t>(fst.st_size));
          fp.add(mtime_ns(fst));
          fp.add(static_cast<std::int64_t>(fst.st_ino));
        } else {
          fp.add(std::int64_t{-1});
        }
        ++count;
      }
      char line[128];
      std::snprintf(line, sizeof line, " mtime=%lld pc=%zu sum=%016llx\n", static_cast<long long>(mtime_ns(st)), count,
                    static_cast<unsigned long long>(fp.h));
      key += dir + line;
    }
    return SourceId{std::move(key)};
  }

  Result<void> load(const Context& ctx, const RecordSink& /*available*/, const RecordSink& installed) override {
    Client client(ctx);
    if (!client.get()) return error_at(ExitCode::environment, "", "libpkgconf could not create a client");
    std::set<std::string, std::less<>> seen;
    for (const auto& dir : existing_dirs(client.get(), search_path(ctx))) {
      for (const auto& name : pc_files(dir)) {
        // foo-uninstalled.pc describes a build tree, not an installed library.
        if (ends_with(name, kUninstalledSuffix)) continue;
        std::string_view id = std::string_view(name).substr(0, name.size() - kPcSuffix.size());
        // The first module of a name in search order wins, as in pkg-config; the ones it
        // shadows are not even opened.
        if (seen.contains(id)) continue;
        PackageRecord rec;
        if (parse_one(client, ctx, dir + "/" + name, rec) != Parsed::record) continue;
        seen.emplace(id);
        installed(std::move(rec));
      }
    }
    return {};
  }

  std::vector<Command> install_commands(const std::vector<PlannedPackage>&) const override { return {}; }

  // A module on the default search path needs nothing. One found elsewhere (PKG_CONFIG_PATH, a
  // prefix under /opt) gives its folder to PKG_CONFIG_PATH, its prefix to CMAKE_PREFIX_PATH, and
  // its includedir and libdir (where they exist and are not the system's) to CPATH,
  // LIBRARY_PATH and LD_LIBRARY_PATH, for builds that do not ask pkg-config.
  void add_build_env(const Context& ctx, const InstalledRef& pkg, BuildEnv& env) const override {
    if (pkg.where.empty()) return;
    const std::string dir = fs::path(std::string(pkg.where)).parent_path().string();
    for (const auto& d : default_search_path())
      if (normalize_dir(ctx.host_path(d)) == dir) return;
    env.prepend_path("PKG_CONFIG_PATH", dir, pkg.need);
    auto dirs = pc_dirs(ctx, std::string(pkg.where));
    if (!dirs) return;
    std::error_code ec;
    auto usable = [&](const std::string& d) {
      return !d.empty() && d.front() == '/' && !is_system_dir(normalize_dir(d)) && fs::is_directory(d, ec);
    };
    if (usable(dirs->prefix) && dirs->prefix != "/usr" && dirs->prefix != "/usr/local")
      env.prepend_path("CMAKE_PREFIX_PATH", normalize_dir(dirs->prefix), pkg.need);
    if (usable(dirs->includedir)) env.prepend_path("CPATH", normalize_dir(dirs->includedir), pkg.need);
    if (usable(dirs->libdir)) {
      env.prepend_path("LIBRARY_PATH", normalize_dir(dirs->libdir), pkg.need);
      env.prepend_path("LD_LIBRARY_PATH", normalize_dir(dirs->libdir), pkg.need);
    }
  }
};

}  // namespace

std::vector<std::string> default_search_path() {
  // The builtin "pkg-config" module carries the compiled-in path as its pc_path variable,
  // unfiltered; the default personality's dir_list holds only the dirs that exist here.
  if (const pkgconf_pkg_t* builtin = pkgconf_builtin_pkg_get("pkg-config")) {
    pkgconf_node_t* n;
    PKGCONF_FOREACH_LIST_ENTRY(builtin->vars.head, n) {
      const auto* t = static_cast<const pkgconf_tuple_t*>(n->data);
      if (t->key && t->value && std::strcmp(t->key, "pc_path") == 0) {
        return split_path_list(t->value);
      }
    }
  }
  std::vector<std::string> out;
  if (const pkgconf_cross_personality_t* p = pkgconf_cross_personality_default()) {
    pkgconf_node_t* n;
    PKGCONF_FOREACH_LIST_ENTRY(p->dir_list.head, n) {
      out.emplace_back(static_cast<const pkgconf_path_t*>(n->data)->path);
    }
  }
  return out;
}

std::vector<std::string> search_path(const Context& ctx) {
  std::vector<std::string> out;
  auto add = [&out](const std::string& dir) {
    std::string d = normalize_dir(dir);
    if (!d.empty() && std::find(out.begin(), out.end(), d) == out.end()) {
      out.push_back(std::move(d));
    }
  };
  if (auto path = ctx.env("PKG_CONFIG_PATH")) {
    for (const auto& d : split_path_list(*path)) add(d);
  }
  // Set but empty, PKG_CONFIG_LIBDIR still replaces the defaults (and searches nothing).
  auto libdir = ctx.env("PKG_CONFIG_LIBDIR");
  for (const auto& d : libdir ? split_path_list(*libdir) : default_search_path()) {
    add(ctx.host_path(d));
  }
  return out;
}

std::unique_ptr<Provider> make_provider(const Context&) { return std::make_unique<PkgconfProvider>(); }

}  // namespace extdeps::pkgconf
