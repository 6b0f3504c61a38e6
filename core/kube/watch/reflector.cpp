#include "kube/watch/reflector.hpp"

#include "kube/watch/response_splitters.hpp"
#include "net/query_string.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace kd::core::kube {

namespace {

// One piece of a response body into its splitter, counted; false (end the request) when the body
// is malformed, which `malformed` then says.
template <class Splitter>
bool fed(Splitter& splitter, std::string_view chunk, std::atomic<uint64_t>& bytes, std::string& malformed) {
    bytes += chunk.size();
    try {
        splitter.feed(chunk);
        return true;
    } catch (const std::exception& e) {
        malformed = e.what();
        return false;
    }
}

constexpr int kListOnceAttempts = 5;

// Appends an object to a change; a JSON object without its managedFields, cut out here where there
// is time rather than parsed on the control thread (Koordinator's kinds are kept as sent: the model
// holds jobs and Reservations whole).
void add_object(Change& change, const ApiResource& resource, std::string_view object, Encoding e) {
    if (e == Encoding::json && !resource.custom) {
        const ObjectPieces pieces = without_managed_fields(object);
        change.add(pieces.before, pieces.after, e);
    } else {
        change.add(object, e);
    }
}

}  // namespace

Reflector::Reflector(ApiClient& client, ObjectKind kind, ChangeQueue& queue, ReflectorOptions options)
    : client_(client),
      kind_(kind),
      resource_(resource_of(kind)),
      queue_(queue),
      options_(options),
      random_(std::random_device{}()) {}

Reflector::~Reflector() {
    stop();
}

void Reflector::start() {
    thread_ = std::thread([this] { run(); });
}

void Reflector::stop() {
    stop_ = true;
    cancel_.cancel();
    {
        std::lock_guard lock(watch_mutex_);
        watch_cancel_.cancel();
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Reflector::relist_now() {
    relist_now_ = true;
    {
        std::lock_guard lock(watch_mutex_);
        watch_cancel_.cancel();
    }
    wake_.notify_all();  // out of a backoff wait too
}

std::string Reflector::accept() const {
    // Custom resources are served as JSON only; built-in kinds in what the profile asks for.
    const std::string& accept = client_.options().accept;
    if (resource_.custom || accept.empty()) return "application/json";
    return accept;
}

std::string Reflector::last_error() const {
    std::lock_guard lock(error_mutex_);
    return last_error_;
}

void Reflector::set_error(std::string e) {
    std::lock_guard lock(error_mutex_);
    last_error_ = std::move(e);
}

bool Reflector::wait(std::chrono::milliseconds d) {
    std::unique_lock lock(wait_mutex_);
    wake_.wait_for(lock, d, [&] { return stop_.load() || relist_now_.load(); });
    return !stop_;
}

std::chrono::milliseconds Reflector::next_backoff() {
    ++stats_.retries;
    auto base = options_.backoff_min * (int64_t(1) << std::min(failures_++, 16));
    auto capped = std::min<std::chrono::milliseconds>(base, options_.backoff_max);
    std::uniform_int_distribution<int64_t> jitter(capped.count() / 2, std::max<int64_t>(capped.count(), 1));
    return std::chrono::milliseconds(jitter(random_));
}

// An empty, synced kind: the plugins that need it see none rather than waiting forever.
void Reflector::read_as_empty() {
    if (stats_.listed) return;
    queue_.push(Change::of(Change::Type::list_start, kind_));
    queue_.push(Change::of(Change::Type::list_done, kind_));
    stats_.listed = true;
}

Reflector::Outcome Reflector::failed(const ApiResult& r, const char* verb) {
    const std::string what = std::string(resource_.kind) + " (" + resource_.collection_path() + ")";
    if (r.code == 404) {
        set_error(what + " is not served by the API server (404)");
        // Only Koordinator's kinds name what needs them; a built-in kind missing is a server problem.
        if (!reported_ && !resource_.needed_by.empty())
            spdlog::warn(
                "{} is not served by the API server (HTTP 404: {}); {} has no data until it is "
                "(install Koordinator's CRDs); kdesched goes on without it and checks again",
                what, r.status.message, resource_.needed_by);
        else if (!reported_)
            spdlog::warn(
                "{} is not served by the API server (HTTP 404: {}): a built-in kind every Kubernetes API server "
                "serves — check that the kubeconfig points at one (and its URL path); kdesched reads it as empty "
                "and checks again",
                what, r.status.message);
        reported_ = true;
        // Said before the kind counts as synced: whoever sees it synced finds the reason logged.
        stats_.not_served = true;
        read_as_empty();
        return Outcome::retry;
    }
    if (r.code == 403) {  // the API client has logged the rule to grant
        set_error(what + ": forbidden");
        if (std::string_view cost = resource_.if_forbidden; !cost.empty()) {
            if (!reported_)
                spdlog::warn(
                    "{} may not be listed (HTTP 403): kdesched goes on without them — {}. Grant the rule "
                    "above to read them; it is tried again every {} s",
                    what, cost, std::chrono::duration_cast<std::chrono::seconds>(options_.backoff_max).count());
            reported_ = true;
            stats_.forbidden = true;
            read_as_empty();
        }
        return Outcome::retry;
    }
    set_error(std::string(verb) + " " + what + ": " + r.describe());
    if (failures_ == 0 || failures_ % 10 == 0)
        spdlog::warn("{} {}: {}; trying again with backoff", verb, what, r.describe());
    return Outcome::retry;
}

Reflector::Outcome Reflector::list() {
    // A relist asked for is this list, from etcd: a failed one then waits its backoff (the flag
    // left set would cut every backoff wait short).
    if (relist_now_.exchange(false)) list_from_.clear();
    queue_.push(Change::of(Change::Type::list_start, kind_));
    Change batch = Change::of(Change::Type::list_items, kind_);
    std::string cont, rv;
    auto flush = [&] {
        if (batch.count == 0) return;
        queue_.push(std::exchange(batch, Change::of(Change::Type::list_items, kind_)));
    };
    auto abort = [&](Outcome o) {
        queue_.push(Change::of(Change::Type::list_abort, kind_));
        return o;
    };
    for (;;) {
        std::string target = resource_.collection_path() + "?limit=" + std::to_string(options_.page_size);
        if (!cont.empty())
            target += "&continue=" + net::query_escape(cont);
        else if (!list_from_.empty())
            target += "&resourceVersion=" + net::query_escape(list_from_);
        std::string malformed;
        ListBodySplitter splitter([&](std::string_view item, Encoding e) {
            if (batch.count > 0 && batch.encoding != e) flush();
            // Room for the whole batch at once: growing it by doubling copied each byte again.
            if (batch.count == 0) batch.objects.reserve(options_.batch_bytes + (64u << 10));
            add_object(batch, resource_, item, e);
            if (batch.objects.size() >= options_.batch_bytes) flush();
        });
        ApiResult r = client_.stream(
            {"GET", target, {{"Accept", accept()}}, "", ""},
            [&](std::string_view chunk) { return fed(splitter, chunk, stats_.bytes, malformed) && !stop_.load(); },
            &cancel_, net::Delivery::in_large_pieces);
        if (stop_) return abort(Outcome::stopped);
        if (r.code == 410) {
            // The continue token or the resourceVersion is too old: a fresh, consistent list.
            list_from_.clear();
            set_error("LIST " + resource_.collection_path() + ": " + r.describe());
            return abort(Outcome::relist);
        }
        if (!r.ok()) return abort(failed(r, "list"));
        if (!malformed.empty() || !splitter.complete()) {
            set_error("LIST " + resource_.collection_path() + ": " +
                      (malformed.empty() ? "the body ended early" : malformed));
            spdlog::warn("{}; trying again", last_error());
            return abort(Outcome::retry);
        }
        flush();
        rv = splitter.resource_version();
        cont = splitter.continue_token();
        if (cont.empty()) break;
    }
    resource_version_ = rv;
    list_from_ = rv;
    // Counted before the list is handed over: whoever sees the kind synced sees this list counted.
    ++stats_.lists;
    stats_.listed = true;
    stats_.forbidden = false;
    failures_ = 0;
    reported_ = false;
    set_error("");
    queue_.push(Change::of(Change::Type::list_done, kind_, rv));
    return Outcome::done;
}

Reflector::Outcome Reflector::watch() {
    // A relist asked for before or during this watch ends it: the list reads what the server holds.
    net::CancelToken token;
    {
        std::lock_guard lock(watch_mutex_);
        watch_cancel_ = token;
    }
    if (relist_now_) return Outcome::relist;  // list() takes the request
    auto lo = options_.watch_timeout_min.count(), hi = std::max(options_.watch_timeout_max.count(), lo + 1);
    int64_t timeout = std::uniform_int_distribution<int64_t>(lo, hi - 1)(random_);
    std::string target = resource_.collection_path() +
                         "?watch=1&allowWatchBookmarks=true&resourceVersion=" + net::query_escape(resource_version_) +
                         "&timeoutSeconds=" + std::to_string(timeout);
    ++stats_.watches;
    Change pending = Change::of(Change::Type::upsert, kind_);
    auto flush = [&] {
        if (pending.count == 0) return;
        queue_.push(std::exchange(pending, Change::of(Change::Type::upsert, kind_)));
    };
    bool gone = false;
    std::string malformed, error_event;
    WatchStreamSplitter splitter([&](const WatchEvent& e, Encoding encoding) {
        ++stats_.events;
        if (e.type == "BOOKMARK") {
            if (!e.resource_version.empty()) resource_version_ = e.resource_version;
            return;
        }
        if (e.type == "ERROR") {
            ErrorEvent error = read_error_event(e.object, encoding);
            if (error.code == 410) gone = true;
            error_event = "watch " + resource_.collection_path() + ": ERROR event " + error.text;
            return;
        }
        Change::Type type = e.type == "DELETED" ? Change::Type::remove : Change::Type::upsert;
        if (pending.type != type) flush();
        pending.type = type;
        add_object(pending, resource_, e.object, encoding);
        if (!e.resource_version.empty()) resource_version_ = e.resource_version;
    });
    ApiResult r = client_.stream(
        {"GET", target, {{"Accept", accept()}}, "", ""},
        [&](std::string_view chunk) {
            if (!fed(splitter, chunk, stats_.bytes, malformed)) return false;
            flush();  // what arrived together is applied together
            return !stop_.load() && !gone && error_event.empty() && !token.cancelled();
        },
        &token);
    flush();
    if (stop_) return Outcome::stopped;
    if (relist_now_) return Outcome::relist;
    if (gone || r.code == 410) {
        set_error("watch " + resource_.collection_path() + ": resourceVersion " + resource_version_ +
                  " is too old (410 Gone)");
        list_from_.clear();  // a fresh, consistent list
        return Outcome::relist;
    }
    if (!error_event.empty() || !malformed.empty()) {
        set_error(error_event.empty() ? malformed : error_event);
        spdlog::warn("{}; watching again", last_error());
        return Outcome::retry;
    }
    if (!r.answered()) {
        set_error("watch " + resource_.collection_path() + ": " + r.describe());
        return Outcome::retry;  // a dropped or silent stream: resume from the last resourceVersion
    }
    if (!r.ok()) return failed(r, "watch");
    failures_ = 0;
    return Outcome::done;  // the server ended the stream (timeoutSeconds): watch on
}

void Reflector::run() {
    while (!stop_) {
        Outcome o = list();
        if (o == Outcome::stopped) return;
        if (o == Outcome::relist) {
            ++stats_.relists;
            continue;
        }
        if (o == Outcome::retry) {
            if (!wait(stats_.not_served || stats_.forbidden ? options_.backoff_max : next_backoff())) return;
            continue;
        }
        while (!stop_) {
            o = watch();
            if (o == Outcome::stopped) return;
            if (o == Outcome::relist) {
                ++stats_.relists;
                break;
            }
            if (o == Outcome::retry && !wait(next_backoff())) return;
        }
    }
}

std::string Reflector::list_once() {
    for (int attempt = 1; attempt <= kListOnceAttempts; ++attempt) {
        Outcome o = list();
        if (o == Outcome::done) return "";
        if (o == Outcome::stopped) return "stopped";
        if (stats_.not_served || stats_.forbidden) return "";  // reported; an empty kind
        if (o == Outcome::relist) continue;
        if (attempt < kListOnceAttempts && !wait(next_backoff())) return "stopped";
    }
    return last_error();
}

}  // namespace kd::core::kube
