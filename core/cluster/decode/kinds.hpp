// Which object kinds a snapshot decoder reads, and how: the decoders' view of the kind table
// (cluster/kind_table.hpp).
#pragma once

#include "cluster/kind_table.hpp"

#include <string_view>

namespace kd::core::decode {

using Kind = DraftKind;

// The draft kind of a Kubernetes kind; Kind::other for one kdesched does not read.
inline Kind classify_kind(std::string_view kind) {
    const KindInfo* k = kind_info(kind);
    return k ? k->draft : Kind::other;
}

// Kinds read straight from the event stream into a draft (the rest are rare or skipped).
inline bool is_drafted(Kind k) {
    return k < Kind::migration_job;
}

// The apiVersion a kind must have to be read ("" = any: core kinds are not checked, their groups
// and versions have moved over the years while the fields we read have not; a CRD's is). Asked
// once per object: found by the draft kind, without comparing names.
constexpr std::string_view required_api_version(Kind draft) {
    for (const KindInfo& k : kKindTable)
        if (k.draft == draft && k.custom) return k.api_version;
    return {};
}

// "PodList" → "Pod" (the kind of items that carry none), "List" → "".
std::string_view item_kind_of_list(std::string_view list_kind);
inline bool is_list_kind(std::string_view kind) {
    return kind.size() >= 4 && kind.substr(kind.size() - 4) == "List";
}

}  // namespace kd::core::decode
