// The Fetcher: decides per request whether the cache answers (fresh, --offline), runs the rest as
// parallel libcurl transfers with retries, and turns each answer into a cache entry.
#include <algorithm>
#include <iostream>
#include <variant>

#include "core/fetch/fetch.h"
#include "core/fetch/http_headers.h"
#include "core/fetch/progress.h"
#include "core/fetch/transfer.h"
#include "core/fetch/url.h"
#include "core/util/sealed_file.h"

namespace extdeps::fetch {

namespace {

using Steady = std::chrono::steady_clock;

std::int64_t seconds_since_epoch(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

std::chrono::system_clock::time_point from_seconds(std::int64_t s) {
  return std::chrono::system_clock::time_point(std::chrono::seconds(s));
}

std::string last_component(const std::string& url) {
  auto end = url.find_first_of("?#");
  std::string path = url.substr(0, end);
  while (!path.empty() && path.back() == '/') path.pop_back();
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool retryable_status(long status) { return status >= 500 || status == 429 || status == 408; }

struct MultiDeleter {
  void operator()(CURLM* m) const { curl().multi_cleanup(m); }
};

// One request that needs the network.
struct Job {
  std::size_t index = 0;
  const Request* request = nullptr;
  std::optional<EntryMeta> cached;  // the entry before this run
  bool conditional = false;         // revalidating `cached`
  int tries = 0;
  bool started = false;
  Steady::time_point not_before{};
  std::unique_ptr<Transfer> transfer;
  std::uint64_t bytes_done = 0;  // after it finished, for the progress line
  std::optional<Result<Response>> result;
};

}  // namespace

struct Fetcher::Impl {
  const Context* ctx;
  Options options;
  CacheStore store;
  TransferSettings settings;
  std::unique_ptr<CURLM, MultiDeleter> multi;
  bool store_ready = false;
  RunBudget budget;

  Impl(const Context& c, Options o)
      : ctx(&c), options(std::move(o)), store(options.cache_dir), settings(TransferSettings::from(c, options)) {
    budget.limit = options.max_run_bytes;
  }

  std::int64_t now_s() const { return seconds_since_epoch(ctx->now()); }

  Response cached_response(const Request& request, const EntryMeta& meta) const {
    Response r;
    r.url = request.url;
    r.found = meta.found();
    if (r.found) r.body_path = store.body_path(request.url);
    r.from_cache = true;
    r.fetched_at = from_seconds(meta.fetched_at);
    r.http_status = meta.status;
    r.content_type = meta.content_type;
    return r;
  }

  // The cache folder made, and what a killed run left in it removed, once.
  Result<void> ready_store() {
    if (store_ready) return {};
    if (auto r = store.prepare(); !r.ok()) return r.error();
    // What a killed run was downloading when it died.
    sealed::remove_stale_temps(store.dir());
    store_ready = true;
    return {};
  }

  // Either an answer now (file://, cache, offline, a bad URL) or a Job.
  std::variant<Result<Response>, Job> plan(std::size_t index, const Request& request) {
    auto url = parse_url(request.url);
    if (!url.ok()) return url.error();
    if (url->scheme == "file") return fetch_file_url(*ctx, request, *url);
    if (warns_insecure_http(*url, options.allow_insecure_http))
      ctx->warn("http://" + url->host +
                " is plain http: anyone on the network can change what it serves; use "
                "https, or set allow-insecure-http = true (EXTDEPS_ALLOW_INSECURE_HTTP=1) to accept it");
    if (store.dir().empty()) {
      Error e = environment_error(request.url +
                                  ": no cache folder to download into (set XDG_CACHE_HOME or pass --cache-dir)");
      e.place = request.url;
      e.what = "no cache folder to download into";
      e.hint = "set XDG_CACHE_HOME or pass --cache-dir";
      return e;
    }
    if (auto r = ready_store(); !r.ok()) return r.error();
    auto cached = store.read(request.url);
    // A remembered "not found" answers only a request that allows it.
    if (cached && !cached->found() && !request.missing_ok) cached.reset();
    if (options.offline) {
      if (!cached) {
        Error e = environment_error("offline: no cached copy of " + request.url);
        e.place = request.url;
        e.what = "no cached copy (offline)";
        return e;
      }
      auto age = age_text(std::chrono::seconds(cached->age_at(now_s())));
      if (cached->found()) ctx->warn("using the cached copy of " + request.url + " from " + age + " ago");
      else ctx->warn("using the cached answer 'not found' for " + request.url + " from " + age + " ago");
      return cached_response(request, *cached);
    }
    if (cached && cached->fresh(request.max_age_s, now_s())) return cached_response(request, *cached);
    if (cached && !cached->found() && request.missing_max_age_s && cached->age_at(now_s()) < *request.missing_max_age_s)
      return cached_response(request, *cached);
    Job job;
    job.index = index;
    job.request = &request;
    job.cached = cached;
    job.conditional = cached && cached->found() && cached->has_validator();
    return job;
  }

  Result<void> start(Job& job) {
    ++job.tries;
    job.started = true;
    if (!settings.deadline)
      settings.deadline = Steady::now() + std::chrono::seconds(std::max<long>(1, options.deadline_s));
    if (settings.past_deadline())
      return error_at(ExitCode::environment, job.request->url,
                      "not downloaded: the downloads of this run took longer than " +
                          std::to_string(options.deadline_s) + " s in all (EXTDEPS_DOWNLOAD_DEADLINE)");
    auto t = Transfer::create(settings, job.request->url, job.conditional ? &*job.cached : nullptr,
                              store.create_temp(job.request->url), job.request->accept, &budget);
    if (!t.ok()) return t.error();
    job.transfer = std::move(t).value();
    curl().easy_setopt(job.transfer->handle(), CURLOPT_PRIVATE, &job);
    if (auto rc = curl().multi_add_handle(multi.get(), job.transfer->handle()); rc != CURLM_OK)
      return error_at(ExitCode::environment, job.request->url,
                      std::string("cannot start the transfer (") + curl().multi_strerror(rc) + ")");
    job.transfer->attached_to(multi.get());
    return {};
  }

  // A cache error ("cannot rename ...") says which download it stopped. An error whose place is
  // already the download's URL (a transfer that could not start) says so itself.
  static Error named(const Job& job, Error e) {
    const std::string& url = job.request->url;
    if (e.place == url || e.place.starts_with(url + ": ")) return e;
    return at_place(std::move(e), url);
  }

  // "; --offline would use the cached copy from 3 h ago"
  std::string cached_hint(const Job& job) const {
    if (!job.cached || !job.cached->found()) return {};
    return "; --offline would use the cached copy from " + age_text(std::chrono::seconds(job.cached->age_at(now_s()))) +
           " ago";
  }

  Error failure(const Job& job, const std::string& what) const {
    std::string text = job.request->url + ": " + what;
    if (job.tries > 1) text += " (gave up after " + std::to_string(job.tries) + " tries)";
    Error e = environment_error(text + cached_hint(job));
    e.place = job.request->url;
    e.what = what;
    if (auto hint = cached_hint(job); !hint.empty()) e.hint = hint.substr(2);  // without "; "
    return e;
  }

  // Another try after the backoff, when tries are left.
  bool retry_later(Job& job) {
    if (job.tries > options.retries) return false;
    long wait = options.backoff_ms;
    for (int i = 1; i < job.tries && wait < 60000; ++i) wait *= 2;
    job.transfer.reset();
    job.started = false;
    job.not_before = Steady::now() + std::chrono::milliseconds(wait);
    return true;
  }

  EntryMeta meta_from(const Job& job, const ResponseHeaders& h, long status, std::uint64_t size) const {
    EntryMeta m;
    m.url = job.request->url;
    m.status = status;
    m.etag = h.etag;
    m.last_modified = h.last_modified;
    m.content_type = h.content_type;
    m.lifetime_s = h.lifetime_s();
    m.age_s = h.age_s;
    m.fetched_at = now_s();
    m.size = size;
    return m;
  }

  Response network_response(const Job& job, long status, bool found, const std::string& content_type) const {
    Response r;
    r.url = job.request->url;
    r.found = found;
    r.content_type = content_type;
    if (found) r.body_path = store.body_path(job.request->url);
    r.fetched_at = from_seconds(now_s());
    r.http_status = status;
    return r;
  }

  // Called when libcurl is done with the job's transfer.
  void finished(Job& job, CURLcode rc) {
    Transfer& t = *job.transfer;
    t.detach();
    job.bytes_done = t.bytes_now();
    const auto& h = t.headers();
    long status = t.status();
    if (rc == CURLE_OK && status >= 200 && status < 300 && status != 206 && !t.complete()) rc = CURLE_PARTIAL_FILE;
    if (rc != CURLE_OK) {
      if (Transfer::retryable(rc) && !settings.past_deadline() && retry_later(job)) return;
      // The disk, not the network: the cached copy is no way out.
      if (rc == CURLE_WRITE_ERROR) job.result = named(job, error_at(ExitCode::environment, "", t.failure_text(rc)));
      else job.result = failure(job, t.failure_text(rc));
      return;
    }
    if (status == 304) return revalidated(job, h);
    if (status >= 200 && status < 300 && status != 206) {
      auto meta = meta_from(job, h, status, t.body().written());
      auto stored =
          h.cache_control.no_store ? store.commit_unstored(job.request->url, t.body()) : store.commit(meta, t.body());
      job.result = stored.ok() ? Result<Response>(network_response(job, status, true, h.content_type))
                               : Result<Response>(named(job, stored.error()));
      return;
    }
    if ((status == 404 || status == 410) && job.request->missing_ok) {
      // Remembered (with an empty body) so that --offline can give the same answer.
      auto meta = meta_from(job, h, status, 0);
      auto stored = h.cache_control.no_store ? store.remove(job.request->url) : store.commit(meta, t.body());
      job.result = stored.ok() ? Result<Response>(network_response(job, status, false, h.content_type))
                               : Result<Response>(named(job, stored.error()));
      return;
    }
    if (retryable_status(status) && !settings.past_deadline() && retry_later(job)) return;
    std::string what = "HTTP " + std::to_string(status);
    if (!h.reason.empty()) what += " " + h.reason;
    job.result = failure(job, what);
  }

  void revalidated(Job& job, const ResponseHeaders& h) {
    if (!job.conditional) {
      job.result = failure(job, "the server answered 304 Not Modified to a request that was not conditional");
      return;
    }
    EntryMeta meta = *job.cached;
    // A 304 carries the headers that changed; the others stay as stored.
    if (!h.etag.empty()) meta.etag = h.etag;
    if (!h.last_modified.empty()) meta.last_modified = h.last_modified;
    if (!h.content_type.empty()) meta.content_type = h.content_type;
    if (auto lifetime = h.lifetime_s()) meta.lifetime_s = lifetime;
    meta.age_s = h.age_s;
    meta.fetched_at = now_s();
    auto kept = store.refresh_from(*job.cached, meta);
    if (!kept.ok()) {
      job.result = named(job, kept.error());
      return;
    }
    if (!*kept) {
      // Removed or replaced by another process since we read it: ask again for the whole body.
      job.transfer.reset();
      job.cached.reset();
      job.conditional = false;
      job.started = false;
      --job.tries;
      return;
    }
    auto r = network_response(job, 304, true, meta.content_type);
    r.revalidated = true;
    job.result = std::move(r);
  }

  ProgressState progress(const std::vector<Job>& jobs) const {
    ProgressState s;
    s.total = jobs.size();
    bool all_known = true;
    for (const auto& j : jobs) {
      if (j.result) {
        ++s.done;
        s.bytes += j.bytes_done;
        s.expected += j.bytes_done;
      } else if (j.transfer) {
        s.bytes += j.transfer->bytes_now();
        s.expected += j.transfer->bytes_expected();
        if (j.transfer->bytes_expected() == 0) all_known = false;
        s.current = last_component(j.request->url);
      } else {
        all_known = false;
      }
    }
    if (!all_known) s.expected = 0;
    return s;
  }

  void run(std::vector<Job>& jobs, const Fetcher::Each& each) {
    if (jobs.empty()) return;
    auto settled = [&](Job& j) {
      if (each && j.result) each(j.index, *j.result);
    };
    if (auto loaded = load_curl(); !loaded.ok()) {
      for (auto& j : jobs) {
        j.result = named(j, loaded.error());
        settled(j);
      }
      return;
    }
    if (!multi) multi.reset(curl().multi_init());
    std::ostream* bar_out = nullptr;
    if (options.progress) bar_out = options.progress_stream ? options.progress_stream : &std::cerr;
    ProgressBar bar(bar_out);
    std::size_t max_parallel = static_cast<std::size_t>(std::max(1, options.max_parallel));
    for (;;) {
      auto now = Steady::now();
      std::size_t active = 0;
      for (const auto& j : jobs)
        if (j.transfer) ++active;
      for (auto& j : jobs) {
        if (active >= max_parallel) break;
        if (j.result || j.started || j.not_before > now) continue;
        if (auto r = start(j); !r.ok()) {
          j.transfer.reset();
          j.result = named(j, r.error());
          settled(j);
          continue;
        }
        ++active;
      }
      int running = 0;
      curl().multi_perform(multi.get(), &running);
      int left = 0;
      while (CURLMsg* msg = curl().multi_info_read(multi.get(), &left)) {
        if (msg->msg != CURLMSG_DONE) continue;
        Job* job = nullptr;
        curl().easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&job));
        finished(*job, msg->data.result);
        if (job->result) {
          job->transfer.reset();
          settled(*job);
        }
      }
      bar.update(progress(jobs));
      // Sleep until libcurl has work, the next retry is due, or at most 100 ms (the progress
      // line); not at all when a job can start now.
      bool all_done = true;
      active = 0;
      for (const auto& j : jobs)
        if (j.transfer) ++active;
      auto wake = Steady::now() + std::chrono::milliseconds(100);
      for (const auto& j : jobs) {
        if (j.result) continue;
        all_done = false;
        if (!j.started && active < max_parallel) wake = std::min(wake, j.not_before);
      }
      if (all_done) break;
      auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(wake - Steady::now());
      if (wait.count() > 0) curl().multi_poll(multi.get(), nullptr, 0, static_cast<int>(wait.count()), nullptr);
    }
    bar.finish();
  }
};

Fetcher::Fetcher(const Context& ctx, Options opts) {
  if (opts.cache_dir.empty() && ctx.cache_enabled()) opts.cache_dir = ctx.cache_dir() + "/http";
  impl_ = std::make_unique<Impl>(ctx, std::move(opts));
}

Fetcher::~Fetcher() = default;
Fetcher::Fetcher(Fetcher&&) noexcept = default;
Fetcher& Fetcher::operator=(Fetcher&&) noexcept = default;

const Options& Fetcher::options() const { return impl_->options; }

Result<Response> Fetcher::fetch(const Request& request) { return std::move(fetch_all({request}).front()); }

std::vector<Result<Response>> Fetcher::fetch_all(const std::vector<Request>& requests, const Each& each) {
  std::vector<std::optional<Result<Response>>> answers(requests.size());
  std::vector<Job> jobs;
  {
    // Every lookup under one shared lock, let go before any transfer commits (exclusively).
    std::optional<CacheStore::SharedReads> reads;
    if (requests.size() > 1 && !impl_->store.dir().empty() && impl_->ready_store().ok())
      reads = impl_->store.hold_for_reads();
    for (std::size_t i = 0; i < requests.size(); ++i) {
      auto planned = impl_->plan(i, requests[i]);
      if (auto* job = std::get_if<Job>(&planned)) jobs.push_back(std::move(*job));
      else answers[i] = std::move(std::get<Result<Response>>(planned));
    }
  }
  if (each)
    for (std::size_t i = 0; i < answers.size(); ++i)
      if (answers[i]) each(i, *answers[i]);
  impl_->run(jobs, each);
  for (auto& j : jobs) answers[j.index] = std::move(*j.result);
  std::vector<Result<Response>> out;
  out.reserve(answers.size());
  for (auto& a : answers) out.push_back(std::move(*a));
  return out;
}

Result<void> Fetcher::forget(const std::string& url) {
  if (impl_->store.dir().empty()) return {};
  return impl_->store.remove(url);
}

}  // namespace extdeps::fetch
