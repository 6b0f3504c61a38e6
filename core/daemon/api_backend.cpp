#include "daemon/api_backend.hpp"

#include "kube/client/resources.hpp"
#include "text/json_writer.hpp"
#include "text/merge_patch.hpp"

#include <kdesched/decode.hpp>
#include <kdesched/view.hpp>

#include <rapidjson/document.h>
#include <spdlog/spdlog.h>

#include <cctype>

namespace kd::core::daemon {

namespace {

std::string pod_key(const kd_pod& pod) {
    return kd::Pod(&pod).key();
}

// The resourceVersion of an object in an answer ("" when there is none).
std::string resource_version_of(const std::string& body) {
    if (kd::json_too_deep(body)) return "";
    rapidjson::Document d;
    d.Parse(body.data(), body.size());
    if (d.HasParseError() || !d.IsObject()) return "";
    auto m = d.FindMember("metadata");
    if (m == d.MemberEnd() || !m->value.IsObject()) return "";
    auto rv = m->value.FindMember("resourceVersion");
    return rv != m->value.MemberEnd() && rv->value.IsString() ? rv->value.GetString() : "";
}

// obj[key], nullptr when obj is not an object or has no such member.
const rapidjson::Value* member(const rapidjson::Value& obj, const char* key) {
    if (!obj.IsObject()) return nullptr;
    auto it = obj.FindMember(key);
    return it == obj.MemberEnd() ? nullptr : &it->value;
}

// metadata.resourceVersion of an object ("" when it has none).
std::string resource_version_in(const rapidjson::Value& object) {
    const rapidjson::Value* meta = member(object, "metadata");
    const rapidjson::Value* rv = meta ? member(*meta, "resourceVersion") : nullptr;
    return rv && rv->IsString() ? std::string(rv->GetString(), rv->GetStringLength()) : std::string();
}

// Metadata the API server keeps itself: never part of a patch, whatever a plugin sends (a plugin
// that leaves out the UID must not ask the server to remove it).
bool server_owned(std::string_view metadata_field) {
    for (std::string_view f : {"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink",
                               "deletionTimestamp", "deletionGracePeriodSeconds"})
        if (metadata_field == f) return true;
    return false;
}

std::string_view name_of(const rapidjson::Value& name) {
    return {name.GetString(), name.GetStringLength()};
}

// The half of an object an update writes — everything but the status, or the status alone —
// without the metadata the server owns.
rapidjson::Value half_of(const rapidjson::Value& object, bool status, rapidjson::Document::AllocatorType& a) {
    rapidjson::Value out(rapidjson::kObjectType);
    for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it) {
        if ((name_of(it->name) == "status") != status) continue;
        rapidjson::Value value(it->value, a);
        if (name_of(it->name) == "metadata" && value.IsObject())
            for (auto m = value.MemberBegin(); m != value.MemberEnd();)
                m = server_owned(name_of(m->name)) ? value.EraseMember(m) : m + 1;
        out.AddMember(rapidjson::Value(it->name, a), value, a);
    }
    return out;
}

// patch.metadata.resourceVersion = rv: the precondition of a patch (the server answers 409 when
// the object has another version).
void set_resource_version(rapidjson::Value& patch, const std::string& rv, rapidjson::Document::AllocatorType& a) {
    auto meta = patch.FindMember("metadata");
    if (meta == patch.MemberEnd() || !meta->value.IsObject()) {
        patch.RemoveMember("metadata");
        patch.AddMember("metadata", rapidjson::Value(rapidjson::kObjectType), a);
        meta = patch.FindMember("metadata");
    }
    meta->value.RemoveMember("resourceVersion");
    meta->value.AddMember("resourceVersion",
                          rapidjson::Value(rv.c_str(), static_cast<rapidjson::SizeType>(rv.size()), a), a);
}

// What a write names: the kind's resource and the object's name, from its JSON.
struct Target {
    std::optional<kube::ApiResource> resource;
    std::string kind, ns, name, problem;
    std::string text() const { return kind + " " + (ns.empty() ? name : ns + "/" + name); }
};

Target target_of(const rapidjson::Document& d) {
    Target t;
    if (d.HasParseError() || !d.IsObject()) {
        t.problem = "the object is not a JSON object";
        return t;
    }
    auto str = [](const rapidjson::Value& v, const char* k) {
        auto it = v.FindMember(k);
        return it != v.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString()) : std::string();
    };
    t.kind = str(d, "kind");
    if (auto m = d.FindMember("metadata"); m != d.MemberEnd() && m->value.IsObject()) {
        t.name = str(m->value, "name");
        t.ns = str(m->value, "namespace");
    }
    t.resource = kube::resource_by_kind(t.kind);
    if (t.kind != "PodMigrationJob" && t.kind != "Reservation")
        t.problem = "kind \"" + t.kind + "\" cannot be written here (PodMigrationJob and Reservation can)";
    else if (t.name.empty())
        t.problem = "metadata.name is missing";
    return t;
}

bool refused_by_budget(std::string_view message) {
    std::string lower(message);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower.find("disruption budget") != std::string::npos;
}

}  // namespace

WriteResult write_result(const kube::ApiResult& r, const std::string& what) {
    if (r.ok()) return WriteResult::success(resource_version_of(r.body));
    std::string message = what + ": " + r.describe();
    if (!r.answered()) return WriteResult::failure(KD_WRITE_TRANSIENT, message);
    switch (r.code) {
        case 409:
            return WriteResult::failure(r.status.reason == "AlreadyExists" ? KD_WRITE_EXISTS : KD_WRITE_CONFLICT,
                                        message);
        case 404:
            return WriteResult::failure(KD_WRITE_NOT_FOUND, message);
        case 401:
        case 403:
            return WriteResult::failure(KD_WRITE_FORBIDDEN, message);
        case 400:
        case 422:
            return WriteResult::failure(KD_WRITE_INVALID, message);
        case 429:
            return WriteResult::failure(KD_WRITE_TRANSIENT, message);
        default:
            return WriteResult::failure(r.code >= 500 ? KD_WRITE_TRANSIENT : KD_WRITE_FAILED, message);
    }
}

ApiBackend::ApiBackend(kube::ApiClient& client, EventRecorder& events)
    : client_(client), events_(events), secrets_(client) {}

void ApiBackend::set_gate(std::function<bool()> may_write, std::string why) {
    may_write_ = std::move(may_write);
    gate_reason_ = std::move(why);
}

void ApiBackend::set_stored_objects(StoredObject stored) {
    stored_ = std::move(stored);
}

void ApiBackend::set_dry_run(bool dry_run, std::function<void(std::string_view)> counted) {
    dry_run_ = dry_run;
    dry_run_counted_ = std::move(counted);
}

std::optional<WriteResult> ApiBackend::held_back(std::string_view write, const std::string& what) {
    if (may_write_ && !may_write_()) return WriteResult::failure(KD_WRITE_FORBIDDEN, what + ": " + gate_reason_);
    if (!dry_run_) return std::nullopt;
    spdlog::info("dry run: {} (not sent)", what);
    if (dry_run_counted_) dry_run_counted_(write);
    return WriteResult::success();
}

const char* ApiBackend::eviction_version() {
    if (!eviction_v1_) {
        kube::ApiResult r = client_.call({"GET", "/apis/policy/v1", {{"Accept", "application/json"}}, "", ""});
        eviction_v1_ = !(r.code == 404);  // unknown (no answer): v1, what every supported server has
        if (!*eviction_v1_) spdlog::info("the API server has no policy/v1: evicting through policy/v1beta1");
    }
    return *eviction_v1_ ? "policy/v1" : "policy/v1beta1";
}

WriteResult ApiBackend::evict_pod(const kd_pod& pod, std::string_view, std::string_view) {
    if (auto held = held_back("evict", "evicting pod " + pod_key(pod))) return *held;
    kd::Pod p(&pod);
    json::TextWriter w;
    w.StartObject();
    json::field(w, "apiVersion", eviction_version());
    json::field(w, "kind", "Eviction");
    json::key(w, "metadata");
    w.StartObject();
    json::field(w, "name", p.name());
    json::field(w, "namespace", p.ns());
    w.EndObject();
    if (grace_period_seconds_) {
        json::key(w, "deleteOptions");
        w.StartObject();
        json::key(w, "gracePeriodSeconds");
        w.Int64(*grace_period_seconds_);
        w.EndObject();
    }
    w.EndObject();
    const auto& pods = kube::resource_of(ObjectKind::pod);
    kube::ApiResult r = client_.call(
        {"POST", pods.object_path(p.ns(), p.name()) + "/eviction", {}, w.text(), "application/json"}, false);
    if (r.code == 404) {  // gone already: what the eviction wanted
        spdlog::info("evicting pod {}: it is already gone", pod_key(pod));
        return WriteResult::success();
    }
    // A PodDisruptionBudget does not allow it now (the server says so in its message); any other
    // 429 is the server's own throttling, worth trying again later.
    if (r.code == 429 && refused_by_budget(r.status.message))
        return WriteResult::failure(KD_WRITE_REFUSED, "evicting pod " + pod_key(pod) + ": " + r.describe());
    return write_result(r, "evicting pod " + pod_key(pod));
}

WriteResult ApiBackend::delete_pod(const kd_pod& pod, std::string_view, std::string_view) {
    if (auto held = held_back("delete", "deleting pod " + pod_key(pod))) return *held;
    kd::Pod p(&pod);
    const auto& pods = kube::resource_of(ObjectKind::pod);
    kube::ApiResult r = client_.call({"DELETE", pods.object_path(p.ns(), p.name()), {}, "", ""});
    if (r.code == 404) return WriteResult::success();
    return write_result(r, "deleting pod " + pod_key(pod));
}

WriteResult ApiBackend::annotate_pod(const kd_pod& pod, std::string_view key, std::string_view value,
                                     std::string_view) {
    if (auto held = held_back("patch", "annotating pod " + pod_key(pod) + " with " + std::string(key))) return *held;
    kd::Pod p(&pod);
    json::TextWriter w;
    w.StartObject();
    json::key(w, "metadata");
    w.StartObject();
    json::key(w, "annotations");
    w.StartObject();
    json::field(w, key, value);
    w.EndObject();
    w.EndObject();
    w.EndObject();
    const auto& pods = kube::resource_of(ObjectKind::pod);
    kube::ApiResult r =
        client_.call({"PATCH", pods.object_path(p.ns(), p.name()), {}, w.text(), "application/merge-patch+json"});
    return write_result(r, "annotating pod " + pod_key(pod));
}

WriteResult ApiBackend::create_object(std::string_view json, std::string_view) {
    rapidjson::Document d;
    d.Parse(json.data(), json.size());
    Target t = target_of(d);
    if (!t.problem.empty()) return WriteResult::failure(KD_WRITE_INVALID, "create: " + t.problem);
    if (auto held = held_back("create", "creating " + t.text())) return *held;
    kube::ApiResult r =
        client_.call({"POST", t.resource->collection_path(t.ns), {}, std::string(json), "application/json"});
    return write_result(r, "creating " + t.text());
}

WriteResult ApiBackend::update_object(std::string_view json, std::string_view) {
    return update(json, Half::spec);
}

WriteResult ApiBackend::update_status(std::string_view json, std::string_view) {
    return update(json, Half::status);
}

WriteResult ApiBackend::update(std::string_view json, Half half) {
    rapidjson::Document ours;
    ours.Parse(json.data(), json.size());
    Target t = target_of(ours);
    const char* verb = half == Half::status ? "updating the status of " : "updating ";
    if (!t.problem.empty()) return WriteResult::failure(KD_WRITE_INVALID, std::string(verb) + t.problem);
    const std::string what = verb + t.text();
    if (auto held = held_back("update", what)) return *held;
    const std::string object_path = t.resource->object_path(t.ns, t.name);
    const std::string key = t.kind + "/" + t.name, version = resource_version_in(ours);

    // What the plugin started from: the model's object, when the update is made from its version
    // (or from the version this backend's own last write to it answered).
    rapidjson::Document base;
    if (std::string stored = stored_ ? stored_(t.kind, t.name) : ""; !stored.empty())
        base.Parse(stored.data(), stored.size());
    auto written = written_versions_.find(key);
    const bool known =
        !version.empty() && !base.HasParseError() && base.IsObject() &&
        (resource_version_in(base) == version || (written != written_versions_.end() && written->second == version));
    WriteResult result = known ? patch(ours, base, half, object_path, what)
                               : replace(ours, object_path + (half == Half::status ? "/status" : ""), what);
    if (result.ok() && !result.resource_version.empty()) written_versions_[key] = result.resource_version;
    return result;
}

WriteResult ApiBackend::patch(rapidjson::Document& ours, const rapidjson::Document& base, Half half,
                              const std::string& object_path, const std::string& what) {
    auto& a = ours.GetAllocator();
    const bool status = half == Half::status;
    const std::string path = object_path + (status ? "/status" : "");
    rapidjson::Value changes = json::merge_patch_diff(half_of(base, status, a), half_of(ours, status, a), a);
    set_resource_version(changes, resource_version_in(ours), a);
    for (int attempt = 0;; ++attempt) {
        kube::ApiResult r = client_.call({"PATCH", path, {}, json::text_of(changes), "application/merge-patch+json"});
        WriteResult result = write_result(r, what);
        if (result.code != KD_WRITE_CONFLICT || attempt >= kConflictRetries) return result;
        // Someone else wrote the object. The change still applies when the other half — what it
        // was decided on — is as the plugin saw it; then only the precondition is stale, and the
        // patch leaves whatever the other writer changed elsewhere as it is.
        const char* other = status ? "spec" : "status";
        kube::ApiResult now = client_.call({"GET", object_path, {}, "", ""});
        if (!now.ok() || kd::json_too_deep(now.body)) return result;
        rapidjson::Document current;
        current.Parse(now.body.data(), now.body.size());
        if (current.HasParseError() || !current.IsObject()) return result;
        const rapidjson::Value *mine = member(ours, other), *theirs = member(current, other);
        bool same = mine && theirs ? *mine == *theirs : mine == theirs;
        std::string rv = resource_version_in(current);
        if (!same || rv.empty()) return result;
        set_resource_version(changes, rv, a);
        spdlog::debug("{}: conflict, patching again on resourceVersion {}", what, rv);
    }
}

WriteResult ApiBackend::replace(rapidjson::Document& ours, const std::string& path, const std::string& what) {
    return write_result(client_.call({"PUT", path, {}, json::text_of(ours), "application/json"}), what);
}

WriteResult ApiBackend::delete_object(std::string_view kind, std::string_view ns, std::string_view name,
                                      std::string_view) {
    auto resource = kube::resource_by_kind(kind);
    std::string what = "deleting " + std::string(kind) + " " + std::string(name);
    if (!resource || (kind != "PodMigrationJob" && kind != "Reservation"))
        return WriteResult::failure(KD_WRITE_INVALID, what + ": only PodMigrationJob and Reservation can be deleted");
    if (auto held = held_back("delete", what)) return *held;
    written_versions_.erase(std::string(kind) + "/" + std::string(name));
    return write_result(client_.call({"DELETE", resource->object_path(ns, name), {}, "", ""}), what);
}

void ApiBackend::record_event(std::string_view kind, std::string_view ns, std::string_view name, std::string_view type,
                              std::string_view reason, std::string_view action, std::string_view message,
                              std::string_view) {
    if (held_back("event", "event " + std::string(reason) + " about " + std::string(kind) + " " + std::string(name)))
        return;
    events_.record({std::string(kind), "", std::string(ns), std::string(name), std::string(type), std::string(reason),
                    std::string(action), std::string(message)});
}

std::string ApiBackend::read_secret(std::string_view ns, std::string_view name,
                                    std::map<std::string, std::string>& data) {
    return secrets_.read(ns, name, data);
}

}  // namespace kd::core::daemon
