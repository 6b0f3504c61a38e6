// A ClusterBackend for runtime tests: records every write as one line and answers it with
// `answer` (default: success, resourceVersion "rv-<n>").
#pragma once

#include "runtime/cluster_backend.hpp"

#include <kdesched/view.hpp>

#include <functional>
#include <string>
#include <vector>

struct RecordingBackend : kd::core::ClusterBackend {
    using WriteResult = kd::core::WriteResult;
    std::vector<std::string> writes;  // "evict ns/name", "create <json>", "status <json>", …
    std::vector<std::string> events;  // "<type> <reason> <kind> <ns>/<name>: <message>"
    std::vector<std::string> evicted;
    std::function<WriteResult(const std::string& line)> answer = [this](const std::string&) {
        return WriteResult::success("rv-" + std::to_string(writes.size()));
    };

    WriteResult evict_pod(const kd_pod& pod, std::string_view, std::string_view) override {
        evicted.push_back(kd::Pod(&pod).key());
        return record("evict " + kd::Pod(&pod).key());
    }
    WriteResult delete_pod(const kd_pod& pod, std::string_view, std::string_view) override {
        return record("delete-pod " + kd::Pod(&pod).key());
    }
    WriteResult annotate_pod(const kd_pod& pod, std::string_view key, std::string_view value,
                             std::string_view) override {
        return record("annotate " + kd::Pod(&pod).key() + " " + std::string(key) + "=" + std::string(value));
    }
    WriteResult create_object(std::string_view json, std::string_view) override {
        return record("create " + std::string(json));
    }
    WriteResult update_object(std::string_view json, std::string_view) override {
        return record("update " + std::string(json));
    }
    WriteResult update_status(std::string_view json, std::string_view) override {
        return record("status " + std::string(json));
    }
    WriteResult delete_object(std::string_view kind, std::string_view ns, std::string_view name,
                              std::string_view) override {
        return record("delete " + std::string(kind) + " " + std::string(ns) + "/" + std::string(name));
    }
    void record_event(std::string_view kind, std::string_view ns, std::string_view name, std::string_view type,
                      std::string_view reason, std::string_view, std::string_view message, std::string_view) override {
        writes.push_back("event " + std::string(kind) + " " + std::string(name) + " " + std::string(reason));
        events.push_back(std::string(type) + " " + std::string(reason) + " " + std::string(kind) + " " +
                         std::string(ns) + "/" + std::string(name) + ": " + std::string(message));
    }
    std::string read_secret(std::string_view ns, std::string_view name, std::map<std::string, std::string>&) override {
        return "no Secret " + std::string(ns) + "/" + std::string(name) + " in this test";
    }

private:
    WriteResult record(std::string line) {
        writes.push_back(line);
        return answer(line);
    }
};
