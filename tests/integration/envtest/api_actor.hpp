// The cluster around a daemon on the real API server (envtest has no controllers): the test plays
// koordlet (fresh NodeMetrics), the kubelet (evicted pods finish), koord-scheduler (Reservations
// scheduled, then bound to the moved pod) and the workload controller (the pod made again).
#pragma once

#include "api_loader.hpp"
#include "crd_installer.hpp"
#include "daemon_harness.hpp"

#include <rapidjson/document.h>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>

namespace kd_test {

class ApiActor {
public:
    explicit ApiActor(ApiLoader& api) : api_(api) {}

    rapidjson::Document list(const std::string& path) {
        rapidjson::Document d;
        d.Parse(api_.request("GET", path, "").c_str());
        return d;
    }

    void step() {
        const std::string now = ClusterActor::now();
        auto metrics = list("/apis/slo.koordinator.sh/v1alpha1/nodemetrics");
        for (auto& m : metrics["items"].GetArray()) {
            m["status"]["updateTime"].SetString(now.c_str(), metrics.GetAllocator());
            m.AddMember("apiVersion", "slo.koordinator.sh/v1alpha1", metrics.GetAllocator());
            m.AddMember("kind", "NodeMetric", metrics.GetAllocator());
            api_.request("PUT",
                         "/apis/slo.koordinator.sh/v1alpha1/nodemetrics/" + str(m, {"metadata", "name"}) + "/status",
                         text_of(m), {200, 409});
        }
        auto pods = list("/api/v1/pods");
        for (const auto& p : pods["items"].GetArray())  // no kubelet: finish what was evicted
            if (!str(p, {"metadata", "deletionTimestamp"}).empty())
                api_.request("DELETE",
                             "/api/v1/namespaces/" + str(p, {"metadata", "namespace"}) + "/pods/" +
                                 str(p, {"metadata", "name"}) + "?gracePeriodSeconds=0",
                             "", {200, 404});
        auto reservations = list("/apis/scheduling.koordinator.sh/v1alpha1/reservations");
        auto jobs = list("/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs");
        for (auto& r : reservations["items"].GetArray()) {
            std::string name = str(r, {"metadata", "name"}), phase = str(r, {"status", "phase"});
            std::string head =
                R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation","metadata":)" +
                text_of(r["metadata"]) + R"(,"spec":)" + text_of(r["spec"]);
            const std::string path = "/apis/scheduling.koordinator.sh/v1alpha1/reservations/" + name + "/status";
            if (phase.empty()) {
                api_.request("PUT", path,
                             head +
                                 R"(,"status":{"phase":"Available","nodeName":"node-2","conditions":[)"
                                 R"({"type":"Scheduled","status":"True","reason":"Scheduled","lastProbeTime":null,)"
                                 R"("lastTransitionTime":null},{"type":"Ready","status":"True","reason":"Available",)"
                                 R"("lastProbeTime":null,"lastTransitionTime":null}]}})",
                             {200, 409});
                continue;
            }
            if (phase != "Available") continue;
            for (const auto& j : jobs["items"].GetArray()) {
                if (text_of(j).find("\"" + name + "\"") == std::string::npos) continue;
                std::string ns = str(j, {"spec", "podRef", "namespace"}), pod = str(j, {"spec", "podRef", "name"});
                bool gone = true;
                for (const auto& p : pods["items"].GetArray())
                    gone &= !(str(p, {"metadata", "namespace"}) == ns && str(p, {"metadata", "name"}) == pod);
                if (!gone) continue;
                rapidjson::Document created;
                created.Parse(api_.request("POST", "/api/v1/namespaces/" + ns + "/pods",
                                           R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + pod +
                                               R"(-moved"},"spec":{"nodeName":"node-2","containers":[{"name":"c",)"
                                               R"("image":"x"}]}})",
                                           {201, 409})
                                  .c_str());
                std::string uid = str(created, {"metadata", "uid"});
                if (uid.empty()) continue;
                api_.request("PUT", "/api/v1/namespaces/" + ns + "/pods/" + pod + "-moved/status",
                             R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + pod +
                                 R"(-moved","namespace":")" + ns + R"(","resourceVersion":")" +
                                 str(created, {"metadata", "resourceVersion"}) +
                                 R"("},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}})");
                api_.request("PUT", path,
                             head +
                                 R"(,"status":{"phase":"Succeeded","nodeName":"node-2","conditions":[)"
                                 R"({"type":"Scheduled","status":"True","reason":"Scheduled","lastProbeTime":null,)"
                                 R"("lastTransitionTime":null}],"currentOwners":[{"namespace":")" +
                                 ns + R"(","name":")" + pod + R"(-moved","uid":")" + uid + R"("}]}})",
                             {200, 409});
                break;
            }
        }
    }

    // The holder of the leader-election Lease ("" when released, "<N leases>" unless there is one).
    std::string lease_holder() {
        auto leases = list("/apis/coordination.k8s.io/v1/namespaces/koordinator-system/leases");
        if (leases["items"].Size() != 1) return "<" + std::to_string(leases["items"].Size()) + " leases>";
        return str(leases["items"][0], {"spec", "holderIdentity"});
    }

    // Steps the cluster until a PodMigrationJob has succeeded (true) or `seconds` have passed.
    bool step_until_succeeded(int seconds) {
        for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
             std::chrono::steady_clock::now() < deadline;) {
            step();
            auto jobs = list("/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs");
            for (const auto& j : jobs["items"].GetArray())
                if (str(j, {"status", "phase"}) == "Succeeded") return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
        }
        return false;
    }

private:
    ApiLoader& api_;
};

// What Koordinator's install and the example leave on a fresh server: its CRDs, its namespace
// (where the leader-election Lease lives), and the hotspot cluster of examples/clusters.
inline void install_hotspot(ApiLoader& api, const std::string& crds, const std::string& cluster_file) {
    install_crds(api, crds);
    api.load_file(cluster_file);
    api.request("POST", "/api/v1/namespaces",
                R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"koordinator-system"}})", {201, 409});
}

// A daemon's warnings and errors, for a failure message.
inline std::string warnings_in(const std::string& log) {
    std::string problems;
    std::istringstream lines(log);
    for (std::string line; std::getline(lines, line);)
        if (line.find("[warning]") != std::string::npos || line.find("[error]") != std::string::npos)
            problems += line.substr(0, 400) + "\n";
    return problems.substr(0, 8000);
}

}  // namespace kd_test
