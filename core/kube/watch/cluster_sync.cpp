#include "kube/watch/cluster_sync.hpp"

#include <atomic>
#include <mutex>
#include <thread>

namespace kd::core::kube {

ClusterSync::ClusterSync(ApiClient& client, ReflectorOptions options, size_t queue_bytes)
    : client_(client), queue_(queue_bytes) {
    for (const ApiResource& r : watched_resources())
        if (auto kind = object_kind(r.kind))
            reflectors_.push_back(std::make_unique<Reflector>(client_, *kind, queue_, options));
}

ClusterSync::~ClusterSync() {
    stop();
}

std::vector<std::string> ClusterSync::list_once(const std::function<void(std::vector<Change>&)>& consume) {
    std::vector<std::string> failures(reflectors_.size());
    std::atomic<size_t> running{reflectors_.size()};
    std::vector<std::thread> threads;
    for (size_t i = 0; i < reflectors_.size(); ++i)
        threads.emplace_back([&, i] {
            failures[i] = reflectors_[i]->list_once();
            --running;
        });
    // Consume while the lists arrive; a full queue holds the readers back.
    for (;;) {
        bool last = running == 0;
        std::vector<Change> changes = queue_.take();
        if (!changes.empty()) consume(changes);
        if (last) break;
        queue_.wait_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(50));
    }
    for (auto& t : threads) t.join();
    std::vector<Change> rest = queue_.take();
    if (!rest.empty()) consume(rest);
    std::vector<std::string> out;
    for (size_t i = 0; i < failures.size(); ++i)
        if (!failures[i].empty()) out.push_back(failures[i]);
    return out;
}

void ClusterSync::start() {
    for (auto& r : reflectors_) r->start();
}

void ClusterSync::stop() {
    queue_.close();
    for (auto& r : reflectors_) r->stop();
}

size_t ClusterSync::apply(ModelFeeder& feeder) {
    std::vector<Change> changes = queue_.take();
    return changes.empty() ? 0 : feeder.apply(changes);
}

void ClusterSync::wait(std::chrono::steady_clock::time_point until) {
    queue_.wait_until(until);
}

Reflector* ClusterSync::reflector_of(ObjectKind kind) const {
    for (const auto& r : reflectors_)
        if (r->kind() == kind) return r.get();
    return nullptr;
}

void ClusterSync::relist(ObjectKind kind) {
    if (Reflector* r = reflector_of(kind)) r->relist_now();
}

bool ClusterSync::not_served(ObjectKind kind) const {
    const Reflector* r = reflector_of(kind);
    return r && r->stats().not_served;
}

std::vector<std::string> ClusterSync::not_synced(const ModelFeeder& feeder) const {
    std::vector<std::string> out;
    for (const auto& r : reflectors_) {
        if (feeder.synced(r->kind())) continue;
        std::string why = r->last_error();
        out.push_back(std::string(r->resource().kind) + (why.empty() ? " (listing)" : ": " + why));
    }
    return out;
}

}  // namespace kd::core::kube
