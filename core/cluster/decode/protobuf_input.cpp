#include "cluster/decode/protobuf_input.hpp"

#include "cluster/decode/protobuf_wire.hpp"

#include <cstring>
#include <string>

namespace kd::core::decode {

namespace {

// What a field is on the wire and which events it becomes.
enum class T : uint8_t {
    string,          // a string
    boolean,         // true / false
    int32,           // a number
    time,            // metav1.Time {seconds = 1, nanos = 2}: a timestamp
    int_or_string,   // intstr.IntOrString {type = 1, intVal = 2, strVal = 3}: a number or a string
    message,         // an object
    inline_message,  // a message whose fields belong to the enclosing object (Volume.volumeSource)
    // Repeated fields: one list (or, for maps, one object) of consecutive entries.
    strings,       // a list of strings
    messages,      // a list of objects
    string_map,    // map<string, string>: an object of strings
    quantity_map,  // map<string, resource.Quantity {string = 1}>: an object of quantity strings
};

struct Message;
struct Field {
    uint32_t number;
    const char* json;  // the JSON name the ObjectDecoder matches
    T type;
    const Message* message = nullptr;
};
struct Message {
    const Field* fields;
    size_t size;
    const Field* find(uint32_t number) const {
        for (size_t i = 0; i < size; ++i)
            if (fields[i].number == number) return &fields[i];
        return nullptr;
    }
};
template <size_t N>
constexpr Message message(const Field (&f)[N]) {
    return Message{f, N};
}

// The schema: k8s.io/api (core/v1, apps/v1, batch/v1, policy/v1) and apimachinery (meta/v1)
// generated.proto, the fields the ObjectDecoder reads and nothing else. Checked against a real
// kube-apiserver by tests/data/protobuf (tools/protobuf-fixtures.sh).
constexpr Field kOwnerReferenceFields[] = {
    {1, "kind", T::string},       {3, "name", T::string},        {4, "uid", T::string},
    {5, "apiVersion", T::string}, {6, "controller", T::boolean},
};
constexpr Message kOwnerReference = message(kOwnerReferenceFields);

constexpr Field kObjectMetaFields[] = {
    {1, "name", T::string},
    {3, "namespace", T::string},
    {5, "uid", T::string},
    {8, "creationTimestamp", T::time},
    {9, "deletionTimestamp", T::time},
    {11, "labels", T::string_map},
    {12, "annotations", T::string_map},
    {13, "ownerReferences", T::messages, &kOwnerReference},
};
constexpr Message kObjectMeta = message(kObjectMetaFields);

constexpr Field kSelectorRequirementFields[] = {
    {1, "key", T::string},
    {2, "operator", T::string},
    {3, "values", T::strings},
};
// NodeSelectorRequirement and LabelSelectorRequirement have the same three fields.
constexpr Message kRequirement = message(kSelectorRequirementFields);

constexpr Field kLabelSelectorFields[] = {
    {1, "matchLabels", T::string_map},
    {2, "matchExpressions", T::messages, &kRequirement},
};
constexpr Message kLabelSelector = message(kLabelSelectorFields);

// core/v1 Pod.
constexpr Field kNodeSelectorTermFields[] = {
    {1, "matchExpressions", T::messages, &kRequirement},
    {2, "matchFields", T::messages, &kRequirement},
};
constexpr Message kNodeSelectorTerm = message(kNodeSelectorTermFields);
constexpr Field kNodeSelectorFields[] = {{1, "nodeSelectorTerms", T::messages, &kNodeSelectorTerm}};
constexpr Message kNodeSelector = message(kNodeSelectorFields);
constexpr Field kNodeAffinityFields[] = {
    {1, "requiredDuringSchedulingIgnoredDuringExecution", T::message, &kNodeSelector},
};
constexpr Message kNodeAffinity = message(kNodeAffinityFields);
constexpr Field kAffinityFields[] = {{1, "nodeAffinity", T::message, &kNodeAffinity}};
constexpr Message kAffinity = message(kAffinityFields);

constexpr Field kTolerationFields[] = {
    {1, "key", T::string},
    {2, "operator", T::string},
    {3, "value", T::string},
    {4, "effect", T::string},
};
constexpr Message kToleration = message(kTolerationFields);

constexpr Field kResourceRequirementsFields[] = {
    {1, "limits", T::quantity_map},
    {2, "requests", T::quantity_map},
};
constexpr Message kResourceRequirements = message(kResourceRequirementsFields);
constexpr Field kContainerFields[] = {
    {8, "resources", T::message, &kResourceRequirements},
    {24, "restartPolicy", T::string},
};
constexpr Message kContainer = message(kContainerFields);

// Only which sources a volume has matters (local storage, claims): their contents are skipped.
constexpr Message kSkipped{nullptr, 0};
constexpr Field kVolumeSourceFields[] = {
    {1, "hostPath", T::message, &kSkipped},
    {2, "emptyDir", T::message, &kSkipped},
    {10, "persistentVolumeClaim", T::message, &kSkipped},
    {29, "ephemeral", T::message, &kSkipped},
};
constexpr Message kVolumeSource = message(kVolumeSourceFields);
constexpr Field kVolumeFields[] = {{2, "volumeSource", T::inline_message, &kVolumeSource}};
constexpr Message kVolume = message(kVolumeFields);

constexpr Field kPodSpecFields[] = {
    {1, "volumes", T::messages, &kVolume},
    {2, "containers", T::messages, &kContainer},
    {7, "nodeSelector", T::string_map},
    {10, "nodeName", T::string},
    {18, "affinity", T::message, &kAffinity},
    {19, "schedulerName", T::string},
    {20, "initContainers", T::messages, &kContainer},
    {22, "tolerations", T::messages, &kToleration},
    {24, "priorityClassName", T::string},
    {25, "priority", T::int32},
    {32, "overhead", T::quantity_map},
};
constexpr Message kPodSpec = message(kPodSpecFields);

constexpr Field kPodConditionFields[] = {
    {1, "type", T::string},
    {2, "status", T::string},
    {5, "reason", T::string},
    {6, "message", T::string},
};
constexpr Message kPodCondition = message(kPodConditionFields);
constexpr Field kPodStatusFields[] = {
    {1, "phase", T::string},
    {2, "conditions", T::messages, &kPodCondition},
    {9, "qosClass", T::string},
};
constexpr Message kPodStatus = message(kPodStatusFields);

// core/v1 Node.
constexpr Field kTaintFields[] = {{1, "key", T::string}, {2, "value", T::string}, {3, "effect", T::string}};
constexpr Message kTaint = message(kTaintFields);
constexpr Field kNodeSpecFields[] = {
    {4, "unschedulable", T::boolean},
    {5, "taints", T::messages, &kTaint},
};
constexpr Message kNodeSpec = message(kNodeSpecFields);
constexpr Field kNodeConditionFields[] = {{1, "type", T::string}, {2, "status", T::string}};
constexpr Message kNodeCondition = message(kNodeConditionFields);
constexpr Field kNodeStatusFields[] = {
    {2, "allocatable", T::quantity_map},
    {4, "conditions", T::messages, &kNodeCondition},
};
constexpr Message kNodeStatus = message(kNodeStatusFields);

// Workloads: spec.replicas and selector, and the ready count, at numbers that differ by kind.
constexpr Field kReplicatedSpecFields[] = {
    // ReplicaSet, Deployment, StatefulSet: replicas, selector
    {1, "replicas", T::int32},
    {2, "selector", T::message, &kLabelSelector},
};
constexpr Message kReplicatedSpec = message(kReplicatedSpecFields);
constexpr Field kReplicationControllerSpecFields[] = {
    {1, "replicas", T::int32},
    {2, "selector", T::string_map},
};
constexpr Field kJobSpecFields[] = {
    {1, "parallelism", T::int32},
    {4, "selector", T::message, &kLabelSelector},
};
constexpr Field kDaemonSetSpecFields[] = {{1, "selector", T::message, &kLabelSelector}};
constexpr Field kReadyAt3[] = {{3, "readyReplicas", T::int32}};  // StatefulSet
constexpr Field kReadyAt4[] = {{4, "readyReplicas", T::int32}};  // ReplicaSet, ReplicationController
constexpr Field kReadyAt7[] = {{7, "readyReplicas", T::int32}};  // Deployment
constexpr Field kJobStatusFields[] = {{9, "ready", T::int32}};
constexpr Field kDaemonSetStatusFields[] = {
    {3, "desiredNumberScheduled", T::int32},
    {4, "numberReady", T::int32},
};

// policy/v1 PodDisruptionBudget.
constexpr Field kPdbSpecFields[] = {
    {1, "minAvailable", T::int_or_string},
    {2, "selector", T::message, &kLabelSelector},
    {3, "maxUnavailable", T::int_or_string},
};
constexpr Field kPdbStatusFields[] = {{3, "disruptionsAllowed", T::int32}};

// Top-level messages: metadata = 1, spec = 2, status = 3 for every kind.
struct TopLevel {
    std::string_view kind;
    Message spec, status;
};
const TopLevel kTopLevels[] = {
    {"Pod", kPodSpec, kPodStatus},
    {"Node", kNodeSpec, kNodeStatus},
    {"ReplicaSet", kReplicatedSpec, message(kReadyAt4)},
    {"Deployment", kReplicatedSpec, message(kReadyAt7)},
    {"StatefulSet", kReplicatedSpec, message(kReadyAt3)},
    {"ReplicationController", message(kReplicationControllerSpecFields), message(kReadyAt4)},
    {"Job", message(kJobSpecFields), message(kJobStatusFields)},
    {"DaemonSet", message(kDaemonSetSpecFields), message(kDaemonSetStatusFields)},
    {"PodDisruptionBudget", message(kPdbSpecFields), message(kPdbStatusFields)},
    {"Namespace", kSkipped, kSkipped},
};

const TopLevel* top_level(std::string_view kind) {
    for (const auto& t : kTopLevels)
        if (t.kind == kind) return &t;
    return nullptr;
}

// A malformed message, with the JSON path of where (filled in while unwinding).
struct Malformed {
    std::string path, what;
};

// Plays a message's fields to the ObjectDecoder as JSON events.
class Player {
public:
    explicit Player(ObjectDecoder& d) : d_(d) {}

    // The fields of `data` as members of the object open in the decoder.
    void members(std::string_view data, const Message& m) {
        if (m.size == 0) return;  // an object whose presence is all that counts
        WireReader r(data);
        WireField f;
        while (r.next(f)) {
            const Field* spec = m.find(f.number);
            if (!spec) continue;
            try {
                member(*spec, f, r);
            } catch (Malformed& e) {
                if (spec->type != T::inline_message) e.path = join(spec->json, e.path);
                throw;
            }
        }
        if (r.malformed()) throw Malformed{"", r.malformed()};
    }

private:
    static std::string join(const char* a, const std::string& b) {
        if (b.empty()) return a;
        return std::string(a) + (b.front() == '[' ? "" : ".") + b;
    }
    void key(const char* k) { d_.Key(k, static_cast<rapidjson::SizeType>(std::strlen(k)), false); }
    void string(std::string_view s) { d_.String(s.data(), static_cast<rapidjson::SizeType>(s.size()), false); }
    static void expect(const WireField& f, WireType t) {
        if (f.type != t)
            throw Malformed{"", t == WireType::bytes ? "expected a length-delimited field, got a number"
                                                     : "expected a varint, got another wire type"};
    }
    void object(std::string_view data, const Message& m) {
        d_.StartObject();
        members(data, m);
        d_.EndObject(0);
    }

    void member(const Field& spec, const WireField& f, WireReader& r) {
        switch (spec.type) {
            case T::string:
                expect(f, WireType::bytes);
                key(spec.json);
                return string(f.bytes);
            case T::boolean:
                expect(f, WireType::varint);
                key(spec.json);
                d_.Bool(f.varint != 0);
                return;
            case T::int32:
                expect(f, WireType::varint);
                key(spec.json);
                d_.Int64(static_cast<int32_t>(f.varint));  // negative int32s are sign-extended varints
                return;
            case T::time:
                expect(f, WireType::bytes);
                key(spec.json);
                return time(f.bytes);
            case T::int_or_string:
                expect(f, WireType::bytes);
                key(spec.json);
                return int_or_string(f.bytes);
            case T::message:
                expect(f, WireType::bytes);
                key(spec.json);
                return object(f.bytes, *spec.message);
            case T::inline_message:
                expect(f, WireType::bytes);
                return members(f.bytes, *spec.message);
            default:
                return repeated(spec, f, r);
        }
    }

    // A repeated field: this entry and the ones right after it with the same number.
    void repeated(const Field& spec, WireField f, WireReader& r) {
        const bool map = spec.type == T::string_map || spec.type == T::quantity_map;
        key(spec.json);
        map ? d_.StartObject() : d_.StartArray();
        for (size_t i = 0;; ++i) {
            expect(f, WireType::bytes);
            try {
                element(spec, f.bytes);
            } catch (Malformed& e) {
                if (!map) e.path = "[" + std::to_string(i) + "]" + (e.path.empty() ? "" : "." + e.path);
                throw;
            }
            WireReader ahead = r;
            if (!ahead.next(f) || f.number != spec.number) break;
            r = ahead;
        }
        map ? d_.EndObject(0) : d_.EndArray(0);
    }

    void element(const Field& spec, std::string_view bytes) {
        switch (spec.type) {
            case T::strings:
                return string(bytes);
            case T::messages:
                return object(bytes, *spec.message);
            default:
                return map_entry(bytes, spec.type == T::quantity_map);
        }
    }

    // A map entry {key = 1, value = 2}; a Quantity value is {string = 1}.
    void map_entry(std::string_view entry, bool quantity) {
        std::string_view k, v;
        WireReader r(entry);
        WireField f;
        while (r.next(f)) {
            if (f.type != WireType::bytes) continue;
            if (f.number == 1) k = f.bytes;
            if (f.number == 2) v = quantity ? quantity_string(f.bytes) : f.bytes;
        }
        if (r.malformed()) throw Malformed{"", r.malformed()};
        d_.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()), false);
        string(v);
    }
    static std::string_view quantity_string(std::string_view q) {
        const char* malformed = nullptr;
        std::string_view s = bytes_field(q, 1, &malformed);  // resource.Quantity {string = 1}
        if (malformed) throw Malformed{"", malformed};
        return s;
    }

    void time(std::string_view t) {
        WireReader r(t);
        WireField f;
        int64_t seconds = 0;
        while (r.next(f))
            if (f.number == 1 && f.type == WireType::varint) seconds = static_cast<int64_t>(f.varint);
        if (r.malformed()) throw Malformed{"", r.malformed()};
        // JSON carries whole seconds (metav1.Time marshals RFC 3339 without a fraction): so do we.
        d_.Timestamp(seconds * 1000);
    }

    void int_or_string(std::string_view v) {
        WireReader r(v);
        WireField f;
        uint64_t type = 0;
        int32_t i = 0;
        std::string_view s;
        while (r.next(f)) {
            if (f.number == 1 && f.type == WireType::varint) type = f.varint;
            if (f.number == 2 && f.type == WireType::varint) i = static_cast<int32_t>(f.varint);
            if (f.number == 3 && f.type == WireType::bytes) s = f.bytes;
        }
        if (r.malformed()) throw Malformed{"", r.malformed()};
        if (type == 1)
            string(s);
        else
            d_.Int64(i);
    }

    ObjectDecoder& d_;
};

}  // namespace

void decode_protobuf(std::string_view data, FileContext& ctx, std::string_view kind, std::string_view api_version) {
    const size_t index = ctx.next_index();
    const TopLevel* top = top_level(kind);
    if (!top) ctx.fail_object(index, kind, "kdesched does not read " + std::string(kind) + " objects from protobuf");
    const Field fields[] = {
        {1, "metadata", T::message, &kObjectMeta},
        {2, "spec", T::message, &top->spec},
        {3, "status", T::message, &top->status},
    };
    ObjectDecoder& d = ctx.decoder();
    d.begin(classify_kind(kind), kind, api_version);
    d.StartObject();
    try {
        Player(d).members(data, message(fields));
    } catch (const Malformed& e) {
        // Named with whatever of its metadata came before the damage.
        ctx.fail(index, kind, d.meta().ns, d.meta().name,
                 FieldProblem{e.path, "malformed protobuf: " + e.what,
                              "the body is not the Kubernetes protobuf encoding of a " + std::string(kind) +
                                  "; set clientConnection.contentType: application/json to read JSON instead",
                              FieldProblem::kNoOffset});
    }
    d.EndObject(0);
    ctx.finish_decoded(index);
}

}  // namespace kd::core::decode
