#include "core/fetch/curl_api.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>

namespace extdeps::fetch {

namespace {

CurlApi g_api{};
std::optional<Error> g_error;     // why loading failed; none when it did not
const char* g_missing = nullptr;  // the function the library lacks

template <typename F>
bool bind(void* lib, const char* name, F& out) {
  out = reinterpret_cast<F>(::dlsym(lib, name));
  if (!out) g_missing = name;
  return out != nullptr;
}

void load_once() {
  const char* env = std::getenv("EXTDEPS_LIBCURL");
  const std::string file = env && *env ? env : "libcurl.so.4";
  // RTLD_LOCAL: its symbols stay its own. RTLD_LAZY: what it and its libraries call is bound
  // when first called (most of Debian's are linked -z now anyway), a tenth of the load's 3.5 ms
  // less; the functions extdeps calls are checked below. Never closed: handles may live until exit.
  void* lib = ::dlopen(file.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (!lib) {
    const char* dl_why = ::dlerror();
    const std::string why = dl_why ? dl_why : "unknown reason";
    Error e = environment_error("cannot load " + file + " (" + why +
                                "); downloads need libcurl: install the package that ships " + file +
                                " (libcurl4 where extdeps is built)");
    e.place = file;
    e.what = "cannot load (" + why + ")";
    e.hint = "downloads need libcurl: install the package that ships " + file + " (libcurl4 where extdeps is built)";
    g_error = std::move(e);
    return;
  }
  CurlApi a{};
  bool ok = bind(lib, "curl_global_init", a.global_init) && bind(lib, "curl_easy_init", a.easy_init) &&
            bind(lib, "curl_easy_setopt", a.easy_setopt) && bind(lib, "curl_easy_getinfo", a.easy_getinfo) &&
            bind(lib, "curl_easy_cleanup", a.easy_cleanup) && bind(lib, "curl_easy_strerror", a.easy_strerror) &&
            bind(lib, "curl_multi_init", a.multi_init) && bind(lib, "curl_multi_add_handle", a.multi_add_handle) &&
            bind(lib, "curl_multi_remove_handle", a.multi_remove_handle) &&
            bind(lib, "curl_multi_perform", a.multi_perform) && bind(lib, "curl_multi_poll", a.multi_poll) &&
            bind(lib, "curl_multi_info_read", a.multi_info_read) && bind(lib, "curl_multi_cleanup", a.multi_cleanup) &&
            bind(lib, "curl_multi_strerror", a.multi_strerror) && bind(lib, "curl_slist_append", a.slist_append) &&
            bind(lib, "curl_slist_free_all", a.slist_free_all) && bind(lib, "curl_free", a.free) &&
            bind(lib, "curl_getdate", a.getdate) && bind(lib, "curl_url", a.url) &&
            bind(lib, "curl_url_cleanup", a.url_cleanup) && bind(lib, "curl_url_get", a.url_get) &&
            bind(lib, "curl_url_set", a.url_set) && bind(lib, "curl_url_strerror", a.url_strerror);
  if (!ok) {
    // "FILE: libcurl has no curl_url (extdeps needs libcurl 7.80 or newer)"
    const std::string missing = std::string("libcurl has no ") + g_missing;
    Error e = environment_error(file + ": " + missing + " (extdeps needs libcurl 7.80 or newer)");
    e.place = file;
    e.what = missing;
    e.expected = "libcurl 7.80 or newer";
    g_error = std::move(e);
    return;
  }
  if (CURLcode rc = a.global_init(CURL_GLOBAL_DEFAULT); rc != CURLE_OK) {
    g_error =
        error_at(ExitCode::environment, file, std::string("curl_global_init failed (") + a.easy_strerror(rc) + ")");
    return;
  }
  g_api = a;
}

}  // namespace

Result<const CurlApi*> load_curl() {
  static std::once_flag once;
  std::call_once(once, load_once);
  if (g_error) return *g_error;
  return &g_api;
}

const CurlApi& curl() { return g_api; }

}  // namespace extdeps::fetch
