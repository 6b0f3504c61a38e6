#include "simulator/simulated_writer.hpp"

#include "cluster/decode/cluster_files.hpp"
#include "error.hpp"

#include <kdesched/view.hpp>

#include <utility>

namespace kd::core {

namespace {

// Captures the one object a plugin hands over; anything but the two migration kinds is refused.
class OneObject : public ObjectSink {
public:
    std::vector<std::variant<PodMigrationJob, Reservation>> objects;
    std::string other;  // kind of anything else
    void on_pod(const PodDraft&) override { other = "Pod"; }
    void on_node(const NodeDraft&) override { other = "Node"; }
    void on_node_metric(const NodeMetricDraft&) override { other = "NodeMetric"; }
    void on_workload(const WorkloadDraft& d) override { other = std::string(d.kind); }
    void on_pdb(const PodDisruptionBudgetDraft&) override { other = "PodDisruptionBudget"; }
    void on_namespace(const NamespaceDraft&) override { other = "Namespace"; }
    void on_secret(const SecretDraft&) override { other = "Secret"; }
    void on_migration_job(PodMigrationJob job) override { objects.emplace_back(std::move(job)); }
    void on_reservation(Reservation r) override { objects.emplace_back(std::move(r)); }
};

}  // namespace

std::string SimulatedWriter::remove_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) {
    kd::Pod p(&pod);
    std::string uid(p.uid());
    // A second removal of a pod already going away fails as it would against the API server.
    if (!queued_uids_.insert(uid).second) return "pod " + p.key() + " is already being evicted";
    queue_.evictions.push_back({uid, p.key(), std::string(p.node_name()), std::string(reason), std::string(plugin)});
    return "";
}

std::string SimulatedWriter::read_secret(std::string_view ns, std::string_view name,
                                         std::map<std::string, std::string>& data) {
    const Secret* s = model_.secret(ns, name);
    if (!s)
        return "Secret " + std::string(ns) + "/" + std::string(name) +
               " is not in the cluster snapshot (add it to a --cluster file)";
    data = s->data;
    return "";
}

std::string SimulatedWriter::evict_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) {
    return remove_pod(pod, reason, plugin);
}

std::string SimulatedWriter::delete_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) {
    return remove_pod(pod, reason, plugin);
}

std::string SimulatedWriter::decode(std::string_view json, std::string_view plugin, bool must_exist) {
    OneObject sink;
    try {
        load_cluster_text(json, "<object written by " + std::string(plugin) + ">.json", sink);
    } catch (const Error& e) {
        return e.what();
    }
    if (!sink.other.empty()) return "kdesched writes PodMigrationJob and Reservation objects, not " + sink.other;
    if (sink.objects.size() != 1) return "expected exactly one object, got " + std::to_string(sink.objects.size());
    auto& obj = sink.objects.front();
    if (must_exist) {
        bool exists = std::visit([&](const auto& o) { return stored(model_, o) != nullptr; }, obj);
        if (!exists) return "cannot update: no such object (create it first)";
    }
    queue_.upserts.push_back(std::move(obj));
    return "";
}

std::string SimulatedWriter::create_object(std::string_view json, std::string_view plugin) {
    return decode(json, plugin, false);
}

std::string SimulatedWriter::update_object(std::string_view json, std::string_view plugin) {
    return decode(json, plugin, true);
}

std::string SimulatedWriter::delete_object(std::string_view kind, std::string_view, std::string_view name,
                                           std::string_view) {
    if (kind != "PodMigrationJob" && kind != "Reservation")
        return "kdesched deletes PodMigrationJob and Reservation objects, not " + std::string(kind);
    queue_.deletions.emplace_back(std::string(kind), std::string(name));
    return "";
}

std::string SimulatedWriter::annotate_pod(const kd_pod& pod, std::string_view key, std::string_view value,
                                          std::string_view) {
    queue_.annotations.push_back({std::string(kd::Pod(&pod).uid()), std::string(key), std::string(value)});
    return "";
}

void SimulatedWriter::record_event(std::string_view kind, std::string_view ns, std::string_view name,
                                   std::string_view type, std::string_view reason, std::string_view action,
                                   std::string_view message, std::string_view plugin) {
    queue_.events.push_back({std::string(kind), std::string(ns), std::string(name), std::string(type),
                             std::string(reason), std::string(action), std::string(message), std::string(plugin)});
}

CycleWrites SimulatedWriter::take() {
    queued_uids_.clear();
    return std::exchange(queue_, {});
}

}  // namespace kd::core
