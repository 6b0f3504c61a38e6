#include "cluster/small_kinds_json.hpp"

#include "text/json_writer.hpp"

namespace kd::core {

namespace {
// {"apiVersion": …, "kind": …, "metadata": {"namespace" (namespaced kinds), "name", "uid" (when
// known) — the caller may add to the metadata, then closes it.
template <class W>
void start_with_metadata(W& w, std::string_view api_version, std::string_view kind, std::string_view ns,
                         std::string_view name, std::string_view uid) {
    w.StartObject();
    json::field(w, "apiVersion", api_version);
    json::field(w, "kind", kind);
    json::key(w, "metadata");
    w.StartObject();
    json::field_if_set(w, "namespace", ns);
    json::field(w, "name", name);
    json::field_if_set(w, "uid", uid);
}

template <class W>
void int_or_string(W& w, std::string_view key, const std::optional<kd::IntOrString>& v) {
    if (!v) return;
    json::key(w, key);
    if (v->is_string)
        json::string(w, v->str_value);
    else
        w.Int(v->int_value);
}
}  // namespace

std::string to_json(const Namespace& ns) {
    json::TextWriter w;
    start_with_metadata(w, "v1", "Namespace", "", ns.name, ns.uid);
    json::string_map(w, "labels", ns.labels);
    w.EndObject();
    w.EndObject();
    return w.text();
}

std::string to_json(const PodDisruptionBudget& pdb) {
    json::TextWriter w;
    start_with_metadata(w, "policy/v1", "PodDisruptionBudget", pdb.ns, pdb.name, pdb.uid);
    w.EndObject();
    json::key(w, "spec");
    w.StartObject();
    // No selector selects no pod, {} every pod of the namespace: the difference is kept.
    if (pdb.selector) json::label_selector(w, "selector", *pdb.selector);
    int_or_string(w, "minAvailable", pdb.min_available);
    int_or_string(w, "maxUnavailable", pdb.max_unavailable);
    w.EndObject();
    json::key(w, "status");
    w.StartObject();
    json::key(w, "disruptionsAllowed");
    w.Int(pdb.disruptions_allowed);
    w.EndObject();
    w.EndObject();
    return w.text();
}

std::string to_json(const PriorityClass& pc) {
    json::TextWriter w;
    start_with_metadata(w, "scheduling.k8s.io/v1", "PriorityClass", "", pc.name, pc.uid);
    w.EndObject();
    json::key(w, "value");
    w.Int(pc.value);
    w.EndObject();
    return w.text();
}

std::string to_json(const PersistentVolumeClaim& pvc) {
    json::TextWriter w;
    start_with_metadata(w, "v1", "PersistentVolumeClaim", pvc.ns, pvc.name, pvc.uid);
    w.EndObject();
    json::key(w, "spec");
    w.StartObject();
    json::field_if_set(w, "storageClassName", pvc.storage_class);  // absent when the claim names none
    w.EndObject();
    w.EndObject();
    return w.text();
}

}  // namespace kd::core
