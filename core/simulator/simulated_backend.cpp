#include "simulator/simulated_backend.hpp"

#include "cluster/decode/cluster_files.hpp"
#include "error.hpp"

#include <kdesched/view.hpp>

#include <charconv>
#include <utility>

namespace kd::core {

namespace {

// Captures the one object a plugin hands over; anything but the two migration kinds is refused.
class OneObject : public ObjectSink {
public:
    std::vector<MigrationObject> objects;
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

uint64_t numeric_version(const std::string& rv) {
    uint64_t n = 0;
    auto [end, ec] = std::from_chars(rv.data(), rv.data() + rv.size(), n);
    return ec == std::errc() && end == rv.data() + rv.size() ? n : 0;
}

const char* kind_of(const MigrationObject& o) {
    return std::holds_alternative<PodMigrationJob>(o) ? "PodMigrationJob" : "Reservation";
}

const std::string& name_of(const MigrationObject& o) {
    return std::visit([](const auto& x) -> const std::string& { return x.name; }, o);
}

}  // namespace

SimulatedBackend::SimulatedBackend(const ClusterModel& model) : model_(model) {
    for (const auto& [uid, j] : model.migration_jobs())
        revision_ = std::max(revision_, numeric_version(j.resource_version));
    for (const auto& [uid, r] : model.reservations())
        revision_ = std::max(revision_, numeric_version(r.resource_version));
}

const MigrationObject* SimulatedBackend::latest(const std::string& kind, const std::string& name) {
    if (auto it = written_.find({kind, name}); it != written_.end()) return it->second ? &*it->second : nullptr;
    scratch_.reset();
    if (kind == "PodMigrationJob") {
        if (const PodMigrationJob* j = model_.migration_job_by_name(name)) scratch_ = *j;
    } else if (const Reservation* r = model_.reservation_by_name(name)) {
        scratch_ = *r;
    }
    return scratch_ ? &*scratch_ : nullptr;
}

WriteResult SimulatedBackend::write_object(std::string_view json, std::string_view plugin, Write how) {
    OneObject sink;
    try {
        load_cluster_text(json, "<object written by " + std::string(plugin) + ">.json", sink);
    } catch (const Error& e) {
        return WriteResult::failure(KD_WRITE_INVALID, e.what());
    }
    if (!sink.other.empty())
        return WriteResult::failure(KD_WRITE_INVALID,
                                    "kdesched writes PodMigrationJob and Reservation objects, not " + sink.other);
    if (sink.objects.size() != 1)
        return WriteResult::failure(KD_WRITE_INVALID,
                                    "expected exactly one object, got " + std::to_string(sink.objects.size()));
    MigrationObject obj = std::move(sink.objects.front());
    const std::string kind = kind_of(obj), name = name_of(obj);
    const MigrationObject* now = latest(kind, name);
    return std::visit(
        [&](auto& o) {
            using T = std::decay_t<decltype(o)>;
            const std::string what = std::string(resource_of(o)) + " \"" + name + "\"";
            if (how == Write::create) {
                if (now) return WriteResult::failure(KD_WRITE_EXISTS, what + " already exists");
                copy_status(T{}, o);  // status is a subresource: not written on create
                o.uid.clear();        // the API server gives the UID and creation time (when applied)
                o.creation_ms = 0;
            } else {
                if (!now) return WriteResult::failure(KD_WRITE_NOT_FOUND, what + " not found");
                const T& cur = std::get<T>(*now);
                if (o.resource_version.empty())
                    return WriteResult::failure(KD_WRITE_INVALID, what +
                                                                      " is invalid: metadata.resourceVersion: "
                                                                      "Invalid value: 0: must be specified for an "
                                                                      "update");
                if (o.resource_version != cur.resource_version)
                    return WriteResult::failure(KD_WRITE_CONFLICT,
                                                "Operation cannot be fulfilled on " + what +
                                                    ": the object has been modified; please apply your changes to the "
                                                    "latest version and try again");
                if (how == Write::status) {
                    T merged = cur;
                    copy_status(o, merged);
                    o = std::move(merged);
                } else {
                    copy_status(cur, o);
                    o.uid = cur.uid;
                    o.creation_ms = cur.creation_ms;
                }
            }
            o.resource_version = std::to_string(++revision_);
            std::string rv = o.resource_version;
            written_[{kind, name}] = MigrationObject(o);
            queue_.upserts.push_back(std::move(o));
            return WriteResult::success(rv);
        },
        obj);
}

WriteResult SimulatedBackend::create_object(std::string_view json, std::string_view plugin) {
    return write_object(json, plugin, Write::create);
}

WriteResult SimulatedBackend::update_object(std::string_view json, std::string_view plugin) {
    return write_object(json, plugin, Write::update);
}

WriteResult SimulatedBackend::update_status(std::string_view json, std::string_view plugin) {
    return write_object(json, plugin, Write::status);
}

WriteResult SimulatedBackend::delete_object(std::string_view kind, std::string_view, std::string_view name,
                                            std::string_view) {
    if (kind != "PodMigrationJob" && kind != "Reservation")
        return WriteResult::failure(
            KD_WRITE_INVALID, "kdesched deletes PodMigrationJob and Reservation objects, not " + std::string(kind));
    std::string k(kind), n(name);
    if (!latest(k, n))
        return WriteResult::failure(KD_WRITE_NOT_FOUND,
                                    std::string(kind == "Reservation" ? "reservations" : "podmigrationjobs") +
                                        ".scheduling.koordinator.sh \"" + n + "\" not found");
    written_[{k, n}] = std::nullopt;
    queue_.deletions.emplace_back(k, n);
    return WriteResult::success();
}

WriteResult SimulatedBackend::remove_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) {
    kd::Pod p(&pod);
    std::string uid(p.uid());
    // A second removal of a pod already going away fails as it would against the API server.
    if (!queued_uids_.insert(uid).second)
        return WriteResult::failure(KD_WRITE_FAILED, "pod " + p.key() + " is already being evicted");
    queue_.evictions.push_back({uid, p.key(), std::string(p.node_name()), std::string(reason), std::string(plugin)});
    return WriteResult::success();
}

WriteResult SimulatedBackend::evict_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) {
    return remove_pod(pod, reason, plugin);
}

WriteResult SimulatedBackend::delete_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) {
    return remove_pod(pod, reason, plugin);
}

WriteResult SimulatedBackend::annotate_pod(const kd_pod& pod, std::string_view key, std::string_view value,
                                           std::string_view) {
    queue_.annotations.push_back({std::string(kd::Pod(&pod).uid()), std::string(key), std::string(value)});
    return WriteResult::success();
}

void SimulatedBackend::record_event(std::string_view kind, std::string_view ns, std::string_view name,
                                    std::string_view type, std::string_view reason, std::string_view action,
                                    std::string_view message, std::string_view plugin) {
    queue_.events.push_back({std::string(kind), std::string(ns), std::string(name), std::string(type),
                             std::string(reason), std::string(action), std::string(message), std::string(plugin)});
}

std::string SimulatedBackend::read_secret(std::string_view ns, std::string_view name,
                                          std::map<std::string, std::string>& data) {
    if (secrets_) return secrets_(ns, name, data);
    const Secret* s = model_.secret(ns, name);
    if (!s)
        return "Secret " + std::string(ns) + "/" + std::string(name) +
               " is not in the cluster snapshot (add it to a --cluster file)";
    data = s->data;
    return "";
}

CycleWrites SimulatedBackend::take() {
    queued_uids_.clear();
    written_.clear();
    return std::exchange(queue_, {});
}

}  // namespace kd::core
