// `kdesched run` with kubernetes-sigs/descheduler's policy enabling LowNodeUtilization on
// metrics-server's usage (metricsUtilization, source KubernetesMetrics), dry run, against the test
// API server loaded with tests/data/clusters/metrics-server — db-1 there made to request 3 of
// node-2's 4 cores, so that by requests node-2 is the busy node and db-1 would go, while by usage
// node-1 is (3200m) and two of its web pods go. Then the same without metrics.k8s.io: the daemon
// stays up and ready, and its cycle fails with LowNodeUtilization's error naming the node.
#include "daemon_harness.hpp"
#include "run_command.hpp"
#include "simulated_evictions.hpp"
#include "snapshot_objects.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <netinet/in.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using kd_test::DaemonFiles;
using kd_test::DaemonProcess;
using kd_test::FakeApiServer;
using kd_test::str;

namespace {

const std::string kClusterDir = KDESCHED_TEST_CLUSTERS "/metrics-server";
const std::string kRequestsPolicy = KDESCHED_TEST_PROFILES "/integration/sigs-requests-policy.yaml";
constexpr int kDefaultPort = 10251;

// A DeschedulerPolicy has no bind address: the daemon serves kdesched's default 0.0.0.0:10251.
// Runs of these tests on one machine (another build directory's too) take turns by a lock file,
// and a port some other program holds is said plainly rather than as a daemon that exited.
class DefaultPortTurn {
public:
    DefaultPortTurn() : fd_(::open("/tmp/kdesched-tests-port-10251.lock", O_CREAT | O_RDWR, 0666)) {
        if (fd_ >= 0) ::flock(fd_, LOCK_EX);
    }
    ~DefaultPortTurn() {
        if (fd_ >= 0) ::close(fd_);  // releases the lock
    }
    static bool port_free() {
        int s = ::socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        ::setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(kDefaultPort);
        bool free = ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        ::close(s);
        return free;
    }

private:
    int fd_;
};

// The metrics-server cluster, db-1 requesting 3 cores, and a daemon's files whose profile is
// LowNodeUtilization by usage.
struct UsageCluster {
    DefaultPortTurn turn;
    FakeApiServer server;
    bool loaded = (load(), true);
    DaemonFiles files{server.url(), "a-token", kDefaultPort};
    bool policy_written = (std::ofstream(files.dir / "profile.yaml")
                               << kd_test::read_file(KDESCHED_TEST_PROFILES "/integration/sigs-metrics-policy.yaml"),
                           true);

    void load() {
        server.load(kd_test::snapshot_objects_json(kClusterDir));
        server.load(R"([{"apiVersion":"v1","kind":"Pod","metadata":{"namespace":"shop","name":"db-1","uid":"uid-db-1",)"
                    R"("creationTimestamp":"2026-03-01T08:00:00Z","ownerReferences":[{"apiVersion":"apps/v1",)"
                    R"("kind":"ReplicaSet","name":"db-77c4","uid":"uid-db-77c4","controller":true}]},)"
                    R"("spec":{"nodeName":"node-2","containers":[{"name":"app","resources":{"requests":)"
                    R"({"cpu":"3","memory":"256Mi"}}}]},"status":{"phase":"Running"}}])");
    }
    // The pods the daemon's log says it would have evicted (dry run), in order.
    static std::vector<std::string> dry_run_evictions(const std::string& log) {
        std::vector<std::string> out;
        const std::string mark = "Evicted pod in dry run mode pod=";
        for (size_t at = log.find(mark); at != std::string::npos; at = log.find(mark, at + 1)) {
            size_t from = at + mark.size();
            out.push_back(log.substr(from, log.find(' ', from) - from));
        }
        return out;
    }
};

}  // namespace

TEST_CASE_METHOD(UsageCluster, "run: LowNodeUtilization by metrics-server's usage evicts what requests would not",
                 "[daemon][metrics]") {
    REQUIRE(DefaultPortTurn::port_free());
    // By requests this cluster would move db-1 off node-2 (3100m of 4000m requested).
    CHECK(simulated_evictions("--kubeconfig " + quote((files.dir / "kubeconfig").string()) + " --config " +
                              quote(kRequestsPolicy)) == std::vector<std::string>{"shop/db-1 node-2 accepted"});

    // The daemon, one cycle (a policy's default interval is 0) in dry run, by usage.
    DaemonProcess daemon(files, "usage", {"--dry-run"});
    int code = daemon.wait(90);
    INFO(daemon.log());
    REQUIRE(code == 0);
    CHECK_THAT(daemon.log(), Catch::Contains("metrics.k8s.io: usage of 3 nodes and 5 pods"));
    CHECK(dry_run_evictions(daemon.log()) == std::vector<std::string>{"shop/web-1", "shop/web-2"});
    CHECK(daemon.log().find("cycle 1:") == std::string::npos);  // no error of the cycle
    // Read from metrics.k8s.io; nothing written.
    CHECK_FALSE(server.served("/apis/metrics.k8s.io/v1beta1/nodes").empty());
    CHECK_FALSE(server.served("/apis/metrics.k8s.io/v1beta1/pods").empty());
    for (const auto& r : server.served("/api/v1/")) CHECK(r.path.find("/eviction") == std::string::npos);
}

TEST_CASE_METHOD(UsageCluster,
                 "run: without metrics.k8s.io the daemon stays ready and LowNodeUtilization's cycle names the node",
                 "[daemon][metrics]") {
    REQUIRE(DefaultPortTurn::port_free());
    server.settings(R"({"unserved_groups": ["metrics.k8s.io"]})");
    DaemonProcess daemon(files, "unserved", {"--dry-run", "--descheduling-interval", "1s"});
    const std::string cycle_error =
        "cycle 1: profile \"spread-by-usage\" balance: LowNodeUtilization: error getting "
        "node usage: unable to find node \"node-1\" in the collected metrics";
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline && daemon.log().find("cycle 2:") == std::string::npos)
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    INFO(daemon.log());
    CHECK_THAT(daemon.log(), Catch::Contains("metrics.k8s.io/v1beta1 is not served (HTTP 404") &&
                                 Catch::Contains(cycle_error) &&
                                 Catch::Contains("cycle 2: profile \"spread-by-usage\" balance: LowNodeUtilization"));
    CHECK(kd_test::scrape(kDefaultPort, "/readyz").first == 200);
    CHECK(daemon.wait(0.5) == -1);  // still running
    CHECK(UsageCluster::dry_run_evictions(daemon.log()).empty());
    daemon.signal(SIGTERM);
    CHECK(daemon.wait(15) == 0);
}
