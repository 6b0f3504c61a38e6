// kdesched-generate: writes a synthetic cluster snapshot for `kdesched simulate` and the benchmarks.
#include "generate/cluster_generator.hpp"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

int main(int argc, char** argv) {
    kd::tools::GeneratorOptions o;
    std::string output = "-";
    CLI::App app{
        "kdesched-generate: write a synthetic cluster snapshot (a JSON List) for kdesched simulate and the "
        "benchmarks"};
    app.add_option("--nodes", o.nodes, "Number of nodes")->check(CLI::PositiveNumber)->capture_default_str();
    app.add_option("--pods", o.pods, "Number of pods (one DaemonSet pod per node included)")->capture_default_str();
    app.add_option("--hot-share", o.hot_share, "Share of nodes whose pods run hot (0-1)")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    app.add_option("--seed", o.seed, "Random seed")->capture_default_str();
    app.add_flag("--managed-fields", o.managed_fields,
                 "Give pods the metadata.managedFields an API server adds (~6 KB a pod instead of ~2 KB)");
    app.add_flag("--descheduler-fields", o.descheduler_fields,
                 "Give pods what the kubernetes-sigs plugins read: zone spread constraints, anti-affinity, restarts, "
                 "Failed pods (kdesched-bench --sigs)");
    app.add_option("-o,--output", output, "Output file, - for stdout")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    std::ofstream file;
    std::ostream* out = &std::cout;
    if (output != "-") {
        file.open(output, std::ios::binary);
        if (!file) {
            std::cerr << output << ": cannot open for writing\n";
            return 1;
        }
        out = &file;
    }
    kd::tools::generate_cluster(*out, o);
    return out->good() ? 0 : 1;
}
