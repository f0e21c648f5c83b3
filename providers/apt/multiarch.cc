#include "providers/apt/multiarch.h"

namespace extdeps::apt {

namespace {

NativeDep dep(std::string name, const Relation& r) { return NativeDep{std::move(name), r.op, std::string(r.version)}; }

}  // namespace

ArchNaming::ArchNaming(const Architectures& archs, std::string_view record_arch, MultiArch multi_arch)
    : archs_(archs),
      arch_(record_arch == "all" ? std::string_view(archs.native) : record_arch),
      multi_arch_(multi_arch) {}

std::string ArchNaming::qualify(std::string_view name, std::string_view arch) const {
  if (arch.empty() || arch == archs_.native || arch == "all") return std::string(name);
  std::string out;
  out.reserve(name.size() + 1 + arch.size());
  out.append(name).append(1, ':').append(arch);
  return out;
}

std::string ArchNaming::own_name(std::string_view package) const { return qualify(package, arch_); }

void ArchNaming::add_depends(const Relations& rels, std::vector<DepAlternatives>& out) const {
  size_t begin = 0;
  for (std::uint32_t end : rels.group_end) {
    DepAlternatives alts;
    alts.reserve(end - begin);
    for (size_t i = begin; i < end; ++i) {
      const Relation& r = rels.rels[i];
      std::string name;
      if (r.arch_qualifier.empty()) name = qualify(r.name, arch_);
      else if (r.arch_qualifier == "any") name = std::string(r.name) + ":any";
      else if (r.arch_qualifier == "native") name = std::string(r.name);
      else name = qualify(r.name, r.arch_qualifier);
      alts.push_back(dep(std::move(name), r));
    }
    out.push_back(std::move(alts));
    begin = end;
  }
}

void ArchNaming::add_provides(std::string_view package, std::string_view version, const Relations& rels,
                              std::vector<NativeDep>& out) const {
  const bool foreign = multi_arch_ == MultiArch::foreign;
  for (const Relation& r : rels.rels) {
    out.push_back(dep(qualify(r.name, arch_), r));
    if (!foreign) continue;
    if (arch_ != archs_.native) out.push_back(dep(std::string(r.name), r));
    for (const auto& a : archs_.foreign)
      if (a != arch_) out.push_back(dep(qualify(r.name, a), r));
  }
  if (foreign) {
    if (arch_ != archs_.native) out.push_back(NativeDep{std::string(package), DepOp::eq, std::string(version)});
    for (const auto& a : archs_.foreign)
      if (a != arch_) out.push_back(NativeDep{qualify(package, a), DepOp::eq, std::string(version)});
  } else if (multi_arch_ == MultiArch::allowed) {
    out.push_back(NativeDep{std::string(package) + ":any", DepOp::eq, std::string(version)});
  }
}

void ArchNaming::add_conflicts(const Relations& rels, std::vector<NativeDep>& out) const {
  for (const Relation& r : rels.rels) {
    if (r.arch_qualifier.empty() || r.arch_qualifier == "any") {
      out.push_back(dep(std::string(r.name), r));
      for (const auto& a : archs_.foreign) out.push_back(dep(qualify(r.name, a), r));
    } else if (r.arch_qualifier == "native") {
      out.push_back(dep(std::string(r.name), r));
    } else {
      out.push_back(dep(qualify(r.name, r.arch_qualifier), r));
    }
  }
}

}  // namespace extdeps::apt
