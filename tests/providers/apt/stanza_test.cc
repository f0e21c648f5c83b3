// parse_stanzas on real bookworm stanzas (tests/data/apt/bookworm) and on small inline texts for
// the grammar's corners: Multi-Arch naming, status filtering, restrictions, exact error messages.
#include <gtest/gtest.h>

#include <fstream>

#include "providers/apt/apt_provider.h"
#include "tests/providers/apt/apt_test_support.h"
#include "tests/test_support.h"

namespace extdeps::apt {
namespace {

using test::Collected;
using test::show;
using Strings = std::vector<std::string>;

const Architectures kAmd64{"amd64", {}};

std::string main_list() {
  return extdeps::test::data_path(
      "apt/bookworm/var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4");
}

Collected parse_file(const std::string& path, const Architectures& archs, bool installed_only = false) {
  auto text = read_index_file(path);
  EXPECT_TRUE(text.ok()) << text.error().message;
  Collected c;
  auto r = parse_stanzas(text.ok() ? *text : "", path, archs, installed_only, c.sink());
  EXPECT_TRUE(r.ok()) << r.error().message;
  return c;
}

Collected parse_text(const std::string& text, const Architectures& archs = kAmd64) {
  Collected c;
  auto r = parse_stanzas(text, "inline", archs, false, c.sink());
  EXPECT_TRUE(r.ok()) << r.error().message;
  return c;
}

std::string error_of(const std::string& text, bool installed_only = false) {
  Collected c;
  auto r = parse_stanzas(text, "inline", kAmd64, installed_only, c.sink());
  if (r.ok()) return "(no error)";
  EXPECT_EQ(r.error().code, ExitCode::environment);
  return r.error().message;
}

TEST(AptStanza, ReadsEveryStanzaOfTheBookwormList) {
  Collected c = parse_file(main_list(), kAmd64);
  ASSERT_EQ(c.records.size(), 103u);
  size_t all = 0;
  for (const auto& r : c.records) {
    EXPECT_EQ(r.origin, main_list());
    EXPECT_FALSE(r.installed);
    all += r.arch == "all";
  }
  EXPECT_EQ(all, 6u);
}

TEST(AptStanza, KeepsVersionsProvidesAlternativesAndConflicts) {
  Collected c = parse_file(main_list(), kAmd64);
  const PackageRecord* z = c.find("zlib1g-dev");
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->version, "1:1.2.13.dfsg-1");
  EXPECT_EQ(z->arch, "amd64");
  // A Source: other than the package's name is kept as the provide src:<source>, for guesses.
  EXPECT_EQ(show(z->provides), (Strings{"libz-dev", "src:zlib"}));
  EXPECT_EQ(show(z->depends), (Strings{"zlib1g (= 1:1.2.13.dfsg-1)", "libc6-dev | libc-dev"}));
  EXPECT_EQ(show(z->conflicts), (Strings{"zlib1-dev"}));

  // Pre-Depends come first, then Depends; M-A: allowed adds "python3:any".
  const PackageRecord* py = c.find("python3");
  ASSERT_NE(py, nullptr);
  EXPECT_EQ(show(py->depends), (Strings{"python3-minimal (= 3.11.2-1+b1)", "python3.11 (>= 3.11.2-1~)",
                                        "libpython3-stdlib (= 3.11.2-1+b1)"}));
  EXPECT_EQ(show(py->provides),
            (Strings{"python3-profiler", "python3-supported-max (= 3.11)", "python3-supported-min (= 3.11)",
                     "python3:any (= 3.11.2-1+b1)", "src:python3-defaults"}));

  const PackageRecord* gcc = c.find("libgcc-s1");
  ASSERT_NE(gcc, nullptr);
  EXPECT_EQ(show(gcc->provides), (Strings{"libgcc1 (= 1:12.2.0-14+deb12u1)", "src:gcc-12"}));
  EXPECT_TRUE(gcc->conflicts.empty());  // Replaces is not a conflict

  // Conflicts and Breaks both forbid.
  const PackageRecord* dev = c.find("libc6-dev");
  ASSERT_NE(dev, nullptr);
  ASSERT_EQ(dev->conflicts.size(), 3u + 111u);
  EXPECT_EQ(show(dev->conflicts[0]), "libc0.1-dev");
  EXPECT_EQ(show(dev->conflicts[3]), "binutils (<< 2.38)");
  EXPECT_EQ(show(dev->conflicts.back()), "slurm-wlm-basic-plugins-dev (<= 21.08.8.2-1)");
  EXPECT_EQ(show(dev->provides), (Strings{"libc-dev (= 2.36-9+deb12u14)", "src:glibc"}));

  // arch:all, M-A: foreign, with a ":any" dependency.
  const PackageRecord* dd = c.find("dpkg-dev");
  ASSERT_NE(dd, nullptr);
  EXPECT_EQ(dd->arch, "all");
  EXPECT_EQ(dd->version, "1.21.23");
  EXPECT_EQ(show(dd->depends).front(), "perl:any");
  EXPECT_EQ(dd->conflicts.size(), 5u);
  EXPECT_EQ(show(dd->provides), (Strings{"src:dpkg"}));  // no foreign architecture to provide for
}

TEST(AptStanza, NamesForeignArchitectureRecordsByTheMultiArchModel) {
  // The same real stanzas seen from an i386 machine with amd64 added as a foreign architecture.
  Collected c = parse_file(main_list(), Architectures{"i386", {"amd64"}});
  ASSERT_EQ(c.records.size(), 103u);
  EXPECT_EQ(c.find("zlib1g-dev"), nullptr);
  const PackageRecord* z = c.find("zlib1g-dev:amd64");
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->arch, "amd64");
  EXPECT_EQ(show(z->depends), (Strings{"zlib1g:amd64 (= 1:1.2.13.dfsg-1)", "libc6-dev:amd64 | libc-dev:amd64"}));
  EXPECT_EQ(show(z->provides), (Strings{"libz-dev:amd64"}));
  // An unqualified conflict holds against every architecture.
  EXPECT_EQ(show(z->conflicts), (Strings{"zlib1-dev", "zlib1-dev:amd64"}));

  // M-A: foreign also provides its name and its Provides for the other architectures.
  const PackageRecord* mawk = c.find("mawk:amd64");
  ASSERT_NE(mawk, nullptr);
  EXPECT_EQ(show(mawk->provides), (Strings{"awk:amd64", "awk", "mawk (= 1.3.4.20200120-3.1)"}));

  // M-A: allowed provides name:any whatever its architecture; its dependencies follow its arch.
  const PackageRecord* py = c.find("python3:amd64");
  ASSERT_NE(py, nullptr);
  EXPECT_EQ(show(py->provides).back(), "python3:any (= 3.11.2-1+b1)");  // foreign: no src: provide
  EXPECT_EQ(show(py->depends).front(), "python3-minimal:amd64 (= 3.11.2-1+b1)");

  // arch:all records count as native: plain names, and M-A: foreign provides for amd64.
  const PackageRecord* dd = c.find("dpkg-dev");
  ASSERT_NE(dd, nullptr);
  EXPECT_EQ(show(dd->depends)[0], "perl:any");
  EXPECT_EQ(show(dd->depends)[1], "libdpkg-perl (= 1.21.23)");
  EXPECT_EQ(show(dd->provides), (Strings{"dpkg-dev:amd64 (= 1.21.23)", "src:dpkg"}));
}

TEST(AptStanza, SkipsRecordsOfOtherArchitectures) {
  Collected c = parse_file(main_list(), Architectures{"arm64", {}});
  ASSERT_EQ(c.records.size(), 6u);
  for (const auto& r : c.records) EXPECT_EQ(r.arch, "all") << r.name;
}

TEST(AptStanza, StatusKeepsOnlyInstalledPackages) {
  std::string status = extdeps::test::data_path("apt/bookworm/var/lib/dpkg/status");
  Collected installed = parse_file(status, kAmd64, true);
  EXPECT_EQ(installed.records.size(), 102u);
  EXPECT_EQ(installed.find("libnl-3-200"), nullptr);  // "deinstall ok config-files"
  const PackageRecord* perl = installed.find("perl");
  ASSERT_NE(perl, nullptr);
  EXPECT_TRUE(perl->installed);
  EXPECT_EQ(perl->version, "5.36.0-7+deb12u2");
  EXPECT_EQ(perl->origin, status);

  Collected every = parse_file(status, kAmd64, false);
  ASSERT_EQ(every.records.size(), 103u);
  const PackageRecord* nl = every.find("libnl-3-200");
  ASSERT_NE(nl, nullptr);
  EXPECT_FALSE(nl->installed);
  EXPECT_EQ(nl->version, "3.7.0-0.2+b1");
}

TEST(AptStanza, InstalledMeansOnDiskWhateverTheSelection) {
  Collected c;
  auto r = parse_stanzas(
      "Package: a\nStatus: hold ok installed\nVersion: 1\nArchitecture: amd64\n\n"
      "Package: b\nStatus: deinstall ok installed\nVersion: 1\nArchitecture: amd64\n\n"
      "Package: c\nStatus: install reinstreq half-installed\nVersion: 1\nArchitecture: amd64\n\n"
      "Package: d\nStatus: install ok unpacked\nVersion: 1\nArchitecture: amd64\n\n"
      "Package: e\nStatus: purge ok not-installed\nArchitecture: amd64\n",
      "status", kAmd64, true, c.sink());
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(c.records.size(), 2u);
  EXPECT_EQ(c.records[0].name, "a");
  EXPECT_EQ(c.records[1].name, "b");
}

TEST(AptStanza, ReadsQualifiersRestrictionsProfilesAndOldOperators) {
  Collected c = parse_text(
      "package: x\n"  // field names are case-insensitive
      "Version: 1.0-1\n"
      "Architecture: amd64\n"
      "Depends: a [amd64], b [!amd64], c <!nocheck>, d <stage1>, e | f [i386], g:native,\n"
      " h:i386 (>>2), i(<1),j (> 2) ,k:any( =  3 ),\n"
      "Description: continuation lines of skipped fields are skipped\n"
      " Depends: not-a-field\n");
  ASSERT_EQ(c.records.size(), 1u);
  EXPECT_EQ(show(c.records[0].depends),
            (Strings{"a", "c", "e", "g", "h:i386 (>> 2)", "i (<= 1)", "j (>= 2)", "k:any (= 3)"}));
}

TEST(AptStanza, TakesBlankLinesWithSpacesAndAFinalStanzaWithoutBlankLine) {
  Collected c =
      parse_text("Package: a\nVersion: 1\nArchitecture: all\n \t\nPackage: b\nVersion: 2\nArchitecture: all\n");
  ASSERT_EQ(c.records.size(), 2u);
  EXPECT_EQ(c.records[1].version, "2");
  EXPECT_TRUE(parse_text("").records.empty());
  EXPECT_TRUE(parse_text("\n\n").records.empty());
}

TEST(AptStanza, ReportsMalformedRelationsExactly) {
  const std::string head = "Package: x\nVersion: 1\nArchitecture: amd64\n";
  EXPECT_EQ(error_of(head + "Depends: libc6 (>= ), zlib1g\n"),
            "inline:4: missing version in relation 'libc6 (>= )' in Depends (expected a version after '>=')");
  EXPECT_EQ(error_of(head + "Depends: a,\n libc6 (>= 2.36\n"),
            "inline:5: unclosed '(' in relation 'libc6 (>= 2.36' in Depends (expected ')')");
  EXPECT_EQ(error_of(head + "Pre-Depends: libc6 (~ 2)\n"),
            "inline:4: bad operator '~' in relation 'libc6 (~ 2)' in Pre-Depends (expected one of << <= = >= >>)");
  EXPECT_EQ(error_of(head + "Depends: libc6 (2.36)\n"),
            "inline:4: missing operator in relation 'libc6 (2.36)' in Depends (expected one of << <= = >= >>)");
  EXPECT_EQ(error_of(head + "Depends: a | | b\n"),
            "inline:4: empty alternative in Depends (expected a package name around '|')");
  EXPECT_EQ(error_of(head + "Depends: (>= 1)\n"),
            "inline:4: missing package name in relation '(>= 1)' in Depends (expected a package name first)");
  EXPECT_EQ(error_of(head + "Depends: a (>= 1) b\n"),
            "inline:4: unexpected 'b' after relation 'a (>= 1) b' in Depends (expected ',' or '|')");
  EXPECT_EQ(error_of(head + "Depends: a (>= 1 2)\n"),
            "inline:4: unexpected '2' in relation 'a (>= 1 2)' in Depends (expected ')' after the version)");
  EXPECT_EQ(error_of(head + "Depends: a:\n"),
            "inline:4: missing architecture after ':' in relation 'a:' in Depends "
            "(expected any, native or an architecture name)");
  EXPECT_EQ(error_of(head + "Depends: a [amd64\n"),
            "inline:4: unclosed '[' in relation 'a [amd64' in Depends (expected ']')");
  EXPECT_EQ(error_of(head + "Depends: a <!nocheck\n"),
            "inline:4: unclosed '<' in relation 'a <!nocheck' in Depends (expected '>')");
  EXPECT_EQ(error_of(head + "Conflicts: a | b\n"),
            "inline:4: alternative '|' in Conflicts (expected alternatives only in Depends and Pre-Depends)");
  EXPECT_EQ(
      error_of(head + "Provides: foo (>= 1)\n"),
      "inline:4: operator '>=' in Provides relation 'foo (>= 1)' (expected '=', the only operator Provides allows)");
}

TEST(AptStanza, ReportsMalformedStanzasExactly) {
  EXPECT_EQ(error_of("Package: x\nVersion: 1 2\nArchitecture: amd64\n"),
            "inline:2: bad Version '1 2' of package 'x' (expected one word without spaces)");
  EXPECT_EQ(error_of("Package: x\nVersion:\nArchitecture: amd64\n"),
            "inline:2: empty Version field of package 'x' (expected a value after 'Version:')");
  EXPECT_EQ(error_of("Package: x\nVersion: 1\n"),
            "inline:1: package 'x' has no Architecture field (expected 'Architecture: <arch>')");
  EXPECT_EQ(error_of("Package: x\nVersion: 1\nArchitecture: amd64\nMulti-Arch: sometimes\n"),
            "inline:4: bad Multi-Arch 'sometimes' of package 'x' (expected no, same, foreign or allowed)");
  EXPECT_EQ(error_of("Package: x\nStatus: install ok\nVersion: 1\nArchitecture: amd64\n", true),
            "inline:2: bad Status 'install ok' of package 'x' (expected three words such as 'install ok installed')");
  EXPECT_EQ(
      error_of("Package: x\nVersion: 1\nArchitecture: amd64\n", true),
      "inline:1: package 'x' has no Status field (expected 'Status: install ok installed' or another dpkg state)");
  EXPECT_EQ(error_of("Package: x\n: y\n"), "inline:2: empty field name in line ': y' (expected 'Field: value')");
  EXPECT_EQ(error_of("Package: x\nVersion 1:2.0-1\n"),
            "inline:2: bad field name 'Version 1' (expected a name without spaces before ':')");
}

// The corrupt fixtures are real stanzas (make, zlib1g, zlib1g-dev) with one defect each.
void expect_corrupt(const std::string& name, const std::string& message_after_path) {
  std::string path = extdeps::test::data_path("apt/corrupt/" + name);
  Collected c;
  auto r = parse_index_file(path, kAmd64, false, c.sink());
  ASSERT_FALSE(r.ok()) << name;
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message, path + message_after_path);
  // As data too: the place is file:line, and the message is rendered from the parts.
  EXPECT_TRUE(r.error().place.starts_with(path + ":")) << r.error().place;
  EXPECT_FALSE(r.error().what.empty());
  EXPECT_TRUE(r.error().message.starts_with(r.error().place + ": " + r.error().what)) << r.error().message;
}

TEST(AptStanza, ReportsCorruptFilesWithFileAndLine) {
  expect_corrupt("no-colon_Packages",
                 ":40: missing ':' in line 'Section libs' (expected 'Field: value' or an indented continuation line)");
  expect_corrupt("missing-version_Packages",
                 ":25: package 'zlib1g' has no Version field (expected 'Version: <version>')");
  expect_corrupt("missing-package_Packages", ":1: stanza without a Package field (expected 'Package: <name>')");
  expect_corrupt("bad-relation_Packages",
                 ":32: missing version in relation 'libc6 (>= )' in Depends (expected a version after '>=')");
  expect_corrupt("truncated_Packages",
                 ":27: file ends in the middle of a line (expected a newline at the end of every line; the file may "
                 "be truncated)");
  expect_corrupt("nul_Packages", ":35: NUL byte at column 21 (expected text; the file may be corrupt)");
  expect_corrupt("comment_Packages",
                 ":1: comment line '# generated by hand' (expected 'Field: value'; Packages and status files have no "
                 "comments)");
  expect_corrupt("continuation-outside_Packages",
                 ":1: continuation line ' stray continuation' outside a field (expected 'Field: value' before it)");
  expect_corrupt("duplicate-field_Packages",
                 ":24: duplicate Package field (expected one per stanza; a blank line may be missing between stanzas)");
}

// Names and fields longer than any real one are damage, said with file:line and a short quote:
// a 1 GB package name was kept whole and printed whole (gigabytes of memory).
TEST(AptStanza, RejectsOverlongNamesVersionsAndFields) {
  std::string name(5000, 'n');
  std::string e = error_of("Package: " + name + "\nVersion: 1\nArchitecture: amd64\n");
  EXPECT_EQ(e, "inline:1: Package '" + name.substr(0, 57) + "...' of 5000 bytes (expected at most 1024 bytes)");
  e = error_of("Package: x\nVersion: " + std::string(50000, '1') + "\nArchitecture: amd64\n");
  EXPECT_EQ(e, "inline:2: Version '" + std::string(57, '1') +
                   "...' of 50000 bytes of package 'x' (expected at most 1024 bytes)");
  std::string depends = "a";
  while (depends.size() <= (1u << 20)) depends += ", a";
  e = error_of("Package: x\nVersion: 1\nArchitecture: amd64\nDepends: " + depends + "\n");
  EXPECT_EQ(e, "inline:4: Depends field of " + std::to_string(depends.size() + 1) +
                   " bytes (expected at most 1048576 bytes)");
  // As long as the limits allow is read.
  auto c = parse_text("Package: " + std::string(1024, 'n') + "\nVersion: 1\nArchitecture: amd64\n");
  ASSERT_EQ(c.records.size(), 1u);
}

TEST(AptStanza, AStanzaLargerThanTheLimitStopsTheFileRead) {
  std::string path = extdeps::test::temp_dir() + "/huge_Packages";
  {
    std::ofstream out(path, std::ios::binary);
    out << "Package: a\nVersion: 1\nArchitecture: amd64\n\n";
    out << "Package: " << std::string(20 << 20, 'n') << "\nVersion: 1\nArchitecture: amd64\n";
  }
  Collected c;
  auto r = parse_index_file(path, kAmd64, false, c.sink());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message,
            path + ":5: a stanza of more than 16777216 bytes (expected at most that; the file may be corrupt)");
}

TEST(AptStanza, ADependsOf50000AlternativesIsRead) {
  std::string depends = "alt0";
  for (int i = 1; i < 50000; ++i) depends += " | alt" + std::to_string(i);
  auto c = parse_text("Package: x\nVersion: 1\nArchitecture: amd64\nDepends: " + depends + "\n");
  ASSERT_EQ(c.records.size(), 1u);
  ASSERT_EQ(c.records[0].depends.size(), 1u);
  EXPECT_EQ(c.records[0].depends[0].size(), 50000u);
}

}  // namespace
}  // namespace extdeps::apt
