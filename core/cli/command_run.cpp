// `kdesched run`: the descheduler as a cluster daemon.
#include "cli/json_log_format.hpp"
#include "cli/live_cluster.hpp"
#include "cli/secure_serving_flags.hpp"
#include "cli/subcommand.hpp"
#include "cli/upstream_run_flags.hpp"
#include "daemon/daemon.hpp"
#include "error.hpp"

#include <spdlog/spdlog.h>

#include <iostream>

namespace kd::cli {

namespace {

struct RunOptions {
    std::string config;               // required: the DeschedulerConfiguration
    ClusterOptions cluster;           // --kubeconfig / --context (default: the profile's, $KUBECONFIG, in-cluster)
    std::string log_format = "text";  // validated here; main.cpp reads it first (asks_json_logs)
    std::string log_level = "info";   // a daemon says what it does; the other commands only warn
    UpstreamRunFlags upstream;        // kubernetes-sigs/descheduler's and component-base's flags
    SecureServingFlags secure;        // the secure port (HTTPS)
};

int run_daemon(const CommonOptions& opts, const RunOptions& run) {
    spdlog::set_level(spdlog::level::from_str(run.log_level));
    core::daemon::block_stop_signals();  // before any thread (cpprest's pool, reflectors) starts
    try {
        core::DeschedulerConfiguration cfg = load_config(run.config);
        if (std::string problem = apply_upstream_run_flags(run.upstream, cfg); !problem.empty()) {
            report_error(problem);
            return kUsage;
        }
        core::daemon::DaemonOptions daemon;
        try {
            daemon.secure = secure_serving_of(run.secure);
        } catch (const core::Error& e) {  // a flag's value: a usage error, as a bad duration is
            report_error(e.what());
            return kUsage;
        }
        core::PluginCatalog catalog = load_plugins(opts);
        std::unique_ptr<core::kube::ApiClient> client = connect(run.cluster, cfg);
        return core::daemon::run_daemon(cfg, catalog, *client, daemon);
    } catch (const core::Error& e) {
        report_error(e.what());
        return kInvalidInput;
    }
}

const SubcommandRegistration run_registration(
    {60, [](CLI::App& app, CommonOptions& common) -> SubcommandRun {
         auto* cmd = app.add_subcommand(
             "run",
             "Run as the cluster's descheduler: read the cluster through the API server (list + watch), run the "
             "profiles every deschedulingInterval as the elected leader, write evictions, PodMigrationJobs, "
             "Reservations and Events; /healthz, /readyz and /metrics on the profile's bind addresses");
         auto run = std::make_shared<RunOptions>();
         cmd->add_option("--config", run->config,
                         "DeschedulerConfiguration YAML, a kubernetes-sigs/descheduler DeschedulerPolicy "
                         "(descheduler/v1alpha2), or a ConfigMap holding either")
             ->required();
         cmd->add_option("--kubeconfig", run->cluster.kubeconfig,
                         "kubeconfig file (default: the profile's clientConnection.kubeconfig, $KUBECONFIG, "
                         "~/.kube/config, or the pod's service account)");
         cmd->add_option("--context", run->cluster.context, "The kubeconfig context (default: its current-context)");
         cmd->add_option("--log-format", run->log_format, "text or json (one JSON object per line)")
             ->check(CLI::IsMember({"text", "json"}))
             ->capture_default_str();
         add_upstream_run_flags(*cmd, run->upstream);
         add_secure_serving_flags(*cmd, run->secure);
         add_plugin_dir_options(*cmd, common);
         add_log_level_option(*cmd, run->log_level);
         return [&common, run] { return run_daemon(common, *run); };
     }});

}  // namespace

}  // namespace kd::cli
