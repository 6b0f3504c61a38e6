// Which object kinds a snapshot decoder reads, and how.
#pragma once

#include <string_view>

namespace kd::core::decode {

enum class Kind : unsigned char {
    pod,
    node,
    node_metric,
    workload,  // ReplicaSet, Deployment, StatefulSet, ReplicationController, Job, DaemonSet
    pdb,
    namespace_,
    secret,
    migration_job,  // rare kinds: recorded into a DOM and read from there
    reservation,
    other,  // skipped with a note
};

Kind classify_kind(std::string_view kind);

// Kinds read straight from the event stream into a draft (the rest are rare or skipped).
inline bool is_drafted(Kind k) {
    return k < Kind::migration_job;
}

// The apiVersion a CRD kind must have to be read ("" = any: core kinds are not checked, their
// groups and versions have moved over the years while the fields we read have not).
std::string_view required_api_version(Kind k);

// "PodList" → "Pod" (the kind of items that carry none), "List" → "".
std::string_view item_kind_of_list(std::string_view list_kind);
inline bool is_list_kind(std::string_view kind) {
    return kind.size() >= 4 && kind.substr(kind.size() - 4) == "List";
}

}  // namespace kd::core::decode
