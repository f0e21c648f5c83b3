// libcurl, loaded when the first URL is parsed or fetched, not when extdeps starts. libcurl and
// the libraries it links (TLS, Kerberos, LDAP, SSH, HTTP/2, IDN: 25 of the 53 a build linked)
// cost about 4 ms of dynamic linking on every run, and a warm resolve fetches nothing. So no
// part of extdeps links libcurl: core/fetch calls it through this table of its functions,
// filled from libcurl.so.4 with dlopen. <curl/curl.h> still gives the types.
#pragma once

#include <curl/curl.h>

#include "core/util/result.h"

namespace extdeps::fetch {

struct CurlApi {
  decltype(&::curl_global_init) global_init;
  decltype(&::curl_easy_init) easy_init;
  decltype(&::curl_easy_setopt) easy_setopt;
  decltype(&::curl_easy_getinfo) easy_getinfo;
  decltype(&::curl_easy_cleanup) easy_cleanup;
  decltype(&::curl_easy_strerror) easy_strerror;
  decltype(&::curl_multi_init) multi_init;
  decltype(&::curl_multi_add_handle) multi_add_handle;
  decltype(&::curl_multi_remove_handle) multi_remove_handle;
  decltype(&::curl_multi_perform) multi_perform;
  decltype(&::curl_multi_poll) multi_poll;
  decltype(&::curl_multi_info_read) multi_info_read;
  decltype(&::curl_multi_cleanup) multi_cleanup;
  decltype(&::curl_multi_strerror) multi_strerror;
  decltype(&::curl_slist_append) slist_append;
  decltype(&::curl_slist_free_all) slist_free_all;
  decltype(&::curl_free) free;
  decltype(&::curl_getdate) getdate;
  decltype(&::curl_url) url;
  decltype(&::curl_url_cleanup) url_cleanup;
  decltype(&::curl_url_get) url_get;
  decltype(&::curl_url_set) url_set;
  decltype(&::curl_url_strerror) url_strerror;
};

// Loads libcurl.so.4 once per process ($EXTDEPS_LIBCURL names another file, for tests) and runs
// curl_global_init. An environment error naming the library and what dlopen said when it cannot
// be loaded or lacks a function (libcurl older than 7.80); the same answer every later call.
Result<const CurlApi*> load_curl();

// The loaded functions. Only for code that runs after load_curl() succeeded: a Transfer, a multi
// handle or a CURLU exists only then.
const CurlApi& curl();

}  // namespace extdeps::fetch
