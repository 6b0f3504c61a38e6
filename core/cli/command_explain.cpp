// `kdesched explain`: why pods stayed, from the running leader's /debug/explain (its last cycle,
// with everything it remembers) or, when no leader answers, from one cycle simulated on the
// cluster as read now, saying what that cannot know.
#include "cli/live_cluster.hpp"
#include "cli/subcommand.hpp"
#include "cluster/cluster_model.hpp"
#include "daemon/lease_record.hpp"
#include "daemon/wall_clock.hpp"
#include "error.hpp"
#include "net/http_client.hpp"
#include "net/query_string.hpp"
#include "simulator/simulation.hpp"
#include "text/json_writer.hpp"

#include <kdesched/rfc3339.hpp>

#include <rapidjson/document.h>

#include <iostream>
#include <optional>

namespace kd::cli {

namespace {

struct ExplainOptions {
    std::string config;  // the profile the daemon runs: where its Lease is
    ClusterOptions live;
    std::string url;  // a kdesched's metrics address, asked directly
    std::string pod;  // namespace/name: that pod's line only
    std::string output = "text";
    std::string ns = "kdesched-system";  // where kdesched's pods run
    int port = 10251;
};

// What a simulated cycle starts without: the leader's memory.
const std::vector<std::string> kNotKnown = {
    "LowNodeLoad's anomaly counters start from zero (the daemon counts consecutive overloaded cycles per node)",
    "MigrationController's rate limiter, arbitration queue and running migrations' progress start empty",
    "the per-node, per-namespace and total eviction limits count from zero",
};

std::string query(const ExplainOptions& o) {
    std::string q = "format=" + std::string(o.output == "json" ? "json" : "text");
    if (!o.pod.empty()) q += "&pod=" + core::net::query_escape(o.pod);
    return q;
}

// The answer's JSON with `source` (and what it cannot know) added in front.
std::string with_source(const std::string& body, const std::string& source, const std::string& why = "",
                        bool simulated = false) {
    rapidjson::Document doc;
    doc.Parse(body.c_str(), body.size());
    if (doc.HasParseError() || !doc.IsObject()) return body;
    rapidjson::Document out(rapidjson::kObjectType);
    auto& a = out.GetAllocator();
    out.AddMember("source", rapidjson::Value(source.c_str(), a), a);
    if (!why.empty()) out.AddMember("noLeader", rapidjson::Value(why.c_str(), a), a);
    if (simulated) {
        rapidjson::Value list(rapidjson::kArrayType);
        for (const auto& n : kNotKnown) list.PushBack(rapidjson::Value(n.c_str(), a), a);
        out.AddMember("notKnown", list, a);
    }
    for (auto& m : doc.GetObject()) out.AddMember(rapidjson::Value(m.name, a), rapidjson::Value(m.value, a), a);
    return core::json::text_of(out) + "\n";
}

int from_url(const ExplainOptions& o) {
    std::string base = o.url;
    while (!base.empty() && base.back() == '/') base.pop_back();
    core::net::HttpClient client(base, core::net::ClientConfig{});
    core::net::Response r = client.send({"GET", "/debug/explain?" + query(o), {}, "", ""});
    if (!r.answered() || r.status != 200) {
        std::cerr << "could not read " << base << "/debug/explain: "
                  << (r.answered() ? "HTTP " + std::to_string(r.status) + " " + r.body : r.problem)
                  << "\n  give the address of kdesched's metrics port (kubectl port-forward -n kdesched-system "
                     "deploy/kdesched 10251, then --url http://127.0.0.1:10251)\n";
        return kRuntimeFailure;
    }
    std::cout << (o.output == "json" ? with_source(r.body, base) : r.body);
    return kOk;
}

// The leader's answer through the API server's pod proxy, or nullopt with why not in `why`.
std::optional<std::string> ask_leader(core::kube::ApiClient& client, const core::DeschedulerConfiguration& cfg,
                                      const ExplainOptions& o, std::string& why, std::string& leader) {
    const auto& le = cfg.leaderElection;
    if (!le.leaderElect) {
        why = "leader election is off in the profile, so no Lease names the running replica; give --url";
        return std::nullopt;
    }
    const std::string lease = le.resourceNamespace + "/" + le.resourceName;
    core::kube::ApiResult r =
        client.call({"GET", core::daemon::lease_path(le.resourceNamespace, le.resourceName), {}, "", ""});
    if (r.code == 404) {
        why = "there is no Lease " + lease + ": no kdesched runs with this profile's leaderElection";
        return std::nullopt;
    }
    if (!r.ok()) {
        why = "the Lease " + lease + " could not be read: " + r.describe();
        return std::nullopt;
    }
    core::daemon::LeaseRecord held = core::daemon::parse_lease(r.body);
    if (held.holder.empty()) {
        why = "the Lease " + lease + " has no holder: no replica leads";
        return std::nullopt;
    }
    auto renewed = kd::parse_rfc3339_ms(held.renew_time);
    int64_t duration_s = held.duration_s > 0 ? held.duration_s : 15;
    if (!renewed || *renewed + duration_s * 1000 < core::daemon::unix_ms_now()) {
        why = "the Lease " + lease + "'s holder " + held.holder + " stopped renewing it (renewTime " + held.renew_time +
              ")";
        return std::nullopt;
    }
    const std::string pod = core::daemon::host_of_identity(held.holder);
    leader = o.ns + "/" + pod;
    core::kube::ApiResult a = client.call({"GET",
                                           "/api/v1/namespaces/" + o.ns + "/pods/" + pod + ":" +
                                               std::to_string(o.port) + "/proxy/debug/explain?" + query(o),
                                           {},
                                           "",
                                           ""});
    if (!a.ok()) {
        why = "the leader " + leader + " did not answer through the API server's pod proxy: " + a.describe() +
              " (it needs `get pods/proxy` in " + o.ns + "; or port-forward to it and give --url)";
        return std::nullopt;
    }
    return a.body;
}

int run_explain(const CommonOptions& opts, const ExplainOptions& o) {
    try {
        if (!o.url.empty()) {
            if (o.live.given()) throw core::Error("--url", "give either --url or --kubeconfig/--context, not both");
            return from_url(o);
        }
        core::DeschedulerConfiguration cfg = load_config(o.config);
        std::unique_ptr<core::kube::ApiClient> client = connect(o.live, cfg);
        std::string why, leader;
        if (auto answer = ask_leader(*client, cfg, o, why, leader)) {
            std::cout << (o.output == "json" ? with_source(*answer, "leader " + leader)
                                             : "from the leader " + leader + ":\n" + *answer);
            return kOk;
        }
        core::PluginCatalog catalog = load_plugins(opts);
        core::ClusterModel model;
        if (std::string failure = read_cluster_model(*client, model); !failure.empty()) {
            std::cerr << "no leader answered (" << why << "), and the cluster could not be read: " << failure << "\n";
            return kRuntimeFailure;
        }
        core::SimulationOptions options{1, true, {}, {}, core::daemon::unix_ms_now()};
        core::SimulationReport report = core::simulate(cfg, catalog, model, options);
        core::ExplainCycle cycle;
        if (!report.cycles.empty()) {
            cycle.cycle = report.cycles[0].cycle;
            cycle.time_ms = report.cycles[0].time_ms;
            cycle.rows = report.cycles[0].explain;
        }
        if (o.output == "json") {
            std::cout << with_source(core::explain_json(cycle, o.pod), "simulation", why, true);
        } else {
            std::cout << "no leader answered: " << why
                      << ".\nOne cycle simulated on the cluster as read now instead; it cannot know the leader's "
                         "memory:\n";
            for (const auto& n : kNotKnown) std::cout << "  - " << n << "\n";
            std::cout << core::explain_text(cycle, o.pod);
        }
        return kOk;
    } catch (const core::Error& e) {
        std::cerr << e.what() << "\n";
        return kInvalidInput;
    }
}

const SubcommandRegistration explain_registration(
    {45, [](CLI::App& app, CommonOptions& common) -> SubcommandRun {
         auto* cmd = app.add_subcommand(
             "explain",
             "Why pods were not evicted: the running leader's last cycle (found by the profile's Lease, asked through "
             "the API server's pod proxy), or the kdesched at --url; without a leader, one cycle simulated on the "
             "cluster as read now, saying what it cannot know");
         auto o = std::make_shared<ExplainOptions>();
         cmd->add_option("--config", o->config,
                         "The profile kdesched runs (its leaderElection names the Lease); default: the embedded one");
         cmd->add_option("--kubeconfig", o->live.kubeconfig, "The cluster to ask (default: in-cluster)");
         cmd->add_option("--context", o->live.context, "The kubeconfig context (default: its current-context)");
         cmd->add_option("--url", o->url, "Ask this kdesched directly (its metrics address, e.g. after port-forward)");
         cmd->add_option("--pod", o->pod, "Only this pod's line (namespace/name)");
         cmd->add_option("--namespace", o->ns, "The namespace kdesched's pods run in")->capture_default_str();
         cmd->add_option("--port", o->port, "kdesched's metrics port")->capture_default_str();
         cmd->add_option("--output", o->output, "text or json")
             ->check(CLI::IsMember({"text", "json"}))
             ->capture_default_str();
         add_plugin_dir_options(*cmd, common);
         add_log_level_option(*cmd, common.log_level);
         return [&common, o] { return run_explain(common, *o); };
     }});

}  // namespace

}  // namespace kd::cli
