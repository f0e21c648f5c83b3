// The test index: tests/data/pypi served by the loopback server as a PEP 691 repository under
// /simple/<project>/ (each page's JSON with its content type) and the metadata files under
// /packages/, where the pages' relative URLs point.
#pragma once

#include <filesystem>
#include <string>

#include "providers/pypi/simple_index.h"
#include "tests/support/http_server.h"
#include "tests/test_support.h"

namespace extdeps::pypi::testing {

inline void serve_index(test::HttpServer& server) {
  namespace fs = std::filesystem;
  for (const auto& e : fs::directory_iterator(test::data_path("pypi/simple"))) {
    std::string project = e.path().filename().string();
    test::Route r;
    r.body = test::read_file((e.path() / "index.json").string());
    r.headers = {{"Content-Type", std::string(kJsonType)}};
    r.etag = "\"" + project + "-1\"";
    server.route("/simple/" + project + "/", r);
  }
  server.serve_dir("/packages", test::data_path("pypi/packages"));
}

// The PEP 503 page of a project in place of its JSON one, as an index without PEP 691 answers.
inline void serve_html(test::HttpServer& server, const std::string& project) {
  test::Route r;
  r.body = test::read_file(test::data_path("pypi/simple/" + project + "/index.html"));
  r.headers = {{"Content-Type", "text/html; charset=utf-8"}};
  server.route("/simple/" + project + "/", r);
}

}  // namespace extdeps::pypi::testing
