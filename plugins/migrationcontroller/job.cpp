#include "job.hpp"

#include "json.hpp"

#include <kdesched/decode.hpp>
#include <kdesched/rfc3339.hpp>

#include <stdexcept>

namespace kd::plugins::migrationcontroller {

using json::member;
using json::str;
using json::text;

std::string quoted_pod(std::string_view ns, std::string_view name) {
    return "Pod \"" + std::string(ns) + "/" + std::string(name) + "\"";
}

Job::Job(const rapidjson::Value& object) : doc_(std::make_unique<rapidjson::Document>()) {
    if (!object.IsObject()) throw std::runtime_error("PodMigrationJob is not a JSON object");
    doc_->CopyFrom(object, doc_->GetAllocator());
}

Job::Job(const Job& other)
    : doc_(std::make_unique<rapidjson::Document>()),
      main_changed_(other.main_changed_),
      status_changed_(other.status_changed_) {
    doc_->CopyFrom(*other.doc_, doc_->GetAllocator());
}

Job& Job::operator=(const Job& other) {
    if (this != &other) {
        doc_ = std::make_unique<rapidjson::Document>();
        doc_->CopyFrom(*other.doc_, doc_->GetAllocator());
        main_changed_ = other.main_changed_;
        status_changed_ = other.status_changed_;
    }
    return *this;
}

std::vector<Job> Job::list(std::string_view json_array) {
    rapidjson::Document d;
    d.Parse(json_array.data(), json_array.size());
    if (d.HasParseError() || !d.IsArray())
        throw std::runtime_error("the host's PodMigrationJob list is not a JSON array");
    std::vector<Job> out;
    out.reserve(d.Size());
    for (const auto& v : d.GetArray()) out.emplace_back(v);
    return out;
}

Job Job::create(std::string name, std::string_view pod_ns, std::string_view pod_name, std::string_view pod_uid,
                std::string_view mode, int64_t ttl_ms, std::string_view delete_options,
                std::vector<std::pair<std::string, std::string>> annotations) {
    rapidjson::Document d(rapidjson::kObjectType);
    auto& a = d.GetAllocator();
    d.AddMember("apiVersion", "scheduling.koordinator.sh/v1alpha1", a);
    d.AddMember("kind", "PodMigrationJob", a);
    rapidjson::Value meta(rapidjson::kObjectType), ann(rapidjson::kObjectType), spec(rapidjson::kObjectType),
        ref(rapidjson::kObjectType);
    meta.AddMember("name", text(name, a), a);
    for (const auto& [k, v] : annotations) ann.AddMember(text(k, a), text(v, a), a);
    meta.AddMember("annotations", ann, a);
    d.AddMember("metadata", meta, a);
    ref.AddMember("namespace", text(pod_ns, a), a);
    ref.AddMember("name", text(pod_name, a), a);
    ref.AddMember("uid", text(pod_uid, a), a);
    spec.AddMember("podRef", ref, a);
    spec.AddMember("mode", text(mode, a), a);
    if (ttl_ms > 0)
        spec.AddMember("ttl", text(kd::format_duration(kd::Duration{std::chrono::milliseconds(ttl_ms)}), a), a);
    if (!delete_options.empty()) {
        rapidjson::Document opts(&a);
        opts.Parse(delete_options.data(), delete_options.size());
        if (!opts.HasParseError()) spec.AddMember("deleteOptions", rapidjson::Value(opts, a), a);
    }
    d.AddMember("spec", spec, a);
    // No status: it is a subresource, which a create does not write; no phase means Pending.
    return Job(d);
}

std::string_view Job::str(const char* a, const char* b, const char* c, const char* d) const {
    const rapidjson::Value* v = member(member(doc_.get(), a), b);
    if (c) v = member(v, c);
    if (d) v = member(v, d);
    return json::str(v);
}

rapidjson::Value& Job::object_at(std::initializer_list<const char*> path) {
    (std::string_view(*path.begin()) == "status" ? status_changed_ : main_changed_) = true;
    rapidjson::Value* v = doc_.get();
    for (const char* key : path) v = &json::object_member(*v, key, doc_->GetAllocator());
    return *v;
}

void Job::set(rapidjson::Value& obj, std::string_view key, std::string_view value) {
    auto& a = doc_->GetAllocator();
    json::put(obj, key, text(value, a), a);
}

int64_t Job::creation_ms() const {
    auto t = kd::parse_rfc3339_ms(str("metadata", "creationTimestamp"));
    return t.value_or(0);
}

namespace {
// metadata.<map>[key] of a job: the member when present (any type), else null.
const rapidjson::Value* metadata_entry(const rapidjson::Value* doc, const char* map, std::string_view key) {
    const rapidjson::Value* m = member(member(doc, "metadata"), map);
    if (!m || !m->IsObject()) return nullptr;
    auto it = m->FindMember(rapidjson::Value(rapidjson::StringRef(key.data(), key.size())));
    return it == m->MemberEnd() ? nullptr : &it->value;
}
}  // namespace

std::string_view Job::annotation(std::string_view key) const {
    return json::str(metadata_entry(doc_.get(), "annotations", key));
}

std::string_view Job::label(std::string_view key) const {
    return json::str(metadata_entry(doc_.get(), "labels", key));
}

bool Job::has_annotation(std::string_view key) const {
    return metadata_entry(doc_.get(), "annotations", key) != nullptr;
}

void Job::set_annotation(std::string_view key, std::string_view value) {
    set(object_at({"metadata", "annotations"}), key, value);
}

void Job::set_pod_uid(std::string_view uid) {
    set(object_at({"spec", "podRef"}), "uid", uid);
}

bool Job::paused() const {
    const rapidjson::Value* v = member(member(doc_.get(), "spec"), "paused");
    return v && v->IsBool() && v->GetBool();
}

std::optional<int64_t> Job::ttl_ms() const {
    std::string_view t = str("spec", "ttl");
    if (t.empty()) return std::nullopt;
    auto d = kd::parse_duration(t);
    if (!d) return std::nullopt;
    return std::chrono::duration_cast<std::chrono::milliseconds>(d->value).count();
}

void Job::set_reservation_ref(std::string_view name, std::string_view uid) {
    rapidjson::Value& ref = object_at({"spec", "reservationOptions", "reservationRef"});
    // The anchor writes the version alone as apiVersion (koord's `Reconcile` after
    // `createReservation`; docs/compatibility.md).
    set(ref, "apiVersion", "v1alpha1");
    set(ref, "kind", "Reservation");
    set(ref, "name", name);
    set(ref, "uid", uid);
}

std::string Job::reservation_template() const {
    return json::to_json(member(member(member(doc_.get(), "spec"), "reservationOptions"), "template"));
}

std::string Job::delete_options() const {
    return json::to_json(member(member(doc_.get(), "spec"), "deleteOptions"));
}

void Job::set_phase(std::string_view phase) {
    set(object_at({"status"}), "phase", phase);
}

void Job::set_result(std::string_view status, std::string_view reason, std::string_view message) {
    rapidjson::Value& s = object_at({"status"});
    set(s, "status", status);
    set(s, "reason", reason);
    set(s, "message", message);
}

void Job::set_reason(std::string_view reason, std::string_view message) {
    rapidjson::Value& s = object_at({"status"});
    set(s, "reason", reason);
    set(s, "message", message);
}

void Job::set_node_name(std::string_view node) {
    set(object_at({"status"}), "nodeName", node);
}

void Job::set_bound_pod(std::string_view ns, std::string_view name, std::string_view uid) {
    rapidjson::Value& ref = object_at({"status", "podRef"});
    set(ref, "namespace", ns);
    set(ref, "name", name);
    set(ref, "uid", uid);
}

std::optional<JobCondition> condition_of(const rapidjson::Value* object, std::string_view type) {
    const rapidjson::Value* list = member(member(object, "status"), "conditions");
    if (!list || !list->IsArray()) return std::nullopt;
    for (const auto& c : list->GetArray())
        if (str(member(&c, "type")) == type)
            return JobCondition{std::string(type), std::string(str(member(&c, "status"))),
                                std::string(str(member(&c, "reason"))), std::string(str(member(&c, "message")))};
    return std::nullopt;
}

std::optional<JobCondition> Job::condition(std::string_view type) const {
    return condition_of(doc_.get(), type);
}

bool Job::condition_true(std::string_view type) const {
    auto c = condition(type);
    return c && c->status == "True";
}

bool Job::update_condition(const JobCondition& c, int64_t now_ms) {
    auto old = condition(c.type);
    if (old && old->status == c.status && old->reason == c.reason && old->message == c.message) return false;
    rapidjson::Value& s = object_at({"status"});
    auto& a = doc_->GetAllocator();
    auto it = s.FindMember("conditions");
    if (it == s.MemberEnd() || !it->value.IsArray()) {
        if (it != s.MemberEnd()) s.RemoveMember(it);
        s.AddMember("conditions", rapidjson::Value(rapidjson::kArrayType), a);
        it = s.FindMember("conditions");
    }
    std::string now = kd::format_rfc3339(now_ms);
    rapidjson::Value* target = nullptr;
    for (auto& v : it->value.GetArray())
        if (json::str(member(&v, "type")) == c.type) target = &v;
    if (!target) {
        it->value.PushBack(rapidjson::Value(rapidjson::kObjectType), a);
        target = &it->value[it->value.Size() - 1];
    }
    set(*target, "type", c.type);
    set(*target, "status", c.status);
    set(*target, "reason", c.reason);
    set(*target, "message", c.message);
    set(*target, "lastProbeTime", now);
    if (!old || old->status != c.status) set(*target, "lastTransitionTime", now);
    set_result(c.type, c.reason, c.message);
    return true;
}

std::string Job::json() const {
    return json::to_json(doc_.get());
}

kd::WriteResult Job::save(const kd::Cycle& cycle) {
    for (bool status : {false, true}) {
        bool& changed = status ? status_changed_ : main_changed_;
        if (!changed) continue;
        kd::WriteResult r = status ? cycle.update_object_status(json()) : cycle.update_object(json());
        if (!r.ok()) return r;
        changed = false;
        // Not through set(): a new resourceVersion is not a change to write.
        if (!r.resource_version.empty()) {
            auto& a = doc_->GetAllocator();
            json::put(json::object_member(*doc_, "metadata", a), "resourceVersion", text(r.resource_version, a), a);
        }
    }
    return {};
}

}  // namespace kd::plugins::migrationcontroller
