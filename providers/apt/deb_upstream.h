// apt's "deb-upstream" version rule (a mapping table's `version = "deb-upstream"`): the upstream
// part of a Debian version.
#pragma once

#include <string>
#include <string_view>

namespace extdeps::apt {

// Debian's rules (deb-version(7)): [epoch:]upstream[-revision]; repacked sources add +dfsg, +ds,
// +repack or .dfsg to the upstream part; stable updates add +debNNuN or ~debNNuN; "+really"
// marks a downgrade whose real version follows it. "1:3.6.2+dfsg-1+b2" -> "3.6.2".
std::string deb_upstream(std::string_view native);

}  // namespace extdeps::apt
