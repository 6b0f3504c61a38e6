#include "reservation.hpp"

#include "json.hpp"

#include <kdesched/decode.hpp>

namespace kd::plugins::migrationcontroller {

namespace {

using json::Alloc;
using json::member;
using json::object_member;
using json::put;
using json::str;
using json::text;

rapidjson::Value key_values(const kd::KeyValues& kvs, Alloc& a) {
    rapidjson::Value out(rapidjson::kObjectType);
    for (size_t i = 0; i < kvs.size(); ++i) out.AddMember(text(kvs.key(i), a), text(kvs.value(i), a), a);
    return out;
}

// A quantity text for milli-units: whole units when exact, else "<n>m".
std::string quantity(int64_t milli) {
    return milli % 1000 == 0 ? std::to_string(milli / 1000) : std::to_string(milli) + "m";
}

rapidjson::Value requirement(std::string_view key, std::string_view op, const std::vector<std::string_view>& values,
                             Alloc& a) {
    rapidjson::Value r(rapidjson::kObjectType), vals(rapidjson::kArrayType);
    r.AddMember("key", text(key, a), a);
    r.AddMember("operator", text(op, a), a);
    for (auto v : values) vals.PushBack(text(v, a), a);
    r.AddMember("values", vals, a);
    return r;
}

rapidjson::Value requirements(const kd::StructRange<kd::SelectorRequirement, kd_selector_requirement>& reqs, Alloc& a) {
    rapidjson::Value out(rapidjson::kArrayType);
    for (auto r : reqs) {
        std::vector<std::string_view> values;
        for (size_t i = 0; i < r.value_count(); ++i) values.push_back(r.value(i));
        out.PushBack(requirement(r.key(), r.op(), values, a), a);
    }
    return out;
}

// The pod's required node affinity with `metadata.name NotIn [node]` added to every term, so the
// Reservation lands elsewhere (koord's `createReservation`); one such term when the pod has none.
rapidjson::Value node_affinity(const kd::Pod& pod, Alloc& a) {
    rapidjson::Value terms(rapidjson::kArrayType);
    auto not_here = [&] { return requirement("metadata.name", "NotIn", {pod.node_name()}, a); };
    for (auto t : pod.affinity_terms()) {
        rapidjson::Value term(rapidjson::kObjectType);
        term.AddMember("matchExpressions", requirements(t.expressions(), a), a);
        rapidjson::Value fields = requirements(t.fields(), a);
        if (!pod.node_name().empty()) fields.PushBack(not_here(), a);
        term.AddMember("matchFields", fields, a);
        terms.PushBack(term, a);
    }
    if (terms.Empty() && !pod.node_name().empty() && !pod.has_required_node_affinity()) {
        rapidjson::Value term(rapidjson::kObjectType), fields(rapidjson::kArrayType);
        fields.PushBack(not_here(), a);
        term.AddMember("matchFields", fields, a);
        terms.PushBack(term, a);
    }
    rapidjson::Value required(rapidjson::kObjectType), affinity(rapidjson::kObjectType), node(rapidjson::kObjectType);
    required.AddMember("nodeSelectorTerms", terms, a);
    node.AddMember("requiredDuringSchedulingIgnoredDuringExecution", required, a);
    affinity.AddMember("nodeAffinity", node, a);
    return affinity;
}

rapidjson::Value pod_template(const kd::Pod& pod, Alloc& a) {
    rapidjson::Value meta(rapidjson::kObjectType), spec(rapidjson::kObjectType);
    meta.AddMember("namespace", text(pod.ns(), a), a);
    meta.AddMember("name", text(pod.name(), a), a);
    meta.AddMember("labels", key_values(pod.labels(), a), a);
    spec.AddMember("schedulerName", text(pod.scheduler_name(), a), a);
    if (auto p = pod.priority()) spec.AddMember("priority", *p, a);
    if (!pod.priority_class_name().empty()) spec.AddMember("priorityClassName", text(pod.priority_class_name(), a), a);
    if (pod.node_selector().size() > 0) spec.AddMember("nodeSelector", key_values(pod.node_selector(), a), a);
    rapidjson::Value affinity = node_affinity(pod, a);
    if (!affinity["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"].Empty())
        spec.AddMember("affinity", affinity, a);
    rapidjson::Value tolerations(rapidjson::kArrayType);
    for (auto t : pod.tolerations()) {
        rapidjson::Value tol(rapidjson::kObjectType);
        if (!t.key().empty()) tol.AddMember("key", text(t.key(), a), a);
        if (!t.op().empty()) tol.AddMember("operator", text(t.op(), a), a);
        if (!t.value().empty()) tol.AddMember("value", text(t.value(), a), a);
        if (!t.effect().empty()) tol.AddMember("effect", text(t.effect(), a), a);
        tolerations.PushBack(tol, a);
    }
    if (!tolerations.Empty()) spec.AddMember("tolerations", tolerations, a);
    // The pod's effective requests, which is what the scheduler reserves.
    rapidjson::Value requests(rapidjson::kObjectType), resources(rapidjson::kObjectType),
        container(rapidjson::kObjectType), containers(rapidjson::kArrayType);
    auto req = pod.requests();
    for (size_t i = 0; i < req.size(); ++i)
        requests.AddMember(text(req.name(i), a), text(quantity(req.milli_at(i)), a), a);
    resources.AddMember("requests", requests, a);
    container.AddMember("name", "reserved", a);
    container.AddMember("resources", resources, a);
    containers.PushBack(container, a);
    spec.AddMember("containers", containers, a);
    rapidjson::Value tmpl(rapidjson::kObjectType);
    tmpl.AddMember("metadata", meta, a);
    tmpl.AddMember("spec", spec, a);
    return tmpl;
}

rapidjson::Value owners(const kd::Pod& pod, Alloc& a) {
    rapidjson::Value list(rapidjson::kArrayType);
    bool pending_unscheduled = false;
    if (pod.phase() == KD_POD_PENDING)
        for (auto c : pod.conditions())
            if (c.type() == "PodScheduled" && c.status() == "False") pending_unscheduled = true;
    rapidjson::Value owner(rapidjson::kObjectType);
    if (pending_unscheduled) {
        rapidjson::Value obj(rapidjson::kObjectType);
        obj.AddMember("uid", text(pod.uid(), a), a);
        obj.AddMember("kind", "Pod", a);
        obj.AddMember("name", text(pod.name(), a), a);
        obj.AddMember("namespace", text(pod.ns(), a), a);
        owner.AddMember("object", obj, a);
    } else if (auto c = pod.controller()) {
        rapidjson::Value ctl(rapidjson::kObjectType);
        ctl.AddMember("apiVersion", text(c->api_version(), a), a);
        ctl.AddMember("kind", text(c->kind(), a), a);
        ctl.AddMember("name", text(c->name(), a), a);
        ctl.AddMember("uid", text(c->uid(), a), a);
        ctl.AddMember("controller", true, a);
        ctl.AddMember("namespace", text(pod.ns(), a), a);
        owner.AddMember("controller", ctl, a);
    } else {
        return list;
    }
    list.PushBack(owner, a);
    return list;
}

}  // namespace

BuiltReservation build_reservation(const Job& job, const kd::Pod& pod, int64_t now_ms) {
    rapidjson::Document d(rapidjson::kObjectType);
    auto& a = d.GetAllocator();
    std::string base = job.reservation_template();
    if (!base.empty()) {
        d.Parse(base.data(), base.size());
        if (d.HasParseError() || !d.IsObject()) d.SetObject();
    }
    put(d, "apiVersion", rapidjson::Value("scheduling.koordinator.sh/v1alpha1"), a);
    put(d, "kind", rapidjson::Value("Reservation"), a);
    rapidjson::Value& meta = object_member(d, "metadata", a);
    if (str(member(&meta, "name")).empty()) put(meta, "name", text(job.uid(), a), a);
    rapidjson::Value& labels = object_member(meta, "labels", a);
    put(labels, "app.kubernetes.io/created-by", rapidjson::Value("koord-descheduler"), a);
    put(labels, kReservationOrderLabel, text(std::to_string(now_ms), a), a);
    rapidjson::Value& spec = object_member(d, "spec", a);
    put(spec, "template", pod_template(pod, a), a);
    const rapidjson::Value* given_owners = member(&spec, "owners");
    if (!given_owners || !given_owners->IsArray() || given_owners->Empty()) put(spec, "owners", owners(pod, a), a);
    put(spec, "allocateOnce", rapidjson::Value(true), a);
    auto ttl = job.ttl_ms();
    if (!member(&spec, "ttl") && !member(&spec, "expires") && ttl && *ttl > 0)
        put(spec, "ttl", text(kd::format_duration(kd::Duration{std::chrono::milliseconds(*ttl)}), a), a);
    return {std::string(str(member(&d["metadata"], "name"))), json::to_json(&d)};
}

ReservationView::ReservationView(const rapidjson::Value& object) : doc_(std::make_shared<rapidjson::Document>()) {
    doc_->CopyFrom(object, doc_->GetAllocator());
}

std::optional<ReservationView> ReservationView::find(std::string_view json_array, std::string_view name) {
    rapidjson::Document d;
    d.Parse(json_array.data(), json_array.size());
    if (d.HasParseError() || !d.IsArray()) return std::nullopt;
    for (const auto& v : d.GetArray())
        if (str(member(member(&v, "metadata"), "name")) == name) return ReservationView(v);
    return std::nullopt;
}

std::map<std::string, std::string, std::less<>> ReservationView::unused(std::string_view json_array) {
    std::map<std::string, std::string, std::less<>> out;
    rapidjson::Document d;
    d.Parse(json_array.data(), json_array.size());
    if (d.HasParseError() || !d.IsArray()) return out;
    for (const auto& v : d.GetArray()) {
        const rapidjson::Value* status = member(&v, "status");
        std::string_view phase = str(member(status, "phase"));
        const rapidjson::Value* owners = member(status, "currentOwners");
        bool bound = owners && owners->IsArray() && !owners->Empty();
        if (phase == "Succeeded" || phase == "Failed" || bound) continue;  // consumed, expired or bound
        out.emplace(std::string(str(member(member(&v, "metadata"), "name"))),
                    phase.empty() ? "Pending" : std::string(phase));
    }
    return out;
}

std::string_view ReservationView::name() const {
    return str(member(member(doc_.get(), "metadata"), "name"));
}
std::string_view ReservationView::uid() const {
    return str(member(member(doc_.get(), "metadata"), "uid"));
}
std::string_view ReservationView::phase() const {
    return str(member(member(doc_.get(), "status"), "phase"));
}
std::string_view ReservationView::node_name() const {
    return str(member(member(doc_.get(), "status"), "nodeName"));
}

bool ReservationView::has_label(std::string_view key) const {
    const rapidjson::Value* labels = member(member(doc_.get(), "metadata"), "labels");
    if (!labels || !labels->IsObject()) return false;
    for (const auto& m : labels->GetObject())
        if (str(&m.name) == key) return true;
    return false;
}

std::optional<JobCondition> ReservationView::condition(std::string_view type) const {
    return condition_of(doc_.get(), type);
}

std::optional<ReservationView::Owner> ReservationView::bound_pod() const {
    const rapidjson::Value* list = member(member(doc_.get(), "status"), "currentOwners");
    if (!list || !list->IsArray() || list->Empty()) return std::nullopt;
    const rapidjson::Value& o = (*list)[0];
    return Owner{std::string(str(member(&o, "namespace"))), std::string(str(member(&o, "name"))),
                 std::string(str(member(&o, "uid")))};
}

bool ReservationView::owned_by_object_only() const {
    const rapidjson::Value* list = member(member(doc_.get(), "spec"), "owners");
    if (!list || !list->IsArray()) return false;
    bool object = false;
    for (const auto& o : list->GetArray()) {
        if (member(&o, "controller") || member(&o, "labelSelector")) return false;
        object = object || member(&o, "object");
    }
    return object;
}

std::string ReservationView::with_order_label(int64_t ms) const {
    rapidjson::Document d;
    auto& a = d.GetAllocator();
    d.CopyFrom(*doc_, a);
    rapidjson::Value& labels = object_member(object_member(d, "metadata", a), "labels", a);
    put(labels, kReservationOrderLabel, text(std::to_string(ms), a), a);
    return json::to_json(&d);
}

}  // namespace kd::plugins::migrationcontroller
