// One kind of object kept in step with the API server, the way client-go's reflector does it:
// LIST (first from the watch cache with resourceVersion=0; paged with limit/continue when the
// server pages; an expired continue token restarts the list), then WATCH from the list's
// resourceVersion with bookmarks and a randomized timeoutSeconds, resuming from the last
// resourceVersion seen when the stream ends. 410 Gone (a status or an ERROR event) relists;
// other failures back off with jitter; a stream silent past the stream timeout is dropped and
// resumed. What it receives goes, as bytes, to the ChangeQueue; it never touches the model.
//
// Built-in kinds are asked for in the encodings of clientConnection.acceptContentTypes (protobuf
// first by default), custom resources as JSON (the only encoding the server has for them); what
// arrives is read in whichever encoding the server chose.
//
// A kind the server does not serve (404: a CRD not installed) is reported once, naming what needs
// it, and counts as synced and empty; a 403 names the RBAC rule that is missing. A kind kdesched
// can run without (workloads, PodDisruptionBudgets, Namespaces, NodeMetrics) that it may not list
// also counts as synced and empty, with what that costs said once: Koordinator's chart grants
// neither Jobs, ReplicationControllers nor PodDisruptionBudgets, and the switch by image alone
// must not leave the daemon unready. Nodes, pods and MigrationController's own objects it needs.
// All are retried, so a grant or a CRD installed later is picked up.
#pragma once

#include "kube/client/api_client.hpp"
#include "kube/client/resources.hpp"
#include "kube/watch/change_queue.hpp"

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <string>
#include <thread>

namespace kd::core::kube {

struct ReflectorOptions {
    int page_size = 500;  // limit= of a paged LIST (client-go's default)
    // timeoutSeconds of a watch: random in [min, max), client-go's 5-10 minutes.
    std::chrono::seconds watch_timeout_min{300}, watch_timeout_max{600};
    std::chrono::milliseconds backoff_min{800}, backoff_max{std::chrono::seconds(30)};
    size_t batch_bytes = 4u << 20;  // list items handed over together
};

// Counters a reflector keeps (read from any thread).
struct ReflectorStats {
    std::atomic<uint64_t> lists{0};       // complete LISTs (the first, then relists)
    std::atomic<uint64_t> relists{0};     // LISTs after the first (410, broken lists)
    std::atomic<uint64_t> watches{0};     // WATCH requests started
    std::atomic<uint64_t> events{0};      // watch events received (bookmarks included)
    std::atomic<uint64_t> retries{0};     // waits after a failure
    std::atomic<uint64_t> bytes{0};       // response bytes received
    std::atomic<bool> listed{false};      // a LIST has completed (queued)
    std::atomic<bool> not_served{false};  // the server answered 404 for the kind
    std::atomic<bool> forbidden{false};   // 403 for a kind kdesched goes on without (read as empty)
};

class Reflector {
public:
    Reflector(ApiClient& client, ObjectKind kind, ChangeQueue& queue, ReflectorOptions options = {});
    ~Reflector();
    Reflector(const Reflector&) = delete;
    Reflector& operator=(const Reflector&) = delete;

    // LIST and WATCH on a thread of its own until stop().
    void start();
    void stop();
    // One complete LIST, queued, on the calling thread; "" or why it failed (after retries).
    std::string list_once();
    // A fresh, consistent LIST (as after 410 Gone) at once, ending the running watch, then a watch
    // from there: what the server holds now reaches the queue, however far behind the watch was.
    // From any thread; the list is counted in stats().lists like any other.
    void relist_now();

    ObjectKind kind() const { return kind_; }
    const ApiResource& resource() const { return resource_; }
    const ReflectorStats& stats() const { return stats_; }
    // The last failure, for a message ("" when the last request worked).
    std::string last_error() const;

private:
    enum class Outcome { done, relist, retry, stopped };
    void run();
    // One complete (paged) LIST into the queue; sets resource_version_.
    Outcome list();
    Outcome watch();
    void read_as_empty();  // the kind counts as listed, with no objects
    Outcome failed(const ApiResult& r, const char* verb);
    bool wait(std::chrono::milliseconds d);  // false when stopped
    std::chrono::milliseconds next_backoff();
    // The Accept header of its LIST and WATCH requests.
    std::string accept() const;
    void set_error(std::string e);

    ApiClient& client_;
    ObjectKind kind_;
    ApiResource resource_;
    ChangeQueue& queue_;
    ReflectorOptions options_;
    ReflectorStats stats_;
    std::string resource_version_;  // to resume from ("" before the first list)
    std::string list_from_ = "0";   // the next LIST's resourceVersion ("" = a consistent read)
    int failures_ = 0;              // in a row, for the backoff
    std::atomic<bool> stop_{false};
    net::CancelToken cancel_;  // stop(): every request
    std::atomic<bool> relist_now_{false};
    std::mutex watch_mutex_;
    net::CancelToken watch_cancel_;  // the running watch only (relist_now)
    std::mutex wait_mutex_;
    std::condition_variable wake_;
    mutable std::mutex error_mutex_;
    std::string last_error_;
    bool reported_ = false;  // a 404/403 was logged already
    std::mt19937_64 random_;
    std::thread thread_;
};

}  // namespace kd::core::kube
