// The control thread's side of the watch: applies what the reflectors queued to the cluster model
// — LIST pages through a Relist (a completed list replaces the kind), watch events as upserts and
// deletes — decoding each object in place with the snapshot decoder. One bad object is logged and
// skipped. Tracks which kinds have synced (their first list applied).
#pragma once

#include "cluster/cluster_model.hpp"
#include "cluster/decode/api_objects.hpp"
#include "cluster/relist.hpp"
#include "kube/watch/change_queue.hpp"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace kd::core::kube {

struct KindCounters {
    uint64_t lists = 0;     // lists applied (the first one is the sync, the rest relists)
    uint64_t objects = 0;   // objects applied from lists and events
    uint64_t events = 0;    // watch events applied
    uint64_t removed = 0;   // deleted by events or by relists
    uint64_t problems = 0;  // objects skipped as undecodable
};

class ModelFeeder {
public:
    explicit ModelFeeder(ClusterModel& model) : model_(model) {}

    // Applies the changes in order; returns how many objects it applied.
    size_t apply(std::vector<Change>& changes);

    bool synced(ObjectKind kind) const { return state(kind).synced; }
    const KindCounters& counters(ObjectKind kind) const { return state(kind).counters; }
    // The objects skipped as undecodable, one message each, in order; take empties the list.
    std::vector<std::string> take_messages();

private:
    struct KindState {
        bool synced = false;
        std::unique_ptr<Relist> relist;
        std::unique_ptr<ApiObjectDecoder> relist_decoder, upsert_decoder, remove_decoder;
        std::unique_ptr<ObjectSink> remover;
        KindCounters counters;
    };
    KindState& state(ObjectKind kind) { return kinds_[static_cast<size_t>(kind)]; }
    const KindState& state(ObjectKind kind) const { return kinds_[static_cast<size_t>(kind)]; }
    // Decodes each '\\0'-terminated object of `change` with `decoder`; returns how many went in.
    size_t decode_each(Change& change, ApiObjectDecoder& decoder);

    ClusterModel& model_;
    std::array<KindState, kAllObjectKinds.size()> kinds_;
    std::vector<std::string> messages_;
};

}  // namespace kd::core::kube
