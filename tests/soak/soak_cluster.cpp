#include "soak_cluster.hpp"

#include "daemon_harness.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>

namespace kd::soak {
namespace {

using kd_test::str;
using kd_test::text_of;

constexpr int kNodes = 6;
constexpr int64_t kNodeCpuMilli = 16000;
constexpr int kHotFactor = 3;

std::string key(const rapidjson::Value& obj) {
    return str(obj, {"metadata", "namespace"}) + "/" + str(obj, {"metadata", "name"});
}

std::string owner_ref(const std::string& kind, const std::string& name, const std::string& uid) {
    return fmt::format(R"({{"apiVersion":"apps/v1","kind":"{}","name":"{}","uid":"{}","controller":true}})", kind, name,
                       uid);
}

double unix_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

bool ready(const rapidjson::Value& pod) {
    const auto& status = pod["status"];
    if (!status.HasMember("conditions")) return false;
    for (const auto& c : status["conditions"].GetArray())
        if (str(c, {"type"}) == "Ready") return str(c, {"status"}) == "True";
    return false;
}

}  // namespace

SoakCluster::SoakCluster(kd_test::FakeApiServer& server, uint64_t seed) : server_(server), dice_(seed) {
    for (int i = 0; i < kNodes; ++i) nodes_.push_back(fmt::format("node-{}", i));
}

rapidjson::Document SoakCluster::objects(const std::string& kind) {
    rapidjson::Document d;
    d.Parse(server_.control("GET", "objects?kind=" + kind).c_str());
    return d;
}

void SoakCluster::add_pod(const std::string& ns, const std::string& name, const std::string& node,
                          const std::string& owner_json, int64_t cpu_usage, const PodExtras& extras, bool ready_now,
                          std::string& out) {
    usage_[ns + "/" + name] = cpu_usage;
    out += (out.size() > 1 ? "," : "") +
           fmt::format(
               R"({{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"{0}","namespace":"{1}","uid":"uid-{1}-{0}",)"
               R"("labels":{{"app":"{0}"}}{2}{3}}},"spec":{{"nodeName":"{4}","schedulerName":"koord-scheduler",)"
               R"("containers":[{{"name":"main","resources":{{"requests":{{"cpu":"1","memory":"2Gi"}}}}}}]{5}}},)"
               R"("status":{{"phase":"Running","conditions":[{{"type":"PodScheduled","status":"True"}},)"
               R"({{"type":"Ready","status":"{6}"}}]}}}})",
               name, ns, owner_json.empty() ? "" : ",\"ownerReferences\":[" + owner_json + "]",
               extras.annotations.empty() ? "" : ",\"annotations\":" + extras.annotations, node,
               extras.volumes.empty() ? "" : ",\"volumes\":" + extras.volumes, ready_now ? "True" : "False");
}

void SoakCluster::load() {
    std::string items = "[";
    auto add = [&](const std::string& json) { items += (items.size() > 1 ? "," : "") + json; };
    for (const auto& n : nodes_)
        add(fmt::format(R"({{"apiVersion":"v1","kind":"Node","metadata":{{"name":"{0}","uid":"uid-{0}",)"
                        R"("labels":{{"kubernetes.io/hostname":"{0}"}}}},"status":{{"allocatable":{{"cpu":"{1}m",)"
                        R"("memory":"64Gi","pods":"110"}},"conditions":[{{"type":"Ready","status":"True"}}]}}}})",
                        n, kNodeCpuMilli));
    for (const char* ns : {"shop", "batch", "kube-system", "koordinator-system"})
        add(fmt::format(R"({{"apiVersion":"v1","kind":"Namespace","metadata":{{"name":"{}"}}}})", ns));
    std::uniform_int_distribution<int64_t> usage(500, 1200);
    std::string pods = "[";
    // Protected wherever they run: a DaemonSet's pods, kube-system's DNS, a bare pod — all busy,
    // so a filter that let them through would see them chosen.
    add(R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent","namespace":"kube-system","uid":"uid-ds-agent"},"spec":{}})");
    for (const auto& n : nodes_) {
        std::string name = "agent-" + n;
        add_pod("kube-system", name, n, owner_ref("DaemonSet", "agent", "uid-ds-agent"), 1500, {}, true, pods);
        protected_.insert("kube-system/" + name);
    }
    add_pod("shop", "debug", nodes_[0], "", 1500, {}, true, pods);
    protected_.insert("shop/debug");
    // Workloads: Deployments through a ReplicaSet; three of them protected by what they are.
    struct Spec {
        std::string ns, name;
        int replicas;
        PodExtras extras;
        std::string why;  // protected because
    };
    std::vector<Spec> specs = {
        {"shop", "web", 6, {}, ""},
        {"shop", "api", 4, {}, ""},
        {"shop", "cart", 3, {}, ""},
        {"batch", "worker", 6, {}, ""},
        {"batch", "report", 4, {}, ""},
        {"kube-system", "dns", 3, {}, "namespace"},
        {"shop", "cache", 3, {"", R"([{"name":"scratch","emptyDir":{}}])"}, "local storage"},
        {"batch", "pinned", 2, {R"({"scheduling.koordinator.sh/eviction-cost":"2147483647"})", ""}, "eviction cost"},
    };
    for (const auto& s : specs) {
        std::string rs = s.name + "-rs", rs_uid = "uid-rs-" + s.ns + "-" + s.name;
        workloads_.push_back({s.ns, s.name, rs_uid, s.replicas});
        add(fmt::format(R"({{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"{0}","namespace":"{1}",)"
                        R"("uid":"uid-deploy-{1}-{0}"}},"spec":{{"replicas":{2}}}}})",
                        s.name, s.ns, s.replicas));
        add(fmt::format(R"({{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{{"name":"{0}","namespace":"{1}",)"
                        R"("uid":"{2}","ownerReferences":[{3}]}},"spec":{{"replicas":{4}}}}})",
                        rs, s.ns, rs_uid, owner_ref("Deployment", s.name, "uid-deploy-" + s.ns + "-" + s.name),
                        s.replicas));
        for (int r = 0; r < s.replicas; ++r) {
            std::string name = fmt::format("{}-{}", s.name, r), node = nodes_[dice_() % nodes_.size()];
            add_pod(s.ns, name, node, owner_ref("ReplicaSet", rs, rs_uid), s.why.empty() ? usage(dice_) : 1500,
                    s.extras, true, pods);
            pod_workload_[s.ns + "/" + name] = workloads_.size() - 1;
            if (!s.why.empty()) protected_.insert(s.ns + "/" + name);
        }
    }
    server_.load(items + "]");
    server_.load(pods + "]");
    for (const auto& n : nodes_)
        server_.load(fmt::format(R"([{{"apiVersion":"slo.koordinator.sh/v1alpha1","kind":"NodeMetric",)"
                                 R"("metadata":{{"name":"{}"}},"spec":{{}},"status":{{}}}}])",
                                 n));
    step(0);
}

void SoakCluster::step(double now_s) {
    if (calm_) {
        hot_node_.clear();
    } else if (now_s >= next_heat_move_s_) {  // koordlet sees another node run hot
        hot_node_ = nodes_[dice_() % nodes_.size()];
        next_heat_move_s_ = now_s + 6 + double(dice_() % 7);
    }
    auto pods = objects("Pod");
    auto reservations = objects("Reservation");
    auto jobs = objects("PodMigrationJob");
    refresh_metrics(pods);
    schedule_reservations(reservations, jobs, pods);
    replace_pods(pods, reservations, now_s);
    make_ready(pods, now_s);
}

void SoakCluster::refresh_metrics(const rapidjson::Document& pods) {
    std::map<std::string, std::string> pod_metrics;
    std::map<std::string, int64_t> node_cpu;
    for (const auto& p : pods["items"].GetArray()) {
        std::string node = str(p, {"spec", "nodeName"});
        if (node.empty()) continue;
        int64_t cpu = usage_[key(p)] * (node == hot_node_ ? kHotFactor : 1);
        node_cpu[node] += cpu;
        pod_metrics[node] += (pod_metrics[node].empty() ? "" : ",") +
                             fmt::format(R"({{"namespace":"{}","name":"{}","podUsage":{{"resources":{{"cpu":"{}m",)"
                                         R"("memory":"1Gi"}}}}}})",
                                         str(p, {"metadata", "namespace"}), str(p, {"metadata", "name"}), cpu);
    }
    std::string metrics = "[";
    for (const auto& n : nodes_)
        metrics += (metrics.size() > 1 ? "," : "") +
                   fmt::format(
                       R"({{"apiVersion":"slo.koordinator.sh/v1alpha1","kind":"NodeMetric","metadata":{{"name":"{}"}},)"
                       R"("spec":{{}},"status":{{"updateTime":"{}","nodeMetric":{{"nodeUsage":{{"resources":{{}}}},)"
                       R"("systemUsage":{{"resources":{{"cpu":"500m","memory":"2Gi"}}}}}},"podsMetric":[{}]}}}})",
                       n, kd_test::ClusterActor::now(), pod_metrics[n]);
    server_.load(metrics + "]");
}

std::string SoakCluster::least_loaded(const std::string& except, const rapidjson::Document& pods) const {
    std::map<std::string, int64_t> cpu;
    for (const auto& n : nodes_) cpu[n] = 0;
    for (const auto& p : pods["items"].GetArray())
        if (auto it = usage_.find(key(p)); it != usage_.end()) cpu[str(p, {"spec", "nodeName"})] += it->second;
    std::string best;
    for (const auto& n : nodes_)
        if (n != except && n != hot_node_ && (best.empty() || cpu[n] < cpu[best])) best = n;
    return best;
}

void SoakCluster::schedule_reservations(const rapidjson::Document& reservations, const rapidjson::Document& jobs,
                                        const rapidjson::Document& pods) {
    for (const auto& r : reservations["items"].GetArray()) {
        std::string name = str(r, {"metadata", "name"});
        if (!str(r, {"status", "phase"}).empty() || reservations_seen_.count(name)) continue;
        // The node the job's pod is on: the Reservation must go elsewhere.
        std::string source;
        for (const auto& j : jobs["items"].GetArray())
            if (str(j, {"spec", "reservationOptions", "reservationRef", "name"}) == name)
                for (const auto& p : pods["items"].GetArray())
                    if (key(p) == str(j, {"spec", "podRef", "namespace"}) + "/" + str(j, {"spec", "podRef", "name"}))
                        source = str(p, {"spec", "nodeName"});
        reservations_seen_.insert(name);
        std::string head = R"([{"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation","metadata":)" +
                           text_of(r["metadata"]) + R"(,"spec":)" + text_of(r["spec"]);
        if (dice_() % 10 == 0) {  // nothing fits: the job waits for its TTL
            ++unschedulable_;
            server_.load(head +
                         R"(,"status":{"phase":"Pending","conditions":[{"type":"Scheduled","status":"False",)"
                         R"("reason":"Unschedulable","message":"0/6 nodes are available: the soak says no"}]}}])");
            continue;
        }
        server_.load(head + R"(,"status":{"phase":"Available","nodeName":")" + least_loaded(source, pods) +
                     R"(","conditions":[{"type":"Scheduled","status":"True","reason":"Scheduled"},)"
                     R"({"type":"Ready","status":"True","reason":"Available"}]}}])");
    }
}

void SoakCluster::replace_pods(const rapidjson::Document& pods, const rapidjson::Document& reservations, double now_s) {
    std::set<std::string> bound;  // Reservations taken in this round
    for (size_t w = 0; w < workloads_.size(); ++w) {
        const Workload& wl = workloads_[w];
        int have = 0;
        for (const auto& p : pods["items"].GetArray())
            if (p["metadata"].HasMember("ownerReferences") &&
                str(p["metadata"]["ownerReferences"][0], {"uid"}) == wl.rs_uid &&
                !p["metadata"].HasMember("deletionTimestamp"))
                ++have;
        for (; have < wl.replicas; ++have) {
            std::string name = fmt::format("{}-r{}", wl.name, ++replacements_), node;
            // A Reservation held for this workload takes the replacement.
            for (const auto& r : reservations["items"].GetArray()) {
                std::string rname = str(r, {"metadata", "name"});
                if (str(r, {"status", "phase"}) != "Available" || r["status"].HasMember("currentOwners") ||
                    bound.count(rname))
                    continue;
                if (text_of(r["spec"]).find(wl.rs_uid) == std::string::npos) continue;
                node = str(r, {"status", "nodeName"});
                server_.load(R"([{"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation","metadata":)" +
                             text_of(r["metadata"]) + R"(,"spec":)" + text_of(r["spec"]) +
                             R"(,"status":{"phase":"Succeeded","nodeName":")" + node +
                             R"(","conditions":[{"type":"Scheduled","status":"True","reason":"Scheduled"}],)"
                             R"("currentOwners":[{"namespace":")" +
                             wl.ns + R"(","name":")" + name + R"(","uid":"uid-)" + wl.ns + "-" + name + R"("}]}}])");
                bound.insert(rname);
                break;
            }
            if (node.empty()) node = least_loaded("", pods);
            std::string out = "[";
            add_pod(wl.ns, name, node, owner_ref("ReplicaSet", wl.name + "-rs", wl.rs_uid),
                    std::uniform_int_distribution<int64_t>(500, 1200)(dice_), {}, false, out);
            server_.load(out + "]");
            unready_.push_back({w, wl.ns + "/" + name, unix_seconds(), std::numeric_limits<double>::infinity()});
            pod_workload_[wl.ns + "/" + name] = w;
            // Readiness takes 1–6 s: slow enough, at times, for the workload's next migration to
            // come while this pod is not Ready — which maxUnavailablePerWorkload (1) must hold back.
            ready_at_[wl.ns + "/" + name] = now_s + std::uniform_real_distribution<double>(1.0, 6.0)(dice_);
        }
    }
}

void SoakCluster::make_ready(const rapidjson::Document& pods, double now_s) {
    for (const auto& p : pods["items"].GetArray()) {
        auto it = ready_at_.find(key(p));
        if (it == ready_at_.end() || it->second > now_s || ready(p)) continue;
        std::string text = text_of(p);
        const std::string not_ready = R"({"type":"Ready","status":"False"})";
        text.replace(text.find(not_ready), not_ready.size(), R"({"type":"Ready","status":"True"})");
        for (auto& span : unready_)
            if (span.pod == key(p)) span.to = unix_seconds();
        server_.load("[" + text + "]");
        ready_at_.erase(it);
    }
}

}  // namespace kd::soak
