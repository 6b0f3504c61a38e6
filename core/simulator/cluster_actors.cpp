#include "simulator/cluster_actors.hpp"

#include "cluster/decode/migration_patch.hpp"
#include "cluster/migration_json.hpp"
#include "cluster/rfc3339.hpp"
#include "simulator/pod_copy.hpp"
#include "simulator/template_pod.hpp"

#include <kdesched/node_fit.hpp>
#include <kdesched/view.hpp>

#include "text/json_writer.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <variant>

namespace kd::core {

namespace {

bool recreated_by_controller(const std::string& kind) {
    return kind == "ReplicaSet" || kind == "StatefulSet" || kind == "Job" || kind == "ReplicationController" ||
           kind == "DaemonSet";
}

// Placed and not yet taken by the pod it was made for.
bool holds_for_owner(const Reservation& r) {
    return r.phase == "Available" && r.current_owners.empty();
}

// A NodeMetric as a draft that can be edited and stored back (names point into the model's pool).
NodeMetricDraft to_draft(std::string_view node, const kd_node_metric& m) {
    NodeMetricDraft d;
    d.meta.name = node;
    d.update_ms = m.update_time_ms;
    d.has_node_metric = m.has_node_metric;
    kd::NodeMetric v(&m);
    auto sys = v.system_usage();
    for (size_t i = 0; i < sys.size(); ++i) d.system_usage.emplace_back(sys.name(i), sys.milli_at(i));
    for (auto p : v.pods()) {
        NodeMetricDraft::PodUsage u{p.ns(), p.name(), {}};
        auto use = p.usage();
        for (size_t i = 0; i < use.size(); ++i) u.usage.emplace_back(use.name(i), use.milli_at(i));
        d.pods.push_back(std::move(u));
    }
    return d;
}

// `o` with the UID and creation time the API server gives a created object (or keeps from the one
// stored under its name).
template <class T>
T given_identity(const T& o, const T* existing, uint64_t& counter, int64_t now_ms) {
    const char* prefix = std::is_same_v<T, PodMigrationJob> ? "sim-pmj-" : "sim-reservation-";
    std::string uid = !o.uid.empty() ? o.uid : existing ? existing->uid : prefix + std::to_string(++counter);
    int64_t created = o.creation_ms                       ? o.creation_ms
                      : existing && existing->creation_ms ? existing->creation_ms
                                                          : now_ms;
    json::TextWriter patch;
    patch.StartObject();
    json::key(patch, "metadata");
    patch.StartObject();
    json::field(patch, "uid", uid);
    json::field(patch, "creationTimestamp", format_rfc3339(created));
    patch.EndObject();
    patch.EndObject();
    return decode::patched(o, patch.text());
}

}  // namespace

std::string ClusterActors::next_suffix() {
    // Deterministic, Kubernetes-looking 5-character suffixes.
    static const char* kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
    uint64_t x = ++counter_ * 0x9E3779B97F4A7C15ULL;
    std::string s;
    for (int i = 0; i < 5; ++i) {
        s += kAlphabet[x % 27];
        x /= 27;
    }
    return s;
}

std::vector<std::pair<std::string, int64_t>> ClusterActors::take_usage(const std::string& node, const std::string& ns,
                                                                       const std::string& name) {
    std::vector<std::pair<std::string, int64_t>> usage;
    const kd_node_metric* m = model_.node_metric(node);
    if (!m) return usage;
    NodeMetricDraft d = to_draft(node, *m);
    for (auto it = d.pods.begin(); it != d.pods.end(); ++it) {
        if (it->ns != ns || it->name != name) continue;
        for (const auto& [r, milli] : it->usage) usage.emplace_back(r, milli);
        d.pods.erase(it);
        model_.on_node_metric(d);
        break;
    }
    return usage;
}

void ClusterActors::add_usage(const std::string& node, const std::string& ns, const std::string& name,
                              const std::vector<std::pair<std::string, int64_t>>& usage) {
    const kd_node_metric* m = model_.node_metric(node);
    if (!m || usage.empty()) return;
    NodeMetricDraft d = to_draft(node, *m);
    NodeMetricDraft::PodUsage u{ns, name, {}};
    for (const auto& [r, milli] : usage) u.usage.emplace_back(r, milli);
    d.pods.push_back(std::move(u));
    model_.on_node_metric(d);
}

void ClusterActors::begin_pass() {
    nodes_ = model_.nodes();
    requested_.clear();
    held_valid_ = false;
    // Replacements copy an evicted pod's spec: no anti-affinity now means none during the pass.
    const auto pods = model_.pods();
    anti_affinity_ = std::any_of(pods.begin(), pods.end(),
                                 [](const kd_pod* p) { return !kd::Pod(p).pod_anti_affinity_terms().empty(); });
}

void ClusterActors::changed(const std::string& node) {
    requested_.erase(node);
}

void ClusterActors::reservations_changed() {
    held_valid_ = false;
    requested_.clear();
}

const std::map<std::string, int64_t, std::less<>>& ClusterActors::requested(std::string_view node) {
    if (!held_valid_) {
        // What Available, unbound Reservations hold for their owners, per node.
        held_.clear();
        for (const auto& [uid, r] : model_.reservations())
            if (holds_for_owner(r))
                for (const auto& [res, milli] : r.template_.requests) held_[r.node_name][res] += milli;
        held_valid_ = true;
    }
    auto it = requested_.find(node);
    if (it != requested_.end()) return it->second;
    std::map<std::string, int64_t, std::less<>> used;
    if (auto h = held_.find(node); h != held_.end()) used = h->second;
    // Finished pods hold nothing.
    for (const kd_pod* other : model_.pods_on_node(node)) {
        kd::Pod o(other);
        if (o.finished()) continue;
        auto r = o.requests();
        for (size_t i = 0; i < r.size(); ++i) used[std::string(r.name(i))] += r.milli_at(i);
    }
    return requested_.emplace(std::string(node), std::move(used)).first->second;
}

ClusterActors::Placement ClusterActors::schedule(const kd_pod& raw, const std::string& only_node) {
    kd::Pod pod(&raw);
    Placement best;
    double best_score = std::numeric_limits<double>::max();
    std::map<std::string, int> why;  // failure reason → number of nodes, for the message
    int considered = 0;
    const PlacementRules rules(model_, nodes_, pod, anti_affinity_);
    for (const kd_node* n : nodes_) {
        kd::Node node(n);
        if (!node.ready() || (!only_node.empty() && node.name() != only_node)) continue;
        ++considered;
        if (node.unschedulable()) {
            ++why["node(s) were unschedulable"];
            continue;
        }
        if (!kd::pod_tolerates_node_taints(pod, node)) {
            ++why["node(s) had untolerated taint"];
            continue;
        }
        if (!kd::pod_matches_node_selector(pod, node)) {
            ++why["node(s) didn't match Pod's node affinity/selector"];
            continue;
        }
        const auto& used_now = requested(node.name());
        auto used = [&](std::string_view r) {
            auto u = used_now.find(r);
            return u == used_now.end() ? int64_t{0} : u->second;
        };
        auto want = pod.requests();
        auto alloc = node.allocatable();
        std::string short_of;
        for (size_t i = 0; i < want.size() && short_of.empty(); ++i)
            if (want.milli_at(i) > alloc.milli(want.name(i)) - used(want.name(i))) short_of = want.name(i);
        if (!short_of.empty()) {
            ++why["Insufficient " + short_of];
            continue;
        }
        if (std::string refused = rules.filter(node); !refused.empty()) {
            ++why[refused];
            continue;
        }
        // kube-scheduler's LeastAllocated: the lowest mean requested share of cpu and memory wins;
        // with preferences (preferred affinity terms, ScheduleAnyway spread) the 0–100 scores add
        // up, LeastAllocated weighing 1 and each preference 2 (its default profile's weights).
        double score = 0;
        for (std::string_view r : {std::string_view("cpu"), std::string_view("memory")}) {
            int64_t a = alloc.milli(r);
            score += a > 0 ? double(used(r) + want.milli(r)) / double(a) : 1.0;
        }
        if (rules.has_preferences()) score = -((2.0 - score) * 50.0 + rules.preference(node));
        if (score < best_score) {
            best_score = score;
            best.node = node.name();
        }
    }
    if (best.node.empty()) {
        best.message = "0/" + std::to_string(considered) + " nodes are available";
        std::string sep = ": ";
        for (const auto& [reason, count] : why) {
            best.message += sep + std::to_string(count) + " " + reason;
            sep = ", ";
        }
        best.message += ".";
    }
    return best;
}

namespace {

template <class T, class Remove, class Add>
void admit(const std::map<std::string, T, std::less<>>& objects, ObjectKind kind, std::string_view kind_name,
           uint64_t& revision, int64_t now_ms, Remove remove, Add add) {
    std::vector<const T*> lacking;
    for (const auto& [key, o] : objects)
        if (o.resource_version.empty() || o.creation_ms == 0 || o.uid == ClusterModel::key_of(kind, "", "", o.name))
            lacking.push_back(&o);
    for (const T* o : lacking) {
        json::TextWriter patch;
        patch.StartObject();
        json::key(patch, "metadata");
        patch.StartObject();
        if (o->uid == ClusterModel::key_of(kind, "", "", o->name))
            json::field(patch, "uid", "sim-loaded-" + std::string(kind_name) + "-" + o->name);
        if (o->creation_ms == 0) json::field(patch, "creationTimestamp", format_rfc3339(now_ms));
        if (o->resource_version.empty()) json::field(patch, "resourceVersion", std::to_string(++revision));
        patch.EndObject();
        patch.EndObject();
        T admitted = decode::patched(*o, patch.text());
        remove(o->uid);  // `o` is gone from here on
        add(std::move(admitted));
    }
}

}  // namespace

void admit_loaded_objects(ClusterModel& model, int64_t now_ms) {
    uint64_t revision = highest_resource_version(model);
    admit(
        model.migration_jobs(), ObjectKind::migration_job, "pmj", revision, now_ms,
        [&](const std::string& uid) { model.remove(ObjectKind::migration_job, uid); },
        [&](PodMigrationJob j) { model.on_migration_job(std::move(j)); });
    admit(
        model.reservations(), ObjectKind::reservation, "reservation", revision, now_ms,
        [&](const std::string& uid) { model.remove(ObjectKind::reservation, uid); },
        [&](Reservation r) { model.on_reservation(std::move(r)); });
}

const Reservation* ClusterActors::reservation_for(const kd_pod& raw) const {
    kd::Pod pod(&raw);
    auto controller = pod.controller();
    for (const auto& [uid, r] : model_.reservations()) {
        if (!holds_for_owner(r)) continue;
        for (const auto& owner : r.owners) {
            if (owner.controller && controller && owner.controller->uid == controller->uid()) return &r;
            if (owner.object && owner.object->ns == pod.ns() && owner.object->name == pod.name()) return &r;
        }
    }
    return nullptr;
}

void ClusterActors::schedule_reservations(int64_t now_ms) {
    begin_pass();
    std::vector<std::string> pending;
    for (const auto& [uid, r] : model_.reservations())
        if (r.phase.empty() || r.phase == "Pending") pending.push_back(uid);
    for (const auto& uid : pending) {
        Reservation r = *model_.reservation(uid);
        TemplatePod tp(r.template_, "", r.name);
        Placement where = schedule(tp.pod(), "");
        Condition scheduled{"Scheduled",
                            where.node.empty() ? "False" : "True",
                            where.node.empty() ? "Unschedulable" : "Scheduled",
                            where.message,
                            now_ms,
                            now_ms};
        std::vector<Condition> conditions = r.conditions;
        auto it = std::find_if(conditions.begin(), conditions.end(),
                               [](const Condition& c) { return c.type == "Scheduled"; });
        if (it == conditions.end())
            conditions.push_back(scheduled);
        else if (it->status == scheduled.status)
            it->message = scheduled.message, it->last_probe_ms = now_ms;
        else
            *it = scheduled;
        // The scheduler writes the status only: the rest of the object stays as it is.
        json::TextWriter patch;
        patch.StartObject();
        json::key(patch, "status");
        patch.StartObject();
        if (!where.node.empty()) {
            json::field(patch, "phase", "Available");
            json::field(patch, "nodeName", where.node);
            conditions.push_back({"Ready", "True", "Available", "", now_ms, now_ms});
        }
        json::key(patch, "conditions");
        std::string list = to_json(conditions);
        patch.RawValue(list.c_str(), list.size(), rapidjson::kArrayType);
        patch.EndObject();
        patch.EndObject();
        model_.on_reservation(decode::patched(r, patch.text()));
        if (!where.node.empty()) reservations_changed();
    }
}

std::vector<PodMove> ClusterActors::apply(const std::vector<QueuedEviction>& evictions, int64_t now_ms) {
    begin_pass();
    std::vector<PodMove> moves;
    for (const auto& e : evictions) {
        const kd_pod* pod = model_.pod_by_uid(e.uid);
        if (!pod) continue;
        PodCopy copy(*pod);
        auto usage = take_usage(copy.node(), copy.ns(), copy.name());
        model_.remove(ObjectKind::pod, e.uid);
        changed(copy.node());
        PodMove move{e.pod, copy.node(), "", ""};
        if (recreated_by_controller(copy.controller_kind())) {
            // A StatefulSet pod keeps its name; other controllers generate one.
            std::string name =
                copy.controller_kind() == "StatefulSet" ? copy.name() : copy.controller_name() + "-" + next_suffix();
            std::string uid = "sim-" + std::to_string(now_ms) + "-" + std::to_string(counter_) + "-" + name;
            model_.on_pod(copy.replacement(name, uid, "", now_ms));
            const kd_pod* pending = model_.pod_by_uid(uid);
            std::string target;
            if (const Reservation* reserved = reservation_for(*pending)) {
                // The scheduler binds the pod to the Reservation made for it (koord-scheduler).
                target = reserved->node_name;
                std::vector<ObjectReference> owners = reserved->current_owners;
                owners.push_back({"v1", "Pod", copy.ns(), name, uid, "", ""});
                json::TextWriter patch;
                patch.StartObject();
                json::key(patch, "status");
                patch.StartObject();
                json::key(patch, "currentOwners");
                patch.StartArray();
                for (const auto& o : owners) {
                    std::string ref = to_json(o);
                    patch.RawValue(ref.c_str(), ref.size(), rapidjson::kObjectType);
                }
                patch.EndArray();
                if (reserved->allocate_once) json::field(patch, "phase", "Succeeded");
                patch.EndObject();
                patch.EndObject();
                model_.on_reservation(decode::patched(*reserved, patch.text()));
                reservations_changed();
            } else {
                std::string only = copy.controller_kind() == "DaemonSet" ? copy.node() : "";
                target = schedule(*pending, only).node;
            }
            if (!target.empty()) {
                model_.on_pod(copy.replacement(name, uid, target, now_ms));
                changed(target);
                add_usage(target, copy.ns(), name, usage);
            }
            move.replacement = copy.ns() + "/" + name;
            move.to = target;
        }
        moves.push_back(std::move(move));
    }
    return moves;
}

std::vector<PodMove> ClusterActors::apply(const CycleWrites& writes, int64_t now_ms) {
    for (const auto& [kind, name] : writes.deletions) {
        if (kind == "Reservation") {
            if (const Reservation* r = model_.reservation_by_name(name))
                model_.remove(ObjectKind::reservation, std::string(r->uid));
        } else if (const PodMigrationJob* j = model_.migration_job_by_name(name)) {
            model_.remove(ObjectKind::migration_job, std::string(j->uid));
        }
    }
    for (const auto& obj : writes.upserts) {
        std::visit(
            [&](auto o) {
                using T = std::decay_t<decltype(o)>;
                // The API server fills what a created object lacks; an update keeps the stored ones.
                if (o.uid.empty() || o.creation_ms == 0) o = given_identity(o, stored(model_, o), counter_, now_ms);
                if constexpr (std::is_same_v<T, PodMigrationJob>)
                    model_.on_migration_job(std::move(o));
                else
                    model_.on_reservation(std::move(o));
            },
            obj);
    }
    for (const auto& a : writes.annotations)
        if (const kd_pod* pod = model_.pod_by_uid(a.uid)) {
            PodCopy copy(*pod);
            model_.on_pod(copy.annotated(a.key, a.value));
        }
    return apply(writes.evictions, now_ms);
}

void ClusterActors::refresh_metrics(int64_t now_ms) {
    model_.touch_node_metrics(now_ms);
}

}  // namespace kd::core
