#include "cluster/decode/migration_reader.hpp"

#include "cluster/pod_derivations.hpp"

#include "cluster/decode/dom_fields.hpp"
#include "cluster/decode/field_problem.hpp"
#include "cluster/rfc3339.hpp"

#include <kdesched/quantity.hpp>

#include "text/json_writer.hpp"

#include <algorithm>
#include <charconv>
#include <deque>
#include <string_view>

namespace kd::core::decode {

namespace {

using rapidjson::Value;
using namespace dom;

bool boolean(const Value& obj, const char* key, const std::string& base, bool dflt) {
    const Value* v = member(obj, key);
    if (!v) return dflt;
    if (!v->IsBool()) wrong_type(field(base, key), "true or false", *v);
    return v->GetBool();
}

int64_t timestamp(const Value& obj, const char* key, const std::string& base) {
    std::string text = string(obj, key, base);
    if (text.empty()) return 0;
    auto ms = parse_rfc3339_ms(text);
    if (!ms)
        problem(field(base, key), "invalid timestamp \"" + text + "\"", "use RFC 3339, e.g. \"2024-05-01T12:00:00Z\"");
    return *ms;
}

std::optional<kd::Duration> duration(const Value& obj, const char* key, const std::string& base) {
    const Value* v = member(obj, key);
    if (!v) return std::nullopt;
    if (!v->IsString()) wrong_type(field(base, key), "a duration string", *v);
    auto d = kd::parse_duration(std::string_view(v->GetString(), v->GetStringLength()));
    if (!d)
        problem(field(base, key), "invalid duration \"" + std::string(v->GetString()) + "\"",
                "use e.g. \"5m\" or \"24h\"");
    return d;
}

std::map<std::string, std::string> string_map(const Value& obj, const char* key, const std::string& base) {
    std::map<std::string, std::string> out;
    const Value* m = object(obj, key, base);
    if (!m) return out;
    for (auto it = m->MemberBegin(); it != m->MemberEnd(); ++it) {
        std::string k(it->name.GetString(), it->name.GetStringLength());
        if (it->value.IsNull()) {
            out[k];
            continue;
        }
        if (!it->value.IsString()) wrong_type(field(field(base, key), k), "a string", it->value);
        out[k].assign(it->value.GetString(), it->value.GetStringLength());
    }
    return out;
}

std::string to_json(const Value& v) {
    return json::text_of(v);
}

ObjectReference object_reference(const Value& v, const std::string& path) {
    if (!v.IsObject()) wrong_type(path, "an object", v);
    ObjectReference r;
    r.api_version = string(v, "apiVersion", path);
    r.kind = string(v, "kind", path);
    r.ns = string(v, "namespace", path);
    r.name = string(v, "name", path);
    r.uid = string(v, "uid", path);
    r.resource_version = string(v, "resourceVersion", path);
    r.field_path = string(v, "fieldPath", path);
    return r;
}

std::optional<ObjectReference> optional_reference(const Value& obj, const char* key, const std::string& base) {
    const Value* v = member(obj, key);
    if (!v) return std::nullopt;
    return object_reference(*v, field(base, key));
}

std::vector<Condition> conditions(const Value& obj, const char* key, const std::string& base) {
    std::vector<Condition> out;
    each_object(obj, key, base, [&](const Value& c, const std::string& p) {
        Condition& cond = out.emplace_back();
        cond.type = string(c, "type", p);
        cond.status = string(c, "status", p);
        cond.reason = string(c, "reason", p);
        cond.message = string(c, "message", p);
        cond.last_probe_ms = timestamp(c, "lastProbeTime", p);
        cond.last_transition_ms = timestamp(c, "lastTransitionTime", p);
    });
    return out;
}

// A template's effective requests, computed by the model's one implementation of Kubernetes'
// PodRequests (pod_derivations.hpp) from a draft of its containers.
Resources effective_requests(const Value& spec, const std::string& base) {
    PodDraft draft;
    std::deque<std::string> names;  // the draft's views point here
    auto read = [&](const char* key, std::vector<PodDraft::Container>& out) {
        each_object(spec, key, base, [&](const Value& c, const std::string& p) {
            PodDraft::Container& container = out.emplace_back();
            container.restart_always = string(c, "restartPolicy", p) == "Always";
            if (const Value* res = object(c, "resources", p))
                for (auto& [n, v] : resource_list(*res, "requests", field(p, "resources")))
                    container.requests.emplace_back(names.emplace_back(n), v);
        });
    };
    read("containers", draft.containers);
    read("initContainers", draft.init_containers);
    for (auto& [n, v] : resource_list(spec, "overhead", base)) draft.overhead.emplace_back(names.emplace_back(n), v);
    Resources out;
    for (const auto& [n, v] : kd::core::effective_requests(draft)) out.emplace_back(std::string(n), v);
    return out;
}

std::vector<PodTemplate::Requirement> requirements(const Value& term, const char* key, const std::string& base) {
    std::vector<PodTemplate::Requirement> out;
    each_object(term, key, base, [&](const Value& r, const std::string& p) {
        PodTemplate::Requirement& req = out.emplace_back();
        req.key = string(r, "key", p);
        req.op = string(r, "operator", p);
        if (const Value* values = array(r, "values", p)) {
            for (rapidjson::SizeType j = 0; j < values->Size(); ++j) {
                const Value& v = (*values)[j];
                if (!v.IsString()) wrong_type(kd::index_path(field(p, "values"), j), "a string", v);
                req.values.emplace_back(v.GetString(), v.GetStringLength());
            }
        }
    });
    return out;
}

kd::LabelSelector label_selector(const Value& v, const std::string& path) {
    kd::Errors errs;
    kd::LabelSelector sel;
    kd::decode_value(v, sel, path, errs);
    if (errs.empty()) sel.validate(errs, path);
    if (!errs.empty()) problem(errs.items()[0].path, errs.items()[0].message);
    return sel;
}

// The metadata fields PodMigrationJob and Reservation share.
template <class T>
void read_metadata(const Value& obj, T& out) {
    const Value* meta = object(obj, "metadata", "");
    if (!meta) return;
    out.uid = string(*meta, "uid", "metadata");
    out.name = string(*meta, "name", "metadata");
    out.resource_version = string(*meta, "resourceVersion", "metadata");
    out.creation_ms = timestamp(*meta, "creationTimestamp", "metadata");
    out.labels = string_map(*meta, "labels", "metadata");
    out.annotations = string_map(*meta, "annotations", "metadata");
}

void write_without_managed_fields(json::TextWriter& w, const Value& metadata) {
    w.StartObject();
    for (auto it = metadata.MemberBegin(); it != metadata.MemberEnd(); ++it) {
        if (std::string_view(it->name.GetString(), it->name.GetStringLength()) == "managedFields") continue;
        it->name.Accept(w);
        it->value.Accept(w);
    }
    w.EndObject();
}

}  // namespace

std::string wire_form(const Value& obj, std::string_view kind) {
    json::TextWriter w;
    w.StartObject();
    if (!member(obj, "apiVersion")) json::field(w, "apiVersion", kMigrationApiVersion);
    if (!member(obj, "kind")) json::field(w, "kind", kind);
    for (auto it = obj.MemberBegin(); it != obj.MemberEnd(); ++it) {
        it->name.Accept(w);
        if (it->value.IsObject() && std::string_view(it->name.GetString(), it->name.GetStringLength()) == "metadata")
            write_without_managed_fields(w, it->value);
        else
            it->value.Accept(w);
    }
    w.EndObject();
    return w.text();
}

PodTemplate read_pod_template(const Value& tpl, const Value& json_of, const std::string& path) {
    if (!tpl.IsObject()) wrong_type(path, "an object", tpl);
    PodTemplate out;
    out.json = to_json(json_of);
    if (const Value* meta = object(tpl, "metadata", path))
        out.labels = string_map(*meta, "labels", field(path, "metadata"));
    const Value* spec = object(tpl, "spec", path);
    if (!spec) return out;
    std::string sp = field(path, "spec");
    out.scheduler_name = string(*spec, "schedulerName", sp);
    out.node_selector = string_map(*spec, "nodeSelector", sp);
    out.requests = effective_requests(*spec, sp);
    if (const Value* affinity = object(*spec, "affinity", sp)) {
        std::string ap = field(sp, "affinity");
        if (const Value* na = object(*affinity, "nodeAffinity", ap)) {
            std::string np = field(ap, "nodeAffinity");
            if (const Value* req = object(*na, "requiredDuringSchedulingIgnoredDuringExecution", np)) {
                out.has_required_affinity = true;
                std::string rp = field(np, "requiredDuringSchedulingIgnoredDuringExecution");
                each_object(*req, "nodeSelectorTerms", rp, [&](const Value& t, const std::string& tp) {
                    out.affinity_terms.push_back(
                        PodTemplate::Term{requirements(t, "matchExpressions", tp), requirements(t, "matchFields", tp)});
                });
            }
        }
    }
    each_object(*spec, "tolerations", sp, [&](const Value& t, const std::string& tp) {
        out.tolerations.push_back(PodTemplate::Toleration{string(t, "key", tp), string(t, "operator", tp),
                                                          string(t, "value", tp), string(t, "effect", tp)});
    });
    return out;
}

PodMigrationJob read_migration_job(const Value& obj) {
    PodMigrationJob job;
    read_metadata(obj, job);
    job.wire = wire_form(obj, "PodMigrationJob");
    if (const Value* spec = object(obj, "spec", "")) {
        job.paused = boolean(*spec, "paused", "spec", false);
        job.ttl = duration(*spec, "ttl", "spec");
        job.mode = string(*spec, "mode", "spec");
        if (const Value* ref = member(*spec, "podRef")) job.pod_ref = object_reference(*ref, "spec.podRef");
        if (const Value* opts = object(*spec, "reservationOptions", "spec")) {
            job.reservation_ref = optional_reference(*opts, "reservationRef", "spec.reservationOptions");
            // The template is a ReservationTemplateSpec: kept whole as JSON (it is what a
            // Reservation is created from), read for the pod template inside it.
            if (const Value* tpl = object(*opts, "template", "spec.reservationOptions")) {
                static const Value kEmpty(rapidjson::kObjectType);
                const Value* rspec = object(*tpl, "spec", "spec.reservationOptions.template");
                const Value* pod =
                    rspec ? object(*rspec, "template", "spec.reservationOptions.template.spec") : nullptr;
                job.reservation_template =
                    read_pod_template(pod ? *pod : kEmpty, *tpl, "spec.reservationOptions.template.spec.template");
            }
        }
        if (const Value* del = object(*spec, "deleteOptions", "spec")) job.delete_options_json = to_json(*del);
    }
    if (const Value* status = object(obj, "status", "")) {
        job.phase = string(*status, "phase", "status");
        job.status = string(*status, "status", "status");
        job.reason = string(*status, "reason", "status");
        job.message = string(*status, "message", "status");
        job.node_name = string(*status, "nodeName", "status");
        job.conditions = conditions(*status, "conditions", "status");
        job.status_pod_ref = optional_reference(*status, "podRef", "status");
    }
    return job;
}

Reservation read_reservation(const Value& obj) {
    Reservation r;
    read_metadata(obj, r);
    r.wire = wire_form(obj, "Reservation");
    if (const Value* spec = object(obj, "spec", "")) {
        if (const Value* tpl = object(*spec, "template", "spec"))
            r.template_ = read_pod_template(*tpl, *tpl, "spec.template");
        each_object(*spec, "owners", "spec", [&](const Value& o, const std::string& p) {
            ReservationOwner& owner = r.owners.emplace_back();
            owner.object = optional_reference(o, "object", p);
            if (const Value* c = object(o, "controller", p)) {
                std::string cp = field(p, "controller");
                ReservationOwner::Controller& ctl = owner.controller.emplace();
                ctl.api_version = string(*c, "apiVersion", cp);
                ctl.kind = string(*c, "kind", cp);
                ctl.name = string(*c, "name", cp);
                ctl.uid = string(*c, "uid", cp);
                ctl.ns = string(*c, "namespace", cp);
                ctl.controller = boolean(*c, "controller", cp, false);
            }
            if (const Value* sel = object(o, "labelSelector", p))
                owner.label_selector = label_selector(*sel, field(p, "labelSelector"));
        });
        r.ttl = duration(*spec, "ttl", "spec");
        r.expires_ms = timestamp(*spec, "expires", "spec");
        r.allocate_once = boolean(*spec, "allocateOnce", "spec", true);
        r.unschedulable = boolean(*spec, "unschedulable", "spec", false);
    }
    if (const Value* status = object(obj, "status", "")) {
        r.phase = string(*status, "phase", "status");
        r.node_name = string(*status, "nodeName", "status");
        r.conditions = conditions(*status, "conditions", "status");
        if (const Value* owners = array(*status, "currentOwners", "status")) {
            for (rapidjson::SizeType i = 0; i < owners->Size(); ++i)
                r.current_owners.push_back(object_reference((*owners)[i], kd::index_path("status.currentOwners", i)));
        }
    }
    return r;
}

}  // namespace kd::core::decode
