#include "core/detect/os_release.h"

#include <fstream>
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
  std::string line, ubuntu_codename;
  while (std::getline(in, line)) {
    auto eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    std::string key = line.substr(0, eq);
    std::string value = unquote(line.substr(eq + 1));
    if (key == "ID") os.id = value;
    else if (key == "VERSION_ID") os.version_id = value;
    else if (key == "VERSION_CODENAME") os.version_codename = value;
    else if (key == "UBUNTU_CODENAME") ubuntu_codename = value;
    else if (key == "PRETTY_NAME") os.pretty_name = value;
    else if (key == "ID_LIKE") {
      std::istringstream words(value);
      std::string w;
      while (words >> w) os.id_like.push_back(w);
    }
  }
  // Ubuntu's derivatives (Linux Mint "wilma", Pop!_OS) name the Ubuntu release they are built on
  // in UBUNTU_CODENAME: that is the release whose packages they have, and the one tables name.
  if (!ubuntu_codename.empty() && os.id != "ubuntu") os.version_codename = ubuntu_codename;
  return os;
}

std::string dpkg_architecture(const Context& ctx) {
  if (auto o = ctx.env("EXTDEPS_OVERRIDE_ARCH"); o && !o->empty()) return *o;
  const std::string& m = ctx.uname().machine;
  if (m.empty()) return "amd64";
  if (m == "x86_64") return "amd64";
  if (m == "aarch64" || m == "arm64") return "arm64";
  if (m == "i386" || m == "i486" || m == "i586" || m == "i686") return "i386";
  if (m == "armv7l" || m == "armv6l") return "armhf";
  if (m == "ppc64le") return "ppc64el";
  if (m == "s390x") return "s390x";
  if (m == "riscv64") return "riscv64";
  if (m == "mips64") return "mips64el";
  return m;
}

}  // namespace extdeps::detect
