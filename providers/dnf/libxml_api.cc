#include "providers/dnf/libxml_api.h"

#include <dlfcn.h>

#include <mutex>
#include <optional>
#include <string>

namespace extdeps::dnf {

namespace {

constexpr const char* kFile = "libxml2.so.2";
LibXml g_api{};
std::optional<Error> g_error;

template <typename F>
bool bind(void* lib, const char* name, F& out, const char*& missing) {
  out = reinterpret_cast<F>(::dlsym(lib, name));
  if (!out) missing = name;
  return out != nullptr;
}

void load_once() {
  // RTLD_LOCAL: its symbols stay its own. Never closed: readers may live until exit.
  void* lib = ::dlopen(kFile, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* dl_why = ::dlerror();
    const std::string why = dl_why ? dl_why : "unknown reason";
    Error e = environment_error(std::string("cannot load ") + kFile + " (" + why +
                                "); reading dnf repositories needs libxml2 (Debian: apt-get install libxml2)");
    e.place = kFile;
    e.what = "cannot load (" + why + ")";
    e.hint = "reading dnf repositories needs libxml2 (Debian: apt-get install libxml2)";
    g_error = std::move(e);
    return;
  }
  LibXml a{};
  const char* missing = nullptr;
  bool ok = bind(lib, "xmlReaderForMemory", a.xmlReaderForMemory, missing) &&
            bind(lib, "xmlReaderForIO", a.xmlReaderForIO, missing) &&
            bind(lib, "xmlFreeTextReader", a.xmlFreeTextReader, missing) &&
            bind(lib, "xmlTextReaderRead", a.xmlTextReaderRead, missing) &&
            bind(lib, "xmlTextReaderNodeType", a.xmlTextReaderNodeType, missing) &&
            bind(lib, "xmlTextReaderConstLocalName", a.xmlTextReaderConstLocalName, missing) &&
            bind(lib, "xmlTextReaderConstValue", a.xmlTextReaderConstValue, missing) &&
            bind(lib, "xmlTextReaderGetAttribute", a.xmlTextReaderGetAttribute, missing) &&
            bind(lib, "xmlTextReaderReadString", a.xmlTextReaderReadString, missing) &&
            bind(lib, "xmlTextReaderGetParserLineNumber", a.xmlTextReaderGetParserLineNumber, missing) &&
            bind(lib, "xmlFree", a.free_func_, missing);
  if (!ok) {
    const std::string what = std::string("libxml2 has no ") + missing;
    Error e = environment_error(std::string(kFile) + ": " + what);
    e.place = kFile;
    e.what = what;
    g_error = std::move(e);
    return;
  }
  g_api = a;
}

}  // namespace

void LibXml::free(void* p) const {
  if (p) (*free_func_)(p);
}

Result<const LibXml*> load_libxml() {
  static std::once_flag once;
  std::call_once(once, load_once);
  if (g_error) return *g_error;
  return &g_api;
}

const LibXml& libxml() { return g_api; }

}  // namespace extdeps::dnf
