// Shared helpers for the MigrationController tests: a two-node cluster with one Deployment pod,
// PodMigrationJob / Reservation JSON builders for the snapshot's object lists, and readers of the
// fake host's recorded writes.
#pragma once

#include "job.hpp"
#include "migration_controller.hpp"

#include "crd_schema.hpp"

#include <kdesched/rfc3339.hpp>
#include <kdesched/testing.hpp>

#include <rapidjson/document.h>
#include <rapidjson/pointer.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <catch2/catch.hpp>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc_test {

using kd::plugins::migrationcontroller::MigrationController;
using kd::plugins::migrationcontroller::MigrationControllerArgs;
using kd::testing::FakeHost;
using kd::testing::SnapshotBuilder;
using PodSpec = SnapshotBuilder::PodSpec;

constexpr int64_t kSecond = 1000;
constexpr int64_t kMinute = 60 * kSecond;
constexpr int64_t kT0 = 1'700'000'000'000;             // SnapshotBuilder's default clock
inline const std::string kInstance = "test-instance";  // FakeHost::instance_id

// JSON-pointer token for a key that may contain '/' or '~'.
inline std::string esc(std::string_view key) {
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

inline std::string to_json(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    v.Accept(w);
    return std::string(buf.GetString(), buf.GetSize());
}

inline rapidjson::Document parse(std::string_view text) {
    rapidjson::Document d;
    d.Parse(text.data(), text.size());
    REQUIRE_FALSE(d.HasParseError());
    return d;
}

// The value at a JSON pointer, or nullptr.
inline const rapidjson::Value* at(const rapidjson::Value& v, const std::string& pointer) {
    return rapidjson::Pointer(pointer.c_str()).Get(v);
}
// The string at a JSON pointer; "<absent>" when missing, "<not a string>" when another type.
inline std::string str(const rapidjson::Value& v, const std::string& pointer) {
    const rapidjson::Value* x = at(v, pointer);
    if (!x) return "<absent>";
    if (!x->IsString()) return "<not a string>";
    return std::string(x->GetString(), x->GetStringLength());
}
inline bool has(const rapidjson::Value& v, const std::string& pointer) {
    return at(v, pointer) != nullptr;
}

// A JSON object built by pointer paths.
class ObjectJson {
public:
    ObjectJson() { d_.SetObject(); }
    ObjectJson(const ObjectJson& o) { d_.CopyFrom(o.d_, d_.GetAllocator()); }
    ObjectJson& set(const std::string& pointer, std::string_view value) {
        rapidjson::Pointer(pointer.c_str())
            .Set(d_, rapidjson::Value(value.data(), static_cast<rapidjson::SizeType>(value.size()), d_.GetAllocator()));
        return *this;
    }
    ObjectJson& set_bool(const std::string& pointer, bool value) {
        rapidjson::Pointer(pointer.c_str()).Set(d_, value);
        return *this;
    }
    // Sets a raw JSON value.
    ObjectJson& set_json(const std::string& pointer, std::string_view json) {
        rapidjson::Document v(&d_.GetAllocator());
        v.Parse(json.data(), json.size());
        REQUIRE_FALSE(v.HasParseError());
        rapidjson::Pointer(pointer.c_str()).Set(d_, rapidjson::Value(v, d_.GetAllocator()));
        return *this;
    }
    ObjectJson& erase(const std::string& pointer) {
        rapidjson::Pointer(pointer.c_str()).Erase(d_);
        return *this;
    }
    // Appends {type, status, reason, message} to status.conditions.
    ObjectJson& condition(std::string_view type, std::string_view status, std::string_view reason = "",
                          std::string_view message = "") {
        auto& a = d_.GetAllocator();
        rapidjson::Value& list = rapidjson::Pointer("/status/conditions").GetWithDefault(d_, rapidjson::kArrayType);
        rapidjson::Value c(rapidjson::kObjectType);
        auto s = [&](std::string_view x) {
            return rapidjson::Value(x.data(), static_cast<rapidjson::SizeType>(x.size()), a);
        };
        c.AddMember("type", s(type), a);
        c.AddMember("status", s(status), a);
        c.AddMember("reason", s(reason), a);
        c.AddMember("message", s(message), a);
        list.PushBack(c, a);
        return *this;
    }
    std::string json() const { return to_json(d_); }

protected:
    rapidjson::Document d_;
};

// A PodMigrationJob as the cluster lists it: name "job-<pod>", uid "uid-job-<pod>", created 10 s
// before kT0, created by the test instance, passed arbitration, ReservationFirst, ttl 5m, Pending.
class JobJson : public ObjectJson {
public:
    JobJson(const std::string& pod_ns, const std::string& pod_name, int64_t created_ms = kT0 - 10 * kSecond) {
        set("/apiVersion", "scheduling.koordinator.sh/v1alpha1");
        set("/kind", "PodMigrationJob");
        set("/metadata/name", "job-" + pod_name);
        set("/metadata/uid", "uid-job-" + pod_name);
        set("/metadata/resourceVersion", "1");  // as listed: every stored object has one
        created(created_ms);
        annotation("koordinator.sh/job-created-by", kInstance);
        annotation("descheduler.koordinator.sh/passed-arbitration", "true");
        set("/spec/podRef/namespace", pod_ns);
        set("/spec/podRef/name", pod_name);
        set("/spec/mode", "ReservationFirst");
        set("/spec/ttl", "5m");
        set("/status/phase", "Pending");
    }
    JobJson& name(const std::string& n) { return set("/metadata/name", n), *this; }
    JobJson& uid(const std::string& u) { return set("/metadata/uid", u), *this; }
    JobJson& created(int64_t ms) { return set("/metadata/creationTimestamp", kd::format_rfc3339(ms)), *this; }
    JobJson& annotation(const std::string& k, const std::string& v) {
        return set("/metadata/annotations/" + esc(k), v), *this;
    }
    JobJson& no_annotation(const std::string& k) { return erase("/metadata/annotations/" + esc(k)), *this; }
    JobJson& waiting() { return no_annotation("descheduler.koordinator.sh/passed-arbitration"); }
    JobJson& created_by(const std::string& who) { return annotation("koordinator.sh/job-created-by", who); }
    JobJson& pod_uid(const std::string& u) { return set("/spec/podRef/uid", u), *this; }
    JobJson& mode(const std::string& m) { return set("/spec/mode", m), *this; }
    JobJson& ttl(const std::string& t) {
        if (t.empty())
            erase("/spec/ttl");
        else
            set("/spec/ttl", t);
        return *this;
    }
    JobJson& paused() { return set_bool("/spec/paused", true), *this; }
    JobJson& reservation(const std::string& name) {
        set("/spec/reservationOptions/reservationRef/apiVersion", "v1alpha1");
        set("/spec/reservationOptions/reservationRef/kind", "Reservation");
        return set("/spec/reservationOptions/reservationRef/name", name), *this;
    }
    JobJson& phase(const std::string& p) { return set("/status/phase", p), *this; }
    JobJson& status_text(const std::string& s) { return set("/status/status", s), *this; }
    JobJson& node(const std::string& n) { return set("/status/nodeName", n), *this; }
    JobJson& cond(std::string_view type, std::string_view status, std::string_view reason = "",
                  std::string_view message = "") {
        condition(type, status, reason, message);
        return *this;
    }
};

// A Reservation as the cluster lists it: the order label set, phase as given.
class ReservationJson : public ObjectJson {
public:
    explicit ReservationJson(const std::string& name, const std::string& phase = "Pending") {
        set("/apiVersion", "scheduling.koordinator.sh/v1alpha1");
        set("/kind", "Reservation");
        set("/metadata/name", name);
        set("/metadata/uid", "uid-" + name);
        set("/metadata/resourceVersion", "1");
        set("/metadata/labels/" + esc("scheduling.koordinator.sh/reservation-order"), "1");
        if (!phase.empty()) set("/status/phase", phase);
    }
    // Phase Available on `node` with condition Scheduled True / Scheduled.
    ReservationJson& scheduled_on(const std::string& node) {
        set("/status/phase", "Available");
        set("/status/nodeName", node);
        condition("Scheduled", "True", "Scheduled");
        return *this;
    }
    ReservationJson& bound_to(const std::string& ns, const std::string& name, const std::string& uid) {
        set_json("/status/currentOwners",
                 R"([{"namespace":")" + ns + R"(","name":")" + name + R"(","uid":")" + uid + R"("}])");
        return *this;
    }
    ReservationJson& cond(std::string_view type, std::string_view status, std::string_view reason = "",
                          std::string_view message = "") {
        condition(type, status, reason, message);
        return *this;
    }
};

inline std::string array(std::initializer_list<std::string> objects) {
    std::string out = "[";
    for (const auto& o : objects) out += (out.size() > 1 ? "," : "") + o;
    return out + "]";
}

// Nodes n1, n2 (8 CPU, 16Gi); pod default/p on n1 of Deployment "web" (6 replicas, ReplicaSet
// web-rs), scheduled by koord-scheduler, requesting 500m / 1Gi, label app=web.
inline PodSpec& web_pod(SnapshotBuilder& b, const std::string& name, const std::string& node = "n1") {
    return b.pod("default", name)
        .on(node)
        .owner("ReplicaSet", "web-rs")
        .scheduled_by("koord-scheduler")
        .request("cpu", "500m")
        .request("memory", "1Gi")
        .label("app", "web");
}
inline void base_cluster(SnapshotBuilder& b, int32_t replicas = 6) {
    b.node("n1").allocatable("cpu", "8").allocatable("memory", "16Gi");
    b.node("n2").allocatable("cpu", "8").allocatable("memory", "16Gi");
    b.workload("Deployment", "default", "web", replicas).member("uid-ReplicaSet-web-rs");
}

// The lines of writes() that start with one of `prefixes` ("create ", "update ", "status ",
// "delete ", "event "…), prefix removed, in order.
inline std::vector<std::string> lines(const FakeHost& host, std::initializer_list<std::string_view> prefixes) {
    std::vector<std::string> out;
    for (const auto& w : host.writes())
        for (std::string_view prefix : prefixes)
            if (w.compare(0, prefix.size(), prefix) == 0) out.push_back(w.substr(prefix.size()));
    return out;
}
inline std::vector<std::string> lines(const FakeHost& host, std::string_view prefix) {
    return lines(host, {prefix});
}

// Every created / updated object of `kind` (named `name` unless empty), in order. An update
// ("update" and "status": the job's spec and its status subresource) carries the whole object.
inline std::vector<rapidjson::Document> objects_written(const FakeHost& host, std::string_view verb,
                                                        std::string_view kind, std::string_view name = "") {
    std::vector<rapidjson::Document> out;
    std::initializer_list<std::string_view> updates = {"update ", "status "};
    std::string single = std::string(verb) + " ";
    for (const auto& line : verb == "update" ? lines(host, updates) : lines(host, single)) {
        rapidjson::Document d = parse(line);
        if (str(d, "/kind") != kind) continue;
        if (!name.empty() && str(d, "/metadata/name") != name) continue;
        out.push_back(std::move(d));
    }
    return out;
}
inline std::vector<rapidjson::Document> job_updates(const FakeHost& host, std::string_view name = "") {
    return objects_written(host, "update", "PodMigrationJob", name);
}
// The verbs of the writes of job `name`, in order: "update" (metadata and spec) or "status".
inline std::vector<std::string> job_write_verbs(const FakeHost& host, std::string_view name) {
    std::vector<std::string> out;
    for (const auto& w : host.writes()) {
        std::string verb = w.substr(0, w.find(' '));
        if ((verb != "update" && verb != "status") || w.find("\"kind\":\"PodMigrationJob\"") == std::string::npos)
            continue;
        if (str(parse(w.substr(verb.size() + 1)), "/metadata/name") == name) out.push_back(verb);
    }
    return out;
}
// The last update of job `name`; fails the test when there is none.
inline rapidjson::Document last_job_update(const FakeHost& host, std::string_view name) {
    auto all = job_updates(host, name);
    REQUIRE_FALSE(all.empty());
    return std::move(all.back());
}

// The job's condition of `type` as {status, reason, message}, or nullopt.
struct Cond {
    std::string status, reason, message;
};
inline std::optional<Cond> condition(const rapidjson::Value& job, std::string_view type) {
    const rapidjson::Value* list = at(job, "/status/conditions");
    if (!list || !list->IsArray()) return std::nullopt;
    for (const auto& c : list->GetArray())
        if (str(c, "/type") == type) return Cond{str(c, "/status"), str(c, "/reason"), str(c, "/message")};
    return std::nullopt;
}

inline bool contains(const std::vector<std::string>& v, std::string_view needle) {
    for (const auto& s : v)
        if (s.find(needle) != std::string::npos) return true;
    return false;
}

// Checks every object a write line ("create <json>" / "update <json>" / "status <json>") carries against
// Koordinator's CRD of its kind (its schema facts, tests/data/crd); returns "" so that the fake
// host accepts the write. Use as FakeHost::on_write.
inline std::string check_against_crds(const std::string& what) {
    static const CrdSchema pmj(std::string(KD_CRD_FACTS_DIR) + "/podmigrationjobs.v1alpha1.facts");
    static const CrdSchema reservation(std::string(KD_CRD_FACTS_DIR) + "/reservations.v1alpha1.facts");
    if (what.rfind("create ", 0) != 0 && what.rfind("update ", 0) != 0 && what.rfind("status ", 0) != 0) return "";
    auto doc = parse(what.substr(7));
    std::string kind = str(doc, "/kind");
    const CrdSchema* schema = kind == pmj.kind() ? &pmj : kind == reservation.kind() ? &reservation : nullptr;
    INFO(what);
    REQUIRE(schema);
    CHECK(str(doc, "/apiVersion") == "scheduling.koordinator.sh/v1alpha1");
    CHECK(schema->validate(doc) == std::vector<std::string>{});
    return "";
}

}  // namespace mc_test
