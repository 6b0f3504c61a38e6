// The ClusterBackend of the daemon: every write a plugin asks for, made on the API server while
// the hook waits (so an eviction a PodDisruptionBudget refuses is answered as such), with the
// answer mapped to a kd_write_code. What a write changed reaches the model when the watch
// delivers it.
//
//  - evict_pod: a policy/v1 Eviction (policy/v1beta1 when the server has no v1); 429 → refused
//    with the server's message, not retried; 404 → the pod is already gone: done.
//  - delete_pod: DELETE (404: done); annotate_pod: a JSON merge patch.
//  - PodMigrationJob / Reservation: create, update (spec) and update_status (the status
//    subresource), delete. A 409 Conflict on an update re-reads the object and writes again with
//    its resourceVersion when the half the write does not touch is unchanged (then the change
//    still applies), at most kConflictRetries times; otherwise the plugin gets the conflict.
//  - record_event: handed to the EventRecorder (sent from its own thread).
//  - read_secret: one GET, cached briefly (SecretReader).
#pragma once

#include "kube/api_client.hpp"
#include "kube/event_recorder.hpp"
#include "kube/secret_reader.hpp"
#include "runtime/cluster_backend.hpp"

#include <functional>
#include <optional>

namespace kd::core::daemon {

class ApiBackend : public ClusterBackend {
public:
    static constexpr int kConflictRetries = 3;

    ApiBackend(kube::ApiClient& client, kube::EventRecorder& events);

    // Writes are refused (KD_WRITE_FORBIDDEN with `why`) while `may_write` says no: a replica
    // that does not hold the lease, or has lost it, writes nothing.
    void set_gate(std::function<bool()> may_write, std::string why);
    // Framework dryRun: no write reaches the server; each is logged and counted as if it worked.
    void set_dry_run(bool dry_run, std::function<void(std::string_view write)> counted);

    WriteResult evict_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) override;
    WriteResult delete_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) override;
    WriteResult annotate_pod(const kd_pod& pod, std::string_view key, std::string_view value,
                             std::string_view plugin) override;
    WriteResult create_object(std::string_view json, std::string_view plugin) override;
    WriteResult update_object(std::string_view json, std::string_view plugin) override;
    WriteResult update_status(std::string_view json, std::string_view plugin) override;
    WriteResult delete_object(std::string_view kind, std::string_view ns, std::string_view name,
                              std::string_view plugin) override;
    void record_event(std::string_view kind, std::string_view ns, std::string_view name, std::string_view type,
                      std::string_view reason, std::string_view action, std::string_view message,
                      std::string_view plugin) override;
    std::string read_secret(std::string_view ns, std::string_view name,
                            std::map<std::string, std::string>& data) override;

private:
    enum class Half { spec, status };  // what an update writes
    WriteResult update(std::string_view json, Half half);
    // The Eviction's API version: policy/v1, or v1beta1 on a server without v1 (asked once).
    const char* eviction_version();
    // The gate and the dry run, before any write; nullopt when the write may go to the server.
    std::optional<WriteResult> held_back(std::string_view write, const std::string& what);

    kube::ApiClient& client_;
    kube::EventRecorder& events_;
    kube::SecretReader secrets_;
    std::optional<bool> eviction_v1_;
    std::function<bool()> may_write_;
    std::string gate_reason_;
    bool dry_run_ = false;
    std::function<void(std::string_view)> dry_run_counted_;
};

// A write's answer as a kd_write_code and message: "<what>: HTTP 409 Conflict: <server's words>".
WriteResult write_result(const kube::ApiResult& r, const std::string& what);

}  // namespace kd::core::daemon
