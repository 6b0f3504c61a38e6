// The real kube-apiserver of ../shared/envtest (start.sh / stop.sh), for tests about what a real
// server accepts. Only when the environment variable KDESCHED_ENVTEST names that folder (.ci/run
// sets it when it exists); otherwise available() is false and a test prints one "SKIPPED:" line.
// One server per test program, started on first use and stopped when the program ends.
#pragma once

#include "kube/client/api_client.hpp"
#include "kube/client/kubeconfig.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

namespace kd_test {

class Envtest {
public:
    // The server, started now if need be; nullptr (after printing "SKIPPED: …") without KDESCHED_ENVTEST.
    static Envtest* get(const std::string& not_checked) {
        const char* dir = std::getenv("KDESCHED_ENVTEST");
        if (!dir || !*dir) {
            std::cout << "SKIPPED: KDESCHED_ENVTEST is not set (a real kube-apiserver, ../shared/envtest), so "
                      << not_checked << " was not checked against a real API server\n";
            return nullptr;
        }
        if (!std::ifstream(std::string(dir) + "/start.sh").good()) {
            std::cout << "SKIPPED: KDESCHED_ENVTEST (" << dir << ") has no start.sh (../shared/envtest), so "
                      << not_checked << " was not checked against a real API server\n";
            return nullptr;
        }
        if (crds().empty() || !std::ifstream(crds() + "/.").good()) {
            std::cout << "SKIPPED: KDESCHED_KOORDINATOR_CRDS does not name Koordinator's CRD folder "
                         "(../shared/koordinator-data/crds), so "
                      << not_checked << " was not checked against a real API server\n";
            return nullptr;
        }
        static std::unique_ptr<Envtest> instance(new Envtest(dir));
        return instance.get();
    }
    ~Envtest() { std::system(("'" + dir_ + "/stop.sh' '" + work_ + "' >/dev/null 2>&1").c_str()); }

    const std::string& kubeconfig() const { return kubeconfig_; }
    const std::string& work() const { return work_; }
    // Koordinator's CRDs (KDESCHED_KOORDINATOR_CRDS, ../shared/koordinator-data/crds).
    static std::string crds() {
        const char* c = std::getenv("KDESCHED_KOORDINATOR_CRDS");
        return c ? c : "";
    }
    // `accept`: the encodings reflectors ask for (kdesched's default: protobuf, then JSON).
    std::unique_ptr<kd::core::kube::ApiClient> client(std::string accept = "application/json") const {
        kd::core::kube::ClientOptions o;
        o.accept = std::move(accept);
        o.qps = 0;                // no client-side limit in tests
        o.declared_only = false;  // the test plays the cluster's admin and controllers
        return std::make_unique<kd::core::kube::ApiClient>(kd::core::kube::read_kubeconfig({kubeconfig_}, ""), o);
    }

    // A server of its own from the envtest folder `dir` (start.sh), stopped when this goes away.
    explicit Envtest(std::string dir) : dir_(std::move(dir)) {
        FILE* p = ::popen(("'" + dir_ + "/start.sh' 2>&1").c_str(), "r");
        if (!p) throw std::runtime_error("envtest: cannot run start.sh");
        std::string out, last;
        char buf[4096];
        while (fgets(buf, sizeof buf, p)) {
            out += buf;
            last = buf;
        }
        int rc = ::pclose(p);
        while (!last.empty() && (last.back() == '\n' || last.back() == '\r')) last.pop_back();
        if (rc != 0) throw std::runtime_error("envtest: start.sh failed:\n" + out);
        work_ = last;
        kubeconfig_ = work_ + "/kubeconfig";
    }

private:
    std::string dir_, work_, kubeconfig_;
};

}  // namespace kd_test
