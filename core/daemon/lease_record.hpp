// A coordination.k8s.io/v1 Lease as leader election reads it: where it is, who holds it, when it
// was renewed. The elector writes it; `kdesched explain` reads it to find the leader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kd::core::daemon {

struct LeaseRecord {
    std::string holder, acquire_time, renew_time, resource_version;
    int64_t duration_s = 0, transitions = 0;
};

// The fields above from a Lease's JSON (empty ones when absent or not JSON).
LeaseRecord parse_lease(const std::string& body);

// /apis/coordination.k8s.io/v1/namespaces/<ns>/leases/<name>
std::string lease_path(std::string_view ns, std::string_view name);

// The host (in a pod: the pod's name) of an identity make_identity() made ("<host>_<random>").
std::string host_of_identity(std::string_view identity);

}  // namespace kd::core::daemon
