// kdesched: the command line. Subcommands live in command_*.cpp.
#include "cli/commands.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
    using namespace kd::cli;
    CLI::App app{
        "kdesched: a Kubernetes descheduler (koord-descheduler compatible) with run-time loaded plugins.\n"
        "Exit codes: 0 ok, 1 invalid input (config, plugin, cluster file; the message says where),\n"
        "2 bad command line, 3 runtime failure."};
    app.require_subcommand(1);
    CommonOptions opts;
    auto add_common = [&](CLI::App* cmd) {
        cmd->add_option("--plugin-dir", opts.plugin_dirs,
                        "Directory of plugin libraries (*.so); repeatable. The directory next to the binary "
                        "(../lib/kdesched/plugins) is always searched too");
        cmd->add_flag("--no-default-plugin-dir", opts.no_default_plugin_dir,
                      "Do not search the plugin directory next to the binary");
        cmd->add_option("--log-level", opts.log_level, "debug, info, warn or error")
            ->check(CLI::IsMember({"debug", "info", "warn", "error"}))
            ->capture_default_str();
    };
    std::string config;

    auto* validate = app.add_subcommand("validate",
                                        "Check a profiles file: schema, plugins and every plugin's args; "
                                        "prints every problem with file:line:column, or OK");
    validate->add_option("--config", config, "DeschedulerConfiguration YAML (or a ConfigMap holding one)")->required();
    add_common(validate);

    auto* plugins = app.add_subcommand("plugins",
                                       "List the loadable plugins: name, version, API version, "
                                       "extension points, file");
    add_common(plugins);

    auto* plan = app.add_subcommand("plan", "Load a profiles file and the plugins and print what each cycle runs");
    plan->add_option("--config", config, "DeschedulerConfiguration YAML; default: the embedded default profile");
    add_common(plan);

    SimulateOptions sim;
    auto* simulate =
        app.add_subcommand("simulate",
                           "Run the profile's cycles on a cluster snapshot offline; a simulated scheduler, workload "
                           "controllers and koordlet play the rest of the cluster. Without --config/--cluster: the "
                           "embedded default profile on the embedded example cluster");
    simulate->add_option("--config", sim.config,
                         "DeschedulerConfiguration YAML; default: the embedded default profile");
    simulate->add_option("--cluster", sim.clusters,
                         "Snapshot file or directory (kubectl get -o json|yaml output, a List, multi-document "
                         "YAML); repeatable. Dump large clusters with -o json: YAML is ~100x slower to read");
    simulate->add_option("--cycles", sim.cycles, "Number of descheduling cycles")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    simulate->add_option("--output", sim.output, "table or json")
        ->check(CLI::IsMember({"table", "json"}))
        ->capture_default_str();
    simulate->add_option("--kubeconfig", sim.live.kubeconfig,
                         "Simulate on the live cluster this kubeconfig reaches (one LIST per kind, nothing "
                         "written), instead of --cluster");
    simulate->add_option("--context", sim.live.context, "The kubeconfig context (default: its current-context)");
    simulate->add_flag("--explain", sim.explain,
                       "List every considered pod that was not evicted, with the plugin "
                       "and the reason code that stopped it");
    add_common(simulate);

    SnapshotOptions snap;
    auto* snapshot = app.add_subcommand(
        "snapshot",
        "Read what kdesched reads from a live cluster (one LIST per kind) and write it as a snapshot file that "
        "`kdesched simulate --cluster` replays");
    snapshot->add_option("--kubeconfig", snap.cluster.kubeconfig,
                         "kubeconfig file (default: $KUBECONFIG, ~/.kube/config, or the pod's service account)");
    snapshot->add_option("--context", snap.cluster.context, "The kubeconfig context (default: its current-context)");
    snapshot->add_option("-o,--output", snap.output, "Snapshot file to write (default: stdout)");
    snapshot->add_flag("--digest", snap.digest,
                       "Write instead the digest of what was read, kind by kind (count and a hash of every field "
                       "kdesched keeps): equal to a running daemon's GET /debug/model when its model is up to date");
    snapshot->add_option("--config", snap.config,
                         "Profile whose clientConnection (kubeconfig, qps, burst) to use; default: the embedded one");
    snapshot->add_option("--log-level", opts.log_level, "debug, info, warn or error")
        ->check(CLI::IsMember({"debug", "info", "warn", "error"}))
        ->capture_default_str();

    RunOptions run;
    std::string run_log_level = "info";
    auto* daemon = app.add_subcommand(
        "run",
        "Run as the cluster's descheduler: read the cluster through the API server (list + watch), run the "
        "profiles every deschedulingInterval as the elected leader, write evictions, PodMigrationJobs, "
        "Reservations and Events; /healthz, /readyz and /metrics on the profile's bind addresses");
    daemon->add_option("--config", run.config, "DeschedulerConfiguration YAML (or a ConfigMap holding one)")
        ->required();
    daemon->add_option("--kubeconfig", run.cluster.kubeconfig,
                       "kubeconfig file (default: the profile's clientConnection.kubeconfig, $KUBECONFIG, "
                       "~/.kube/config, or the pod's service account)");
    daemon->add_option("--context", run.cluster.context, "The kubeconfig context (default: its current-context)");
    daemon->add_option("--log-format", run.log_format, "text or json (one JSON object per line)")
        ->check(CLI::IsMember({"text", "json"}))
        ->capture_default_str();
    daemon->add_option("--plugin-dir", opts.plugin_dirs,
                       "Directory of plugin libraries (*.so); repeatable. The directory next to the binary "
                       "(../lib/kdesched/plugins) is always searched too");
    daemon->add_flag("--no-default-plugin-dir", opts.no_default_plugin_dir,
                     "Do not search the plugin directory next to the binary");
    daemon->add_option("--log-level", run_log_level, "debug, info, warn or error")
        ->check(CLI::IsMember({"debug", "info", "warn", "error"}))
        ->capture_default_str();

    auto* version = app.add_subcommand("version", "Print the kdesched version and its plugin API version");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? kOk : kUsage;
    }
    // Logs go to stderr: stdout carries the report (`--output json` must stay valid JSON).
    spdlog::set_default_logger(spdlog::stderr_color_mt("kdesched"));
    spdlog::set_level(spdlog::level::from_str(daemon->parsed() ? run_log_level : opts.log_level));
    if (daemon->parsed()) set_log_format(run.log_format);
    try {
        if (validate->parsed()) return run_validate(opts, config);
        if (plugins->parsed()) return run_plugins(opts);
        if (plan->parsed()) return run_plan(opts, config);
        if (simulate->parsed()) return run_simulate(opts, sim);
        if (snapshot->parsed()) return run_snapshot(snap);
        if (daemon->parsed()) return run_daemon(opts, run);
        if (version->parsed()) return run_version();
    } catch (const std::exception& e) {
        // Commands report their own errors; anything reaching here is a defect of kdesched.
        spdlog::critical("internal error: {} (please report it with the command line and its input)", e.what());
        return kRuntimeFailure;
    }
    return kUsage;
}
