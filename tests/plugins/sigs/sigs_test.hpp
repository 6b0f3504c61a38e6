// Shared setup of the kubernetes-sigs plugin tests: the profile upstream's table tests run
// (pkg/framework/testing InitFrameworkHandle@v0.35.1), the real DefaultEvictor as its filter plugin.
#pragma once

#include "default_evictor.hpp"
#include "inter_pod_anti_affinity.hpp"
#include "node_affinity.hpp"
#include "node_taints.hpp"
#include "pod_lifetime.hpp"
#include "remove_duplicates.hpp"
#include "remove_failed_pods.hpp"
#include "too_many_restarts.hpp"
#include "topology_spread.hpp"

#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace sigs_test {

using kd::testing::FakeHost;
using kd::testing::SnapshotBuilder;
using Pods = std::vector<std::string>;

// Upstream's olderPodCreationTime, 2009-11-10T23:00:00Z.
inline constexpr int64_t kOlder = 1'257'894'000'000;

struct Profile {
    FakeHost host;
    FakeHost::Handle evictor;
    explicit Profile(const std::string& evictor_args = "{}")
        : evictor(host.instantiate<kd::plugins::defaultevictor::DefaultEvictor>(evictor_args)) {
        host.add_filter_plugin(evictor);
    }
    // Runs plugin P's deschedule once; the pods evicted, in request order.
    template <class P>
    Pods run(SnapshotBuilder& b, const std::string& args) {
        auto plugin = host.instantiate<P>(args);
        plugin.deschedule(b.build());
        return host.evicted();
    }
    // How many eviction requests the plugin made, refused ones included.
    size_t requests() const { return host.evictions().size(); }
};

// The message creation fails with ("" when it succeeds).
template <class P>
std::string create_error(const std::string& args) {
    FakeHost host;
    try {
        host.instantiate<P>(args);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

// Upstream's test.BuildTestPod plus GetReplicaSetOwnerRefList: in namespace default, one owner.
inline SnapshotBuilder::PodSpec& rs_pod(SnapshotBuilder& b, const std::string& name, const std::string& node = "n1") {
    return b.pod("default", name).on(node).owner("ReplicaSet", "replicaset-1", false);
}

}  // namespace sigs_test
