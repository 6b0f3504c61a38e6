// What the network threads received, waiting for the control thread: the only thing reflector
// threads and the control thread share besides the API client. Network threads push; the control
// thread takes everything queued between two hook calls and applies it to the model (ModelFeeder).
// Bounded: a producer waits while more than max_bytes are queued, so a slow control thread slows
// the reads instead of growing memory.
#pragma once

#include "cluster/kind_table.hpp"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace kd::core::kube {

// How the server encoded what it sent (it answers protobuf for built-in kinds when asked).
enum class Encoding : unsigned char { json, protobuf };

struct Change {
    enum class Type {
        list_start,  // a LIST of `kind` begins: what it delivers replaces the kind
        list_items,  // `objects` of that LIST
        list_done,   // the LIST is complete: objects it did not deliver are gone
        list_abort,  // the LIST broke off; a new one will follow
        upsert,      // watch ADDED / MODIFIED `objects`
        remove,      // watch DELETED `objects`
    };
    Type type;
    ObjectKind kind;
    // Objects each after its length (4 bytes, host order), a JSON one followed by '\\0' (decoded in
    // place): use add() and for_each().
    std::string objects;
    size_t count = 0;              // objects in `objects`
    std::string resource_version;  // list_done: the list's
    Encoding encoding = Encoding::json;

    // A change without objects yet: a list_start, list_done (with the list's resourceVersion) or
    // list_abort, or a batch to add() to.
    static Change of(Type type, ObjectKind kind, std::string resource_version = "") {
        return {type, kind, {}, 0, std::move(resource_version), Encoding::json};
    }
    // Appends one object (the first sets the encoding; a change holds one encoding).
    void add(std::string_view object, Encoding e);
    // Appends one object given in two pieces (ObjectPieces: a member cut out between them).
    void add(std::string_view before, std::string_view after, Encoding e);
    // Calls f(char* data, size_t size) for each object in order (JSON: data[size] is '\\0').
    template <class F>
    void for_each(F&& f) {
        char* p = objects.data();
        char* end = p + objects.size();
        const size_t terminator = encoding == Encoding::json ? 1 : 0;
        while (p < end) {
            uint32_t n;
            std::memcpy(&n, p, sizeof n);
            p += sizeof n;
            f(p, size_t(n));
            p += n + terminator;
        }
    }
};

class ChangeQueue {
public:
    explicit ChangeQueue(size_t max_bytes = 256u << 20) : max_bytes_(max_bytes) {}

    // Adds a change; waits while the queue is full (returns false when closed meanwhile).
    bool push(Change change);
    // Everything queued, in order; returns at once (possibly empty).
    std::vector<Change> take();
    // Waits until something is queued or `until` passes (or the queue is closed).
    template <class TimePoint>
    void wait_until(TimePoint until) {
        std::unique_lock lock(mutex_);
        ready_.wait_until(lock, until, [&] { return !queue_.empty() || closed_; });
    }
    // Wakes the waiters (a shutdown); pushes are refused from now on.
    void close();
    size_t bytes() const;

private:
    mutable std::mutex mutex_;
    std::condition_variable ready_, room_;
    std::deque<Change> queue_;
    size_t bytes_ = 0, max_bytes_;
    bool closed_ = false;
};

}  // namespace kd::core::kube
