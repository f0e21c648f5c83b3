#include "core/detect/os_release.h"

#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include "core/util/regular_file.h"

namespace extdeps::detect {

namespace {

std::string unquote(std::string v) {
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
    std::string out;
    for (size_t i = 1; i + 1 < v.size(); ++i) {
      if (v[i] == '\\' && i + 2 < v.size()) ++i;
      out += v[i];
    }
    return out;
  }
  return v;
}

}  // namespace

std::vector<std::string> OsRelease::ecosystems() const {
  std::vector<std::string> out;
  if (!id.empty()) out.push_back(id);
  for (const auto& l : id_like)
    if (l != id) out.push_back(l);
  return out;
}

namespace {
constexpr std::size_t kMaxOsReleaseBytes = 64 << 10;
}  // namespace

OsRelease read_os_release(const Context& ctx) {
  OsRelease os;
  // Read as a regular file, never waited on: a FIFO or a device there blocked every resolve.
  auto text = read_regular_file(ctx.host_path("/etc/os-release"), kMaxOsReleaseBytes, Links::follow);
  if (!text.ok()) text = read_regular_file(ctx.host_path("/usr/lib/os-release"), kMaxOsReleaseBytes, Links::follow);
  if (!text.ok()) return os;
  std::istringstream in(std::move(text).value());
  std::string line;
  std::map<std::string, std::string> like_codenames;  // UPPER_ID -> codename, from <ID>_CODENAME
  while (std::getline(in, line)) {
    auto eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    std::string key = line.substr(0, eq);
    std::string value = unquote(line.substr(eq + 1));
    if (key == "ID") os.id = value;
    else if (key == "VERSION_ID") os.version_id = value;
    else if (key == "VERSION_CODENAME") os.version_codename = value;
    else if (key.size() > 9 && key.ends_with("_CODENAME")) like_codenames[key.substr(0, key.size() - 9)] = value;
    else if (key == "PRETTY_NAME") os.pretty_name = value;
    else if (key == "ID_LIKE") {
      std::istringstream words(value);
      std::string w;
      while (words >> w) os.id_like.push_back(w);
    }
  }
  // A derivative names the release of the system it is built on in <THAT ID>_CODENAME, for an id
  // of its ID_LIKE (Linux Mint "wilma" and Pop!_OS say UBUNTU_CODENAME=noble, LMDE says
  // DEBIAN_CODENAME=bookworm): that is the release whose packages it has, and the one tables
  // name. The first id of ID_LIKE that has one wins.
  for (const std::string& like : os.id_like) {
    if (like == os.id) continue;
    std::string key;
    for (char c : like) key += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (auto it = like_codenames.find(key); it != like_codenames.end() && !it->second.empty()) {
      os.version_codename = it->second;
      break;
    }
  }
  return os;
}

std::string machine_named(std::string_view arch) {
  if (arch == "amd64" || arch == "x86_64") return "x86_64";
  if (arch == "arm64" || arch == "aarch64") return "aarch64";
  if (arch == "i386") return "i686";
  if (arch == "armhf") return "armv7l";
  if (arch == "ppc64el" || arch == "ppc64le") return "ppc64le";
  if (arch == "mips64el") return "mips64";
  return std::string(arch);
}

std::string machine(const Context& ctx) {
  if (auto o = ctx.env("EXTDEPS_OVERRIDE_ARCH"); o && !o->empty()) return machine_named(*o);
  const std::string& m = ctx.uname().machine;
  return m.empty() ? "x86_64" : machine_named(m);
}

}  // namespace extdeps::detect
