// The cluster of the fault soak on the test API server, and the actor that plays everything but
// the descheduler: koordlet (NodeMetrics from the pods on each node, one node running hot at a
// time, the hot node moving on now and then), koord-scheduler (Reservations placed on the least
// loaded other node, some left unschedulable), the workload controllers and the kubelet (an
// evicted pod replaced, bound to its Reservation when there is one, Ready 1–6 s later).
// The cluster holds pods no filter may let go: DaemonSet pods, kube-system pods, a bare pod, a
// Deployment with local storage, one with the never-evict cost.
#pragma once

#include "fake_apiserver.hpp"

#include <rapidjson/document.h>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace kd::soak {

struct Workload {
    std::string ns, name, rs_uid;
    int replicas = 0;
};

// A replacement pod while it is not Ready, in the server's clock (Unix seconds): from just after
// the server took it to just before it was reported Ready (+inf while it is not).
struct UnreadySpan {
    size_t workload;
    std::string pod;  // ns/name
    double from, to;
};

class SoakCluster {
public:
    SoakCluster(kd_test::FakeApiServer& server, uint64_t seed);

    // Loads the cluster into the server (before any daemon starts).
    void load();
    // One round of the actors at wall-clock `now_s` (seconds since the soak started).
    void step(double now_s);
    // No node runs hot from now on: the descheduler has nothing more to move.
    void calm() { calm_ = true; }

    const std::set<std::string>& protected_pods() const { return protected_; }  // "ns/name"
    // The workload of every pod the cluster ever had ("ns/name" → index into workloads()).
    const std::map<std::string, size_t>& pod_workloads() const { return pod_workload_; }
    const std::vector<Workload>& workloads() const { return workloads_; }
    const std::vector<UnreadySpan>& unready_spans() const { return unready_; }
    size_t replacements() const { return replacements_; }
    size_t unschedulable_reservations() const { return unschedulable_; }

    rapidjson::Document objects(const std::string& kind);

private:
    struct PodExtras {
        std::string annotations, volumes;  // JSON, "" for none
    };
    void add_pod(const std::string& ns, const std::string& name, const std::string& node, const std::string& owner_json,
                 int64_t cpu_usage, const PodExtras& extras, bool ready, std::string& out);
    void refresh_metrics(const rapidjson::Document& pods);
    void schedule_reservations(const rapidjson::Document& reservations, const rapidjson::Document& jobs,
                               const rapidjson::Document& pods);
    void replace_pods(const rapidjson::Document& pods, const rapidjson::Document& reservations, double now_s);
    void make_ready(const rapidjson::Document& pods, double now_s);
    std::string least_loaded(const std::string& except, const rapidjson::Document& pods) const;

    kd_test::FakeApiServer& server_;
    std::mt19937_64 dice_;
    std::vector<std::string> nodes_;
    std::string hot_node_;
    double next_heat_move_s_ = 0;
    bool calm_ = false;
    std::vector<Workload> workloads_;
    std::map<std::string, size_t> pod_workload_;
    std::map<std::string, int64_t> usage_;    // "ns/name" → CPU milli when not on the hot node
    std::map<std::string, double> ready_at_;  // replacements: when the kubelet reports them Ready
    std::vector<UnreadySpan> unready_;
    std::set<std::string> protected_;
    std::set<std::string> reservations_seen_;  // decided by the scheduler already
    size_t replacements_ = 0, unschedulable_ = 0;
};

}  // namespace kd::soak
