// What `simulate --kubeconfig` and `snapshot` share: the connection options on the command line,
// the API client they make (with the profile's clientConnection), and reading a live cluster once.
#pragma once

#include "cluster/cluster_model.hpp"
#include "config/configuration.hpp"
#include "kube/client/api_client.hpp"
#include "kube/watch/change_queue.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kd::cli {

struct ClusterOptions {
    std::string kubeconfig;  // --kubeconfig
    std::string context;     // --context
    bool given() const { return !kubeconfig.empty() || !context.empty(); }
};

// Which encodings reflectors ask for: the profile's clientConnection (protobuf first, by
// default), or JSON only (`snapshot` writes the JSON objects it receives).
enum class Encodings { from_profile, json_only };

// The API client for the profile's clientConnection and the options; says the connection's
// warnings. Throws core::Error (exit code 1) for a kubeconfig that cannot be used.
std::unique_ptr<core::kube::ApiClient> connect(const ClusterOptions& options, const core::DeschedulerConfiguration& cfg,
                                               Encodings encodings = Encodings::from_profile);

// Lists every kind once into `consume`; returns "" or why the cluster could not be read (exit 3).
std::string read_cluster_once(core::kube::ApiClient& client,
                              const std::function<void(std::vector<core::kube::Change>&)>& consume);

// Lists every kind once into `model` (a bad object is logged and skipped); returns "" or why the
// cluster could not be read (exit 3).
std::string read_cluster_model(core::kube::ApiClient& client, core::ClusterModel& model);

}  // namespace kd::cli
