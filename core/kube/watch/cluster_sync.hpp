// Every kind the model keeps, read from the API server: once (`kdesched simulate --kubeconfig`,
// `kdesched snapshot`), or kept in step by one reflector per kind (the daemon). The network
// threads only queue; whoever owns the model calls apply() between hook calls.
#pragma once

#include "kube/client/api_client.hpp"
#include "kube/watch/change_queue.hpp"
#include "kube/watch/model_feeder.hpp"
#include "kube/watch/reflector.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kd::core::kube {

class ClusterSync {
public:
    ClusterSync(ApiClient& client, ReflectorOptions options = {}, size_t queue_bytes = 64u << 20);
    ~ClusterSync();

    // Lists every kind once, in parallel, handing what arrives to `consume` on the calling thread
    // as it comes (so memory stays bounded by the queue). Returns the failures, one line per kind
    // that could not be listed (a kind the server does not serve is no failure: it is empty).
    std::vector<std::string> list_once(const std::function<void(std::vector<Change>&)>& consume);

    // Starts one reflector per kind (list, then watch).
    void start();
    void stop();
    // Applies what was queued to the model (control thread); returns the objects applied.
    size_t apply(ModelFeeder& feeder);
    // Waits until something is queued or `until`.
    void wait(std::chrono::steady_clock::time_point until);
    ChangeQueue& queue() { return queue_; }
    const std::vector<std::unique_ptr<Reflector>>& reflectors() const { return reflectors_; }
    // Kinds not synced in `feeder` yet, each with its reflector's last error ("Pod (…): HTTP 403 …").
    std::vector<std::string> not_synced(const ModelFeeder& feeder) const;
    // Reads `kind` again with a consistent LIST, ending its watch (Reflector::relist_now); the
    // list reaches the model through apply() like any other (ModelFeeder counts it).
    void relist(ObjectKind kind);
    // Whether the server answered 404 for `kind` (not installed: it has no list to wait for).
    bool not_served(ObjectKind kind) const;

private:
    Reflector* reflector_of(ObjectKind kind) const;  // null for a kind not listed (Secrets)

    ApiClient& client_;
    ChangeQueue queue_;
    std::vector<std::unique_ptr<Reflector>> reflectors_;
};

}  // namespace kd::core::kube
