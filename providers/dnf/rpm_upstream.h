// dnf's "rpm-upstream" version rule (a mapping table's `version = "rpm-upstream"`): the upstream
// part of an rpm version, for the fedora and opensuse tables.
#pragma once

#include <string>
#include <string_view>

namespace extdeps::dnf {

// rpm's [epoch:]version-release, read as Fedora's packaging guidelines ("Versioning") write it:
// the epoch and the release go; in the version, `~` marks a pre-release (2.0.0~M1, before 2.0.0)
// and stays, `^` a snapshot after a release (0.2.1^20240530.56b0c4d9), which reads as that
// release (0.2.1). "1:2.9.14-8.fc41" -> "2.9.14".
std::string rpm_upstream(std::string_view native);

}  // namespace extdeps::dnf
