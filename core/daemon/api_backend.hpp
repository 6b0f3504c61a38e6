// The ClusterBackend of the daemon: every write a plugin asks for, made on the API server while
// the hook waits (so an eviction a PodDisruptionBudget refuses is answered as such), with the
// answer mapped to a kd_write_code. What a write changed reaches the model when the watch
// delivers it.
//
//  - evict_pod: a policy/v1 Eviction (policy/v1beta1 when the server has no v1); 429 → refused
//    with the server's message, not retried; 404 → the pod is already gone: done.
//  - delete_pod: DELETE (404: done); annotate_pod: a JSON merge patch.
//  - PodMigrationJob / Reservation: create (POST), update (spec) and update_status (the status
//    subresource), delete. An update is a JSON merge patch of what the plugin changed — the
//    difference between the object it was given (the model's, found through set_stored_objects)
//    and the one it hands back, in the half it writes — with its resourceVersion as the
//    precondition: a field kdesched does not own is never sent, so nothing another writer put
//    there is lost, even one added since the model saw the object. A 409 Conflict re-reads the
//    object and sends the patch again on its resourceVersion when the half the write does not
//    touch is unchanged (then the change still applies), at most kConflictRetries times;
//    otherwise the plugin gets the conflict. An object the model does not have, or an update
//    from a version neither the model nor this backend's own last write has, is sent whole (PUT)
//    and a conflict goes back to the plugin.
//  - record_event: handed to the EventRecorder (sent from its own thread).
//  - read_secret: one GET, cached briefly (SecretReader).
#pragma once

#include "daemon/event_recorder.hpp"
#include "kube/client/api_client.hpp"
#include "kube/client/secret_reader.hpp"
#include "runtime/cluster_backend.hpp"

#include <rapidjson/document.h>

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace kd::core::daemon {

class ApiBackend : public ClusterBackend {
public:
    static constexpr int kConflictRetries = 3;

    ApiBackend(kube::ApiClient& client, EventRecorder& events);

    // Writes are refused (KD_WRITE_FORBIDDEN with `why`) while `may_write` says no: a replica
    // that does not hold the lease, or has lost it, writes nothing.
    void set_gate(std::function<bool()> may_write, std::string why);
    // Framework dryRun: no write reaches the server; each is logged and counted as if it worked.
    void set_dry_run(bool dry_run, std::function<void(std::string_view write)> counted);
    // The object a plugin's update started from: the model's wire form of the PodMigrationJob or
    // Reservation of that kind and name, "" when the model has none. Called on the control thread,
    // during the hook that writes.
    using StoredObject = std::function<std::string(std::string_view kind, std::string_view name)>;
    void set_stored_objects(StoredObject stored);
    // A DeschedulerPolicy's gracePeriodSeconds: sent with every Eviction (deleteOptions), as
    // kubernetes-sigs/descheduler sends it; absent, the pods' own terminationGracePeriodSeconds.
    void set_eviction_grace_period(std::optional<int64_t> seconds) { grace_period_seconds_ = seconds; }

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
    // A merge patch of what changed from `base` to `ours` in the half, conflicts retried.
    WriteResult patch(rapidjson::Document& ours, const rapidjson::Document& base, Half half,
                      const std::string& object_path, const std::string& what);
    // The whole object (PUT), for an update with nothing known to patch against.
    WriteResult replace(rapidjson::Document& ours, const std::string& path, const std::string& what);
    // The Eviction's API version: policy/v1, or v1beta1 on a server without v1 (asked once).
    const char* eviction_version();
    // The gate and the dry run, before any write; nullopt when the write may go to the server.
    std::optional<WriteResult> held_back(std::string_view write, const std::string& what);

    kube::ApiClient& client_;
    EventRecorder& events_;
    kube::SecretReader secrets_;
    std::optional<bool> eviction_v1_;
    std::function<bool()> may_write_;
    std::string gate_reason_;
    bool dry_run_ = false;
    std::function<void(std::string_view)> dry_run_counted_;
    StoredObject stored_;
    std::optional<int64_t> grace_period_seconds_;
    // The resourceVersion each object got from this backend's last write to it, by "kind/name": an
    // update made from that version (a status write after a spec write in the same hook) is
    // patched against the model's object too. Forgotten when the object is deleted.
    std::map<std::string, std::string> written_versions_;
};

// A write's answer as a kd_write_code and message: "<what>: HTTP 409 Conflict: <server's words>".
WriteResult write_result(const kube::ApiResult& r, const std::string& what);

}  // namespace kd::core::daemon
