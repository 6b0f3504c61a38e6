// The cluster as the runtime reaches it: the writes plugins ask for (kd_host's write callbacks)
// and the reads host services need (Secrets). Two back ends implement it: the simulator
// (core/simulator/simulated_backend) and the Kubernetes API server.
//
// Contract, the API server's own (so plugin code that works in simulation works against a
// server):
//  - PodMigrationJob and Reservation have a status subresource: create and update_object write
//    metadata and spec and ignore `status`; update_status writes `status` and ignores the rest.
//  - Updates carry metadata.resourceVersion; a stale one is a conflict. Every successful create or
//    update answers the object's new resourceVersion.
//  - A write's effect reaches the model later (the simulator applies it after the hook call, the
//    daemon when the watch delivers it), never during the running hook.
#pragma once

#include <kdesched/abi.h>

#include <map>
#include <string>
#include <string_view>

namespace kd::core {

// What a write did: KD_WRITE_OK, or why not with the back end's message.
struct WriteResult {
    kd_write_code code = KD_WRITE_OK;
    std::string message;
    std::string resource_version;  // after a successful create or update
    bool ok() const { return code == KD_WRITE_OK; }
    static WriteResult success(std::string resource_version = "") {
        return {KD_WRITE_OK, "", std::move(resource_version)};
    }
    static WriteResult failure(kd_write_code code, std::string message) { return {code, std::move(message), ""}; }
};

class ClusterBackend {
public:
    virtual ~ClusterBackend() = default;
    // `plugin` is always the plugin that asked (for logs and the simulator's report).
    // Evicts the pod (policy/v1 Eviction; the simulator deletes it).
    virtual WriteResult evict_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) = 0;
    // Deletes the pod (no Eviction API, no PodDisruptionBudget check).
    virtual WriteResult delete_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) = 0;
    // Sets one annotation of the pod (a JSON merge patch).
    virtual WriteResult annotate_pod(const kd_pod& pod, std::string_view key, std::string_view value,
                                     std::string_view plugin) = 0;
    // PodMigrationJob / Reservation in their JSON wire form (scheduling.koordinator.sh/v1alpha1).
    virtual WriteResult create_object(std::string_view json, std::string_view plugin) = 0;
    virtual WriteResult update_object(std::string_view json, std::string_view plugin) = 0;
    virtual WriteResult update_status(std::string_view json, std::string_view plugin) = 0;
    virtual WriteResult delete_object(std::string_view kind, std::string_view ns, std::string_view name,
                                      std::string_view plugin) = 0;
    // An Event about an object; never fails the caller (events are best effort).
    virtual void record_event(std::string_view kind, std::string_view ns, std::string_view name, std::string_view type,
                              std::string_view reason, std::string_view action, std::string_view message,
                              std::string_view plugin) = 0;
    // Secret ns/name's data (values base64, as stored) for host services; "" or why it cannot.
    virtual std::string read_secret(std::string_view ns, std::string_view name,
                                    std::map<std::string, std::string>& data) = 0;
};

}  // namespace kd::core
