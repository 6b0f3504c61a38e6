// The SAX handler that turns the events of one object of a drafted kind (Pod, Node, NodeMetric,
// the six workload kinds, PodDisruptionBudget, Namespace, Secret) into its draft.
//
// It keeps a stack of frames, one per open object or list it cares about; each frame has a
// context (metadata, spec.containers[i].resources.requests, …) in which keys are matched, and
// every subtree of no interest is skipped by counting depth, without looking at it. The same
// events come from the in-situ JSON reader or, replayed, from a DOM (YAML, or JSON objects whose
// kind came after their fields), so there is one decoding logic for every input.
//
// A problem does not stop the events: the first one is kept and the rest of the object is still
// read, so the message can name the object (metadata.name often follows the bad field).
#pragma once

#include "cluster/decode/field_problem.hpp"
#include "cluster/decode/kinds.hpp"
#include "cluster/drafts.hpp"

#include <rapidjson/rapidjson.h>
#include <rapidjson/stream.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace kd::core::schema {
enum class Slot : unsigned char;
struct Binding;
struct Place;
}  // namespace kd::core::schema

namespace kd::core::decode {

class ObjectDecoder {
public:
    using SizeType = rapidjson::SizeType;

    // Starts an object; the events from its StartObject to its EndObject follow. `api_version`
    // may be empty (and then come with the events). `stream` (optional) is the reader's, so that
    // a problem can say where in the text it is; `base` is the stream's offset in the file.
    void begin(Kind kind, std::string_view kind_name, std::string_view api_version,
               const rapidjson::InsituStringStream* stream = nullptr, size_t base = 0);
    bool finished() const { return finished_; }
    const std::optional<FieldProblem>& problem() const { return problem_; }
    Kind kind() const { return kind_; }
    std::string_view kind_name() const { return kind_name_; }
    std::string_view api_version() const { return api_version_; }
    const ObjectMetaDraft& meta() const { return *meta_; }
    // Hands the finished draft to the sink.
    void deliver(ObjectSink& sink) const;

    bool Null();
    bool Bool(bool b);
    bool Int(int i) { return integer(i); }
    bool Uint(unsigned u) { return integer(u); }
    bool Int64(int64_t i) { return integer(i); }
    bool Uint64(uint64_t u);
    bool Double(double d);
    bool RawNumber(const char* s, SizeType n, bool copy);
    bool String(const char* s, SizeType n, bool copy);
    bool StartObject();
    bool Key(const char* s, SizeType n, bool copy);
    bool EndObject(SizeType);
    bool StartArray();
    bool EndArray(SizeType);
    // A timestamp already read as a number (protobuf's metav1.Time): what String() does with the
    // RFC 3339 text of one.
    bool Timestamp(int64_t unix_ms);

    // What a value is: the context of an object or list, or the field a scalar goes to
    // (cluster/schema/object_schema.hpp).
    using Slot = schema::Slot;

    // A member's key whose slot (and binding, for a bound row) the caller knows already (the
    // protobuf reader, from the same rows): what Key() does without matching it.
    void field(std::string_view key, Slot slot, const schema::Binding* bind) {
        if (skip_) return;
        stack_.back().key = key;
        next_ = slot;
        bind_ = bind;
    }

private:
    struct Frame {
        Slot ctx;
        Slot elem;  // for lists: the slot of every element
        bool list;
        uint8_t shape = 0xff;    // a bound element or inlined object: its Shape's key matcher (kShapes)
        uint32_t count = 0;      // lists: elements seen so far
        std::string_view key{};  // objects: the current key
        // Bound lists and maps (and their elements): the member they fill (its place), the struct
        // it is a member of (an element: the element itself) and, for a list or map, its buffer
        // in the draft's ListArena.
        const schema::Place* place = nullptr;
        std::byte* base = nullptr;
        uint32_t buf = 0;
    };

    Slot take_slot();
    Slot key_slot(Slot ctx, std::string_view key);
    [[gnu::noinline]] Slot shape_key_slot(std::string_view key);
    void push(Slot ctx, Slot elem = Slot{}, bool list = false);
    // Bound lists of structs, string lists and maps: opening one, an element, an inlined object;
    // closing one sets its items and count.
    void open_bound(Slot slot, bool list);
    bool open_bound_element(Slot slot);
    void close_bound();
    std::byte* bound_base(const schema::Place& p);
    template <class T>
    void append_bound(const T& v);
    // A KD_EACH value: appended to its kd_str_list, whose buffer stays open for the whole object.
    void append_each(std::string_view v);
    bool start_object(Slot slot);
    bool start_array(Slot slot);
    bool string_value(Slot slot, std::string_view v);
    bool integer(int64_t v);
    bool set_int32(Slot slot, int64_t v);
    void set_time(Slot slot, int64_t unix_ms);
    // A bound row's value, into the draft's member its binding names (bind_).
    template <class T>
    void store(T v);
    // The PodDisruptionBudget field of slot min_available or max_unavailable.
    std::optional<kd::IntOrString>& pdb_bound(Slot slot);
    void quantity(std::string_view key, std::string_view text);
    // Records the first problem at the current path and skips the offending value.
    bool wrong_type(Slot slot, const char* got, bool container = false);
    void fail(std::string message, std::string hint = "");
    std::string current_path() const;

    Kind kind_ = Kind::other;
    std::string_view kind_name_, api_version_;
    const rapidjson::InsituStringStream* stream_ = nullptr;
    size_t base_ = 0;
    bool finished_ = false;
    std::optional<FieldProblem> problem_;

    std::vector<Frame> stack_;
    Slot next_{};                            // the slot of the value after the last key
    const schema::Binding* bind_ = nullptr;  // its binding, when next_ is a bound_* slot
    // The KD_EACH members written in this object and their ListArena buffers (member offset, buffer).
    static constexpr size_t kMaxEachMembers = 2;
    std::array<std::pair<uint32_t, uint32_t>, kMaxEachMembers> each_{};
    uint8_t each_count_ = 0;
    uint32_t skip_ = 0;   // depth inside a skipped subtree (0 = not skipping)
    size_t literal_ = 0;  // length of the true/false a problem is about, to point at its start

    // Where values go in the current object.
    ObjectMetaDraft* meta_ = nullptr;
    std::vector<KeyValueDraft>* kv_ = nullptr;  // the string map being read
    ResourceDraft* res_ = nullptr;              // the resource list being read
    std::vector<PodDraft::Container>* containers_ = nullptr;
    std::vector<SelectorRequirementDraft>* reqs_ = nullptr;
    std::optional<kd::LabelSelector>* selector_ = nullptr;
    uint8_t status_kind_ = 0;                   // the container status list being read (kd_container_kind)
    size_t status_at_ = 0;                      // the container status being read
    std::string_view cond_type_, cond_status_;  // node conditions: type and status come in any order

    PodDraft pod_;
    NodeDraft node_;
    NodeMetricDraft metric_;
    WorkloadDraft workload_draft_;
    PodDisruptionBudgetDraft pdb_;
    NamespaceDraft namespace_;
    PriorityClassDraft priority_class_;
    PersistentVolumeClaimDraft pvc_;
    SecretDraft secret_;
};

}  // namespace kd::core::decode
