#include "daemon/api_backend.hpp"

#include "kube/resources.hpp"
#include "text/json_writer.hpp"

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

ApiBackend::ApiBackend(kube::ApiClient& client, kube::EventRecorder& events)
    : client_(client), events_(events), secrets_(client) {}

void ApiBackend::set_gate(std::function<bool()> may_write, std::string why) {
    may_write_ = std::move(may_write);
    gate_reason_ = std::move(why);
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
    if (auto held = held_back("update", verb + t.text())) return *held;
    const std::string path = t.resource->object_path(t.ns, t.name) + (half == Half::status ? "/status" : "");
    std::string body(json);
    for (int attempt = 0;; ++attempt) {
        kube::ApiResult r = client_.call({"PUT", path, {}, body, "application/json"});
        WriteResult result = write_result(r, verb + t.text());
        if (result.code != KD_WRITE_CONFLICT || attempt >= kConflictRetries) return result;
        // Someone else wrote it. The change still applies when the other half — what this write
        // was decided on — is as we saw it; then only the resourceVersion is stale.
        kube::ApiResult now = client_.call({"GET", t.resource->object_path(t.ns, t.name), {}, "", ""});
        if (!now.ok() || kd::json_too_deep(now.body)) return result;
        rapidjson::Document current;
        current.Parse(now.body.data(), now.body.size());
        const char* other = half == Half::status ? "spec" : "status";
        auto mine = ours.FindMember(other), theirs = current.FindMember(other);
        bool same = (mine == ours.MemberEnd() || theirs == current.MemberEnd())
                        ? (mine == ours.MemberEnd()) == (theirs == current.MemberEnd())
                        : mine->value == theirs->value;
        std::string rv = resource_version_of(now.body);
        if (!same || rv.empty()) return result;
        auto& meta = ours["metadata"];
        if (auto it = meta.FindMember("resourceVersion"); it != meta.MemberEnd())
            it->value.SetString(rv.c_str(), static_cast<rapidjson::SizeType>(rv.size()), ours.GetAllocator());
        else
            meta.AddMember("resourceVersion", rapidjson::Value(rv.c_str(), ours.GetAllocator()), ours.GetAllocator());
        body = json::text_of(ours);
        spdlog::debug("{}{}: conflict, writing again on resourceVersion {}", verb, t.text(), rv);
    }
}

WriteResult ApiBackend::delete_object(std::string_view kind, std::string_view ns, std::string_view name,
                                      std::string_view) {
    auto resource = kube::resource_by_kind(kind);
    std::string what = "deleting " + std::string(kind) + " " + std::string(name);
    if (!resource || (kind != "PodMigrationJob" && kind != "Reservation"))
        return WriteResult::failure(KD_WRITE_INVALID, what + ": only PodMigrationJob and Reservation can be deleted");
    if (auto held = held_back("delete", what)) return *held;
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
