#include "cluster/migration_json.hpp"

#include "cluster/rfc3339.hpp"

#include "text/json_writer.hpp"

namespace kd::core {

namespace {

using Writer = json::TextWriter;
using json::field_if_set;

void time(Writer& w, const char* key, int64_t ms) {
    if (ms != 0) json::field(w, key, format_rfc3339(ms));
}

void metadata(Writer& w, const std::string& name, const std::string& uid, const std::string& resource_version,
              int64_t creation_ms, const std::map<std::string, std::string>& labels,
              const std::map<std::string, std::string>& annotations) {
    w.Key("metadata");
    w.StartObject();
    field_if_set(w, "name", name);
    field_if_set(w, "uid", uid);
    field_if_set(w, "resourceVersion", resource_version);
    time(w, "creationTimestamp", creation_ms);
    json::string_map(w, "labels", labels);
    json::string_map(w, "annotations", annotations);
    w.EndObject();
}

void reference_value(Writer& w, const ObjectReference& r) {
    w.StartObject();
    field_if_set(w, "apiVersion", r.api_version);
    field_if_set(w, "kind", r.kind);
    field_if_set(w, "namespace", r.ns);
    field_if_set(w, "name", r.name);
    field_if_set(w, "uid", r.uid);
    field_if_set(w, "resourceVersion", r.resource_version);
    field_if_set(w, "fieldPath", r.field_path);
    w.EndObject();
}

void reference(Writer& w, const char* key, const ObjectReference& r) {
    w.Key(key);
    reference_value(w, r);
}

void condition_list(Writer& w, const std::vector<Condition>& list) {
    w.StartArray();
    for (const auto& c : list) {
        w.StartObject();
        field_if_set(w, "type", c.type);
        field_if_set(w, "status", c.status);
        time(w, "lastProbeTime", c.last_probe_ms);
        time(w, "lastTransitionTime", c.last_transition_ms);
        field_if_set(w, "reason", c.reason);
        field_if_set(w, "message", c.message);
        w.EndObject();
    }
    w.EndArray();
}

void conditions(Writer& w, const std::vector<Condition>& list) {
    if (list.empty()) return;
    w.Key("conditions");
    condition_list(w, list);
}

void type_meta(Writer& w, const char* kind) {
    field_if_set(w, "apiVersion", kMigrationApiVersion);
    field_if_set(w, "kind", kind);
}

}  // namespace

std::string to_json(const std::vector<Condition>& list) {
    Writer w;
    condition_list(w, list);
    return w.text();
}

std::string to_json(const ObjectReference& reference) {
    Writer w;
    reference_value(w, reference);
    return w.text();
}

std::string to_json(const PodMigrationJob& job) {
    if (!job.wire.empty()) return job.wire;
    Writer w;
    w.StartObject();
    type_meta(w, "PodMigrationJob");
    metadata(w, job.name, job.uid, job.resource_version, job.creation_ms, job.labels, job.annotations);
    w.Key("spec");
    w.StartObject();
    if (job.paused) {
        w.Key("paused");
        w.Bool(true);
    }
    if (job.ttl) field_if_set(w, "ttl", kd::format_duration(*job.ttl));
    field_if_set(w, "mode", job.mode);
    reference(w, "podRef", job.pod_ref);
    if (job.reservation_ref || job.reservation_template) {
        w.Key("reservationOptions");
        w.StartObject();
        if (job.reservation_ref) reference(w, "reservationRef", *job.reservation_ref);
        if (job.reservation_template) json::raw_field(w, "template", job.reservation_template->json);
        w.EndObject();
    }
    if (job.delete_options_json) json::raw_field(w, "deleteOptions", *job.delete_options_json);
    w.EndObject();
    w.Key("status");
    w.StartObject();
    field_if_set(w, "phase", job.phase);
    field_if_set(w, "status", job.status);
    field_if_set(w, "reason", job.reason);
    field_if_set(w, "message", job.message);
    conditions(w, job.conditions);
    field_if_set(w, "nodeName", job.node_name);
    if (job.status_pod_ref) reference(w, "podRef", *job.status_pod_ref);
    w.EndObject();
    w.EndObject();
    return w.text();
}

std::string to_json(const Reservation& r) {
    if (!r.wire.empty()) return r.wire;
    Writer w;
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
        json::raw_field(w, "template", r.template_.json);
    }
    w.Key("owners");
    w.StartArray();
    for (const auto& o : r.owners) {
        w.StartObject();
        if (o.object) reference(w, "object", *o.object);
        if (o.controller) {
            w.Key("controller");
            w.StartObject();
            json::field(w, "apiVersion", o.controller->api_version);
            json::field(w, "kind", o.controller->kind);
            json::field(w, "name", o.controller->name);
            json::field(w, "uid", o.controller->uid);
            field_if_set(w, "namespace", o.controller->ns);
            if (o.controller->controller) {
                w.Key("controller");
                w.Bool(true);
            }
            w.EndObject();
        }
        if (o.label_selector) json::label_selector(w, "labelSelector", *o.label_selector);
        w.EndObject();
    }
    w.EndArray();
    if (r.ttl) field_if_set(w, "ttl", kd::format_duration(*r.ttl));
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
    field_if_set(w, "phase", r.phase);
    field_if_set(w, "nodeName", r.node_name);
    conditions(w, r.conditions);
    if (!r.current_owners.empty()) {
        w.Key("currentOwners");
        w.StartArray();
        for (const auto& o : r.current_owners) reference_value(w, o);
        w.EndArray();
    }
    w.EndObject();
    w.EndObject();
    return w.text();
}

}  // namespace kd::core
