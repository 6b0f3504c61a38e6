// The kubernetes-sigs/descheduler plugins of plugins/sigs on a real kube-apiserver
// (../shared/envtest, when KDESCHED_ENVTEST names it; skipped otherwise): small scenarios per
// plugin, taken from upstream's own test cases, run once in dry run; the pods kdesched would evict
// are asserted, then the real upstream binary (v0.32.2, ../shared/sig-descheduler, when present)
// is run on the same cluster with the same args and must choose the same — as a set, or per node
// where upstream's choice among equal pods follows Go map order. Wall times are printed ("TIME").
#include "sigs_objects.hpp"
#include "sigs_scenario.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

using kd_test::sigs::DryRun;
using kd_test::sigs::node;
using kd_test::sigs::pod;
using kd_test::sigs::PodSpec;
using kd_test::sigs::Policy;
using kd_test::sigs::replica_set;
using kd_test::sigs::Scenario;

namespace {

// What kdesched would evict is `expected`; the upstream binary, when present, agrees.
void check_same(Scenario& s, const Policy& policy, const std::set<std::string>& expected) {
    DryRun kd = s.kdesched(policy);
    INFO(kd.output.substr(0, 6000));
    CHECK(kd.exit_code == 0);
    CHECK(kd.pods == expected);
    if (auto up = s.upstream(policy)) {
        INFO("upstream:\n" << up->output.substr(0, 6000));
        CHECK(up->exit_code == 0);
        CHECK(up->pods == expected);
    }
}

// A container's status: waiting in `reason` after `restarts` restarts.
std::string waiting(const char* container, const char* reason, int restarts) {
    return std::string(R"({"name":")") + container + R"(","image":"x","imageID":"","ready":false,"restartCount":)" +
           std::to_string(restarts) + R"(,"state":{"waiting":{"reason":")" + reason + R"("}}})";
}

void lifetime_old_pods() {
    kd_test::Envtest* env = kd_test::Envtest::get("PodLifeTime on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-lifetime");
    const std::string ns = s.ns();
    s.load(kd_test::sigs::list({node("lifetime-1", 4000), node("lifetime-2", 4000), replica_set(ns, "web"),
                                pod({ns, "old-1", "lifetime-1", "web"}), pod({ns, "old-2", "lifetime-2", "web"}),
                                pod({ns, "old-bare", "lifetime-1", ""})}));
    // The server stamps creationTimestamp: age comes from waiting. A young pod is made again just
    // before each run, so that it is under the limit for both.
    std::this_thread::sleep_for(std::chrono::seconds(5));
    const std::string young = kd_test::sigs::list({pod({ns, "young", "lifetime-1", "web"})});
    const std::string args = R"({"maxPodLifeTimeSeconds": 3, "namespaces": {"include": [")" + ns + R"("]}})";
    const auto expected = s.keys({"old-1", "old-2"});  // old-bare: DefaultEvictor keeps bare pods
    s.load(young);
    DryRun kd = s.kdesched({"PodLifeTime", "deschedule", args});
    INFO(kd.output.substr(0, 6000));
    CHECK(kd.exit_code == 0);
    CHECK(kd.pods == expected);
    s.delete_pod("young");
    s.load(young);
    if (auto up = s.upstream({"PodLifeTime", "deschedule", args})) {
        INFO("upstream:\n" << up->output.substr(0, 6000));
        CHECK(up->exit_code == 0);
        CHECK(up->pods == expected);
    }
}

void lifetime_evictor_rules() {
    kd_test::Envtest* env = kd_test::Envtest::get("DefaultEvictor's rules on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-evictor");
    const std::string ns = s.ns();
    // Every pod is older than the limit: DefaultEvictor's default args alone decide.
    PodSpec daemon{ns, "daemonset", "evictor-1", "agent"};
    daemon.owner_kind = "DaemonSet";
    PodSpec local{ns, "local-storage", "evictor-1", "web"};
    local.spec_extra = R"("volumes":[{"name":"scratch","emptyDir":{}}])";
    PodSpec pvc{ns, "pvc", "evictor-2", "web"};
    pvc.spec_extra = R"("volumes":[{"name":"data","persistentVolumeClaim":{"claimName":"data"}}])";
    PodSpec critical{ns, "critical", "evictor-2", "web"};
    critical.spec_extra = R"("priorityClassName":"system-cluster-critical")";
    PodSpec annotated{ns, "bare-annotated", "evictor-1", ""};
    annotated.annotations = R"("descheduler.alpha.kubernetes.io/evict":"true")";
    PodSpec failed_bare{ns, "failed-bare", "evictor-2", ""};
    failed_bare.status = kd_test::sigs::failed("", "Error", 1);
    s.load(kd_test::sigs::list({node("evictor-1", 4000), node("evictor-2", 4000), replica_set(ns, "web"),
                                pod({ns, "owned", "evictor-1", "web"}), pod({ns, "bare", "evictor-2", ""}), pod(daemon),
                                pod(local), pod(pvc), pod(critical), pod(annotated), pod(failed_bare)}));
    std::this_thread::sleep_for(std::chrono::seconds(2));
    // Kept: a bare pod (a Failed one too: evictFailedBarePods), a DaemonSet's, one with local
    // storage, a system-critical one; the evict annotation overrides every rule.
    check_same(
        s,
        {"PodLifeTime", "deschedule", R"({"maxPodLifeTimeSeconds": 1, "namespaces": {"include": [")" + ns + R"("]}})"},
        s.keys({"owned", "pvc", "bare-annotated"}));
}

void lifetime_evictor_pdbs() {
    kd_test::Envtest* env = kd_test::Envtest::get("DefaultEvictor's ignorePodsWithoutPDB on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-pdb");
    const std::string ns = s.ns();
    // A budget selecting app=web; one without a selector (it selects no pod).
    const std::string pdb = R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web",)"
                            R"("namespace":")" +
                            ns + R"("},"spec":{"minAvailable":0,"selector":{"matchLabels":{"app":"web"}}}})";
    const std::string pdb_none = R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"none",)"
                                 R"("namespace":")" +
                                 ns + R"("},"spec":{"maxUnavailable":1}})";
    s.load(kd_test::sigs::list({node("pdb-1", 4000), node("pdb-2", 4000), replica_set(ns, "web"), pdb, pdb_none,
                                pod({ns, "covered", "pdb-1", "web", R"("app":"web")"}),
                                pod({ns, "uncovered", "pdb-2", "web", R"("app":"db")"})}));
    std::this_thread::sleep_for(std::chrono::seconds(2));
    check_same(
        s,
        {"PodLifeTime", "deschedule", R"({"maxPodLifeTimeSeconds": 1, "namespaces": {"include": [")" + ns + R"("]}})",
         "", R"({"ignorePodsWithoutPDB": true})"},
        s.keys({"covered"}));
}

void lifetime_states() {
    kd_test::Envtest* env = kd_test::Envtest::get("PodLifeTime's states on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-lifetime-states");
    const std::string ns = s.ns();
    PodSpec pending{ns, "pending", "lstates-1", "web"};
    pending.status = R"({"phase":"Pending"})";
    PodSpec crashing{ns, "crashing", "lstates-2", "web"};
    crashing.status = R"({"phase":"Running","startTime":"2026-11-20T10:00:00Z","containerStatuses":[)" +
                      waiting("app", "CrashLoopBackOff", 3) + "]}";
    s.load(kd_test::sigs::list({node("lstates-1", 4000), node("lstates-2", 4000), replica_set(ns, "web"), pod(pending),
                                pod(crashing), pod({ns, "running", "lstates-1", "web"})}));
    std::this_thread::sleep_for(std::chrono::seconds(2));
    // Old enough all three; the phase or a container's waiting reason must be listed.
    check_same(s,
               {"PodLifeTime", "deschedule",
                R"({"maxPodLifeTimeSeconds": 1, "states": ["Pending", "CrashLoopBackOff"], )"
                R"("namespaces": {"include": [")" +
                    ns + R"("]}})"},
               s.keys({"pending", "crashing"}));
}

void lifetime_node_fit() {
    kd_test::Envtest* env = kd_test::Envtest::get("DefaultEvictor's nodeFit on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-node-fit");
    const std::string ns = s.ns();
    using kd_test::sigs::requests;
    // fit-1 holds 3200m, fit-2 2500m, of 4000m each. With nodeFit an old pod goes only when another
    // node has room for its requests and matches its nodeSelector.
    PodSpec pinned{ns, "pinned", "fit-1", "web", "", requests(100)};
    pinned.spec_extra = R"("nodeSelector":{"kubernetes.io/hostname":"fit-1"})";
    s.load(kd_test::sigs::list({node("fit-1", 4000), node("fit-2", 4000), replica_set(ns, "web"), pod(pinned),
                                pod({ns, "too-big", "fit-1", "web", "", requests(3000)}),
                                pod({ns, "free", "fit-1", "web", "", requests(100)}),
                                pod({ns, "filler", "fit-2", "web", "", requests(2500)})}));
    std::this_thread::sleep_for(std::chrono::seconds(2));
    check_same(
        s,
        {"PodLifeTime", "deschedule", R"({"maxPodLifeTimeSeconds": 1, "namespaces": {"include": [")" + ns + R"("]}})",
         "", R"({"nodeFit": true})"},
        s.keys({"free"}));
}

void failed_reasons() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemoveFailedPods on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-failed");
    const std::string ns = s.ns();
    using kd_test::sigs::failed;
    PodSpec affinity{ns, "failed-affinity", "failed-1", "web"};
    affinity.status = failed("NodeAffinity", "Error", 1);
    PodSpec oom{ns, "failed-oom", "failed-1", "web"};
    oom.status = failed("", "OOMKilled", 137);
    PodSpec evicted{ns, "failed-evicted", "failed-2", "web"};
    evicted.status = failed("Evicted", "Error", 1);
    s.load(kd_test::sigs::list({node("failed-1", 4000), node("failed-2", 4000), replica_set(ns, "web"), pod(affinity),
                                pod(oom), pod(evicted), pod({ns, "running", "failed-2", "web"})}));
    // A pod's reason or a container's terminated reason; OOMKilled is not listed, Running pods stay.
    check_same(
        s,
        {"RemoveFailedPods", "deschedule", R"({"reasons": ["NodeAffinity", "Evicted"], "minPodLifetimeSeconds": 0})"},
        s.keys({"failed-affinity", "failed-evicted"}));
}

void failed_exit_codes() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemoveFailedPods's exit codes on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-failed-codes");
    const std::string ns = s.ns();
    using kd_test::sigs::failed;
    PodSpec killed{ns, "killed", "codes-1", "web"};
    killed.status = failed("", "OOMKilled", 137);
    PodSpec job{ns, "job-killed", "codes-1", "report"};
    job.owner_kind = "Job";
    job.status = failed("", "OOMKilled", 137);
    PodSpec error{ns, "error", "codes-2", "web"};
    error.status = failed("", "Error", 1);
    // The app container exited 1, its init container 137: only includingInitContainers sees it.
    PodSpec init{ns, "init-killed", "codes-2", "web"};
    init.spec_extra = R"("initContainers":[{"name":"init","image":"x"}])";
    init.status = failed("", "Error", 1);
    init.status.insert(init.status.size() - 1,
                       R"(,"initContainerStatuses":[{"name":"init","image":"x","imageID":"","ready":false,)"
                       R"("restartCount":0,"state":{"terminated":{"exitCode":137,"reason":"OOMKilled",)"
                       R"("startedAt":"2026-11-20T10:00:00Z","finishedAt":"2026-11-20T10:00:01Z"}}}])");
    s.load(kd_test::sigs::list({node("codes-1", 4000), node("codes-2", 4000), replica_set(ns, "web"), pod(killed),
                                pod(job), pod(error), pod(init)}));
    check_same(s,
               {"RemoveFailedPods", "deschedule",
                R"({"exitCodes": [137], "excludeOwnerKinds": ["Job"], "includingInitContainers": true, )"
                R"("minPodLifetimeSeconds": 0})"},
               s.keys({"killed", "init-killed"}));
}

void restarts_threshold() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemovePodsHavingTooManyRestarts on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-restarts");
    const std::string ns = s.ns();
    std::vector<std::string> objects = {node("restarts-1", 4000), node("restarts-2", 4000), replica_set(ns, "web")};
    for (auto [name, node_name, restarts] :
         {std::tuple{"restarts-10", "restarts-1", 10}, std::tuple{"restarts-5", "restarts-2", 5},
          std::tuple{"restarts-4", "restarts-1", 4}, std::tuple{"restarts-0", "restarts-2", 0}}) {
        PodSpec p{ns, name, node_name, "web"};
        p.status = kd_test::sigs::running_with_restarts(restarts);
        objects.push_back(pod(p));
    }
    s.load(kd_test::sigs::list(objects));
    check_same(s, {"RemovePodsHavingTooManyRestarts", "deschedule", R"({"podRestartThreshold": 5})"},
               s.keys({"restarts-10", "restarts-5"}));
}

void restarts_order() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemovePodsHavingTooManyRestarts's order on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-restarts-order");
    const std::string ns = s.ns();
    std::vector<std::string> objects = {node("order-1", 4000), node("order-2", 4000), replica_set(ns, "web")};
    for (auto [name, node_name, restarts] : {std::tuple{"a-few", "order-1", 6}, std::tuple{"b-many", "order-1", 20},
                                             std::tuple{"a-some", "order-2", 8}, std::tuple{"b-most", "order-2", 30}}) {
        PodSpec p{ns, name, node_name, "web"};
        p.status = kd_test::sigs::running_with_restarts(restarts);
        objects.push_back(pod(p));
    }
    s.load(kd_test::sigs::list(objects));
    // v0.35.1 sorts each node's pods by restarts, most first, so the node's one eviction is its
    // most restarted pod (kdesched). v0.32.2 takes them in listing order: compared per node only.
    const std::string plugin = "RemovePodsHavingTooManyRestarts", args = R"({"podRestartThreshold": 5})",
                      limit = "maxNoOfPodsToEvictPerNode: 1\n";
    DryRun kd = s.kdesched({plugin, "deschedule", args, limit});
    INFO(kd.output.substr(0, 6000));
    CHECK(kd.exit_code == 0);
    CHECK(kd.pods == s.keys({"b-many", "b-most"}));
    if (auto up = s.upstream({plugin, "deschedule", args, limit})) {
        INFO("upstream:\n" << up->output.substr(0, 6000));
        CHECK(up->exit_code == 0);
        CHECK(up->per_node == std::map<std::string, int>{{"order-1", 1}, {"order-2", 1}});
    }
}

void restarts_states() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemovePodsHavingTooManyRestarts's states on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-restarts-states");
    const std::string ns = s.ns();
    const std::string head = R"({"phase":"Running","startTime":"2026-11-20T10:00:00Z",)";
    PodSpec crashing{ns, "crashing", "states-1", "web"};
    crashing.status = head + R"("containerStatuses":[)" + waiting("app", "CrashLoopBackOff", 6) + "]}";
    PodSpec running{ns, "running", "states-1", "web"};
    running.status = kd_test::sigs::running_with_restarts(6);
    // Its restarts and its CrashLoopBackOff are its init container's: counted with includingInitContainers.
    PodSpec init{ns, "init-crashing", "states-2", "web"};
    init.spec_extra = R"("initContainers":[{"name":"init","image":"x"}])";
    init.status = head + R"("initContainerStatuses":[)" + waiting("init", "CrashLoopBackOff", 6) +
                  R"(],"containerStatuses":[)" + waiting("app", "PodInitializing", 0) + "]}";
    PodSpec few{ns, "crashing-few", "states-2", "web"};
    few.status = head + R"("containerStatuses":[)" + waiting("app", "CrashLoopBackOff", 2) + "]}";
    s.load(kd_test::sigs::list({node("states-1", 4000), node("states-2", 4000), replica_set(ns, "web"), pod(crashing),
                                pod(running), pod(init), pod(few)}));
    check_same(s,
               {"RemovePodsHavingTooManyRestarts", "deschedule",
                R"({"podRestartThreshold": 5, "states": ["CrashLoopBackOff"], "includingInitContainers": true})"},
               s.keys({"crashing", "init-crashing"}));
}

void spread_zones() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemovePodsViolatingTopologySpreadConstraint on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-spread");
    const std::string ns = s.ns();
    std::vector<std::string> objects = {node("spread-a", 4000, R"("topology.kubernetes.io/zone":"a")"),
                                        node("spread-b", 4000, R"("topology.kubernetes.io/zone":"b")"),
                                        replica_set(ns, "web")};
    for (auto [name, node_name] : {std::pair{"web-a1", "spread-a"}, std::pair{"web-a2", "spread-a"},
                                   std::pair{"web-a3", "spread-a"}, std::pair{"web-b1", "spread-b"}}) {
        PodSpec p{ns, name, node_name, "web", R"("app":"spread")", kd_test::sigs::requests(100)};
        p.spec_extra = R"("topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone",)"
                       R"("whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"spread"}}}])";
        objects.push_back(pod(p));
    }
    s.load(kd_test::sigs::list(objects));
    // One of zone a's three equal pods moves (which one is upstream's Go map order): compare per node.
    const std::string plugin = "RemovePodsViolatingTopologySpreadConstraint", args = "{}";
    DryRun kd = s.kdesched({plugin, "balance", args});
    INFO(kd.output.substr(0, 6000));
    CHECK(kd.exit_code == 0);
    CHECK(kd.pods.size() == 1);
    CHECK(kd.per_node == std::map<std::string, int>{{"spread-a", 1}});
    if (auto up = s.upstream({plugin, "balance", args})) {
        INFO("upstream:\n" << up->output.substr(0, 6000));
        CHECK(up->exit_code == 0);
        CHECK(up->per_node == kd.per_node);
    }
}

void spread_priority() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemovePodsViolatingTopologySpreadConstraint's pod order");
    if (!env) return;
    Scenario s(*env, "sigs-spread-order");
    const std::string ns = s.ns();
    s.priority_classes({10, 100, 1000});
    std::vector<std::string> objects = {node("order-a", 4000, R"("topology.kubernetes.io/zone":"a")"),
                                        node("order-b", 4000, R"("topology.kubernetes.io/zone":"b")"),
                                        replica_set(ns, "web")};
    for (auto [name, node_name, priority] : {std::tuple{"a-high", "order-a", 1000}, std::tuple{"a-low", "order-a", 10},
                                             std::tuple{"a-mid", "order-a", 100}, std::tuple{"b-1", "order-b", 100}}) {
        PodSpec p{ns, name, node_name, "web", R"("app":"spread")"};
        // ApiLoader turns spec.priority into a PriorityClass of that value (the server sets priority).
        p.spec_extra = R"("priority":)" + std::to_string(priority) +
                       R"(,"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone",)"
                       R"("whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"spread"}}}])";
        objects.push_back(pod(p));
    }
    s.load(kd_test::sigs::list(objects));
    // v0.35.1 sorts a domain's pods by ascending priority and takes from the back: the
    // highest-priority pod leaves (kdesched). v0.32.2 drops the priority comparison's result
    // (comparePodsByPriority's value is unused, fixed upstream by 4548723de), so its pick among
    // the three is the last of its listing order: compared per node only.
    const std::string plugin = "RemovePodsViolatingTopologySpreadConstraint";
    DryRun kd = s.kdesched({plugin, "balance", "{}"});
    INFO(kd.output.substr(0, 6000));
    CHECK(kd.exit_code == 0);
    CHECK(kd.pods == s.keys({"a-high"}));
    if (auto up = s.upstream({plugin, "balance", "{}"})) {
        INFO("upstream:\n" << up->output.substr(0, 6000));
        CHECK(up->exit_code == 0);
        CHECK(up->per_node == std::map<std::string, int>{{"order-a", 1}});
    }
}

void spread_three_zones() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemovePodsViolatingTopologySpreadConstraint over three zones");
    if (!env) return;
    Scenario s(*env, "sigs-spread-three");
    const std::string ns = s.ns();
    const std::string spread =
        R"("topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone",)"
        R"("whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"spread"}}}])";
    std::vector<std::string> objects = {node("three-a", 4000, R"("topology.kubernetes.io/zone":"a")"),
                                        node("three-b", 4000, R"("topology.kubernetes.io/zone":"b")"),
                                        node("three-c", 4000, R"("topology.kubernetes.io/zone":"c")"),
                                        replica_set(ns, "web")};
    for (auto [name, node_name] : {std::pair{"a-1", "three-a"}, std::pair{"a-2", "three-a"},
                                   std::pair{"a-3", "three-a"}, std::pair{"b-1", "three-b"}}) {
        PodSpec p{ns, name, node_name, "web", R"("app":"spread")"};
        p.spec_extra = spread;
        objects.push_back(pod(p));
    }
    // Bound to zone a by its nodeSelector: sorted to the front, so it is never the one to go.
    PodSpec pinned{ns, "a-pinned", "three-a", "web", R"("app":"spread")"};
    pinned.spec_extra = R"("nodeSelector":{"topology.kubernetes.io/zone":"a"},)" + spread;
    objects.push_back(pod(pinned));
    s.load(kd_test::sigs::list(objects));
    // 4/1/0, ideal 5/3: zone a gives two to zone c (half the skew over maxSkew), then all is
    // within 1. Which two of a's three equal pods is Go's sort: compared per node.
    const std::string plugin = "RemovePodsViolatingTopologySpreadConstraint";
    DryRun kd = s.kdesched({plugin, "balance", "{}"});
    INFO(kd.output.substr(0, 6000));
    CHECK(kd.exit_code == 0);
    CHECK(kd.per_node == std::map<std::string, int>{{"three-a", 2}});
    CHECK(kd.pods.count(ns + "/a-pinned") == 0);
    if (auto up = s.upstream({plugin, "balance", "{}"})) {
        INFO("upstream:\n" << up->output.substr(0, 6000));
        CHECK(up->exit_code == 0);
        CHECK(up->per_node == kd.per_node);
        CHECK(up->pods.count(ns + "/a-pinned") == 0);
    }
}

void low_drains_to_target() {
    kd_test::Envtest* env = kd_test::Envtest::get("LowNodeUtilization on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-low");
    const std::string ns = s.ns();
    // low-1: six pods of 500m of 4000m (75% > 50%); low-2: one of 100m (2.5% < 20%). Two evictions
    // take low-1 to 2000m, at its target and no longer over it. Pods leave BestEffort, Burstable,
    // Guaranteed: the two Burstable ones go, whatever the node's pod order.
    std::vector<std::string> objects = {node("low-1", 4000), node("low-2", 4000), replica_set(ns, "web"),
                                        pod({ns, "small", "low-2", "web", "", kd_test::sigs::requests(100)})};
    for (const char* name :
         {"guaranteed-1", "guaranteed-2", "burstable-1", "guaranteed-3", "burstable-2", "guaranteed-4"})
        objects.push_back(pod({ns, name, "low-1", "web", "",
                               kd_test::sigs::requests(500, std::string(name).rfind("guaranteed", 0) == 0)}));
    s.load(kd_test::sigs::list(objects));
    check_same(s,
               {"LowNodeUtilization", "balance",
                R"({"thresholds": {"cpu": 20, "memory": 20, "pods": 20}, )"
                R"("targetThresholds": {"cpu": 50, "memory": 50, "pods": 50}})"},
               s.keys({"burstable-1", "burstable-2"}));
}

void low_node_order() {
    kd_test::Envtest* env = kd_test::Envtest::get("LowNodeUtilization's node order on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-low-order");
    const std::string ns = s.ns();
    using kd_test::sigs::requests;
    // cpu-heavy: 3500m (87.5%); memory-heavy: 2500m (62.5%) but 4Gi: cpu millicores + memory bytes
    // puts it first. spare: 1000m (25% ≤ 30%) has 1000m of room up to its 50% target, so after one
    // pod of 1000m no room is left and the other node keeps its pods.
    s.load(kd_test::sigs::list({node("cpu-heavy", 4000), node("memory-heavy", 4000), node("spare", 4000),
                                replica_set(ns, "web"), pod({ns, "spare-1", "spare", "web", "", requests(1000, true)}),
                                pod({ns, "cpu-1", "cpu-heavy", "web", "", requests(1000)}),
                                pod({ns, "cpu-2", "cpu-heavy", "web", "", requests(1000)}),
                                pod({ns, "cpu-3", "cpu-heavy", "web", "", requests(1500)}),
                                pod({ns, "memory-1", "memory-heavy", "web", "", requests(1500, true, "4Gi")}),
                                pod({ns, "memory-2", "memory-heavy", "web", "", requests(1000)})}));
    check_same(s,
               {"LowNodeUtilization", "balance",
                R"({"thresholds": {"cpu": 30, "memory": 30}, "targetThresholds": {"cpu": 50, "memory": 60}})"},
               s.keys({"memory-2"}));
}

void low_deviation() {
    kd_test::Envtest* env = kd_test::Envtest::get("LowNodeUtilization's deviation thresholds on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-low-deviation");
    const std::string ns = s.ns();
    using kd_test::sigs::requests;
    // cpu 10%, 50%, 90%: the average is 50%, so under 40% is low and over 60% high. dev-high's
    // six 600m pods: two go (3600m -> 2400m, 60%, no longer over), the Burstable ones.
    std::vector<std::string> objects = {node("dev-low", 4000),
                                        node("dev-mid", 4000),
                                        node("dev-high", 4000),
                                        replica_set(ns, "web"),
                                        pod({ns, "low-1", "dev-low", "web", "", requests(400, true)}),
                                        pod({ns, "mid-1", "dev-mid", "web", "", requests(1000, true)}),
                                        pod({ns, "mid-2", "dev-mid", "web", "", requests(1000, true)})};
    for (const char* name : {"high-g1", "high-b1", "high-g2", "high-g3", "high-b2", "high-g4"})
        objects.push_back(
            pod({ns, name, "dev-high", "web", "", requests(600, std::string(name).rfind("high-g", 0) == 0)}));
    s.load(kd_test::sigs::list(objects));
    check_same(s,
               {"LowNodeUtilization", "balance",
                R"({"useDeviationThresholds": true, "thresholds": {"cpu": 10}, "targetThresholds": {"cpu": 10}})"},
               s.keys({"high-b1", "high-b2"}));
}

void high_empties_node() {
    kd_test::Envtest* env = kd_test::Envtest::get("HighNodeUtilization on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-high");
    const std::string ns = s.ns();
    // high-1: two pods of 200m of 4000m (10% ≤ 20%): emptied; high-2: 2000m (50%) takes them.
    s.load(kd_test::sigs::list({node("high-1", 4000), node("high-2", 4000), replica_set(ns, "web"),
                                pod({ns, "light-1", "high-1", "web", "", kd_test::sigs::requests(200)}),
                                pod({ns, "light-2", "high-1", "web", "", kd_test::sigs::requests(200)}),
                                pod({ns, "heavy", "high-2", "web", "", kd_test::sigs::requests(2000)})}));
    check_same(s, {"HighNodeUtilization", "balance", R"({"thresholds": {"cpu": 20, "memory": 20}})"},
               s.keys({"light-1", "light-2"}));
}

void high_node_order() {
    kd_test::Envtest* env = kd_test::Envtest::get("HighNodeUtilization's node order on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-high-order");
    const std::string ns = s.ns();
    using kd_test::sigs::requests;
    // full: 3700m of 4000m, 300m of room. cpu-light (200m, 1Gi) and memory-light (400m, 64Mi) are
    // both at or under 20% cpu; millicores + memory bytes puts memory-light first. Its pod takes
    // the room (300m - 400m < 0) and the eviction stops: cpu-light keeps its pod.
    s.load(kd_test::sigs::list({node("full", 4000), node("cpu-light", 4000), node("memory-light", 4000),
                                replica_set(ns, "web"), pod({ns, "full-1", "full", "web", "", requests(3700)}),
                                pod({ns, "cpu-light-1", "cpu-light", "web", "", requests(200, false, "1Gi")}),
                                pod({ns, "memory-light-1", "memory-light", "web", "", requests(400)})}));
    check_same(s, {"HighNodeUtilization", "balance", R"({"thresholds": {"cpu": 20}})"}, s.keys({"memory-light-1"}));
}

void taints_intolerant() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemovePodsViolatingNodeTaints on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-taints");
    const std::string ns = s.ns();
    PodSpec tolerates{ns, "tolerates", "tainted", "web"};
    tolerates.spec_extra =
        R"("tolerations":[{"key":"dedicated","operator":"Equal","value":"gpu","effect":"NoSchedule"}])";
    PodSpec exists{ns, "tolerates-any", "tainted", "web"};
    exists.spec_extra = R"("tolerations":[{"key":"dedicated","operator":"Exists"}])";
    PodSpec failed{ns, "failed-intolerant", "tainted", "web"};
    failed.status = kd_test::sigs::failed("", "Error", 1);
    s.load(kd_test::sigs::list(
        {node("tainted", 4000, "", R"([{"key":"dedicated","value":"gpu","effect":"NoSchedule"}])"),
         node("preferred", 4000, "", R"([{"key":"spot","value":"true","effect":"PreferNoSchedule"}])"),
         replica_set(ns, "web"), pod(tolerates), pod(exists), pod(failed), pod({ns, "intolerant", "tainted", "web"}),
         pod({ns, "plain", "preferred", "web"})}));
    // PreferNoSchedule does not count without includePreferNoSchedule: "plain" stays.
    const Policy policy{"RemovePodsViolatingNodeTaints", "deschedule", "{}"};
    DryRun kd = s.kdesched(policy);
    INFO(kd.output.substr(0, 6000));
    CHECK(kd.exit_code == 0);
    CHECK(kd.pods == s.keys({"intolerant"}));
    if (auto up = s.upstream(policy)) {
        INFO("upstream:\n" << up->output.substr(0, 6000));
        CHECK(up->exit_code == 0);
        // v0.32.2 also takes Failed pods; v0.35.1 (kdesched) leaves them (sig-descheduler README).
        CHECK(up->pods == s.keys({"intolerant", "failed-intolerant"}));
    }
}

void affinity_required() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemovePodsViolatingNodeAffinity on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-affinity");
    const std::string ns = s.ns();
    auto requiring = [&](const char* name, const char* node_name, const char* disk) {
        PodSpec p{ns, name, node_name, "web"};
        p.spec_extra = std::string(R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)") +
                       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"disk","operator":"In","values":[")" +
                       disk + R"("]}]}]}}})";
        return pod(p);
    };
    // A nodeSelector alone is not this plugin's (as upstream): "selector-ssd" stays on hdd.
    PodSpec selector{ns, "selector-ssd", "hdd", "web"};
    selector.spec_extra = R"("nodeSelector":{"disk":"ssd"})";
    s.load(kd_test::sigs::list({node("hdd", 4000, R"("disk":"hdd")"), node("ssd", 4000, R"("disk":"ssd")"),
                                replica_set(ns, "web"), requiring("wants-ssd", "hdd", "ssd"),
                                requiring("on-ssd", "ssd", "ssd"), requiring("wants-nvme", "hdd", "nvme"),
                                pod(selector)}));
    // wants-ssd fits ssd; wants-nvme fits no node, so evicting it would not help.
    check_same(s,
               {"RemovePodsViolatingNodeAffinity", "deschedule",
                R"({"nodeAffinityType": ["requiredDuringSchedulingIgnoredDuringExecution"]})"},
               s.keys({"wants-ssd"}));
}

void taints_excluded() {
    kd_test::Envtest* env =
        kd_test::Envtest::get("RemovePodsViolatingNodeTaints's excludedTaints on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-taints-excluded");
    const std::string ns = s.ns();
    auto tolerating = [&](const char* name, const char* key) {
        PodSpec p{ns, name, "two-taints", "web"};
        p.spec_extra = std::string(R"("tolerations":[{"key":")") + key + R"(","operator":"Exists"}])";
        return pod(p);
    };
    // "maintenance" (a taint without a value, named by its key) does not count: only "dedicated" does.
    s.load(kd_test::sigs::list(
        {node(
             "two-taints", 4000, "",
             R"([{"key":"dedicated","value":"gpu","effect":"NoSchedule"},{"key":"maintenance","effect":"NoSchedule"}])"),
         node("clean", 4000), replica_set(ns, "web"), tolerating("tolerates-dedicated", "dedicated"),
         tolerating("tolerates-maintenance", "maintenance")}));
    check_same(s, {"RemovePodsViolatingNodeTaints", "deschedule", R"({"excludedTaints": ["maintenance"]})"},
               s.keys({"tolerates-maintenance"}));
}

void affinity_preferred() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemovePodsViolatingNodeAffinity's preferred type");
    if (!env) return;
    Scenario s(*env, "sigs-affinity-preferred");
    const std::string ns = s.ns();
    auto preferring = [&](const char* name, const char* node_name) {
        PodSpec p{ns, name, node_name, "web"};
        p.spec_extra = R"("affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":10,)"
                       R"("preference":{"matchExpressions":[{"key":"disk","operator":"In","values":["ssd"]}]}}]}})";
        return pod(p);
    };
    // On hdd, ssd weighs 10 against 0 and fits: it goes; on ssd it is where it prefers to be.
    s.load(kd_test::sigs::list({node("pref-hdd", 4000, R"("disk":"hdd")"), node("pref-ssd", 4000, R"("disk":"ssd")"),
                                replica_set(ns, "web"), preferring("prefers-ssd", "pref-hdd"),
                                preferring("on-ssd", "pref-ssd"), pod({ns, "indifferent", "pref-hdd", "web"})}));
    check_same(s,
               {"RemovePodsViolatingNodeAffinity", "deschedule",
                R"({"nodeAffinityType": ["preferredDuringSchedulingIgnoredDuringExecution"]})"},
               s.keys({"prefers-ssd"}));
}

void anti_affinity() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemovePodsViolatingInterPodAntiAffinity on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-anti");
    const std::string ns = s.ns();
    const std::string away_from_db =
        R"("affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":)"
        R"({"matchLabels":{"app":"db"}},"topologyKey":"kubernetes.io/hostname"}]}})";
    PodSpec beside{ns, "web-beside-db", "anti-1", "web"};
    beside.spec_extra = away_from_db;
    PodSpec apart{ns, "web-apart", "anti-2", "web"};
    apart.spec_extra = away_from_db;
    s.load(
        kd_test::sigs::list({node("anti-1", 4000), node("anti-2", 4000), replica_set(ns, "web"), replica_set(ns, "db"),
                             pod({ns, "db-1", "anti-1", "db", R"("app":"db")"}), pod(beside), pod(apart)}));
    check_same(s, {"RemovePodsViolatingInterPodAntiAffinity", "deschedule", "{}"}, s.keys({"web-beside-db"}));
}

void duplicates() {
    kd_test::Envtest* env = kd_test::Envtest::get("RemoveDuplicates on a real API server");
    if (!env) return;
    Scenario s(*env, "sigs-duplicates");
    const std::string ns = s.ns();
    // web: three of one ReplicaSet on dup-1, two nodes: a node keeps ceil(3/2) = 2, one goes. api:
    // one pod per node, no duplicate. Which web pod goes is upstream's map order: per node.
    s.load(kd_test::sigs::list({node("dup-1", 4000), node("dup-2", 4000), replica_set(ns, "web"),
                                replica_set(ns, "api"), pod({ns, "web-1", "dup-1", "web"}),
                                pod({ns, "web-2", "dup-1", "web"}), pod({ns, "web-3", "dup-1", "web"}),
                                pod({ns, "api-1", "dup-1", "api"}), pod({ns, "api-2", "dup-2", "api"})}));
    const Policy policy{"RemoveDuplicates", "balance", "{}"};
    DryRun kd = s.kdesched(policy);
    INFO(kd.output.substr(0, 6000));
    CHECK(kd.exit_code == 0);
    CHECK(kd.per_node == std::map<std::string, int>{{"dup-1", 1}});
    CHECK(kd.pods.size() == 1);
    CHECK(kd.pods.begin()->rfind(ns + "/web-", 0) == 0);
    if (auto up = s.upstream(policy)) {
        INFO("upstream:\n" << up->output.substr(0, 6000));
        CHECK(up->exit_code == 0);
        CHECK(up->per_node == kd.per_node);
        CHECK(up->pods.size() == 1);
        CHECK(up->pods.begin()->rfind(ns + "/web-", 0) == 0);
    }
}

}  // namespace

// Runs without a server: the two binaries' dry-run lines, as each prints them, are read alike.
TEST_CASE("The dry-run eviction lines of kdesched and of the upstream binary are read alike", "[sigs]") {
    BoundedResult r;
    r.exit_code = 0;
    r.output =
        "[2026-11-27 18:02:17.602] [kdesched] [info] Evicted pod in dry run mode pod=plt/old1 reason=\"pod "
        "matches PodLifeTime's criteria\" strategy=PodLifeTime node=n1\n"
        "I1127 17:56:10.726747    2259 evictions.go:549] \"Evicted pod in dry run mode\" pod=\"plt/old2\" "
        "reason=\"\" strategy=\"PodLifeTime\" node=\"n2\" profile=\"p\"\n"
        "I1127 17:56:10.726832    2259 profile.go:332] \"Total number of evictions/requests\" evictedPods=2\n";
    DryRun d = kd_test::sigs::parse_dry_run(r, 1.5);
    CHECK(d.pods == std::set<std::string>{"plt/old1", "plt/old2"});
    CHECK(d.per_node == std::map<std::string, int>{{"n1", 1}, {"n2", 1}});
    CHECK(d.seconds == 1.5);
}

// The scenarios as sections of four test cases: a test case is a process, and each process starts
// and stops its own server (about 9 s), which would otherwise take most of the time.
TEST_CASE("The kubernetes-sigs plugins on a real API server, as upstream: age and status", "[envtest][sigs]") {
    SECTION("PodLifeTime: the pods older than maxPodLifeTimeSeconds") {
        lifetime_old_pods();
    }
    SECTION("PodLifeTime: DefaultEvictor's rules decide among old pods") {
        lifetime_evictor_rules();
    }
    SECTION("PodLifeTime: DefaultEvictor's ignorePodsWithoutPDB keeps the pods no PodDisruptionBudget covers") {
        lifetime_evictor_pdbs();
    }
    SECTION("PodLifeTime: states: the phase or a container's waiting reason") {
        lifetime_states();
    }
    SECTION("PodLifeTime: DefaultEvictor's nodeFit: requests and nodeSelector on the other nodes") {
        lifetime_node_fit();
    }
    SECTION("RemoveFailedPods: Failed pods with a listed reason") {
        failed_reasons();
    }
    SECTION("RemoveFailedPods: exit codes, init containers and excluded owner kinds") {
        failed_exit_codes();
    }
    SECTION("RemovePodsHavingTooManyRestarts: restarts at the threshold or more") {
        restarts_threshold();
    }
    SECTION(
        "RemovePodsHavingTooManyRestarts: one eviction per node takes the most restarted pod (v0.35.1; v0.32.2 does "
        "not sort)") {
        restarts_order();
    }
    SECTION("RemovePodsHavingTooManyRestarts: states and init containers") {
        restarts_states();
    }
}

TEST_CASE("The kubernetes-sigs plugins on a real API server, as upstream: placement", "[envtest][sigs]") {
    SECTION(
        "RemovePodsViolatingNodeTaints: pods not tolerating their node's NoSchedule taint (v0.32.2 also takes Failed "
        "pods)") {
        taints_intolerant();
    }
    SECTION(
        "RemovePodsViolatingNodeAffinity: a required node affinity its node no longer matches, when another node "
        "fits") {
        affinity_required();
    }
    SECTION("RemovePodsViolatingNodeTaints: excludedTaints") {
        taints_excluded();
    }
    SECTION("RemovePodsViolatingNodeAffinity: preferred terms, a heavier node that fits") {
        affinity_preferred();
    }
    SECTION("RemovePodsViolatingInterPodAntiAffinity: a pod beside one its required anti-affinity excludes") {
        anti_affinity();
    }
}

TEST_CASE("The kubernetes-sigs plugins on a real API server, as upstream: spreading", "[envtest][sigs]") {
    SECTION("RemovePodsViolatingTopologySpreadConstraint: 3/1 over two zones evened once") {
        spread_zones();
    }
    SECTION(
        "RemovePodsViolatingTopologySpreadConstraint: the domain gives its highest-priority pod (v0.35.1; v0.32.2 "
        "ignores priority)") {
        spread_priority();
    }
    SECTION(
        "RemovePodsViolatingTopologySpreadConstraint: 4/1/0 over three zones: two leave zone a, never its pod bound "
        "there") {
        spread_three_zones();
    }
    SECTION("RemoveDuplicates: three of one ReplicaSet on one of two nodes: one goes") {
        duplicates();
    }
}

TEST_CASE("The kubernetes-sigs plugins on a real API server, as upstream: utilization", "[envtest][sigs]") {
    SECTION("LowNodeUtilization: an overutilized node drained to its target into an underutilized one") {
        low_drains_to_target();
    }
    SECTION("LowNodeUtilization: of two overutilized nodes, the one with more memory bytes goes first") {
        low_node_order();
    }
    SECTION("LowNodeUtilization: deviation thresholds around the average") {
        low_deviation();
    }
    SECTION("HighNodeUtilization: an underutilized node emptied into another") {
        high_empties_node();
    }
    SECTION(
        "HighNodeUtilization: the underutilized node with fewer memory bytes is emptied first while there is room") {
        high_node_order();
    }
}
