#include "cluster/migration_json.hpp"

#include "cluster/rfc3339.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace kd::core {

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void str(Writer& w, const char* key, const std::string& v, bool omit_empty = true) {
    if (omit_empty && v.empty()) return;
    w.Key(key);
    w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
}

void time(Writer& w, const char* key, int64_t ms) {
    if (ms != 0) str(w, key, format_rfc3339(ms));
}

// Embeds JSON text kept as read (templates, deleteOptions) without re-encoding it.
void raw(Writer& w, const char* key, const std::string& json) {
    if (json.empty()) return;
    w.Key(key);
    w.RawValue(json.c_str(), json.size(), rapidjson::kObjectType);
}

void string_map(Writer& w, const char* key, const std::map<std::string, std::string>& m) {
    if (m.empty()) return;
    w.Key(key);
    w.StartObject();
    for (const auto& [k, v] : m) str(w, k.c_str(), v, false);
    w.EndObject();
}

void metadata(Writer& w, const std::string& name, const std::string& uid, const std::string& resource_version,
              int64_t creation_ms, const std::map<std::string, std::string>& labels,
              const std::map<std::string, std::string>& annotations) {
    w.Key("metadata");
    w.StartObject();
    str(w, "name", name);
    str(w, "uid", uid);
    str(w, "resourceVersion", resource_version);
    time(w, "creationTimestamp", creation_ms);
    string_map(w, "labels", labels);
    string_map(w, "annotations", annotations);
    w.EndObject();
}

void reference_value(Writer& w, const ObjectReference& r) {
    w.StartObject();
    str(w, "apiVersion", r.api_version);
    str(w, "kind", r.kind);
    str(w, "namespace", r.ns);
    str(w, "name", r.name);
    str(w, "uid", r.uid);
    str(w, "resourceVersion", r.resource_version);
    str(w, "fieldPath", r.field_path);
    w.EndObject();
}

void reference(Writer& w, const char* key, const ObjectReference& r) {
    w.Key(key);
    reference_value(w, r);
}

void conditions(Writer& w, const std::vector<Condition>& list) {
    if (list.empty()) return;
    w.Key("conditions");
    w.StartArray();
    for (const auto& c : list) {
        w.StartObject();
        str(w, "type", c.type);
        str(w, "status", c.status);
        time(w, "lastProbeTime", c.last_probe_ms);
        time(w, "lastTransitionTime", c.last_transition_ms);
        str(w, "reason", c.reason);
        str(w, "message", c.message);
        w.EndObject();
    }
    w.EndArray();
}

void type_meta(Writer& w, const char* kind) {
    str(w, "apiVersion", "scheduling.koordinator.sh/v1alpha1");
    str(w, "kind", kind);
}

std::string done(rapidjson::StringBuffer& buf) {
    return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace

std::string to_json(const PodMigrationJob& job) {
    rapidjson::StringBuffer buf;
    Writer w(buf);
    w.StartObject();
    type_meta(w, "PodMigrationJob");
    metadata(w, job.name, job.uid, job.resource_version, job.creation_ms, job.labels, job.annotations);
    w.Key("spec");
    w.StartObject();
    if (job.paused) {
        w.Key("paused");
        w.Bool(true);
    }
    if (job.ttl) str(w, "ttl", kd::format_duration(*job.ttl));
    str(w, "mode", job.mode);
    reference(w, "podRef", job.pod_ref);
    if (job.reservation_ref || job.reservation_template) {
        w.Key("reservationOptions");
        w.StartObject();
        if (job.reservation_ref) reference(w, "reservationRef", *job.reservation_ref);
        if (job.reservation_template) raw(w, "template", job.reservation_template->json);
        w.EndObject();
    }
    if (job.delete_options_json) raw(w, "deleteOptions", *job.delete_options_json);
    w.EndObject();
    w.Key("status");
    w.StartObject();
    str(w, "phase", job.phase);
    str(w, "status", job.status);
    str(w, "reason", job.reason);
    str(w, "message", job.message);
    conditions(w, job.conditions);
    str(w, "nodeName", job.node_name);
    if (job.status_pod_ref) reference(w, "podRef", *job.status_pod_ref);
    w.EndObject();
    w.EndObject();
    return done(buf);
}

std::string to_json(const Reservation& r) {
    rapidjson::StringBuffer buf;
    Writer w(buf);
    w.StartObject();
    type_meta(w, "Reservation");
    metadata(w, r.name, r.uid, r.resource_version, r.creation_ms, r.labels, r.annotations);
    w.Key("spec");
    w.StartObject();
    if (r.template_.json.empty()) {
        w.Key("template");
        w.StartObject();
        w.EndObject();
    } else {
        raw(w, "template", r.template_.json);
    }
    w.Key("owners");
    w.StartArray();
    for (const auto& o : r.owners) {
        w.StartObject();
        if (o.object) reference(w, "object", *o.object);
        if (o.controller) {
            w.Key("controller");
            w.StartObject();
            str(w, "apiVersion", o.controller->api_version, false);
            str(w, "kind", o.controller->kind, false);
            str(w, "name", o.controller->name, false);
            str(w, "uid", o.controller->uid, false);
            str(w, "namespace", o.controller->ns);
            if (o.controller->controller) {
                w.Key("controller");
                w.Bool(true);
            }
            w.EndObject();
        }
        if (o.label_selector) {
            w.Key("labelSelector");
            w.StartObject();
            string_map(w, "matchLabels", o.label_selector->matchLabels);
            if (!o.label_selector->matchExpressions.empty()) {
                w.Key("matchExpressions");
                w.StartArray();
                for (const auto& e : o.label_selector->matchExpressions) {
                    w.StartObject();
                    str(w, "key", e.key, false);
                    str(w, "operator", e.operator_, false);
                    w.Key("values");
                    w.StartArray();
                    for (const auto& v : e.values) w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
                    w.EndArray();
                    w.EndObject();
                }
                w.EndArray();
            }
            w.EndObject();
        }
        w.EndObject();
    }
    w.EndArray();
    if (r.ttl) str(w, "ttl", kd::format_duration(*r.ttl));
    time(w, "expires", r.expires_ms);
    w.Key("allocateOnce");
    w.Bool(r.allocate_once);
    if (r.unschedulable) {
        w.Key("unschedulable");
        w.Bool(true);
    }
    w.EndObject();
    w.Key("status");
    w.StartObject();
    str(w, "phase", r.phase);
    str(w, "nodeName", r.node_name);
    conditions(w, r.conditions);
    if (!r.current_owners.empty()) {
        w.Key("currentOwners");
        w.StartArray();
        for (const auto& o : r.current_owners) reference_value(w, o);
        w.EndArray();
    }
    w.EndObject();
    w.EndObject();
    return done(buf);
}

}  // namespace kd::core
