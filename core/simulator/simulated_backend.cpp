#include "simulator/simulated_backend.hpp"

#include "cluster/decode/field_problem.hpp"
#include "cluster/decode/migration_patch.hpp"
#include "cluster/decode/snapshot_files.hpp"
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
    void on_priority_class(const PriorityClassDraft&) override { other = "PriorityClass"; }
    void on_pvc(const PersistentVolumeClaimDraft&) override { other = "PersistentVolumeClaim"; }
    void on_secret(const SecretDraft&) override { other = "Secret"; }
    void on_migration_job(PodMigrationJob job) override { objects.emplace_back(std::move(job)); }
    void on_reservation(Reservation r) override { objects.emplace_back(std::move(r)); }
    void on_node_usage(NodeUsage) override { other = "NodeMetrics"; }
    void on_pod_usage(PodUsage) override { other = "PodMetrics"; }
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

// obj[key], or nullptr when obj is not an object or has no such member.
const rapidjson::Value* member(const rapidjson::Value& obj, const char* key) {
    if (!obj.IsObject()) return nullptr;
    auto it = obj.FindMember(key);
    return it == obj.MemberEnd() ? nullptr : &it->value;
}

// obj[key] = a copy of *value, or no obj[key] when value is nullptr.
void put_member(rapidjson::Value& obj, const char* key, const rapidjson::Value* value,
                rapidjson::Document::AllocatorType& a) {
    rapidjson::Value copy;
    if (value) copy.CopyFrom(*value, a);
    obj.RemoveMember(key);
    if (value) obj.AddMember(rapidjson::Value(key, a), copy, a);
}

}  // namespace

uint64_t highest_resource_version(const ClusterModel& model) {
    uint64_t highest = 0;
    for (const auto& [uid, j] : model.migration_jobs())
        highest = std::max(highest, numeric_version(j.resource_version));
    for (const auto& [uid, r] : model.reservations()) highest = std::max(highest, numeric_version(r.resource_version));
    return highest;
}

SimulatedBackend::SimulatedBackend(const ClusterModel& model)
    : model_(model), revision_(highest_resource_version(model)) {}

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
    if (name.empty())
        return WriteResult::failure(KD_WRITE_INVALID, std::string(kind) + ": metadata.name: Required value");
    const MigrationObject* now = latest(kind, name);
    return std::visit(
        [&](const auto& written) {
            using T = std::decay_t<decltype(written)>;
            const std::string what = std::string(resource_of(written)) + " \"" + name + "\"";
            // The object to store, built from the JSON as the API server builds it: what the
            // write may change comes from the request, the rest from the stored object.
            rapidjson::Document request;
            request.Parse(written.wire.data(), written.wire.size());
            auto& a = request.GetAllocator();
            rapidjson::Document stored(&a);
            rapidjson::Value* result = &request;
            if (how == Write::create) {
                if (now) return WriteResult::failure(KD_WRITE_EXISTS, what + " already exists");
                if (!written.resource_version.empty())
                    return WriteResult::failure(KD_WRITE_INVALID,
                                                what +
                                                    " is invalid: metadata.resourceVersion: resourceVersion should "
                                                    "not be set on objects to be created");
                request.RemoveMember("status");  // a subresource: not written on create
                rapidjson::Value& meta = request["metadata"];
                meta.RemoveMember("uid");  // given with the creation time when the object is applied
                meta.RemoveMember("creationTimestamp");
            } else {
                if (!now) return WriteResult::failure(KD_WRITE_NOT_FOUND, what + " not found");
                const T& cur = std::get<T>(*now);
                if (written.resource_version.empty())
                    return WriteResult::failure(KD_WRITE_INVALID, what +
                                                                      " is invalid: metadata.resourceVersion: "
                                                                      "Invalid value: 0: must be specified for an "
                                                                      "update");
                if (written.resource_version != cur.resource_version)
                    return WriteResult::failure(KD_WRITE_CONFLICT,
                                                "Operation cannot be fulfilled on " + what +
                                                    ": the object has been modified; please apply your changes to the "
                                                    "latest version and try again");
                stored.Parse(cur.wire.data(), cur.wire.size());
                if (how == Write::status) {
                    // Only the status comes from the request.
                    put_member(stored, "status", member(request, "status"), a);
                    result = &stored;
                } else {
                    // Everything but the status, and but what the server owns.
                    put_member(request, "status", member(stored, "status"), a);
                    rapidjson::Value& meta = request["metadata"];
                    put_member(meta, "uid", member(stored["metadata"], "uid"), a);
                    put_member(meta, "creationTimestamp", member(stored["metadata"], "creationTimestamp"), a);
                }
            }
            std::string rv = std::to_string(++revision_);
            rapidjson::Value version(rv.c_str(), static_cast<rapidjson::SizeType>(rv.size()), a);
            put_member((*result)["metadata"], "resourceVersion", &version, a);
            T stored_object;
            try {
                decode::read_migration_object(*result, stored_object);
            } catch (const decode::FieldProblemError& e) {
                return WriteResult::failure(KD_WRITE_INVALID,
                                            what + " is invalid: " + e.problem.path + ": " + e.problem.message);
            }
            written_[{kind, name}] = MigrationObject(stored_object);
            queue_.upserts.push_back(std::move(stored_object));
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
