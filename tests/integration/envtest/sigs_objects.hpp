// The objects of the kubernetes-sigs plugin scenarios, as JSON for ApiLoader::load: nodes that a
// kubelet would have reported (allocatable, Ready), ReplicaSets as the pods' owners (DefaultEvictor
// keeps bare pods) and pods bound to a node with the status a kubelet would have written.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace kd_test::sigs {

// A Ready node with `cpu` millicores, 8Gi of memory and 110 pods; `labels` a JSON object's
// members, `taints` a JSON array (ApiLoader puts them in place of the server's not-ready taint).
inline std::string node(const std::string& name, int cpu_milli, const std::string& labels = "",
                        const std::string& taints = "") {
    std::string l = R"("kubernetes.io/hostname":")" + name + "\"" + (labels.empty() ? "" : "," + labels);
    std::string alloc = R"({"cpu":")" + std::to_string(cpu_milli) + R"(m","memory":"8Gi","pods":"110"})";
    return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name + R"(","labels":{)" + l + "}}" +
           (taints.empty() ? "" : R"(,"spec":{"taints":)" + taints + "}") + R"(,"status":{"allocatable":)" + alloc +
           R"(,"capacity":)" + alloc + R"(,"conditions":[{"type":"Ready","status":"True","reason":"KubeletReady"}]}})";
}

// A ReplicaSet known to the pods' ownerReferences by the file UID "uid-<name>" (ApiLoader follows
// the server's UID).
inline std::string replica_set(const std::string& ns, const std::string& name) {
    return R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":")" + name + R"(","namespace":")" + ns +
           R"(","uid":"uid-)" + name + R"("},"spec":{"selector":{"matchLabels":{"rs":")" + name + R"("}}}})";
}

struct PodSpec {
    PodSpec(std::string ns_, std::string name_, std::string node_, std::string owner_, std::string labels_ = "",
            std::string resources_ = "")
        : ns(std::move(ns_)),
          name(std::move(name_)),
          node(std::move(node_)),
          owner(std::move(owner_)),
          labels(std::move(labels_)),
          resources(std::move(resources_)) {}
    std::string ns, name, node;
    std::string owner;       // a ReplicaSet of replica_set(); "" for a bare pod
    std::string labels;      // JSON object members
    std::string resources;   // the container's "resources" JSON object, "" for none
    std::string spec_extra;  // more members of spec (e.g. topologySpreadConstraints)
    std::string owner_kind = "ReplicaSet";
    std::string annotations;  // JSON object members
    std::string status = R"({"phase":"Running","startTime":"2026-11-20T10:00:00Z"})";
};

inline std::string pod(const PodSpec& p) {
    std::string labels = R"("rs":")" + p.owner + "\"" + (p.labels.empty() ? "" : "," + p.labels);
    std::string owner = p.owner.empty()
                            ? ""
                            : R"(,"ownerReferences":[{"apiVersion":"apps/v1","kind":")" + p.owner_kind +
                                  R"(","name":")" + p.owner + R"(","uid":"uid-)" + p.owner + R"(","controller":true}])";
    std::string container =
        R"({"name":"app","image":"x")" + (p.resources.empty() ? "" : R"(,"resources":)" + p.resources) + "}";
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + p.name + R"(","namespace":")" + p.ns +
           R"(","labels":{)" + labels + "}" + owner +
           (p.annotations.empty() ? "" : R"(,"annotations":{)" + p.annotations + "}") + R"(},"spec":{"nodeName":")" +
           p.node + R"(","containers":[)" + container + "]" + (p.spec_extra.empty() ? "" : "," + p.spec_extra) +
           R"(},"status":)" + p.status + "}";
}

// The status of a pod whose one container "app" restarted `restarts` times and now runs.
inline std::string running_with_restarts(int restarts) {
    return R"({"phase":"Running","startTime":"2026-11-20T10:00:00Z","containerStatuses":[{"name":"app","image":"x",)"
           R"("imageID":"","ready":true,"started":true,"restartCount":)" +
           std::to_string(restarts) + R"(,"state":{"running":{"startedAt":"2026-11-20T10:00:00Z"}}}]})";
}

// The status of a Failed pod: `reason` the pod's, the container terminated with `container_reason`.
inline std::string failed(const std::string& reason, const std::string& container_reason, int exit_code) {
    return R"({"phase":"Failed",)" + (reason.empty() ? std::string() : R"("reason":")" + reason + R"(",)") +
           R"("startTime":"2026-11-20T10:00:00Z","containerStatuses":[{"name":"app","image":"x","imageID":"",)"
           R"("ready":false,"restartCount":0,"state":{"terminated":{"exitCode":)" +
           std::to_string(exit_code) + R"(,"reason":")" + container_reason +
           R"(","startedAt":"2026-11-20T10:00:00Z","finishedAt":"2026-11-20T10:05:00Z"}}}]})";
}

// Requests (and, for Guaranteed, equal limits) of `cpu_milli` millicores and `memory`.
inline std::string requests(int cpu_milli, bool guaranteed = false, const std::string& memory = "64Mi") {
    std::string r = R"({"cpu":")" + std::to_string(cpu_milli) + R"(m","memory":")" + memory + R"("})";
    return R"({"requests":)" + r + (guaranteed ? R"(,"limits":)" + r : "") + "}";
}

inline std::string list(const std::vector<std::string>& items) {
    std::string out = R"({"apiVersion":"v1","kind":"List","items":[)";
    for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i];
    return out + "]}";
}

}  // namespace kd_test::sigs
