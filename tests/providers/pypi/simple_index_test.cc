// Project pages: PEP 691 JSON and PEP 503 HTML (tests/data/pypi/simple), and core metadata with
// the PEP 508 requirements of its Requires-Dist lines.
#include "providers/pypi/simple_index.h"

#include <gtest/gtest.h>

#include "providers/pypi/core_metadata.h"
#include "tests/test_support.h"

namespace extdeps::pypi {
namespace {

const std::string kPage = "https://pypi.example/simple/nvidia-cudnn-cu12/";

const ProjectFile* find(const std::vector<ProjectFile>& files, const std::string& name) {
  for (const auto& f : files)
    if (f.filename == name) return &f;
  return nullptr;
}

TEST(PypiSimpleIndex, JsonPagesResolveUrlsAndSayWhatEachFileIs) {
  auto files = parse_json_page(test::read_file(test::data_path("pypi/simple/nvidia-cudnn-cu12/index.json")), kPage);
  ASSERT_TRUE(files.ok()) << files.error().message;
  ASSERT_EQ(files->size(), 6u);
  const ProjectFile* f = find(*files, "nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->url, "https://pypi.example/packages/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl");
  EXPECT_EQ(f->requires_python, ">=3");
  EXPECT_TRUE(f->has_metadata);
  EXPECT_FALSE(f->yanked);

  auto blas = parse_json_page(test::read_file(test::data_path("pypi/simple/nvidia-cublas-cu12/index.json")), kPage);
  ASSERT_TRUE(blas.ok());
  EXPECT_TRUE(find(*blas, "nvidia_cublas_cu12-12.6.3.3-py3-none-manylinux2014_x86_64.whl")->yanked);
}

TEST(PypiSimpleIndex, TheHtmlPageSaysTheSame) {
  auto json = parse_json_page(test::read_file(test::data_path("pypi/simple/nvidia-cudnn-cu12/index.json")), kPage);
  auto html = parse_html_page(test::read_file(test::data_path("pypi/simple/nvidia-cudnn-cu12/index.html")), kPage);
  ASSERT_TRUE(json.ok() && html.ok()) << (html.ok() ? "" : html.error().message);
  ASSERT_EQ(html->size(), json->size());
  for (size_t i = 0; i < json->size(); ++i) {
    EXPECT_EQ((*html)[i].filename, (*json)[i].filename);
    EXPECT_EQ((*html)[i].url, (*json)[i].url);     // the #sha256= fragment dropped
    EXPECT_EQ((*html)[i].requires_python, ">=3");  // &gt; decoded
    EXPECT_EQ((*html)[i].has_metadata, (*json)[i].has_metadata);
    EXPECT_EQ((*html)[i].yanked, (*json)[i].yanked);
  }
}

TEST(PypiSimpleIndex, HtmlAsIndexesWriteIt) {
  const char* page = R"(<html><head><base href="https://files.example/root/"></head><body>
<A HREF='pkgs/a-1.0-py3-none-any.whl#md5=00' data-yanked="broken build">a-1.0-py3-none-any.whl</A>
<a data-requires-python="&gt;=3.8,&lt;4" href="https://other.example/b-2.0-py3-none-any.whl"
   data-dist-info-metadata="true"><span>b-2.0-py3-none-any.whl</span></a>
<a href="../c/c-3.0-py3-none-any.whl"></a>
<a name="no-href">nothing</a>
<a href="d-4.0.tar.gz" data-core-metadata="false">d-4.0.tar.gz</a>
</body></html>)";
  auto files = parse_html_page(page, kPage);
  ASSERT_TRUE(files.ok()) << files.error().message;
  ASSERT_EQ(files->size(), 4u);
  EXPECT_EQ((*files)[0].url, "https://files.example/root/pkgs/a-1.0-py3-none-any.whl");
  EXPECT_TRUE((*files)[0].yanked);
  EXPECT_FALSE((*files)[0].has_metadata);
  EXPECT_EQ((*files)[1].filename, "b-2.0-py3-none-any.whl");
  EXPECT_EQ((*files)[1].requires_python, ">=3.8,<4");
  EXPECT_TRUE((*files)[1].has_metadata);
  EXPECT_EQ((*files)[2].filename, "c-3.0-py3-none-any.whl");  // from the URL when the text is empty
  EXPECT_EQ((*files)[2].url, "https://files.example/c/c-3.0-py3-none-any.whl");
  EXPECT_FALSE((*files)[3].has_metadata);
}

TEST(PypiSimpleIndex, ContentTypesAndBrokenPages) {
  EXPECT_TRUE(is_json_type("application/vnd.pypi.simple.v1+json"));
  EXPECT_TRUE(is_json_type("Application/vnd.pypi.simple.v1+JSON; charset=utf-8"));
  EXPECT_FALSE(is_json_type("text/html"));
  EXPECT_FALSE(is_json_type("application/json"));

  EXPECT_EQ(parse_json_page(R"({"files": [ {"filename": "a" ]})", kPage).error().message,
            kPage +
                ": not valid JSON at byte offset 29 (syntax error while parsing object - unexpected ']'; "
                "expected '}'; expected a PEP 691 project page)");
  EXPECT_EQ(parse_json_page(R"({"meta": {"api-version": "2.0"}, "files": []})", kPage).error().message,
            kPage + ": api-version 2.0 is not one extdeps reads (1.x) (expected a PEP 691 project page)");
  EXPECT_EQ(parse_json_page(R"({"name": "x"})", kPage).error().message,
            kPage + ": no \"files\" list (expected a PEP 691 project page)");
  EXPECT_EQ(parse_json_page(R"({"files": [{"filename": "a.whl"}]})", kPage).error().message,
            kPage + ": files[0] has no \"filename\" and \"url\" strings (expected a PEP 691 project page)");
  EXPECT_EQ(parse_json_page(R"({"files": []})", kPage)->size(), 0u);
}

// nlohmann's exceptions stay inside: a number out of range, or a number where a string belongs,
// is a damaged page (exit 3) with its URL, not an internal error.
TEST(PypiSimpleIndex, NumbersOutOfRangeOrInPlaceOfStringsAreBrokenPages) {
  auto r = parse_json_page(R"({"files": 1e999})", kPage);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(
      r.error().message,
      kPage + ": not valid JSON at byte offset 10 (number overflow parsing '1e999'; expected a PEP 691 project page)");
  r = parse_json_page(R"({"meta": {"api-version": 1.0}, "files": []})", kPage);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message, kPage + ": meta.api-version is not a string (expected a PEP 691 project page)");
  r = parse_json_page(R"({"files": [{"filename": 1, "url": "a.whl"}]})", kPage);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            kPage + ": files[0] has no \"filename\" and \"url\" strings (expected a PEP 691 project page)");
  r = parse_json_page(R"({"files": [{"filename": "a.whl", "url": "a.whl", "requires-python": 3, "yanked": 1}]})",
                      kPage);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->size(), 1u);
}

// 200,000 anchors that are never closed: linear (it was a search to the end per anchor).
TEST(PypiSimpleIndex, UnclosedAnchorsAreReadInOnePass) {
  std::string page;
  for (int i = 0; i < 200000; ++i) page += "<a name=x>";
  page += "<a href='f1.whl'>";
  auto files = parse_html_page(page, kPage);
  ASSERT_TRUE(files.ok()) << files.error().message;
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].filename, "f1.whl");
  // Closing tags of other elements in between do not make it quadratic either.
  page.clear();
  for (int i = 0; i < 100000; ++i) page += "<a href='x.whl'>x.whl</b>";
  page += "</a>";
  files = parse_html_page(page, kPage);
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);  // the first anchor runs to the only </a>, as before
}

TEST(PypiCoreMetadata, ReadsTheFieldsOfARealMetadataFile) {
  auto m = parse_core_metadata(
      test::read_file(
          test::data_path("pypi/packages/nvidia_cusolver_cu12-11.6.1.9-py3-none-manylinux2014_x86_64.whl.metadata")),
      "cusolver.metadata");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->name, "nvidia-cusolver-cu12");
  EXPECT_EQ(m->version, "11.6.1.9");
  EXPECT_EQ(m->requires_python, ">=3");
  EXPECT_EQ(m->requires_dist,
            (std::vector<std::string>{"nvidia-cublas-cu12", "nvidia-nvjitlink-cu12", "nvidia-cusparse-cu12"}));

  auto folded = parse_core_metadata(
      "Metadata-Version: 2.1\r\nName: x\r\nVersion: 1\r\nRequires-Dist: a\r\n  (>=1)\r\n\r\nRequires-Dist: "
      "not-a-field\n",
      "x");
  ASSERT_TRUE(folded.ok());
  EXPECT_EQ(folded->requires_dist, std::vector<std::string>{"a (>=1)"});  // the body is not read

  EXPECT_EQ(parse_core_metadata("Name: x\n", "m").error().message,
            "m: no Version field (expected core metadata with Name and Version)");
  EXPECT_EQ(parse_core_metadata("  folded\nName: x\n", "m").error().message,
            "m:1: a continuation line before any field (expected 'Key: value')");
  EXPECT_EQ(parse_core_metadata("Name: x\nthis is not a field\n", "m").error().message,
            "m:2: 'this is not a field' is not a metadata field (expected 'Key: value')");
}

TEST(PypiCoreMetadata, RequirementsAndTheirMarkers) {
  auto r = parse_requirement("Nvidia_CuBLAS.cu12 (>=12.1, <13) ; platform_system == 'Linux'");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->name, "nvidia-cublas-cu12");
  EXPECT_EQ(r->specifier, ">=12.1,<13");
  EXPECT_EQ(r->marker, "platform_system == 'Linux'");
  auto extras = parse_requirement("foo[Bar, baz_x]>=1.0,!=1.3.*;extra=='test'");
  ASSERT_TRUE(extras.ok());
  EXPECT_EQ(extras->extras, (std::vector<std::string>{"bar", "baz-x"}));
  EXPECT_EQ(extras->specifier, ">=1.0,!=1.3.*");
  auto direct = parse_requirement("pkg @ https://host/pkg-1.0-py3-none-any.whl");
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(direct->specifier, "");
  EXPECT_FALSE(parse_requirement(">=1").ok());
  EXPECT_FALSE(parse_requirement("foo[bar").ok());
  EXPECT_FALSE(parse_requirement("foo >=1 <2").ok());

  declare::MarkerEnv env{{"platform_system", "Linux"}, {"python_version", "3.11"}, {"sys_platform", "linux"}};
  int skipped = 0;
  auto active = active_requirements({"a", "b ; platform_system == 'Windows'", "c[x] (>=2); extra == 'test'",
                                     "d>=1; python_version >= '3.8'", "((broken"},
                                    env, &skipped);
  ASSERT_EQ(active.size(), 2u);
  EXPECT_EQ(active[0].name, "a");
  EXPECT_EQ(active[1].name, "d");
  EXPECT_EQ(skipped, 1);
}

}  // namespace
}  // namespace extdeps::pypi
