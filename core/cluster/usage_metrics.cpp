#include "cluster/usage_metrics.hpp"

#include "text/json_writer.hpp"

namespace kd::core {

namespace {

// Milli-units as the shortest exact quantity: whole units when they are, else "<n>m".
std::string quantity_text(int64_t milli) {
    return milli % 1000 == 0 ? std::to_string(milli / 1000) : std::to_string(milli) + "m";
}

template <class W>
void usage_object(W& w, const UsageAmounts& usage) {
    json::key(w, "usage");
    w.StartObject();
    for (const auto& [name, milli] : usage) json::field(w, name, quantity_text(milli));
    w.EndObject();
}

template <class W>
void start(W& w, const char* kind, const std::string& ns, const std::string& name) {
    w.StartObject();
    json::field(w, "apiVersion", kMetricsApiVersion);
    json::field(w, "kind", kind);
    json::key(w, "metadata");
    w.StartObject();
    json::field(w, "name", name);
    json::field_if_set(w, "namespace", ns);
    w.EndObject();
}

}  // namespace

std::string node_metrics_json(const UsageMetrics& metrics) {
    json::TextWriter w;
    w.StartArray();
    for (const auto& [name, n] : metrics.nodes) {
        start(w, kNodeMetricsKind, "", n.name);
        json::field(w, "timestamp", n.timestamp);
        json::field(w, "window", n.window);
        usage_object(w, n.usage);
        w.EndObject();
    }
    w.EndArray();
    return w.text();
}

std::string pod_metrics_json(const UsageMetrics& metrics) {
    json::TextWriter w;
    w.StartArray();
    for (const auto& [key, p] : metrics.pods) {
        start(w, kPodMetricsKind, p.ns, p.name);
        json::field(w, "timestamp", p.timestamp);
        json::field(w, "window", p.window);
        json::key(w, "containers");
        w.StartArray();
        for (const auto& c : p.containers) {
            w.StartObject();
            json::field(w, "name", c.name);
            usage_object(w, c.usage);
            w.EndObject();
        }
        w.EndArray();
        w.EndObject();
    }
    w.EndArray();
    return w.text();
}

}  // namespace kd::core
