// `kdesched run`: the descheduler as a cluster daemon.
#include "cli/live_cluster.hpp"
#include "cli/subcommand.hpp"
#include "cli/upstream_run_flags.hpp"
#include "daemon/daemon.hpp"
#include "error.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

#include <iostream>

namespace kd::cli {

namespace {

struct RunOptions {
    std::string config;      // required: the DeschedulerConfiguration
    ClusterOptions cluster;  // --kubeconfig / --context (default: the profile's, $KUBECONFIG, in-cluster)
    std::string log_format = "text";
    std::string log_level = "info";  // a daemon says what it does; the other commands only warn
    UpstreamRunFlags upstream;       // kubernetes-sigs/descheduler's and component-base's flags
};

// %j: the message as a JSON string's contents (quotes, backslashes and control bytes escaped), so
// that --log-format json prints one valid JSON object per line.
class JsonMessageFlag : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
        static const char* hex = "0123456789abcdef";
        for (char c : std::string_view(msg.payload.data(), msg.payload.size())) {
            switch (c) {
                case '"':
                    dest.append(std::string_view("\\\""));
                    break;
                case '\\':
                    dest.append(std::string_view("\\\\"));
                    break;
                case '\n':
                    dest.append(std::string_view("\\n"));
                    break;
                case '\t':
                    dest.append(std::string_view("\\t"));
                    break;
                default:
                    if (static_cast<unsigned char>(c) < 0x20) {
                        char u[6] = {'\\', 'u', '0', '0', hex[(c >> 4) & 0xf], hex[c & 0xf]};
                        dest.append(std::string_view(u, 6));
                    } else {
                        dest.push_back(c);
                    }
            }
        }
    }
    std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<JsonMessageFlag>(); }
};

// --log-format json: one JSON object per log line.
void set_log_format(const std::string& format) {
    if (format != "json") return;
    auto f = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
    f->add_flag<JsonMessageFlag>('j').set_pattern(R"({"ts":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","msg":"%j"})");
    spdlog::set_formatter(std::move(f));
}

int run_daemon(const CommonOptions& opts, const RunOptions& run) {
    spdlog::set_level(spdlog::level::from_str(run.log_level));
    set_log_format(run.log_format);
    core::daemon::block_stop_signals();  // before any thread (cpprest's pool, reflectors) starts
    try {
        core::DeschedulerConfiguration cfg = load_config(run.config);
        if (std::string problem = apply_upstream_run_flags(run.upstream, cfg); !problem.empty()) {
            std::cerr << problem << "\n";
            return kUsage;
        }
        core::PluginCatalog catalog = load_plugins(opts);
        std::unique_ptr<core::kube::ApiClient> client = connect(run.cluster, cfg);
        return core::daemon::run_daemon(cfg, catalog, *client);
    } catch (const core::Error& e) {
        std::cerr << e.what() << "\n";
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
         add_plugin_dir_options(*cmd, common);
         add_log_level_option(*cmd, run->log_level);
         return [&common, run] { return run_daemon(common, *run); };
     }});

}  // namespace

}  // namespace kd::cli
