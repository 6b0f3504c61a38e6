// The fields kdesched reads of the API objects it drafts, one row each: the JSON name, the
// protobuf field number and wire shape (k8s.io/api and apimachinery generated.proto), and either
// the slot the value goes to or the ABI member it lands in (a binding). Rows are grouped by
// context (the object they are members of). The ObjectDecoder matches JSON keys with them and the
// protobuf reader walks messages with them, so a field read in both encodings is written down
// once.
//
// A bound row ({"startTime", 7, Wire::time, bound(&kd_pod::start_time_ms)}) is a pod scalar kept
// as read: a kd_str, int32_t, uint8_t (a boolean) or int64_t (a timestamp, Unix ms) member of
// kd_pod (per pod) or kd_pod_spec (shared by the pods with the same content). Everything else is
// driven by the row (cluster/schema/bound_fields.hpp): the decoder stores the value in the draft's
// kd_pod / kd_pod_spec, PodDraft::clear() zeroes them, the model interns them (and a kd_pod_spec
// member is part of the spec's content key), the model digest adds them, and so do the simulator's
// pod copies and the tests' RecordingSink.
//
// A bound list row (spec.tolerations, spec.topologySpreadConstraints) binds a `const T* items;
// size_t count;` pair of kd_pod / kd_pod_spec to a Shape: T's size and a row table whose rows bind
// T's members by offset (KD_MEMBER: kd_str, int32_t, uint8_t, int64_t, kd_str_list,
// kd_key_value_list; KD_LIST: a nested list; KD_OBJECT: an object inlined into T, like a label
// selector). The same generic code follows these rows: the decoder builds the elements in the
// draft's ListArena, clear() forgets them, the model interns each array (strings interned, nested
// arrays first) and adds it to the spec's content key and the digest, and the pod copy and
// RecordingSink copy it.
//
// Adding a pod scalar stored as-is: the ABI member (and its accessor in sdk view.hpp), and its row
// here. Adding a pod list of structs: the ABI element struct (struct_size first) and the `items`,
// `count` pair at the end of kd_pod / kd_pod_spec; here its element rows, their Shape and one row,
// {"topologySpreadConstraints", 33, Wire::messages, KD_LIST(kd_pod_spec,
// topology_spread_constraints, topology_spread_constraint_count, kSpreadConstraintShape)}; in the
// SDK its view accessor, the fake host's setter (testing.hpp) and HostStructSizes for the minor.
// Any other field: a Slot (in its group: objects, lists, strings, …), a row in its context, and
// the slot's case where its value is stored (cluster/decode/object_decoder.cpp), plus its draft
// member, interning and digest. Protobuf numbers are checked against a real kube-apiserver by
// tests/data/protobuf (tools/protobuf-fixtures.sh).
#pragma once

#include <kdesched/abi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <variant>

namespace kd::core::schema {

// What a value is: the context of an object or list, or the field a scalar goes to. The groups'
// ranges matter: a wrong type names what was expected from the slot's group.
enum class Slot : unsigned char {
    none,
    skip,  // a value of no interest: skipped whatever it is
    // Objects: the context they open (some first point the draft's targets somewhere). The roots
    // come first, one per kind (the workload kinds' protobuf numbers differ).
    pod_root,
    node_root,
    nm_root,
    rs_root,
    deploy_root,
    sts_root,
    rc_root,
    job_root,
    ds_root,
    pdb_root,
    ns_root,
    pc_root,   // scheduling.k8s.io/v1 PriorityClass
    pvc_root,  // core/v1 PersistentVolumeClaim
    secret_root,
    meta,
    labels,
    annotations,
    string_map,  // node selector, secret data (and labels, once kv_ points at them)
    owner_ref,
    pod_spec,
    node_selector,
    affinity,
    node_affinity,
    pod_affinity,  // podAffinity and podAntiAffinity: where their bound lists are
    pod_anti_affinity,
    node_required,
    term,
    node_req,
    container,
    init_container,  // a container of initContainers (its image is not the pod's: RemoveDuplicates)
    resources,
    requests,
    limits,
    overhead,
    allocatable,
    res_list,
    volume,
    vol_local,
    vol_pvc,
    vol_ephemeral,
    pod_status,
    pod_condition,
    container_status,
    container_state,
    state_waiting,
    state_running,
    state_terminated,
    node_spec,
    taint,
    node_status,
    node_condition,
    nm_status,
    nm_node_metric,
    nm_system_usage,
    nm_usage,
    nm_resources,
    nm_pod,
    nm_pod_usage,
    replicated_spec,  // ReplicaSet, Deployment, StatefulSet
    rc_spec,
    job_spec,
    ds_spec,
    rs_status,  // ReplicaSet, ReplicationController
    deploy_status,
    sts_status,
    job_status,
    ds_status,
    selector,
    rc_selector,
    selector_labels,
    selector_req,
    pdb_spec,
    pdb_status,
    pvc_spec,
    secret_data,
    bound_element,  // an element of a bound list: its rows are the list's Shape's
    bound_object,   // an object inlined into an element (its rows bind the element's members)
    bound_kvs,      // a bound kd_key_value_list: a string map
    // Lists.
    owner_refs,
    node_terms,
    match_expressions,
    match_fields,
    req_values,
    containers,
    init_containers,
    volumes,
    pod_conditions,
    container_statuses,
    init_container_statuses,
    ephemeral_container_statuses,
    taints,
    node_conditions,
    nm_pods,
    selector_exprs,
    selector_values,
    bound_list,  // a bound list of structs
    bound_strs,  // a bound kd_str_list
    // Strings.
    api_version,
    kind,
    uid,
    namespace_,
    name,
    created,
    deleted,
    kv_value,
    annotation_value,
    owner_api_version,
    owner_kind,
    owner_name,
    owner_uid,
    scheduler_name,
    req_key,
    req_op,
    req_value,
    restart_policy,
    phase,
    qos_class,
    cond_type,
    cond_status,
    cond_reason,
    cond_message,
    cond_transition,  // a pod condition's lastTransitionTime
    cs_name,
    waiting_reason,
    terminated_reason,
    taint_key,
    taint_value,
    taint_effect,
    node_cond_type,
    node_cond_status,
    nm_update_time,
    nm_pod_ns,
    nm_pod_name,
    selector_label_value,
    selector_key,
    selector_op,
    selector_value,
    storage_class_name,  // a PersistentVolumeClaim's spec.storageClassName
    bound_kv_value,      // a value of a bound_kvs map
    bound_str_item,      // an element of a bound_strs list
    bound_str_each,      // a string appended to a kd_str_list (KD_EACH: one per element of a list)
    bound_string,        // bound rows: the row's Binding says where the value goes
    bound_time,          // an RFC 3339 string in JSON, metav1.Time in protobuf
    // Booleans.
    owner_controller,
    unschedulable,
    bound_boolean,
    // 32-bit integers.
    priority,
    replicas,
    ready_replicas,
    restart_count,
    exit_code,
    disruptions_allowed,
    priority_value,  // a PriorityClass's value
    bound_int32,
    // The rest.
    quantity,
    min_available,
    max_unavailable,
    count_,  // not a slot: the number of them
};

inline constexpr size_t kSlotCount = static_cast<size_t>(Slot::count_);

constexpr bool is_object(Slot s) {
    return s >= Slot::pod_root && s <= Slot::bound_kvs;
}
constexpr bool is_list(Slot s) {
    return s >= Slot::owner_refs && s <= Slot::bound_strs;
}
constexpr bool is_string(Slot s) {
    return s >= Slot::api_version && s <= Slot::bound_time;
}
constexpr bool is_boolean(Slot s) {
    return s >= Slot::owner_controller && s <= Slot::bound_boolean;
}
constexpr bool is_int32(Slot s) {
    return s >= Slot::priority && s <= Slot::bound_int32;
}

// A field's protobuf wire shape, and so which events it becomes.
enum class Wire : uint8_t {
    none,           // not in the protobuf encoding (a custom resource's, or JSON's apiVersion/kind)
    string,         // a string
    boolean,        // true / false
    int32,          // a number
    time,           // metav1.Time {seconds = 1, nanos = 2}: a timestamp
    int_or_string,  // intstr.IntOrString {type = 1, intVal = 2, strVal = 3}: a number or a string
    message,        // an object
    // Repeated fields: one list (or, for maps, one object) of consecutive entries.
    strings,       // a list of strings
    messages,      // a list of objects
    string_map,    // map<string, string>: an object of strings
    quantity_map,  // map<string, resource.Quantity {string = 1}>: an object of quantity strings
};

// The ABI member a bound row's value lands in: a member pointer of kd_pod or kd_pod_spec, whose
// type is the value's (kd_str: a string; int32_t; uint8_t: a boolean, 0/1; int64_t: a timestamp in
// Unix ms). 0 / an empty string is "absent", as for the struct's other members.
using BoundMember =
    std::variant<std::monostate, kd_str kd_pod::*, int32_t kd_pod::*, uint8_t kd_pod::*, int64_t kd_pod::*,
                 kd_str kd_pod_spec::*, int32_t kd_pod_spec::*, uint8_t kd_pod_spec::*, int64_t kd_pod_spec::*>;

template <class M>
struct member_traits;
template <class S, class T>
struct member_traits<T S::*> {
    using owner = S;
    using type = T;
};

enum class Digest : bool { no, yes };

// What a member placed by offset holds (Place): the scalars above, a kd_str_list, a
// kd_key_value_list, a `const T* items; size_t count;` pair (a list of structs), or, for an
// object inlined into a list element (a label selector), its presence flag (uint8_t).
enum class Field : uint8_t { none, str, int32, boolean, time, strs, kvs, list, object };
// The struct a placed member is in: the draft's kd_pod or kd_pod_spec, or the list element (or
// the element an inlined object is in) being read.
enum class Base : uint8_t { none, pod, pod_spec, element };

struct Shape;

// A member by its byte offset, for what a member pointer cannot name generically: a list's
// element type differs from list to list, so its members are reached through offsets (a
// compile-time table read by one generic decoder, copier and hasher; no code per element type).
struct Place {
    Base base = Base::none;
    Field type = Field::none;
    uint32_t at = 0;               // the member (list: its items pointer; object: its presence flag)
    uint32_t count = 0;            // list: its count member
    const Shape* shape = nullptr;  // list: its elements; object: its members
    bool each = false;             // strs: each value appends one string (KD_EACH)
};

struct Binding {
    BoundMember member;
    bool digested = true;  // part of the model digest (cluster/model_digest.cpp)
    Place place{};         // instead of `member`: a list, or a member of a list's element
    constexpr bool bound() const { return member.index() != 0 || place.base != Base::none; }
};

// A row's binding: the member it lands in, found by its pointer, `&kd_pod::start_time_ms`.
template <class S, class T>
constexpr Binding bound(T S::*member, Digest digest = Digest::yes) {
    return Binding{member, digest == Digest::yes};
}

// Calls f(member pointer) when `b` binds a member of S.
template <class S, class F>
constexpr void with_member(const Binding& b, F&& f) {
    std::visit(
        [&](auto mp) {
            if constexpr (!std::is_same_v<decltype(mp), std::monostate>)
                if constexpr (std::is_same_v<typename member_traits<decltype(mp)>::owner, S>) f(mp);
        },
        b.member);
}

// The slot of a bound value: by its type, in the group that type's events check against.
constexpr Slot slot_of(const Binding& b) {
    switch (b.place.type) {
        case Field::none:
            break;
        case Field::str:
            return Slot::bound_string;
        case Field::int32:
            return Slot::bound_int32;
        case Field::boolean:
            return Slot::bound_boolean;
        case Field::time:
            return Slot::bound_time;
        case Field::strs:
            return b.place.each ? Slot::bound_str_each : Slot::bound_strs;
        case Field::kvs:
            return Slot::bound_kvs;
        case Field::list:
            return Slot::bound_list;
        case Field::object:
            return Slot::bound_object;
    }
    return std::visit(
        [](auto mp) {
            if constexpr (std::is_same_v<decltype(mp), std::monostate>) {
                return Slot::none;
            } else {
                using T = typename member_traits<decltype(mp)>::type;
                static_assert(std::is_same_v<T, kd_str> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint8_t> ||
                              std::is_same_v<T, int64_t>);
                return std::is_same_v<T, kd_str>    ? Slot::bound_string
                       : std::is_same_v<T, int32_t> ? Slot::bound_int32
                       : std::is_same_v<T, uint8_t> ? Slot::bound_boolean
                                                    : Slot::bound_time;
            }
        },
        b.member);
}

struct FieldRow {
    std::string_view json;
    uint32_t proto = 0;  // field number; 0 = not in protobuf
    Wire wire = Wire::none;
    Slot slot = Slot::none;
    // A field of a protobuf message inlined into this context's object (Volume.volumeSource = 2
    // holds hostPath, emptyDir, …, which JSON has as members of the volume): its number.
    uint32_t via = 0;
    Binding bind{};  // bound rows only; their slot is then one of the bound_* slots

    constexpr FieldRow() = default;
    constexpr FieldRow(std::string_view json_, uint32_t proto_, Wire wire_, Slot slot_, uint32_t via_ = 0)
        : json(json_), proto(proto_), wire(wire_), slot(slot_), via(via_) {}
    constexpr FieldRow(std::string_view json_, uint32_t proto_, Wire wire_, Binding bind_)
        : json(json_), proto(proto_), wire(wire_), slot(slot_of(bind_)), bind(bind_) {}
};

// The element struct of a bound list: its size (the elements' struct_size and the model's stride)
// and the rows binding its members. An inlined object's Shape has size 0: its rows bind members
// of the element it is in.
struct Shape {
    uint32_t size = 0;
    std::span<const FieldRow> rows;
};

template <class S>
constexpr Base base_of() {
    if constexpr (std::is_same_v<S, kd_pod>) return Base::pod;
    if constexpr (std::is_same_v<S, kd_pod_spec>) return Base::pod_spec;
    return Base::element;
}

// A placed member of type T at `at` in S (use KD_MEMBER / KD_LIST / KD_OBJECT, which take the
// offset and the type from the member's name).
template <class S, class T>
constexpr Binding placed(uint32_t at, Digest digest = Digest::yes) {
    constexpr Field f = std::is_same_v<T, kd_str>              ? Field::str
                        : std::is_same_v<T, int32_t>           ? Field::int32
                        : std::is_same_v<T, uint8_t>           ? Field::boolean
                        : std::is_same_v<T, int64_t>           ? Field::time
                        : std::is_same_v<T, kd_str_list>       ? Field::strs
                        : std::is_same_v<T, kd_key_value_list> ? Field::kvs
                                                               : Field::none;
    static_assert(f != Field::none,
                  "a placed member is a kd_str, int32_t, uint8_t, int64_t, kd_str_list or kd_key_value_list");
    return Binding{{}, digest == Digest::yes, Place{base_of<S>(), f, at}};
}
template <class S, class Items, class Count>
constexpr Binding placed_list(uint32_t items, uint32_t count, const Shape& shape, Digest digest = Digest::yes) {
    static_assert(std::is_pointer_v<Items> && std::is_same_v<Count, size_t>,
                  "a list is `const T* items; size_t count;`");
    using T = std::remove_cv_t<std::remove_pointer_t<Items>>;
    static_assert(std::is_same_v<decltype(T::struct_size), uint32_t> && offsetof(T, struct_size) == 0,
                  "a list's element starts with its struct_size (the stride its readers step by)");
    if (shape.size != sizeof(T)) throw "the list's Shape is not of its element type";  // fails the compile
    return Binding{{}, digest == Digest::yes, Place{base_of<S>(), Field::list, items, count, &shape}};
}
template <class S, class T>
constexpr Binding placed_each(uint32_t at) {
    static_assert(std::is_same_v<T, kd_str_list>, "KD_EACH collects strings into a kd_str_list");
    return Binding{{}, true, Place{base_of<S>(), Field::strs, at, 0, nullptr, true}};
}
template <class S, class Flag>
constexpr Binding placed_object(uint32_t flag, const Shape& shape) {
    static_assert(std::is_same_v<Flag, uint8_t>, "an inlined object's presence flag is a uint8_t");
    return Binding{{}, true, Place{base_of<S>(), Field::object, flag, 0, &shape}};
}

// KD_MEMBER(kd_topology_spread_constraint, max_skew): member max_skew of the element being read
// (or of kd_pod / kd_pod_spec). KD_LIST(S, items, count, shape): a list of structs. KD_OBJECT(S,
// flag, shape): an object whose members (shape's rows) are S's, flag set when it is present.
// KD_EACH(S, m): a string field of the elements of a list (spec.containers[].image), each value
// appended to the kd_str_list m, in the list's order.
#define KD_MEMBER(S, m, ...) ::kd::core::schema::placed<S, decltype(S::m)>(offsetof(S, m) __VA_OPT__(, ) __VA_ARGS__)
#define KD_LIST(S, items, count, shape, ...)                                                                           \
    ::kd::core::schema::placed_list<S, decltype(S::items), decltype(S::count)>(offsetof(S, items), offsetof(S, count), \
                                                                               shape __VA_OPT__(, ) __VA_ARGS__)
#define KD_EACH(S, m) ::kd::core::schema::placed_each<S, decltype(S::m)>(offsetof(S, m))
#define KD_OBJECT(S, flag, shape) ::kd::core::schema::placed_object<S, decltype(S::flag)>(offsetof(S, flag), shape)

// The rows of what a row opens: a bound list's elements or inlined object, else its slot's context.
constexpr std::span<const FieldRow> rows_inside(const FieldRow& r);

namespace rows {

template <size_t N, size_t M>
constexpr std::array<FieldRow, N + M> join(const std::array<FieldRow, N>& a, const std::array<FieldRow, M>& b) {
    std::array<FieldRow, N + M> out{};
    for (size_t i = 0; i < N; ++i) out[i] = a[i];
    for (size_t i = 0; i < M; ++i) out[N + i] = b[i];
    return out;
}

// Every top-level object: metadata = 1, spec = 2, status = 3 in protobuf.
inline constexpr std::array<FieldRow, 1> kMetadata = {{{"metadata", 1, Wire::message, Slot::meta}}};
inline constexpr std::array<FieldRow, 2> kTypeMeta = {{
    {"apiVersion", 0, Wire::none, Slot::api_version},
    {"kind", 0, Wire::none, Slot::kind},
}};
inline constexpr auto kRoot = join(kMetadata, kTypeMeta);
template <size_t N>
constexpr auto root(const std::array<FieldRow, N>& own) {
    return join(join(kMetadata, own), kTypeMeta);
}
constexpr std::array<FieldRow, 2> spec_status(Slot spec, Slot status, Wire wire = Wire::message) {
    return {
        {{"spec", wire == Wire::none ? 0u : 2u, wire, spec}, {"status", wire == Wire::none ? 0u : 3u, wire, status}}};
}

// meta/v1 ObjectMeta, OwnerReference, LabelSelector.
inline constexpr std::array<FieldRow, 8> kMeta = {{
    {"name", 1, Wire::string, Slot::name},
    {"namespace", 3, Wire::string, Slot::namespace_},
    {"uid", 5, Wire::string, Slot::uid},
    {"labels", 11, Wire::string_map, Slot::labels},
    {"annotations", 12, Wire::string_map, Slot::annotations},
    {"ownerReferences", 13, Wire::messages, Slot::owner_refs},
    {"creationTimestamp", 8, Wire::time, Slot::created},
    {"deletionTimestamp", 9, Wire::time, Slot::deleted},
}};
inline constexpr std::array<FieldRow, 5> kOwnerRef = {{
    {"apiVersion", 5, Wire::string, Slot::owner_api_version},
    {"kind", 1, Wire::string, Slot::owner_kind},
    {"name", 3, Wire::string, Slot::owner_name},
    {"uid", 4, Wire::string, Slot::owner_uid},
    {"controller", 6, Wire::boolean, Slot::owner_controller},
}};
inline constexpr std::array<FieldRow, 2> kSelector = {{
    {"matchLabels", 1, Wire::string_map, Slot::selector_labels},
    {"matchExpressions", 2, Wire::messages, Slot::selector_exprs},
}};
inline constexpr std::array<FieldRow, 3> kSelectorRequirement = {{
    {"key", 1, Wire::string, Slot::selector_key},
    {"operator", 2, Wire::string, Slot::selector_op},
    {"values", 3, Wire::strings, Slot::selector_values},
}};

// core/v1 Toleration: a bound list.
inline constexpr std::array<FieldRow, 4> kToleration = {{
    {"key", 1, Wire::string, KD_MEMBER(kd_toleration, key)},
    {"operator", 2, Wire::string, KD_MEMBER(kd_toleration, operator_)},
    {"value", 3, Wire::string, KD_MEMBER(kd_toleration, value)},
    {"effect", 4, Wire::string, KD_MEMBER(kd_toleration, effect)},
}};
inline constexpr Shape kTolerationShape{sizeof(kd_toleration), kToleration};

// core/v1 TopologySpreadConstraint (a bound list: its rows bind the element's members), its
// labelSelector inlined into it, and meta/v1 LabelSelectorRequirement as a kd_selector_requirement.
inline constexpr std::array<FieldRow, 3> kLabelRequirement = {{
    {"key", 1, Wire::string, KD_MEMBER(kd_selector_requirement, key)},
    {"operator", 2, Wire::string, KD_MEMBER(kd_selector_requirement, operator_)},
    {"values", 3, Wire::strings, KD_MEMBER(kd_selector_requirement, values)},
}};
inline constexpr Shape kLabelRequirementShape{sizeof(kd_selector_requirement), kLabelRequirement};
inline constexpr std::array<FieldRow, 2> kSpreadSelector = {{
    {"matchLabels", 1, Wire::string_map, KD_MEMBER(kd_topology_spread_constraint, match_labels)},
    {"matchExpressions", 2, Wire::messages,
     KD_LIST(kd_topology_spread_constraint, match_expressions, match_expression_count, kLabelRequirementShape)},
}};
inline constexpr Shape kSpreadSelectorShape{0, kSpreadSelector};
inline constexpr std::array<FieldRow, 8> kSpreadConstraint = {{
    {"maxSkew", 1, Wire::int32, KD_MEMBER(kd_topology_spread_constraint, max_skew)},
    {"topologyKey", 2, Wire::string, KD_MEMBER(kd_topology_spread_constraint, topology_key)},
    {"whenUnsatisfiable", 3, Wire::string, KD_MEMBER(kd_topology_spread_constraint, when_unsatisfiable)},
    {"labelSelector", 4, Wire::message,
     KD_OBJECT(kd_topology_spread_constraint, has_label_selector, kSpreadSelectorShape)},
    {"minDomains", 5, Wire::int32, KD_MEMBER(kd_topology_spread_constraint, min_domains)},
    {"nodeAffinityPolicy", 6, Wire::string, KD_MEMBER(kd_topology_spread_constraint, node_affinity_policy)},
    {"nodeTaintsPolicy", 7, Wire::string, KD_MEMBER(kd_topology_spread_constraint, node_taints_policy)},
    {"matchLabelKeys", 8, Wire::strings, KD_MEMBER(kd_topology_spread_constraint, match_label_keys)},
}};
inline constexpr Shape kSpreadConstraintShape{sizeof(kd_topology_spread_constraint), kSpreadConstraint};

// core/v1 PreferredSchedulingTerm (nodeAffinity's preferred terms), its preference (a
// NodeSelectorTerm) inlined into it.
inline constexpr std::array<FieldRow, 2> kPreference = {{
    {"matchExpressions", 1, Wire::messages,
     KD_LIST(kd_preferred_node_term, match_expressions, match_expression_count, kLabelRequirementShape)},
    {"matchFields", 2, Wire::messages,
     KD_LIST(kd_preferred_node_term, match_fields, match_field_count, kLabelRequirementShape)},
}};
inline constexpr Shape kPreferenceShape{0, kPreference};
inline constexpr std::array<FieldRow, 2> kPreferredNodeTerm = {{
    {"weight", 1, Wire::int32, KD_MEMBER(kd_preferred_node_term, weight)},
    {"preference", 2, Wire::message, KD_OBJECT(kd_preferred_node_term, has_preference, kPreferenceShape)},
}};
inline constexpr Shape kPreferredNodeTermShape{sizeof(kd_preferred_node_term), kPreferredNodeTerm};

// core/v1 PodAffinityTerm, its labelSelector and namespaceSelector inlined into it; a
// WeightedPodAffinityTerm is the same element with its weight, the term inlined.
inline constexpr std::array<FieldRow, 2> kTermSelector = {{
    {"matchLabels", 1, Wire::string_map, KD_MEMBER(kd_pod_affinity_term, match_labels)},
    {"matchExpressions", 2, Wire::messages,
     KD_LIST(kd_pod_affinity_term, match_expressions, match_expression_count, kLabelRequirementShape)},
}};
inline constexpr Shape kTermSelectorShape{0, kTermSelector};
inline constexpr std::array<FieldRow, 2> kTermNamespaceSelector = {{
    {"matchLabels", 1, Wire::string_map, KD_MEMBER(kd_pod_affinity_term, namespace_match_labels)},
    {"matchExpressions", 2, Wire::messages,
     KD_LIST(kd_pod_affinity_term, namespace_match_expressions, namespace_match_expression_count,
             kLabelRequirementShape)},
}};
inline constexpr Shape kTermNamespaceSelectorShape{0, kTermNamespaceSelector};
inline constexpr std::array<FieldRow, 6> kPodAffinityTerm = {{
    {"labelSelector", 1, Wire::message, KD_OBJECT(kd_pod_affinity_term, has_label_selector, kTermSelectorShape)},
    {"namespaces", 2, Wire::strings, KD_MEMBER(kd_pod_affinity_term, namespaces)},
    {"topologyKey", 3, Wire::string, KD_MEMBER(kd_pod_affinity_term, topology_key)},
    {"namespaceSelector", 4, Wire::message,
     KD_OBJECT(kd_pod_affinity_term, has_namespace_selector, kTermNamespaceSelectorShape)},
    {"matchLabelKeys", 5, Wire::strings, KD_MEMBER(kd_pod_affinity_term, match_label_keys)},
    {"mismatchLabelKeys", 6, Wire::strings, KD_MEMBER(kd_pod_affinity_term, mismatch_label_keys)},
}};
inline constexpr Shape kPodAffinityTermShape{sizeof(kd_pod_affinity_term), kPodAffinityTerm};
inline constexpr Shape kInlinedPodAffinityTermShape{0, kPodAffinityTerm};
inline constexpr std::array<FieldRow, 2> kWeightedPodAffinityTerm = {{
    {"weight", 1, Wire::int32, KD_MEMBER(kd_pod_affinity_term, weight)},
    {"podAffinityTerm", 2, Wire::message, KD_OBJECT(kd_pod_affinity_term, has_term, kInlinedPodAffinityTermShape)},
}};
inline constexpr Shape kWeightedPodAffinityTermShape{sizeof(kd_pod_affinity_term), kWeightedPodAffinityTerm};

// core/v1 PodResourceClaim (API 1.8).
inline constexpr std::array<FieldRow, 3> kPodResourceClaim = {{
    {"name", 1, Wire::string, KD_MEMBER(kd_pod_resource_claim, name)},
    {"resourceClaimName", 3, Wire::string, KD_MEMBER(kd_pod_resource_claim, resource_claim_name)},
    {"resourceClaimTemplateName", 4, Wire::string, KD_MEMBER(kd_pod_resource_claim, resource_claim_template_name)},
}};
inline constexpr Shape kPodResourceClaimShape{sizeof(kd_pod_resource_claim), kPodResourceClaim};

// core/v1 Pod.
inline constexpr auto kPodRoot = root(spec_status(Slot::pod_spec, Slot::pod_status));
inline constexpr std::array<FieldRow, 13> kPodSpec = {{
    {"containers", 2, Wire::messages, Slot::containers},
    {"initContainers", 20, Wire::messages, Slot::init_containers},
    {"nodeName", 10, Wire::string, bound(&kd_pod::node_name)},
    {"volumes", 1, Wire::messages, Slot::volumes},
    {"priority", 25, Wire::int32, Slot::priority},
    {"priorityClassName", 24, Wire::string, bound(&kd_pod_spec::priority_class_name)},
    {"schedulerName", 19, Wire::string, Slot::scheduler_name},
    {"tolerations", 22, Wire::messages, KD_LIST(kd_pod_spec, tolerations, toleration_count, kTolerationShape)},
    {"nodeSelector", 7, Wire::string_map, Slot::node_selector},
    {"affinity", 18, Wire::message, Slot::affinity},
    {"overhead", 32, Wire::quantity_map, Slot::overhead},
    {"topologySpreadConstraints", 33, Wire::messages,
     KD_LIST(kd_pod_spec, topology_spread_constraints, topology_spread_constraint_count, kSpreadConstraintShape)},
    {"resourceClaims", 39, Wire::messages,
     KD_LIST(kd_pod_spec, resource_claims, resource_claim_count, kPodResourceClaimShape)},
}};
inline constexpr std::array<FieldRow, 3> kAffinity = {{
    {"nodeAffinity", 1, Wire::message, Slot::node_affinity},
    {"podAffinity", 2, Wire::message, Slot::pod_affinity},
    {"podAntiAffinity", 3, Wire::message, Slot::pod_anti_affinity},
}};
inline constexpr std::array<FieldRow, 2> kNodeAffinity = {{
    {"requiredDuringSchedulingIgnoredDuringExecution", 1, Wire::message, Slot::node_required},
    {"preferredDuringSchedulingIgnoredDuringExecution", 2, Wire::messages,
     KD_LIST(kd_pod_spec, preferred_node_terms, preferred_node_term_count, kPreferredNodeTermShape)},
}};
inline constexpr std::array<FieldRow, 2> kPodAffinity = {{
    {"requiredDuringSchedulingIgnoredDuringExecution", 1, Wire::messages,
     KD_LIST(kd_pod_spec, pod_affinity_terms, pod_affinity_term_count, kPodAffinityTermShape)},
    {"preferredDuringSchedulingIgnoredDuringExecution", 2, Wire::messages,
     KD_LIST(kd_pod_spec, preferred_pod_affinity_terms, preferred_pod_affinity_term_count,
             kWeightedPodAffinityTermShape)},
}};
inline constexpr std::array<FieldRow, 2> kPodAntiAffinity = {{
    {"requiredDuringSchedulingIgnoredDuringExecution", 1, Wire::messages,
     KD_LIST(kd_pod_spec, pod_anti_affinity_terms, pod_anti_affinity_term_count, kPodAffinityTermShape)},
    {"preferredDuringSchedulingIgnoredDuringExecution", 2, Wire::messages,
     KD_LIST(kd_pod_spec, preferred_pod_anti_affinity_terms, preferred_pod_anti_affinity_term_count,
             kWeightedPodAffinityTermShape)},
}};
inline constexpr std::array<FieldRow, 1> kNodeRequired = {{{"nodeSelectorTerms", 1, Wire::messages, Slot::node_terms}}};
inline constexpr std::array<FieldRow, 2> kTerm = {{
    {"matchExpressions", 1, Wire::messages, Slot::match_expressions},
    {"matchFields", 2, Wire::messages, Slot::match_fields},
}};
inline constexpr std::array<FieldRow, 3> kNodeRequirement = {{
    {"key", 1, Wire::string, Slot::req_key},
    {"operator", 2, Wire::string, Slot::req_op},
    {"values", 3, Wire::strings, Slot::req_values},
}};
inline constexpr std::array<FieldRow, 2> kInitContainer = {{
    {"resources", 8, Wire::message, Slot::resources},
    {"restartPolicy", 24, Wire::string, Slot::restart_policy},
}};
inline constexpr auto kContainer =
    join(kInitContainer, std::array<FieldRow, 1>{{{"image", 2, Wire::string, KD_EACH(kd_pod_spec, container_images)}}});
inline constexpr std::array<FieldRow, 2> kResources = {{
    {"requests", 2, Wire::quantity_map, Slot::requests},
    {"limits", 1, Wire::quantity_map, Slot::limits},
}};
// Which sources a volume has matters (local storage, claims), and a claim's name (for the
// claim's storage class, DefaultEvictor's protectedStorageClasses); other contents are skipped.
inline constexpr std::array<FieldRow, 4> kVolume = {{
    {"hostPath", 1, Wire::message, Slot::vol_local, 2},
    {"emptyDir", 2, Wire::message, Slot::vol_local, 2},
    {"persistentVolumeClaim", 10, Wire::message, Slot::vol_pvc, 2},
    {"ephemeral", 29, Wire::message, Slot::vol_ephemeral, 2},
}};
// core/v1 PersistentVolumeClaimVolumeSource (API 1.8: kd_pod_spec.pvc_claim_names).
inline constexpr std::array<FieldRow, 1> kPvcVolumeSource = {
    {{"claimName", 1, Wire::string, KD_EACH(kd_pod_spec, pvc_claim_names)}}};
inline constexpr std::array<FieldRow, 8> kPodStatus = {{
    {"phase", 1, Wire::string, Slot::phase},
    {"qosClass", 9, Wire::string, Slot::qos_class},
    {"conditions", 2, Wire::messages, Slot::pod_conditions},
    {"containerStatuses", 8, Wire::messages, Slot::container_statuses},
    {"initContainerStatuses", 10, Wire::messages, Slot::init_container_statuses},
    {"ephemeralContainerStatuses", 13, Wire::messages, Slot::ephemeral_container_statuses},
    {"reason", 4, Wire::string, bound(&kd_pod::status_reason)},
    {"startTime", 7, Wire::time, bound(&kd_pod::start_time_ms)},
}};
inline constexpr std::array<FieldRow, 3> kContainerStatus = {{
    {"name", 1, Wire::string, Slot::cs_name},
    {"restartCount", 5, Wire::int32, Slot::restart_count},
    {"state", 2, Wire::message, Slot::container_state},
}};
inline constexpr std::array<FieldRow, 3> kContainerState = {{
    {"running", 2, Wire::message, Slot::state_running},
    {"waiting", 1, Wire::message, Slot::state_waiting},
    {"terminated", 3, Wire::message, Slot::state_terminated},
}};
inline constexpr std::array<FieldRow, 1> kStateWaiting = {{{"reason", 1, Wire::string, Slot::waiting_reason}}};
inline constexpr std::array<FieldRow, 2> kStateTerminated = {{
    {"exitCode", 1, Wire::int32, Slot::exit_code},
    {"reason", 3, Wire::string, Slot::terminated_reason},
}};
inline constexpr std::array<FieldRow, 5> kPodCondition = {{
    {"type", 1, Wire::string, Slot::cond_type},
    {"status", 2, Wire::string, Slot::cond_status},
    {"lastTransitionTime", 4, Wire::time, Slot::cond_transition},
    {"reason", 5, Wire::string, Slot::cond_reason},
    {"message", 6, Wire::string, Slot::cond_message},
}};

// core/v1 Node.
inline constexpr auto kNodeRoot = root(spec_status(Slot::node_spec, Slot::node_status));
inline constexpr std::array<FieldRow, 2> kNodeSpec = {{
    {"unschedulable", 4, Wire::boolean, Slot::unschedulable},
    {"taints", 5, Wire::messages, Slot::taints},
}};
inline constexpr std::array<FieldRow, 3> kTaint = {{
    {"key", 1, Wire::string, Slot::taint_key},
    {"value", 2, Wire::string, Slot::taint_value},
    {"effect", 3, Wire::string, Slot::taint_effect},
}};
inline constexpr std::array<FieldRow, 2> kNodeStatus = {{
    {"allocatable", 2, Wire::quantity_map, Slot::allocatable},
    {"conditions", 4, Wire::messages, Slot::node_conditions},
}};
inline constexpr std::array<FieldRow, 2> kNodeCondition = {{
    {"type", 1, Wire::string, Slot::node_cond_type},
    {"status", 2, Wire::string, Slot::node_cond_status},
}};

// slo.koordinator.sh/v1alpha1 NodeMetric: a custom resource, JSON only.
inline constexpr auto kNodeMetricRoot = root(std::array<FieldRow, 1>{{{"status", 0, Wire::none, Slot::nm_status}}});
inline constexpr std::array<FieldRow, 3> kNodeMetricStatus = {{
    {"nodeMetric", 0, Wire::none, Slot::nm_node_metric},
    {"podsMetric", 0, Wire::none, Slot::nm_pods},
    {"updateTime", 0, Wire::none, Slot::nm_update_time},
}};
inline constexpr std::array<FieldRow, 1> kNodeMetricNode = {{{"systemUsage", 0, Wire::none, Slot::nm_system_usage}}};
inline constexpr std::array<FieldRow, 1> kNodeMetricUsage = {{{"resources", 0, Wire::none, Slot::nm_resources}}};
inline constexpr std::array<FieldRow, 3> kNodeMetricPod = {{
    {"namespace", 0, Wire::none, Slot::nm_pod_ns},
    {"name", 0, Wire::none, Slot::nm_pod_name},
    {"podUsage", 0, Wire::none, Slot::nm_pod_usage},
}};

// Workloads: the replica count (a Job's parallelism; a DaemonSet's desired count), the selector
// (a ReplicationController's is a plain label map) and the ready count, at numbers that differ
// by kind.
inline constexpr auto kReplicaSetRoot = root(spec_status(Slot::replicated_spec, Slot::rs_status));
inline constexpr auto kDeploymentRoot = root(spec_status(Slot::replicated_spec, Slot::deploy_status));
inline constexpr auto kStatefulSetRoot = root(spec_status(Slot::replicated_spec, Slot::sts_status));
inline constexpr auto kReplicationControllerRoot = root(spec_status(Slot::rc_spec, Slot::rs_status));
inline constexpr auto kJobRoot = root(spec_status(Slot::job_spec, Slot::job_status));
inline constexpr auto kDaemonSetRoot = root(spec_status(Slot::ds_spec, Slot::ds_status));
inline constexpr std::array<FieldRow, 2> kReplicatedSpec = {{
    {"replicas", 1, Wire::int32, Slot::replicas},
    {"selector", 2, Wire::message, Slot::selector},
}};
inline constexpr std::array<FieldRow, 2> kReplicationControllerSpec = {{
    {"replicas", 1, Wire::int32, Slot::replicas},
    {"selector", 2, Wire::string_map, Slot::rc_selector},
}};
inline constexpr std::array<FieldRow, 2> kJobSpec = {{
    {"parallelism", 1, Wire::int32, Slot::replicas},
    {"selector", 4, Wire::message, Slot::selector},
}};
inline constexpr std::array<FieldRow, 1> kDaemonSetSpec = {{{"selector", 1, Wire::message, Slot::selector}}};
inline constexpr std::array<FieldRow, 1> kReplicaSetStatus = {
    {{"readyReplicas", 4, Wire::int32, Slot::ready_replicas}}};
inline constexpr std::array<FieldRow, 1> kDeploymentStatus = {
    {{"readyReplicas", 7, Wire::int32, Slot::ready_replicas}}};
inline constexpr std::array<FieldRow, 1> kStatefulSetStatus = {
    {{"readyReplicas", 3, Wire::int32, Slot::ready_replicas}}};
inline constexpr std::array<FieldRow, 1> kJobStatus = {{{"ready", 9, Wire::int32, Slot::ready_replicas}}};
inline constexpr std::array<FieldRow, 2> kDaemonSetStatus = {{
    {"desiredNumberScheduled", 3, Wire::int32, Slot::replicas},
    {"numberReady", 4, Wire::int32, Slot::ready_replicas},
}};

// policy/v1 PodDisruptionBudget.
inline constexpr auto kPdbRoot = root(spec_status(Slot::pdb_spec, Slot::pdb_status));
inline constexpr std::array<FieldRow, 3> kPdbSpec = {{
    {"selector", 2, Wire::message, Slot::selector},
    {"minAvailable", 1, Wire::int_or_string, Slot::min_available},
    {"maxUnavailable", 3, Wire::int_or_string, Slot::max_unavailable},
}};
inline constexpr std::array<FieldRow, 1> kPdbStatus = {
    {{"disruptionsAllowed", 3, Wire::int32, Slot::disruptions_allowed}}};

// scheduling.k8s.io/v1 PriorityClass: its value (a top-level field, no spec).
inline constexpr auto kPriorityClassRoot =
    root(std::array<FieldRow, 1>{{{"value", 2, Wire::int32, Slot::priority_value}}});

// core/v1 PersistentVolumeClaim: the storage class it asks for.
inline constexpr auto kPvcRoot = root(std::array<FieldRow, 1>{{{"spec", 2, Wire::message, Slot::pvc_spec}}});
inline constexpr std::array<FieldRow, 1> kPvcSpec = {{{"storageClassName", 5, Wire::string, Slot::storage_class_name}}};

// core/v1 Namespace (its metadata only) and Secret (read as JSON, one at a time).
inline constexpr auto kNamespaceRoot = kRoot;
inline constexpr auto kSecretRoot = root(std::array<FieldRow, 1>{{{"data", 0, Wire::none, Slot::secret_data}}});

}  // namespace rows

// The root context of each kind, and whether it is read from protobuf (the built-in kinds a
// LIST serves so; Koordinator's custom resources and the Secrets read one at a time are JSON).
struct RootRow {
    std::string_view kind;
    Slot root;
    bool protobuf;
};
inline constexpr RootRow kRoots[] = {
    {"Pod", Slot::pod_root, true},
    {"Node", Slot::node_root, true},
    {"NodeMetric", Slot::nm_root, false},
    {"ReplicaSet", Slot::rs_root, true},
    {"Deployment", Slot::deploy_root, true},
    {"StatefulSet", Slot::sts_root, true},
    {"ReplicationController", Slot::rc_root, true},
    {"Job", Slot::job_root, true},
    {"DaemonSet", Slot::ds_root, true},
    {"PodDisruptionBudget", Slot::pdb_root, true},
    {"Namespace", Slot::ns_root, true},
    {"PriorityClass", Slot::pc_root, true},
    {"PersistentVolumeClaim", Slot::pvc_root, true},
    {"Secret", Slot::secret_root, false},
};
constexpr const RootRow* root_of(std::string_view kind) {
    for (const RootRow& r : kRoots)
        if (r.kind == kind) return &r;
    return nullptr;
}

// A context: the object whose members its rows are. A map context takes every key, its values
// going to `any_key`.
struct Context {
    Slot slot;
    std::span<const FieldRow> rows;
    Slot any_key = Slot::none;
};

inline constexpr Context kContexts[] = {
    {Slot::pod_root, rows::kPodRoot},
    {Slot::node_root, rows::kNodeRoot},
    {Slot::nm_root, rows::kNodeMetricRoot},
    {Slot::rs_root, rows::kReplicaSetRoot},
    {Slot::deploy_root, rows::kDeploymentRoot},
    {Slot::sts_root, rows::kStatefulSetRoot},
    {Slot::rc_root, rows::kReplicationControllerRoot},
    {Slot::job_root, rows::kJobRoot},
    {Slot::ds_root, rows::kDaemonSetRoot},
    {Slot::pdb_root, rows::kPdbRoot},
    {Slot::ns_root, rows::kNamespaceRoot},
    {Slot::pc_root, rows::kPriorityClassRoot},
    {Slot::pvc_root, rows::kPvcRoot},
    {Slot::secret_root, rows::kSecretRoot},
    {Slot::meta, rows::kMeta},
    {Slot::owner_ref, rows::kOwnerRef},
    {Slot::pod_spec, rows::kPodSpec},
    {Slot::affinity, rows::kAffinity},
    {Slot::node_affinity, rows::kNodeAffinity},
    {Slot::pod_affinity, rows::kPodAffinity},
    {Slot::pod_anti_affinity, rows::kPodAntiAffinity},
    {Slot::node_required, rows::kNodeRequired},
    {Slot::term, rows::kTerm},
    {Slot::node_req, rows::kNodeRequirement},
    {Slot::container, rows::kContainer},
    {Slot::init_container, rows::kInitContainer},
    {Slot::resources, rows::kResources},
    {Slot::volume, rows::kVolume},
    {Slot::vol_pvc, rows::kPvcVolumeSource},
    {Slot::pod_status, rows::kPodStatus},
    {Slot::pod_condition, rows::kPodCondition},
    {Slot::container_status, rows::kContainerStatus},
    {Slot::container_state, rows::kContainerState},
    {Slot::state_waiting, rows::kStateWaiting},
    {Slot::state_terminated, rows::kStateTerminated},
    {Slot::node_spec, rows::kNodeSpec},
    {Slot::taint, rows::kTaint},
    {Slot::node_status, rows::kNodeStatus},
    {Slot::node_condition, rows::kNodeCondition},
    {Slot::nm_status, rows::kNodeMetricStatus},
    {Slot::nm_node_metric, rows::kNodeMetricNode},
    {Slot::nm_usage, rows::kNodeMetricUsage},
    {Slot::nm_pod, rows::kNodeMetricPod},
    {Slot::replicated_spec, rows::kReplicatedSpec},
    {Slot::rc_spec, rows::kReplicationControllerSpec},
    {Slot::job_spec, rows::kJobSpec},
    {Slot::ds_spec, rows::kDaemonSetSpec},
    {Slot::rs_status, rows::kReplicaSetStatus},
    {Slot::deploy_status, rows::kDeploymentStatus},
    {Slot::sts_status, rows::kStatefulSetStatus},
    {Slot::job_status, rows::kJobStatus},
    {Slot::ds_status, rows::kDaemonSetStatus},
    {Slot::selector, rows::kSelector},
    {Slot::selector_req, rows::kSelectorRequirement},
    {Slot::pdb_spec, rows::kPdbSpec},
    {Slot::pdb_status, rows::kPdbStatus},
    {Slot::pvc_spec, rows::kPvcSpec},
    // Maps.
    {Slot::string_map, {}, Slot::kv_value},
    {Slot::annotations, {}, Slot::annotation_value},
    {Slot::res_list, {}, Slot::quantity},
    {Slot::selector_labels, {}, Slot::selector_label_value},
    {Slot::bound_kvs, {}, Slot::bound_kv_value},
    // bound_element and bound_object have no context of their own: their rows are their Shape's.
};

// The context of each slot, or null (a slot that opens no context: its members are skipped).
inline constexpr std::array<const Context*, kSlotCount> kContextOf = [] {
    std::array<const Context*, kSlotCount> out{};
    for (const Context& c : kContexts) out[static_cast<size_t>(c.slot)] = &c;
    return out;
}();

// The rows of a context; empty for a slot that is not one.
constexpr std::span<const FieldRow> rows_of(Slot ctx) {
    const Context* c = kContextOf[static_cast<size_t>(ctx)];
    return c ? c->rows : std::span<const FieldRow>{};
}

// The slot of every element of a list.
constexpr Slot element_of(Slot list) {
    switch (list) {
        case Slot::owner_refs:
            return Slot::owner_ref;
        case Slot::node_terms:
            return Slot::term;
        case Slot::match_expressions:
        case Slot::match_fields:
            return Slot::node_req;
        case Slot::req_values:
            return Slot::req_value;
        case Slot::containers:
            return Slot::container;
        case Slot::init_containers:
            return Slot::init_container;
        case Slot::volumes:
            return Slot::volume;
        case Slot::pod_conditions:
            return Slot::pod_condition;
        case Slot::container_statuses:
        case Slot::init_container_statuses:
        case Slot::ephemeral_container_statuses:
            return Slot::container_status;
        case Slot::taints:
            return Slot::taint;
        case Slot::node_conditions:
            return Slot::node_condition;
        case Slot::nm_pods:
            return Slot::nm_pod;
        case Slot::selector_exprs:
            return Slot::selector_req;
        case Slot::selector_values:
            return Slot::selector_value;
        case Slot::bound_list:
            return Slot::bound_element;
        case Slot::bound_strs:
            return Slot::bound_str_item;
        default:
            return Slot::none;
    }
}

constexpr std::span<const FieldRow> rows_inside(const FieldRow& r) {
    if (r.bind.place.shape) return r.bind.place.shape->rows;
    return rows_of(is_list(r.slot) ? element_of(r.slot) : r.slot);
}

// Checks of the table, at compile time: every row's slot is in the group its wire shape gives,
// a context appears once, and within a context no JSON name or protobuf number repeats.
constexpr bool wire_fits(const FieldRow& r) {
    switch (r.wire) {
        case Wire::string:
            return is_string(r.slot) && r.slot != Slot::bound_time && r.slot != Slot::cond_transition;
        case Wire::boolean:
            return is_boolean(r.slot);
        case Wire::int32:
            return is_int32(r.slot);
        case Wire::time:
            return r.slot == Slot::created || r.slot == Slot::deleted || r.slot == Slot::bound_time ||
                   r.slot == Slot::cond_transition;
        case Wire::int_or_string:
            return r.slot == Slot::min_available || r.slot == Slot::max_unavailable;
        case Wire::message:
        case Wire::string_map:
        case Wire::quantity_map:
            return is_object(r.slot);
        case Wire::strings:
            return is_list(r.slot) && is_string(element_of(r.slot));
        case Wire::messages:
            return is_list(r.slot) && is_object(element_of(r.slot));
        case Wire::none:
            return r.proto == 0;
    }
    return false;
}
constexpr bool rows_are_consistent(std::span<const FieldRow> rows);
// A bound list's or inlined object's rows: all of them bind members of its element (an element's
// size keeps the arrays of its draft and the model's pools 8-byte aligned).
constexpr bool shape_is_consistent(const Place& p) {
    if (p.type != Field::list && p.type != Field::object) return true;
    if (!p.shape || (p.type == Field::list) != (p.shape->size != 0) || p.shape->size % 8 != 0) return false;
    for (const FieldRow& r : p.shape->rows)
        if (r.bind.place.base != Base::element) return false;
    return rows_are_consistent(p.shape->rows);
}
constexpr bool rows_are_consistent(std::span<const FieldRow> rows) {
    for (size_t a = 0; a < rows.size(); ++a) {
        if (!wire_fits(rows[a]) || !shape_is_consistent(rows[a].bind.place)) return false;
        for (size_t b = a + 1; b < rows.size(); ++b) {
            if (rows[a].json == rows[b].json) return false;
            if (rows[a].proto != 0 && rows[a].proto == rows[b].proto && rows[a].via == rows[b].via) return false;
        }
    }
    return true;
}
constexpr bool schema_is_consistent() {
    for (size_t i = 0; i < std::size(kContexts); ++i) {
        const Context& c = kContexts[i];
        if (!is_object(c.slot)) return false;
        for (size_t j = i + 1; j < std::size(kContexts); ++j)
            if (kContexts[j].slot == c.slot) return false;
        if (!rows_are_consistent(c.rows)) return false;
    }
    return true;
}
static_assert(schema_is_consistent(), "object_schema.hpp: a row's wire shape and slot disagree, or a name repeats");

// Every Shape the rows reach, each once (for the decoder's key matchers, made at compile time).
struct ShapeTable {
    std::array<const Shape*, 32> at{};
    size_t n = 0;
    constexpr void add(std::span<const FieldRow> rows) {
        for (const FieldRow& r : rows) {
            const Shape* s = r.bind.place.shape;
            if (!s) continue;
            bool seen = false;
            for (size_t i = 0; i < n; ++i) seen = seen || at[i] == s;
            if (seen) continue;
            at[n++] = s;  // more than 32 shapes: a compile error (out of the array's bounds)
            add(s->rows);
        }
    }
};
inline constexpr ShapeTable kShapes = [] {
    ShapeTable t;
    for (const Context& c : kContexts) t.add(c.rows);
    return t;
}();

// The bindings of every row into members of S (kd_pod or kd_pod_spec), in row order.
template <class S>
constexpr bool binds_into(const Binding& b) {
    if (b.place.base != Base::none) return b.place.base == base_of<S>();
    bool yes = false;
    with_member<S>(b, [&](auto) { yes = true; });
    return yes;
}
template <class S>
constexpr size_t bound_count() {
    size_t n = 0;
    for (const Context& c : kContexts)
        for (const FieldRow& r : c.rows) n += binds_into<S>(r.bind);
    return n;
}
template <class S>
inline constexpr auto kBound = [] {
    std::array<Binding, bound_count<S>()> out{};
    size_t n = 0;
    for (const Context& c : kContexts)
        for (const FieldRow& r : c.rows)
            if (binds_into<S>(r.bind)) out[n++] = r.bind;
    return out;
}();

// How many members KD_EACH rows fill (the decoder keeps one open buffer for each).
constexpr size_t each_member_count() {
    size_t n = 0;
    for (const Binding& b : kBound<kd_pod>) n += b.place.each;
    for (const Binding& b : kBound<kd_pod_spec>) n += b.place.each;
    return n;
}

// The decoder stores bound values in the pod draft: a bound row may only be in a context no
// other kind reaches (not in metadata, which every kind shares).
constexpr bool bound_rows_are_pods_only() {
    std::array<bool, kSlotCount> reached{};  // from the roots of the other kinds
    for (const RootRow& r : kRoots)
        if (r.root != Slot::pod_root) reached[static_cast<size_t>(r.root)] = true;
    for (bool grew = true; grew;) {
        grew = false;
        for (const Context& c : kContexts) {
            if (!reached[static_cast<size_t>(c.slot)]) continue;
            for (const FieldRow& r : c.rows) {
                if (r.bind.bound()) return false;
                size_t s = static_cast<size_t>(is_list(r.slot) ? element_of(r.slot) : r.slot);
                if (!reached[s]) reached[s] = grew = true;
            }
        }
    }
    return true;
}
static_assert(bound_rows_are_pods_only(), "object_schema.hpp: a bound row in a context other kinds than Pod read");

// Each member is bound by one row only (two would overwrite each other).
template <class S>
constexpr bool bindings_are_unique() {
    for (size_t a = 0; a < kBound<S>.size(); ++a)
        for (size_t b = a + 1; b < kBound<S>.size(); ++b)
            if (kBound<S>[a].place.base == Base::none ? kBound<S>[a].member == kBound<S>[b].member
                                                      : kBound<S>[a].place.at == kBound<S>[b].place.at)
                return false;
    return true;
}
static_assert(bindings_are_unique<kd_pod>() && bindings_are_unique<kd_pod_spec>(),
              "object_schema.hpp: two rows bind the same member");

}  // namespace kd::core::schema
