// Loads the objects of a snapshot file into an API server (the real one in ../shared/envtest or
// the test server), as a cluster would hold them: namespaces first, owners before what they own
// (UIDs change on create, so owner references are rewritten to follow), status written through
// the status subresource where a create ignores it (Pod, NodeMetric, PodMigrationJob,
// Reservation), and the not-ready taint the server puts on a new node removed (no node
// controller runs there). Throws std::runtime_error with the server's answer.
#pragma once

#include "kube/client/api_client.hpp"
#include "kube/client/resources.hpp"
#include "text/json_writer.hpp"

#include <rapidjson/document.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kd_test {

class ApiLoader {
public:
    explicit ApiLoader(kd::core::kube::ApiClient& client) : client_(client) {}

    // Every object of the file (a List); returns how many were created.
    size_t load_file(const std::string& path) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        rapidjson::Document doc;
        doc.Parse(text.str().c_str());
        if (doc.HasParseError() || !doc.HasMember("items")) throw std::runtime_error(path + ": not a List");
        return load(doc["items"], doc.GetAllocator());
    }

    size_t load(rapidjson::Value& items, rapidjson::Document::AllocatorType& a) {
        std::set<std::string> namespaces;
        for (auto& o : items.GetArray())
            if (o["metadata"].HasMember("namespace")) namespaces.insert(o["metadata"]["namespace"].GetString());
        for (const auto& ns : namespaces)
            request("POST", "/api/v1/namespaces",
                    R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + ns + R"("}})", {201, 409});
        size_t created = 0;
        for (const char* kind :
             {"Node", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "ReplicationController",
              "PodDisruptionBudget", "Pod", "NodeMetric", "PodMigrationJob", "Reservation"})
            for (auto& o : items.GetArray())
                if (std::string(o["kind"].GetString()) == kind) {
                    create(o, a);
                    ++created;
                }
        return created;
    }

    // The UID the server gave an object the file knew by `old_uid`.
    std::string uid_for(const std::string& old_uid) const {
        auto it = uids_.find(old_uid);
        return it == uids_.end() ? "" : it->second;
    }

    // A request that must answer one of `ok` codes; the body of the answer.
    std::string request(const std::string& method, const std::string& target, const std::string& body,
                        std::vector<int> ok = {200, 201}) {
        std::string type = body.empty() ? "" : method == "PATCH" ? "application/merge-patch+json" : "application/json";
        kd::core::kube::ApiResult r = client_.call({method, target, {{"Accept", "application/json"}}, body, type});
        for (int code : ok)
            if (r.code == code) return r.body;
        throw std::runtime_error(method + " " + target + ": " + r.describe() + "\n" + body.substr(0, 400));
    }

private:
    void create(rapidjson::Value& o, rapidjson::Document::AllocatorType& a) {
        auto res = kd::core::kube::resource_by_kind(o["kind"].GetString());
        if (!res) throw std::runtime_error(std::string("no resource for kind ") + o["kind"].GetString());
        rapidjson::Value& meta = o["metadata"];
        std::string old_uid = meta.HasMember("uid") ? meta["uid"].GetString() : "";
        for (const char* drop : {"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"})
            meta.RemoveMember(drop);
        if (meta.HasMember("ownerReferences"))
            for (auto& ref : meta["ownerReferences"].GetArray())
                if (auto it = uids_.find(ref["uid"].GetString()); it != uids_.end())
                    ref["uid"].SetString(it->second.c_str(), a);
        std::string ns = meta.HasMember("namespace") ? meta["namespace"].GetString() : "";
        std::string name = meta["name"].GetString();
        complete_template(o, a);
        if (std::string(o["kind"].GetString()) == "Pod") priority_by_class(o, a);
        rapidjson::Document answer;
        answer.Parse(request("POST", res->collection_path(ns), kd::core::json::text_of(o)).c_str());
        std::string uid = answer["metadata"]["uid"].GetString();
        if (!old_uid.empty()) uids_[old_uid] = uid;
        std::string rv = answer["metadata"]["resourceVersion"].GetString();
        std::string kind = o["kind"].GetString();
        if (kind == "Node") untaint(answer, o, a, res->object_path("", name));
        bool status_subresource =
            kind == "Pod" || kind == "NodeMetric" || kind == "PodMigrationJob" || kind == "Reservation";
        if (status_subresource && o.HasMember("status")) {
            rapidjson::Value status(o["status"], a);
            status.RemoveMember("qosClass");  // the server computes it
            answer.RemoveMember("status");
            answer.AddMember("status", rapidjson::Value(status, answer.GetAllocator()), answer.GetAllocator());
            request("PUT", res->object_path(ns, name) + "/status", kd::core::json::text_of(answer));
        }
    }

    // Snapshot files may carry workloads without a pod template (kdesched does not read it); the
    // server requires one: the smallest valid one, matching the selector.
    static void complete_template(rapidjson::Value& o, rapidjson::Document::AllocatorType& a) {
        std::string kind = o["kind"].GetString();
        if (kind != "Deployment" && kind != "ReplicaSet" && kind != "StatefulSet" && kind != "DaemonSet" &&
            kind != "Job" && kind != "ReplicationController")
            return;
        if (!o.HasMember("spec")) o.AddMember("spec", rapidjson::Value(rapidjson::kObjectType), a);
        rapidjson::Value& spec = o["spec"];
        // A Job with a selector of its own must say so (the server generates one otherwise).
        if (kind == "Job" && spec.HasMember("selector") && !spec.HasMember("manualSelector"))
            spec.AddMember("manualSelector", true, a);
        if (spec.HasMember("template")) return;
        rapidjson::Document t(&a);
        t.Parse(kind == "Job" ? R"({"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}})"
                              : R"({"spec":{"containers":[{"name":"c","image":"x"}]}})");
        rapidjson::Value labels(rapidjson::kObjectType);
        if (spec.HasMember("selector")) {
            const rapidjson::Value& sel = spec["selector"];
            const rapidjson::Value* match = sel.HasMember("matchLabels") ? &sel["matchLabels"] : &sel;
            if (match->IsObject()) labels.CopyFrom(*match, a);
        }
        rapidjson::Value meta(rapidjson::kObjectType);
        meta.AddMember("labels", labels, a);
        t.AddMember("metadata", meta, a);
        spec.AddMember("template", rapidjson::Value(t, a), a);
    }

    // A pod's spec.priority is the Priority admission plugin's to set, from a PriorityClass: one
    // named after each value (made once) stands in for the file's number.
    void priority_by_class(rapidjson::Value& pod, rapidjson::Document::AllocatorType& a) {
        if (!pod.HasMember("spec") || !pod["spec"].HasMember("priority")) return;
        rapidjson::Value& spec = pod["spec"];
        if (spec.HasMember("priorityClassName")) return;  // the file names its class: the server's value wins
        std::string value = std::to_string(spec["priority"].GetInt());
        // Values above 1e9 belong to the two classes every server has.
        std::string name = value == "2000001000"   ? "system-node-critical"
                           : value == "2000000000" ? "system-cluster-critical"
                                                   : "kdesched-test-priority-" + value;
        if (name.rfind("system-", 0) != 0 && priority_classes_.insert(name).second)
            request("POST", "/apis/scheduling.k8s.io/v1/priorityclasses",
                    R"({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":")" + name +
                        R"("},"value":)" + value + "}",
                    {201, 409});
        spec.RemoveMember("priority");
        spec.AddMember("priorityClassName", rapidjson::Value(name.c_str(), a), a);
    }

    // The server adds node.kubernetes.io/not-ready to a new node; the file's taints are put back.
    void untaint(rapidjson::Document& answer, const rapidjson::Value& original, rapidjson::Document::AllocatorType& a,
                 const std::string& path) {
        rapidjson::Value& spec = answer["spec"];
        spec.RemoveMember("taints");
        if (original.HasMember("spec") && original["spec"].HasMember("taints"))
            spec.AddMember("taints", rapidjson::Value(original["spec"]["taints"], answer.GetAllocator()),
                           answer.GetAllocator());
        (void)a;
        request("PUT", path, kd::core::json::text_of(answer));
    }

    kd::core::kube::ApiClient& client_;
    std::map<std::string, std::string> uids_;  // file UID → server UID
    std::set<std::string> priority_classes_;   // made already
};

}  // namespace kd_test
