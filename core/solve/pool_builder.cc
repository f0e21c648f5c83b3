#include "core/solve/pool_builder.h"

#include "core/solve/record_buffer.h"
#include "core/solve/rich_dep.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdio_ext.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <unordered_set>

#include "core/util/sealed_file.h"
#include "core/version/version.h"

namespace extdeps::solve {

namespace {

// Bump when the way records become solvables changes: old caches are then ignored.
constexpr std::string_view kCacheFormat =
    "records-9";  // 4: apt records provide src:<source>; 5: spec args encoded; 6: rpm rich dependencies; 7: the evr map
                  // beside the solv data; 8: no index copies of what is installed; 9: rpm records provide src:<source>

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

int rel_flags(DepOp op) {
  switch (op) {
    case DepOp::eq: return REL_EQ;
    case DepOp::lt: return REL_LT;
    case DepOp::le: return REL_LT | REL_EQ;
    case DepOp::gt: return REL_GT;
    case DepOp::ge: return REL_GT | REL_EQ;
    case DepOp::ne: return REL_LT | REL_GT;
    case DepOp::any:
    case DepOp::spec: break;
  }
  return 0;
}

// Turns records of one provider into solvables of one repo.
class RecordAdder {
 public:
  RecordAdder(PoolBuilder& builder, const Context& ctx, Repo* repo, std::string ecosystem,
              const version::Scheme& scheme, bool unversioned_provides_meet_versions)
      : b_(builder),
        ctx_(ctx),
        pool_(builder.pool()),
        repo_(repo),
        eco_(std::move(ecosystem)),
        scheme_(scheme),
        unversioned_meet_versions_(unversioned_provides_meet_versions) {
    data_ = repo_add_repodata(repo_, 0);
  }

  // "a | b | c" as a balanced tree of REL_OR: libsolv and the explanations recurse on it, and a
  // chain of 50,000 alternatives would be as deep as it is long.
  Id any_of(const DepAlternatives& alts, size_t from, size_t to) {
    if (to - from == 1) return dep_id(alts[from]);
    const size_t mid = from + (to - from) / 2;
    return pool_rel2id(pool_, any_of(alts, from, mid), any_of(alts, mid, to), REL_OR, 1);
  }

  void add(PackageRecord&& r) {
    Id p = repo_add_solvable(repo_);
    Solvable* s = pool_id2solvable(pool_, p);
    s->name = b_.name_id(eco_, r.name);
    s->evr = evr_id(r.version);
    s->arch = pool_str2id(pool_, r.arch.empty() ? "noarch" : r.arch.c_str(), 1);
    s->provides = repo_addid_dep(repo_, s->provides, pool_rel2id(pool_, s->name, s->evr, REL_EQ, 1), 0);
    s->provides = repo_addid_dep(repo_, s->provides, pool_rel2id(pool_, b_.versioned(s->name), s->evr, REL_EQ, 1), 0);
    for (const auto& d : r.provides) {
      s->provides = repo_addid_dep(repo_, s->provides, dep_id(d), 0);
      if (d.op != DepOp::any) {  // a versioned provide also meets versioned relations
        Id n = b_.name_id(eco_, d.name);
        s->provides =
            repo_addid_dep(repo_, s->provides, pool_rel2id(pool_, n, evr_id(d.version), rel_flags(d.op), 1), 0);
      } else if (unversioned_meet_versions_ && d.name.rfind("__", 0) != 0) {
        // rpm: an unversioned provide meets a versioned relation too (the provider says so).
        s->provides = repo_addid_dep(repo_, s->provides, b_.versioned(b_.name_id(eco_, d.name)), 0);
      }
    }
    for (const auto& alts : r.depends) {
      if (alts.empty()) continue;
      s->requires_ = repo_addid_dep(repo_, s->requires_, any_of(alts, 0, alts.size()), 0);
    }
    for (const auto& text : r.rich_depends) {
      auto parsed = parse_rich_dep(text);
      if (!parsed) {
        // The record stays, without this relation: a plan may miss it, never invent one.
        if (rich_warned_++ == 0)
          ctx_.warn(eco_ + ": " + r.name + ": " + parsed.error().message + " (the relation is left out)");
        continue;
      }
      s->requires_ = repo_addid_dep(repo_, s->requires_, rich_id(*parsed), 0);
    }
    for (const auto& d : r.conflicts) s->conflicts = repo_addid_dep(repo_, s->conflicts, dep_id(d), 0);
    // A constraint conflicts with every package of that name that does not meet it.
    for (const auto& d : r.constrains)
      s->conflicts =
          repo_addid_dep(repo_, s->conflicts, b_.spec_dep(eco_, d.name, d.op == DepOp::spec ? d.version : "", true), 0);
    if (!r.family.empty()) {
      s->provides = repo_addid_dep(repo_, s->provides, b_.family_id(eco_, r.family), 0);
      s->provides = repo_addid_dep(repo_, s->provides, b_.set_id(eco_, r.set), 0);
    }
    repodata_set_poolstr(data_, p, b_.native_version_key(), r.version.c_str());
    if (!r.build.empty()) repodata_set_poolstr(data_, p, b_.build_key(), r.build.c_str());
    if (r.track_features) repodata_set_num(data_, p, b_.track_features_key(), r.track_features);
    // Not pooled: origins are unique per record, and every pooled string costs repo_write a sort.
    if (!r.origin.empty()) repodata_set_str(data_, p, b_.origin_key(), r.origin.c_str());
  }

  void finish() { repodata_internalize(data_); }

  // A rich dependency as libsolv's complex relations: (A if B else C) is REL_COND(A, REL_ELSE(B, C)).
  Id rich_id(const solve::RichDep& d) {
    using Op = solve::RichDep::Op;
    if (d.op == Op::atom) return dep_id(d.atom);
    auto fold = [&](int flag) {
      Id out = rich_id(d.args[0]);
      for (std::size_t i = 1; i < d.args.size(); ++i) out = pool_rel2id(pool_, out, rich_id(d.args[i]), flag, 1);
      return out;
    };
    switch (d.op) {
      case Op::and_: return fold(REL_AND);
      case Op::or_: return fold(REL_OR);
      case Op::with: return fold(REL_WITH);
      case Op::without: return fold(REL_WITHOUT);
      case Op::if_:
      case Op::unless: {
        Id cond = rich_id(d.args[1]);
        if (d.args.size() > 2) cond = pool_rel2id(pool_, cond, rich_id(d.args[2]), REL_ELSE, 1);
        return pool_rel2id(pool_, rich_id(d.args[0]), cond, d.op == Op::if_ ? REL_COND : REL_UNLESS, 1);
      }
      case Op::atom: break;
    }
    return 0;
  }

 private:
  Id evr_id(const std::string& native) {
    auto it = evr_cache_.find(native);
    if (it != evr_cache_.end()) return it->second;
    auto norm = version::normalize(scheme_, native);
    Id id;
    if (norm.ok()) {
      id = pool_str2id(pool_, norm->c_str(), 1);
    } else {
      ctx_.warn(eco_ + ": version '" + native + "' cannot be ordered (" + norm.error().message +
                "); it is treated as the lowest version");
      id = pool_str2id(pool_, "0", 1);
    }
    evr_cache_.emplace(native, id);
    if (native != pool_id2str(pool_, id)) b_.remember_native(id, native);
    return id;
  }

  // A relation with a version names "eco:X#v", which only real packages and versioned provides
  // offer: in Debian an unversioned Provides never meets a versioned relation, while libsolv's rpm
  // rules would let it (policy 7.5). Unversioned relations name "eco:X", which every provider of
  // X offers.
  //
  // Names starting with "__" are the host's virtual packages (__glibc, __cuda), shared by every
  // ecosystem. A DepOp::spec relation becomes a namespace dependency that PoolBuilder's callback
  // answers with the candidates the provider's matcher accepts.
  Id dep_id(const NativeDep& d) {
    if (d.op == DepOp::spec) return b_.spec_dep(eco_, d.name, d.version, false);
    Id n = d.name.rfind("__", 0) == 0 ? pool_str2id(pool_, d.name.c_str(), 1) : b_.name_id(eco_, d.name);
    if (d.op == DepOp::any) return n;
    return pool_rel2id(pool_, b_.versioned(n), evr_id(d.version), rel_flags(d.op), 1);
  }

  PoolBuilder& b_;
  const Context& ctx_;
  Pool* pool_;
  Repo* repo_;
  Repodata* data_;
  std::string eco_;
  const version::Scheme& scheme_;
  bool unversioned_meet_versions_;
  std::unordered_map<std::string, Id> evr_cache_;
  int rich_warned_ = 0;
};

}  // namespace

Result<void> load_solv_cache(Repo* repo, std::string_view bytes, std::string* extra) {
  auto body = sealed::unseal(kSolvCacheKind, bytes);
  if (!body.ok()) return body.error();
  if (body->size() < 8) return error_at(ExitCode::bad_input, "", "cut short: no length of the solv data");
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>((*body)[static_cast<std::size_t>(i)]);
  if (n == 0 || n > body->size() - 8)
    return error_at(ExitCode::bad_input, "",
                    "the solv data's length, " + std::to_string(n) + ", is not within the file");
  const std::string_view solv = body->substr(8, n);
  // fmemopen only reads: the buffer is not written through the FILE.
  FILE* fp = fmemopen(const_cast<char*>(solv.data()), solv.size(), "rb");
  if (!fp)
    return error_at(ExitCode::environment, "", std::string("cannot read the cache in memory: ") + std::strerror(errno));
  // libsolv reads it a byte at a time with getc; one thread owns this FILE, so no lock per byte.
  __fsetlocking(fp, FSETLOCKING_BYCALLER);
  int r = repo_add_solv(repo, fp, 0);
  std::fclose(fp);
  if (r != 0) return error_at(ExitCode::bad_input, "", std::string("libsolv refused it: ") + pool_errstr(repo->pool));
  if (extra) extra->assign(body->substr(8 + n));
  return {};
}

Result<std::string> solv_cache_body(Repo* repo, int start, int end, std::string_view extra) {
  char* buf = nullptr;
  size_t size = 0;
  FILE* fp = open_memstream(&buf, &size);
  if (!fp)
    return error_at(ExitCode::environment, "",
                    std::string("cannot write the cache in memory: ") + std::strerror(errno));
  Repowriter* w = repowriter_create(repo);
  repowriter_set_solvablerange(w, start, end);
  int r = repowriter_write(w, fp);
  repowriter_free(w);
  bool ok = std::fclose(fp) == 0 && r == 0;
  std::string body(8, '\0');
  for (int i = 0; i < 8; ++i)
    body[static_cast<std::size_t>(i)] = static_cast<char>((static_cast<std::uint64_t>(size) >> (8 * i)) & 0xff);
  if (ok && buf) body.append(buf, size);
  std::free(buf);
  if (!ok || size == 0) return error_at(ExitCode::environment, "", "cannot write the cache in memory");
  body.append(extra);
  return body;
}

PoolBuilder::PoolBuilder(const Context& ctx) : ctx_(ctx), pool_(pool_create()) {
  pool_setnamespacecallback(pool_.get(), &PoolBuilder::namespace_callback, this);
  ns_match_ = pool_str2id(pool_.get(), "extdeps:matching", 1);
  ns_unmatched_ = pool_str2id(pool_.get(), "extdeps:not-matching", 1);
  key_build_ = pool_str2id(pool_.get(), "extdeps:build", 1);
  key_track_ = pool_str2id(pool_.get(), "extdeps:track_features", 1);
  pool_setdisttype(pool_.get(), DISTTYPE_RPM);
  installed_ = repo_create(pool_.get(), "installed");
  pool_set_installed(pool_.get(), installed_);
  key_native_ = pool_str2id(pool_.get(), "extdeps:native_version", 1);
  key_origin_ = pool_str2id(pool_.get(), "extdeps:origin", 1);
}

Id PoolBuilder::name_id(std::string_view ecosystem, std::string_view name, bool create) {
  std::string buf;
  buf.reserve(ecosystem.size() + 1 + name.size());
  buf.append(ecosystem).push_back(':');
  buf.append(name);
  return pool_strn2id(pool_.get(), buf.data(), static_cast<unsigned>(buf.size()), create ? 1 : 0);
}

Id PoolBuilder::family_id(std::string_view ecosystem, std::string_view family, bool create) {
  std::string n(family);
  n += "#family";
  return name_id(ecosystem, n, create);
}

Id PoolBuilder::set_id(std::string_view ecosystem, std::string_view set, bool create) {
  std::string n(set);
  n += "#set";
  return name_id(ecosystem, n, create);
}

namespace {

// The first plain provide of a solvable whose name ends with `suffix`.
Id provide_with_suffix(Pool* pool, Id p, std::string_view suffix) {
  Solvable* s = pool_id2solvable(pool, p);
  if (!s->repo || !s->provides) return 0;
  for (Id* d = s->repo->idarraydata + s->provides; *d; ++d) {
    if (ISRELDEP(*d)) continue;
    std::string_view n = pool_id2str(pool, *d);
    if (n.size() > suffix.size() && n.substr(n.size() - suffix.size()) == suffix) return *d;
  }
  return 0;
}

}  // namespace

Id PoolBuilder::family_of(Id p) const { return provide_with_suffix(pool_.get(), p, "#family"); }

Id PoolBuilder::set_of(Id p) const { return provide_with_suffix(pool_.get(), p, "#set"); }

Id PoolBuilder::versioned(Id name) {
  auto it = versioned_.find(name);
  if (it != versioned_.end()) return it->second;
  std::string v = pool_id2str(pool_.get(), name);
  v += "#v";
  Id id = pool_str2id(pool_.get(), v.c_str(), 1);
  versioned_.emplace(name, id);
  return id;
}

Id PoolBuilder::unversioned(Id name) const {
  std::string_view n = pool_id2str(pool_.get(), name);
  if (n.size() < 2 || n.substr(n.size() - 2) != "#v") return name;
  return pool_strn2id(pool_.get(), n.data(), static_cast<unsigned>(n.size() - 2), 0);
}

std::string PoolBuilder::native_version(Id p) const {
  const char* v = solvable_lookup_str(pool_id2solvable(pool_.get(), p), key_native_);
  if (v) return v;
  return pool_id2str(pool_.get(), pool_id2solvable(pool_.get(), p)->evr);
}

// A namespace argument is one word in libsolv's testcase format (namespace lines are split at
// blanks and parentheses): ' ', '(', ')', '%' and control characters are written %XX.
std::string PoolBuilder::encode_spec_arg(std::string_view text) {
  std::string out;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (c == ' ' || c == '(' || c == ')' || c == '%' || u < 0x20 || u == 0x7f) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

std::string PoolBuilder::decode_spec_arg(std::string_view text) {
  std::string out;
  auto hex = [](char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                  : -1;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

Id PoolBuilder::spec_dep(const std::string& eco, const std::string& name, const std::string& spec, bool unmatched) {
  std::string arg = eco + ":" + name;
  if (!spec.empty()) arg += " " + spec;
  arg = encode_spec_arg(arg);
  return pool_rel2id(pool_.get(), unmatched ? ns_unmatched_ : ns_match_, pool_str2id(pool_.get(), arg.c_str(), 1),
                     REL_NAMESPACE, 1);
}

std::string PoolBuilder::build_string(Id p) const {
  const char* v = solvable_lookup_str(pool_id2solvable(pool_.get(), p), key_build_);
  return v ? v : "";
}

unsigned PoolBuilder::track_features(Id p) const {
  return static_cast<unsigned>(solvable_lookup_num(pool_id2solvable(pool_.get(), p), key_track_, 0));
}

// libsolv asks what provides "extdeps:matching(conda-forge:numpy >=1.20,<2 py310*)": the packages
// named numpy that the conda provider's matcher accepts (or, for not-matching, the others). A
// "__" name is the host's virtual package. An unknown ecosystem or a spec that does not compile
// provides nothing; the spec's error is warned once.
Id PoolBuilder::namespace_callback(Pool* pool, void* data, Id ns, Id arg) {
  auto* self = static_cast<PoolBuilder*>(data);
  if (ns != self->ns_match_ && ns != self->ns_unmatched_) return 0;
  const std::string decoded = decode_spec_arg(pool_id2str(pool, arg));
  std::string_view text = decoded;
  auto space = text.find(' ');
  std::string_view pooled = text.substr(0, space);
  std::string_view spec = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  std::string_view eco = ecosystem_of(pooled);
  std::string_view native = pooled.substr(eco.size() + 1);
  Id name = native.rfind("__", 0) == 0 ? pool_strn2id(pool, native.data(), static_cast<unsigned>(native.size()), 0)
                                       : pool_strn2id(pool, pooled.data(), static_cast<unsigned>(pooled.size()), 0);
  if (!name) return 0;
  const SpecMatcher* matcher = nullptr;
  if (!spec.empty()) {
    auto it = self->matchers_.find(arg);
    if (it == self->matchers_.end()) {
      std::unique_ptr<SpecMatcher> m;
      auto prov = self->spec_providers_.find(std::string(eco));
      if (prov != self->spec_providers_.end()) {
        auto compiled = prov->second->compile_spec(spec);
        if (compiled.ok()) m = std::move(*compiled);
        else self->ctx_.warn(std::string(eco) + ": " + compiled.error().message);
      }
      it = self->matchers_.emplace(arg, std::move(m)).first;
    }
    matcher = it->second.get();
    if (!matcher) return 0;  // nothing meets a spec that cannot be read
  }
  Queue q;
  queue_init(&q);
  Id p, pp;
  FOR_PROVIDES(p, pp, name) {
    Solvable* s = pool_id2solvable(pool, p);
    if (s->name != name) continue;
    bool ok = !matcher || matcher->matches(self->native_version(p), self->build_string(p));
    if (ok == (ns == self->ns_match_)) queue_push(&q, p);
  }
  Id out = q.count ? pool_queuetowhatprovides(pool, &q) : 0;
  queue_free(&q);
  return out;
}

void PoolBuilder::remember_native(Id evr, const std::string& native) { evr_native_.emplace(evr, native); }

// The native text of every version in a relation of this provider's solvables, kept beside the
// available repo's .solv cache so it survives it: "libc6 (>= 2.34)" reads better than its pool
// form.
std::string PoolBuilder::evr_map_text(const LoadedProvider& lp) {
  Pool* pool = pool_.get();
  std::string text;
  std::unordered_set<Id> done;
  // Without recursion: a relation of 50,000 '|' alternatives is a REL_OR chain that deep.
  std::vector<Id> stack;
  auto walk = [&](Id top) {
    stack.assign(1, top);
    while (!stack.empty()) {
      Id d = stack.back();
      stack.pop_back();
      if (!ISRELDEP(d)) continue;
      Reldep* rd = GETRELDEP(pool, d);
      if (rd->flags == REL_OR || rd->flags == REL_WITH || rd->flags == REL_AND) {
        stack.push_back(rd->evr);
        stack.push_back(rd->name);
        continue;
      }
      if (ISRELDEP(rd->evr) || !done.insert(rd->evr).second) continue;
      auto it = evr_native_.find(rd->evr);
      if (it == evr_native_.end()) continue;
      text += pool_id2str(pool, rd->evr);
      text += '\t';
      text += it->second;
      text += '\n';
    }
  };
  auto each = [&](Repo* repo, int start, int end) {
    for (Id p = start; p < end; ++p) {
      Solvable* s = pool_id2solvable(pool, p);
      if (s->repo != repo) continue;
      for (Offset o : {s->requires_, s->conflicts, s->provides})
        if (o)
          for (Id* d = repo->idarraydata + o; *d; ++d) walk(*d);
    }
  };
  each(lp.available, lp.available->start, lp.available->end);
  each(installed_, lp.installed_start, lp.installed_end);
  return text;
}

std::string PoolBuilder::native_of_evr(Id evr) const {
  if (!evr_maps_read_) {
    evr_maps_read_ = true;
    Pool* pool = pool_.get();
    for (const std::string& text : evr_texts_) {
      std::string_view t = text;
      while (!t.empty()) {
        auto nl = t.find('\n');
        std::string_view line = t.substr(0, nl);
        t = nl == std::string_view::npos ? std::string_view() : t.substr(nl + 1);
        auto tab = line.find('\t');
        if (tab == std::string_view::npos) continue;
        Id e = pool_strn2id(pool, line.data(), static_cast<unsigned>(tab), 0);
        if (e) evr_native_.emplace(e, std::string(line.substr(tab + 1)));
      }
    }
  }
  auto it = evr_native_.find(evr);
  return it == evr_native_.end() ? pool_id2str(pool_.get(), evr) : it->second;
}

std::string PoolBuilder::origin(Id p) const {
  const char* v = solvable_lookup_str(pool_id2solvable(pool_.get(), p), key_origin_);
  return v ? v : "";
}

std::string_view PoolBuilder::native_name(std::string_view pooled) {
  auto c = pooled.find(':');
  std::string_view n = c == std::string_view::npos ? pooled : pooled.substr(c + 1);
  if (n.size() >= 2 && n.substr(n.size() - 2) == "#v") n.remove_suffix(2);
  return n;
}

std::string_view PoolBuilder::ecosystem_of(std::string_view pooled) {
  auto c = pooled.find(':');
  return c == std::string_view::npos ? std::string_view() : pooled.substr(0, c);
}

std::string PoolBuilder::cache_path(const Provider& provider, const SourceId& id, std::string_view roots,
                                    std::string_view part) const {
  std::string key = id.key;
  key += '|';
  key += roots;
  key += '|';
  key += EXTDEPS_VERSION;
  key += '|';
  key += LIBSOLV_VERSION_STRING;
  key += '|';
  key += kCacheFormat;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(key)));
  return ctx_.cache_dir() + "/solv/" + std::string(provider.ecosystem()) + "-" + hex + "." + std::string(part) +
         ".solv";
}

Result<void> PoolBuilder::load_records(Provider& provider, Repo* available, Repo* installed,
                                       const std::vector<std::string>& roots) {
  std::string eco(provider.ecosystem());
  std::optional<RecordAdder> avail;
  const bool unversioned = provider.unversioned_provides_meet_versions();
  if (available) avail.emplace(*this, ctx_, available, eco, provider.scheme(), unversioned);
  RecordAdder inst(*this, ctx_, installed, eco, provider.scheme(), unversioned);
  // A package outside the closure of the names the mapping tables mention and of what is
  // installed can never be part of a plan for a mapped need: it never reaches the pool. Newer
  // versions of what is installed stay too (upgrading libxml2-dev can require upgrading the
  // installed libxml2 that depends on it exactly), and what installed packages depend on.
  const bool prune = avail && !roots.empty();
  RecordBuffer buffer;
  std::vector<std::string> reach = roots;
  RecordSink avail_sink = [&](PackageRecord&& r) {
    if (prune) buffer.add(std::move(r));
    else if (avail) avail->add(std::move(r));
  };
  // The index's copy of a package installed at the same version (most of a Debian index's
  // closure of what is installed) adds nothing a plan can use: the installed solvable meets
  // whatever it would, and nothing downgrades or reinstalls. Left out, the pool is about half
  // the size and the solver's update rules for the installed packages find fewer candidates.
  // Not for a provider whose plans pin every package of the closure from its index (conda, pip).
  const bool drop_installed_copies = prune && !provider.pins_closure();
  std::unordered_set<std::string> installed_keys;
  auto key_of = [](const PackageRecord& r) { return r.name + '\0' + r.version + '\0' + r.arch + '\0' + r.build; };
  RecordSink inst_sink = [&](PackageRecord&& r) {
    if (drop_installed_copies) installed_keys.insert(key_of(r));
    if (prune) {
      reach.push_back(r.name);
      for (const auto& alts : r.depends)
        for (const auto& d : alts) reach.push_back(d.name);
      for (const auto& text : r.rich_depends)
        if (auto parsed = parse_rich_dep(text)) rich_names(*parsed, reach);
    }
    inst.add(std::move(r));
  };
  auto loaded = provider.load(ctx_, avail_sink, inst_sink);
  if (prune && loaded.ok())
    for (std::uint32_t i : buffer.closure(reach)) {
      PackageRecord r = buffer.get(i);
      if (drop_installed_copies && installed_keys.count(key_of(r))) continue;
      avail->add(std::move(r));
    }
  if (avail) avail->finish();
  inst.finish();
  return loaded;
}

Result<LoadedProvider> PoolBuilder::add_provider(Provider& provider, int priority, bool use_cache,
                                                 const std::vector<std::string>& roots) {
  LoadedProvider lp;
  lp.provider = &provider;
  std::string eco(provider.ecosystem());
  spec_providers_[eco] = &provider;
  lp.available = repo_create(pool_.get(), eco.c_str());
  lp.available->priority = priority;
  lp.installed_start = installed_->end;

  std::string avail_path, inst_path;
  std::error_code ec;
  if (use_cache && ctx_.cache_enabled()) {
    if (!temps_swept_) {
      // What a killed run was writing when it died.
      sealed::remove_stale_temps(ctx_.cache_dir() + "/solv");
      temps_swept_ = true;
    }
    auto id = provider.identity(ctx_);
    if (id.ok()) {
      std::string root_key;
      if (!roots.empty()) {
        std::vector<std::string> sorted = roots;
        std::sort(sorted.begin(), sorted.end());
        for (const auto& r : sorted) root_key += r + ",";
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(root_key)));
        root_key = hex;
      }
      avail_path = cache_path(provider, *id, root_key, "available");
      inst_path = cache_path(provider, *id, root_key, "installed");
      struct stat st {};
      if (::stat(avail_path.c_str(), &st) == 0 && ::stat(inst_path.c_str(), &st) == 0) {
        int inst_before = installed_->end;
        // Checked in memory before libsolv sees a byte (core/util/sealed_file.h).
        auto read = [&](Repo* repo, const std::string& path, std::string* extra) -> Result<void> {
          auto file = sealed::MappedFile::open(path);
          if (!file) return error_at(ExitCode::environment, "", "cannot read it");
          return load_solv_cache(repo, file->bytes(), extra);
        };
        std::string evr_text;
        auto a = read(lp.available, avail_path, &evr_text);
        auto i = a.ok() ? read(installed_, inst_path, nullptr) : Result<void>();
        if (a.ok() && i.ok()) {
          evr_texts_.push_back(std::move(evr_text));
          evr_maps_read_ = false;
          lp.installed_start = inst_before;
          lp.installed_end = installed_->end;
          lp.from_cache = true;
          return lp;
        }
        // A cache file that does not read is dropped and rebuilt from the sources.
        const auto& bad = a.ok() ? inst_path : avail_path;
        ctx_.warn(bad + ": damaged cache file (" + (a.ok() ? i : a).error().message +
                  "); rebuilding it from the sources");
        std::filesystem::remove(avail_path, ec);
        std::filesystem::remove(inst_path, ec);
        repo_empty(lp.available, 0);
        while (installed_->end > inst_before) repo_free_solvable(installed_, installed_->end - 1, 1);
      }
    }
  }

  if (!roots.empty()) provider.restrict_to(roots);
  auto loaded = load_records(provider, lp.available, installed_, roots);
  if (!loaded.ok()) return loaded.error();
  lp.installed_end = installed_->end;
  if (!avail_path.empty()) {
    std::filesystem::create_directories(ctx_.cache_dir() + "/solv", ec);
    if (!ec) {
      write_solv_atomically(lp.available, lp.available->start, lp.available->end, avail_path, evr_map_text(lp));
      write_solv_atomically(installed_, lp.installed_start, lp.installed_end, inst_path);
      remove_stale_cache(eco);
    }
  }
  return lp;
}

// A new cache file was written for `eco`: its sources (or the mapping tables) changed. Keep the
// newest few of that ecosystem (several projects with different tables share a cache) and drop
// the rest, with temporary files left by a process that died while writing.
void PoolBuilder::remove_stale_cache(const std::string& eco) const {
  namespace fs = std::filesystem;
  constexpr size_t kKeep = 8;  // four available/installed pairs
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  for (fs::directory_iterator it(ctx_.cache_dir() + "/solv", ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.rfind(eco + "-", 0) != 0) continue;
    auto t = it->last_write_time(ec);
    if (ec) continue;
    if (it->path().extension() == ".solv" && it->is_regular_file(ec) && !it->is_symlink(ec))
      files.emplace_back(t, it->path());
  }
  if (files.size() <= kKeep) return;
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = kKeep; i < files.size(); ++i) fs::remove(files[i].second, ec);
}

bool write_solv_atomically(Repo* repo, int start, int end, const std::string& path, std::string_view extra) {
  auto body = solv_cache_body(repo, start, end, extra);
  return body.ok() && sealed::write_atomically(path, kSolvCacheKind, *body).ok();
}

}  // namespace extdeps::solve
