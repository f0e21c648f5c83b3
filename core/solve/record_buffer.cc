// Lists are stored in ints_ as [count, items...]: a NativeDep is (name, op, version), a depends
// entry is [alternatives, NativeDep...], a rich dependency [text offset, count, name ids...]. In
// order: provides, depends, rich depends, conflicts, constrains. Strings are ids into strings_;
// the empty string is id 0.
#include "core/solve/record_buffer.h"

#include <cstring>

#include "core/solve/rich_dep.h"

namespace extdeps::solve {

RecordBuffer::RecordBuffer() { intern(""); }

std::uint32_t RecordBuffer::intern(std::string_view s) { return strings_.insert(s); }

std::uint32_t RecordBuffer::raw(std::string_view s) {
  auto at = static_cast<std::uint32_t>(raw_.size());
  auto n = static_cast<std::uint32_t>(s.size());
  raw_.append(reinterpret_cast<const char*>(&n), sizeof n);
  raw_.append(s);
  return at;
}

std::string_view RecordBuffer::raw_text(std::uint32_t offset) const {
  std::uint32_t n;
  std::memcpy(&n, raw_.data() + offset, sizeof n);
  return std::string_view(raw_.data() + offset + sizeof n, n);
}

void RecordBuffer::put_deps(const std::vector<NativeDep>& deps) {
  ints_.push_back(static_cast<std::uint32_t>(deps.size()));
  for (const auto& d : deps) {
    ints_.push_back(intern(d.name));
    ints_.push_back(static_cast<std::uint32_t>(d.op));
    ints_.push_back(intern(d.version));
  }
}

std::vector<NativeDep> RecordBuffer::get_deps(std::uint32_t& at) const {
  std::vector<NativeDep> out(ints_[at++]);
  for (auto& d : out) {
    d.name = text(ints_[at++]);
    d.op = static_cast<DepOp>(ints_[at++]);
    d.version = text(ints_[at++]);
  }
  return out;
}

void RecordBuffer::add(PackageRecord&& r) {
  Compact c{};
  c.name = intern(r.name);
  c.version = intern(r.version);
  c.arch = intern(r.arch);
  c.build = raw(r.build);
  c.origin = raw(r.origin);
  c.build_number = r.build_number;
  c.track_features = r.track_features;
  c.installed = r.installed;
  c.family = intern(r.family);
  c.set = intern(r.set);
  c.lists = static_cast<std::uint32_t>(ints_.size());
  put_deps(r.provides);
  ints_.push_back(static_cast<std::uint32_t>(r.depends.size()));
  for (const auto& alts : r.depends) put_deps(alts);
  // Rich dependencies: [count, (text, names, name ids...)...], the names for the closure.
  ints_.push_back(static_cast<std::uint32_t>(r.rich_depends.size()));
  for (const auto& text : r.rich_depends) {
    ints_.push_back(raw(text));
    std::vector<std::string> names;
    if (auto parsed = parse_rich_dep(text)) rich_names(*parsed, names);
    ints_.push_back(static_cast<std::uint32_t>(names.size()));
    for (const auto& n : names) ints_.push_back(intern(n));
  }
  put_deps(r.conflicts);
  put_deps(r.constrains);
  records_.push_back(c);
}

PackageRecord RecordBuffer::get(std::uint32_t index) const {
  const Compact& c = records_[index];
  PackageRecord r;
  r.name = text(c.name);
  r.version = text(c.version);
  r.arch = text(c.arch);
  r.build = raw_text(c.build);
  r.origin = raw_text(c.origin);
  r.build_number = c.build_number;
  r.track_features = c.track_features;
  r.installed = c.installed;
  r.family = text(c.family);
  r.set = text(c.set);
  std::uint32_t at = c.lists;
  r.provides = get_deps(at);
  r.depends.resize(ints_[at++]);
  for (auto& alts : r.depends) alts = get_deps(at);
  r.rich_depends.resize(ints_[at++]);
  for (auto& text : r.rich_depends) {
    text = raw_text(ints_[at++]);
    at += 1 + ints_[at];  // past the names
  }
  r.conflicts = get_deps(at);
  r.constrains = get_deps(at);
  return r;
}

std::vector<std::uint32_t> RecordBuffer::closure(const std::vector<std::string>& roots) const {
  // Who has or provides each name (by string id).
  std::vector<std::vector<std::uint32_t>> providers(strings_.size()), families(strings_.size());
  for (std::uint32_t i = 0; i < records_.size(); ++i) {
    providers[records_[i].name].push_back(i);
    if (records_[i].family) families[records_[i].family].push_back(i);
    std::uint32_t at = records_[i].lists;
    std::uint32_t n = ints_[at++];
    for (std::uint32_t k = 0; k < n; ++k, at += 3)
      if (ints_[at] != records_[i].name) providers[ints_[at]].push_back(i);
  }
  std::vector<char> keep(records_.size(), 0), seen_name(strings_.size(), 0);
  std::vector<std::uint32_t> todo;
  auto visit = [&](std::uint32_t name) {
    if (seen_name[name]) return;
    seen_name[name] = 1;
    for (std::uint32_t i : providers[name])
      if (!keep[i]) {
        keep[i] = 1;
        todo.push_back(i);
      }
  };
  for (const auto& r : roots) {
    if (std::uint32_t id = strings_.find(r); id != StringIndex::kNone) visit(id);
  }
  // What stands in for a root (its family) stays too.
  for (std::size_t k = 0, n = todo.size(); k < n; ++k)
    for (std::uint32_t i : families[records_[todo[k]].family])
      if (records_[todo[k]].family && !keep[i]) {
        keep[i] = 1;
        todo.push_back(i);
      }
  while (!todo.empty()) {
    std::uint32_t i = todo.back();
    todo.pop_back();
    std::uint32_t at = records_[i].lists;
    at += 1 + 3 * ints_[at];  // past provides
    std::uint32_t groups = ints_[at++];
    for (std::uint32_t g = 0; g < groups; ++g) {
      std::uint32_t n = ints_[at++];
      for (std::uint32_t k = 0; k < n; ++k, at += 3) visit(ints_[at]);
    }
    // Every name of a rich dependency may be needed (a condition's too: it decides what is).
    std::uint32_t rich = ints_[at++];
    for (std::uint32_t g = 0; g < rich; ++g) {
      ++at;  // the text
      std::uint32_t n = ints_[at++];
      for (std::uint32_t k = 0; k < n; ++k) visit(ints_[at++]);
    }
  }
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < records_.size(); ++i)
    if (keep[i]) out.push_back(i);
  return out;
}

}  // namespace extdeps::solve
