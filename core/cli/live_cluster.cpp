#include "cli/live_cluster.hpp"

#include "kube/client/kubeconfig.hpp"
#include "kube/watch/cluster_sync.hpp"
#include "kube/watch/model_feeder.hpp"

#include <spdlog/spdlog.h>

namespace kd::cli {

std::unique_ptr<core::kube::ApiClient> connect(const ClusterOptions& options, const core::DeschedulerConfiguration& cfg,
                                               Encodings encodings) {
    core::kube::Connection connection =
        core::kube::load_connection({options.kubeconfig, options.context, cfg.clientConnection.kubeconfig});
    for (const auto& w : connection.warnings) spdlog::warn("{}", w);
    spdlog::info("API server {} ({})", connection.server, connection.source);
    core::kube::ClientOptions client;
    client.qps = cfg.clientConnection.qps;
    client.burst = cfg.clientConnection.burst;
    // client-go's rule: Accept is acceptContentTypes, else contentType.
    const auto& cc = cfg.clientConnection;
    client.accept = encodings == Encodings::json_only ? "application/json"
                    : !cc.acceptContentTypes.empty()  ? cc.acceptContentTypes
                    : !cc.contentType.empty()         ? cc.contentType
                                                      : "application/json";
    return std::make_unique<core::kube::ApiClient>(std::move(connection), client);
}

std::string read_cluster_once(core::kube::ApiClient& client,
                              const std::function<void(std::vector<core::kube::Change>&)>& consume) {
    core::kube::ClusterSync sync(client);
    std::vector<std::string> failures = sync.list_once(consume);
    if (failures.empty()) return "";
    std::string out =
        "cannot read the cluster at " + client.connection().server + " (" + client.connection().source + "):";
    for (const auto& f : failures) out += "\n  " + f;
    return out;
}

std::string read_cluster_model(core::kube::ApiClient& client, core::ClusterModel& model) {
    core::kube::ModelFeeder feeder(model);
    std::string failure = read_cluster_once(client, [&](auto& changes) { feeder.apply(changes); });
    for (const auto& m : feeder.take_messages()) spdlog::warn("{}", m);
    return failure;
}

}  // namespace kd::cli
