// One scenario of the kubernetes-sigs plugins on the real API server: its objects loaded, kdesched
// and (when present) the upstream binary run on them in dry run, and everything taken away after
// (nodes too: a plugin sees every node of the cluster, so no scenario may leave one behind).
#pragma once

#include "api_loader.hpp"
#include "envtest.hpp"
#include "sigs_runner.hpp"

#include <rapidjson/document.h>

#include <chrono>
#include <initializer_list>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

namespace kd_test::sigs {

class Scenario {
public:
    Scenario(Envtest& env, std::string ns) : env_(env), client_(env.client()), api_(*client_), ns_(std::move(ns)) {}
    ~Scenario() {
        try {
            api_.request("DELETE", "/api/v1/namespaces/" + ns_ + "/pods?gracePeriodSeconds=0", "", {200, 404});
            api_.request("DELETE", "/apis/apps/v1/namespaces/" + ns_ + "/replicasets", "", {200, 404});
            api_.request("DELETE", "/api/v1/nodes", "", {200, 404});
        } catch (const std::exception& e) {
            std::cout << "cleanup of " << ns_ << " failed: " << e.what() << "\n";
        }
    }

    // A List of objects (sigs_objects.hpp), created as a cluster would hold them.
    void load(const std::string& list_json) {
        rapidjson::Document d;
        d.Parse(list_json.c_str());
        if (d.HasParseError() || !d.IsObject() || !d.HasMember("items"))
            throw std::runtime_error("a scenario's objects are not a JSON List: " + list_json.substr(0, 400));
        api_.load(d["items"], d.GetAllocator());
    }
    // The PriorityClasses ApiLoader makes for pods' spec.priority ("kdesched-test-priority-<value>"),
    // made first and waited for: the Priority admission plugin reads them from its informer, which
    // lags a create, so a pod created right after its class may be refused (403).
    void priority_classes(std::initializer_list<int> values) {
        api_.request("POST", "/api/v1/namespaces",
                     R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + ns_ + R"("}})", {201, 409});
        for (int v : values) {
            std::string name = "kdesched-test-priority-" + std::to_string(v);
            api_.request("POST", "/apis/scheduling.k8s.io/v1/priorityclasses",
                         R"({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":")" + name +
                             R"("},"value":)" + std::to_string(v) + "}",
                         {201, 409});
            const std::string probe = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"probe"},"spec":{)"
                                      R"("priorityClassName":")" +
                                      name + R"(","containers":[{"name":"c","image":"x"}]}})";
            for (int attempt = 0;; ++attempt) {
                try {
                    api_.request("POST", "/api/v1/namespaces/" + ns_ + "/pods?dryRun=All", probe, {201});
                    break;
                } catch (const std::runtime_error&) {
                    if (attempt == 100) throw;  // 10 s
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                }
            }
        }
    }
    void delete_pod(const std::string& name) {
        api_.request("DELETE", "/api/v1/namespaces/" + ns_ + "/pods/" + name + "?gracePeriodSeconds=0", "", {200, 404});
    }

    DryRun kdesched(const Policy& p) {
        DryRun d = run_kdesched(env_.kubeconfig(), p);
        std::cout << "TIME " << ns_ << " " << p.plugin << ": kdesched " << d.seconds << " s, would evict" << listed(d)
                  << "\n";
        return d;
    }
    // std::nullopt when the upstream binary is absent (a user's clone): kdesched was checked alone.
    std::optional<DryRun> upstream(const Policy& p) {
        static const std::string binary = upstream_binary();
        if (binary.empty()) {
            std::cout << "upstream kubernetes-sigs/descheduler absent (KDESCHED_SIG_DESCHEDULER, "
                         "../shared/sig-descheduler): "
                      << p.plugin << " not compared with it\n";
            return std::nullopt;
        }
        DryRun d = run_upstream(binary, env_.kubeconfig(), p);
        std::cout << "TIME " << ns_ << " " << p.plugin << ": upstream v0.32.2 " << d.seconds << " s, would evict"
                  << listed(d) << "\n";
        return d;
    }

    const std::string& ns() const { return ns_; }
    // "ns/name" of pods of this scenario.
    std::set<std::string> keys(std::initializer_list<const char*> names) const {
        std::set<std::string> out;
        for (const char* n : names) out.insert(ns_ + "/" + n);
        return out;
    }

private:
    static std::string listed(const DryRun& d) {
        std::string out;
        for (const auto& p : d.pods) out += " " + p;
        return out.empty() ? " nothing" : out;
    }

    Envtest& env_;
    std::unique_ptr<kd::core::kube::ApiClient> client_;
    ApiLoader api_;
    std::string ns_;
};

}  // namespace kd_test::sigs
