// Finding plugins: the programs named extdeps-provider-* on EXTDEPS_PLUGIN_PATH and PATH (their
// folders' listing cached while the folders do not change), each asked to describe itself, and
// registered beside the built-in providers.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "core/plugin/plugin.h"
#include "core/provider/provider.h"
#include "core/util/sealed_file.h"
#include "core/util/text.h"

namespace extdeps::plugin {

namespace fs = std::filesystem;

namespace {

// "a::b:" -> a, b: a search path's folders, empty entries left out.
std::vector<std::string> split_colons(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ':');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// A program that may be a plugin: a regular file we may run.
bool runnable(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// The stamp of the folders, each stat'ed once; `dirs` gets (index, path) of each distinct one.
std::string folder_stamp(const std::vector<std::string>& dirs, std::vector<std::size_t>& distinct, bool& racy) {
  std::string stamp;
  std::set<std::pair<dev_t, ino_t>> seen;
  const auto now = std::time(nullptr);
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    struct stat st {};
    stamp += dirs[i];
    if (::stat(dirs[i].c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      stamp += "\t-\n";
      continue;
    }
    char buf[96];
    std::snprintf(buf, sizeof buf, "\t%llu:%llu:%lld.%09ld\n", static_cast<unsigned long long>(st.st_dev),
                  static_cast<unsigned long long>(st.st_ino), static_cast<long long>(st.st_mtim.tv_sec),
                  st.st_mtim.tv_nsec);
    stamp += buf;
    if (st.st_mtim.tv_sec >= now - 2) racy = true;
    if (seen.emplace(st.st_dev, st.st_ino).second) distinct.push_back(i);
  }
  return stamp;
}

// The cache of the last scan of these folders: <cache>/plugins/path-<hash>.list, a sealed file
// whose body is the stamp, a blank line, then one candidate path per line.
std::string scan_cache_file(const Context& ctx, const std::vector<std::string>& dirs) {
  if (!ctx.cache_enabled()) return {};
  std::string key;
  for (const auto& d : dirs) key += d + '\n';
  return ctx.cache_dir() + "/plugins/path-" + fnv1a_hex(key) + ".list";
}

}  // namespace

std::vector<std::string> find_programs(const Context& ctx) {
  std::vector<std::string> dirs = split_colons(ctx.env("EXTDEPS_PLUGIN_PATH").value_or(""));
  for (auto& d : split_colons(ctx.env("PATH").value_or(""))) dirs.push_back(std::move(d));
  // A folder named twice, or twice by two names (/bin and /usr/bin on a merged /usr), is read
  // once. PATH's folders hold thousands of programs and every run looks (reading them was a
  // tenth of a warm resolve): the names found are cached, and a folder is read again only when
  // its modification time (which every added, removed or renamed entry changes) has moved.
  std::vector<std::size_t> distinct;
  bool racy = false;
  const std::string stamp = folder_stamp(dirs, distinct, racy);
  const std::string cache = scan_cache_file(ctx, dirs);
  std::vector<std::string> candidates;
  bool cached = false;
  if (!cache.empty())
    if (auto file = sealed::MappedFile::open(cache)) {
      auto body = sealed::unseal("path", file->bytes());
      if (body.ok() && body->size() > stamp.size() && body->substr(0, stamp.size()) == stamp &&
          (*body)[stamp.size()] == '\n') {
        std::string_view rest = body->substr(stamp.size() + 1);
        while (!rest.empty()) {
          const auto nl = rest.find('\n');
          candidates.emplace_back(rest.substr(0, nl));
          rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
        }
        cached = true;
      }
    }
  if (!cached) {
    for (std::size_t i : distinct) {
      const std::string& dir = dirs[i];
      DIR* d = ::opendir(dir.c_str());
      if (!d) continue;
      std::vector<std::string> here;
      while (const dirent* e = ::readdir(d)) {
        std::string_view name(e->d_name);
        if (!name.starts_with(kProgramPrefix) || name.size() == kProgramPrefix.size() ||
            name.find('\n') != std::string_view::npos)
          continue;
        here.push_back(dir + (dir.ends_with('/') ? "" : "/") + std::string(name));
      }
      ::closedir(d);
      std::sort(here.begin(), here.end());
      candidates.insert(candidates.end(), here.begin(), here.end());
    }
    if (!cache.empty() && !racy) {
      std::string body = stamp + '\n';
      for (const auto& c : candidates) body += c + '\n';
      std::error_code ec;
      fs::create_directories(fs::path(cache).parent_path(), ec);
      if (!ec) (void)sealed::write_atomically(cache, "path", body);
    }
  }
  // What is a program is checked every run: a chmod does not change its folder's time.
  std::vector<std::string> out;
  std::set<std::string> names;
  for (auto& p : candidates)
    if (runnable(p) && names.insert(fs::path(p).filename().string()).second) out.push_back(std::move(p));
  return out;
}

namespace {
// Sessions in several threads discover at once: one at a time, under this lock, which also
// guards what discovery keeps (the programs tried, the paths searched, the refusals).
std::mutex& discovery_mutex() {
  static std::mutex m;
  return m;
}

// The plugins discover() left out, by the name their program gives (extdeps-provider-NAME), with
// why. Entries are added, never removed: a pointer to one stays valid.
std::map<std::string, Error, std::less<>>& refused_plugins() {
  static std::map<std::string, Error, std::less<>> refused;
  return refused;
}
}  // namespace

const Error* refusal(std::string_view name) {
  std::lock_guard lock(discovery_mutex());
  auto it = refused_plugins().find(name);
  return it == refused_plugins().end() ? nullptr : &it->second;
}

void discover(const Context& ctx) {
  std::lock_guard lock(discovery_mutex());
  static std::set<std::string> tried;
  // The CLI and the engine both ask; the folders are read once per search path.
  static std::set<std::string> searched;
  if (!searched.insert(ctx.env("EXTDEPS_PLUGIN_PATH").value_or("") + '\0' + ctx.env("PATH").value_or("")).second)
    return;
  for (const auto& path : find_programs(ctx)) {
    if (!tried.insert(path).second) continue;
    auto d = describe(ctx, path);
    if (!d) {
      ctx.warn(d.error().message + "; the plugin is not used");
      const std::string program = fs::path(path).filename().string();
      refused_plugins().emplace(program.substr(kProgramPrefix.size()), d.error());
      continue;
    }
    std::string name((*d)->name);
    if (!register_descriptor(std::move(*d)))
      ctx.warn(who(path) +
               ": a provider with its name, ecosystem, manager or an option's name is there already; "
               "the plugin is not used");
  }
}

}  // namespace extdeps::plugin
