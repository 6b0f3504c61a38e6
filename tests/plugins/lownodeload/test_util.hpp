// Shared helpers for the LowNodeLoad tests: a small cluster of 10-CPU / 100Gi nodes with a fresh
// NodeMetric each, and pods whose usage is recorded in their node's metric.
#pragma once

#include "args.hpp"
#include "low_node_load.hpp"

#include <kdesched/testing.hpp>

#include <map>
#include <string>
#include <vector>

namespace lnl_test {

using kd::plugins::lownodeload::LowNodeLoad;
using kd::plugins::lownodeload::LowNodeLoadArgs;
using kd::testing::FakeHost;
using kd::testing::SnapshotBuilder;
using NodeSpec = SnapshotBuilder::NodeSpec;
using PodSpec = SnapshotBuilder::PodSpec;
using MetricSpec = SnapshotBuilder::MetricSpec;

constexpr int64_t kSecond = 1000;
constexpr int64_t kMinute = 60 * kSecond;

// Thresholds used by most tests: low 30 %, high 70 % for cpu and memory; no anomaly gating.
inline const std::string kArgs =
    R"({"lowThresholds": {"cpu": 30, "memory": 30}, "highThresholds": {"cpu": 70, "memory": 70},
        "anomalyCondition": {"consecutiveAbnormalities": 1}})";

class Cluster {
public:
    SnapshotBuilder b;

    // A node with a NodeMetric updated now (no system usage).
    NodeSpec& node(const std::string& name, const std::string& cpu = "10", const std::string& memory = "100Gi") {
        auto& n = b.node(name).allocatable("cpu", cpu).allocatable("memory", memory).allocatable("pods", "110");
        metrics_[name] = &b.metric(name);
        return n;
    }
    MetricSpec& metric(const std::string& node) { return *metrics_.at(node); }
    // Moves the clock to `now_ms` and marks every NodeMetric as updated then; returns the snapshot.
    const kd_snapshot* at(int64_t now_ms) {
        b.set_now(now_ms);
        for (auto& [name, m] : metrics_) m->updated(now_ms);
        return b.build();
    }

    // A ReplicaSet pod on `node` (requesting 100m) whose podsMetric usage is `cpu` / `memory`.
    PodSpec& pod(const std::string& node, const std::string& name, const std::string& cpu,
                 const std::string& memory = "1Gi", const std::string& ns = "default") {
        auto& p = b.pod(ns, name).on(node).owner("ReplicaSet", "rs-" + name).request("cpu", "100m");
        metric(node).pod_usage(ns, name, "cpu", cpu).pod_usage(ns, name, "memory", memory);
        return p;
    }
    // `count` pods named <prefix>1..<prefix>N on `node`, each using `cpu`.
    void pods(const std::string& node, const std::string& prefix, int count, const std::string& cpu,
              const std::string& ns = "default") {
        for (int i = 1; i <= count; ++i) pod(node, prefix + std::to_string(i), cpu, "1Gi", ns);
    }

private:
    std::map<std::string, MetricSpec*> metrics_;
};

// Pod keys of every eviction request, in order.
inline std::vector<std::string> requested(const FakeHost& host) {
    std::vector<std::string> out;
    for (const auto& e : host.evictions()) out.push_back(e.pod);
    return out;
}

// Log lines that contain `needle`.
inline std::vector<std::string> logs_with(const FakeHost& host, const std::string& needle) {
    std::vector<std::string> out;
    for (const auto& l : host.logs())
        if (l.find(needle) != std::string::npos) out.push_back(l);
    return out;
}

// The plugin object itself (not through the C boundary), for looking at its internals.
inline LowNodeLoad make_plugin(const std::string& json, int64_t interval_ms = 0) {
    kd_create_info info{sizeof(kd_create_info), kd::to_kd("test"), interval_ms, kd::to_kd("test-instance"), 0};
    kd::Host host(nullptr, &info);
    return LowNodeLoad(host, kd::parse<LowNodeLoadArgs>(json));
}

// The create error for `json` ("" when creation succeeds).
inline std::string create_error(const std::string& json) {
    FakeHost host;
    try {
        host.instantiate<LowNodeLoad>(json);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

}  // namespace lnl_test
