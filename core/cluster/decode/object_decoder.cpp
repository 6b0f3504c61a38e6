#include "cluster/decode/object_decoder.hpp"

#include "cluster/rfc3339.hpp"
#include "cluster/schema/object_schema.hpp"

#include <kdesched/abi.h>

#include <kdesched/quantity.hpp>

#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>

namespace kd::core::decode {

namespace {

using schema::Slot;

const char* expected(Slot s) {
    if (schema::is_object(s)) return "an object";
    if (schema::is_list(s)) return "a list";
    if (schema::is_string(s)) return "a string";
    if (schema::is_boolean(s)) return "true or false";
    if (schema::is_int32(s)) return "an integer";
    if (s == Slot::quantity) return "a quantity (a string such as \"500m\", or a number)";
    return "an integer or a percentage string";
}

constexpr std::string_view kLastApplied = "kubectl.kubernetes.io/last-applied-configuration";
// Longer annotation values (serialized objects, certificates) are never what a policy reads;
// keeping them would only cost memory in the model.
constexpr size_t kMaxAnnotationValue = 4096;

// Appended rather than `"\"" + std::string(v)`, which GCC 12 at -O3 flags with a bogus -Wrestrict.
std::string quoted(std::string_view v) {
    std::string out;
    out.reserve(v.size() + 2);
    out += '"';
    out += v;
    out += '"';
    return out;
}

}  // namespace

void ObjectDecoder::begin(Kind kind, std::string_view kind_name, std::string_view api_version,
                          const rapidjson::InsituStringStream* stream, size_t base) {
    kind_ = kind;
    kind_name_ = kind_name;
    api_version_ = api_version;
    stream_ = stream;
    base_ = base;
    finished_ = false;
    problem_.reset();
    stack_.clear();
    skip_ = 0;
    literal_ = 0;
    kv_ = nullptr;
    res_ = nullptr;
    containers_ = nullptr;
    each_count_ = 0;
    reqs_ = nullptr;
    selector_ = nullptr;
    switch (kind) {
        case Kind::pod:
            pod_.clear();
            meta_ = &pod_.meta;
            next_ = Slot::pod_root;
            break;
        case Kind::node:
            node_.clear();
            meta_ = &node_.meta;
            next_ = Slot::node_root;
            break;
        case Kind::node_metric:
            metric_.clear();
            meta_ = &metric_.meta;
            next_ = Slot::nm_root;
            break;
        case Kind::workload: {
            workload_draft_.clear();
            workload_draft_.kind = kind_name;
            meta_ = &workload_draft_.meta;
            selector_ = &workload_draft_.selector;
            // The six workload kinds read different fields (a Job's parallelism, a DaemonSet's
            // desired count): each has its root.
            const schema::RootRow* root = schema::root_of(kind_name);
            next_ = root ? root->root : Slot::rs_root;
            break;
        }
        case Kind::pdb:
            pdb_.clear();
            meta_ = &pdb_.meta;
            selector_ = &pdb_.selector;
            next_ = Slot::pdb_root;
            break;
        case Kind::namespace_:
            namespace_.clear();
            meta_ = &namespace_.meta;
            next_ = Slot::ns_root;
            break;
        case Kind::priority_class:
            priority_class_.clear();
            meta_ = &priority_class_.meta;
            next_ = Slot::pc_root;
            break;
        case Kind::pvc:
            pvc_.clear();
            meta_ = &pvc_.meta;
            next_ = Slot::pvc_root;
            break;
        case Kind::secret:
            secret_.clear();
            meta_ = &secret_.meta;
            next_ = Slot::secret_root;
            break;
        default:
            // Not a drafted kind: the caller's mistake. Decode nothing, but keep the meta readable.
            namespace_.clear();
            meta_ = &namespace_.meta;
            next_ = Slot::skip;
            break;
    }
}

void ObjectDecoder::deliver(ObjectSink& sink) const {
    switch (kind_) {
        case Kind::pod:
            return sink.on_pod(pod_);
        case Kind::node:
            return sink.on_node(node_);
        case Kind::node_metric:
            return sink.on_node_metric(metric_);
        case Kind::workload:
            return sink.on_workload(workload_draft_);
        case Kind::pdb:
            return sink.on_pdb(pdb_);
        case Kind::namespace_:
            return sink.on_namespace(namespace_);
        case Kind::priority_class:
            return sink.on_priority_class(priority_class_);
        case Kind::pvc:
            return sink.on_pvc(pvc_);
        case Kind::secret:
            return sink.on_secret(secret_);
        default:
            return;
    }
}

// ---------------------------------------------------------------------------------------------
// Keys: which slot the next value goes to, by context.

namespace {

// A context's keys matched with the lengths and texts of its rows known at compile time: a
// length check, then a memcmp the compiler turns into a few loads, row after row (a hash table
// of (context, key) measured 7% slower overall: its variable-length memcmp costs more than these
// short chains).
template <size_t C, size_t I>
inline bool match_row(std::string_view k, Slot& out, const schema::Binding*& bind) {
    static constexpr schema::FieldRow row = schema::kContexts[C].rows[I];
    static constexpr size_t n = row.json.size();
    if (k.size() != n || std::memcmp(k.data(), row.json.data(), n) != 0) return false;
    out = row.slot;
    if constexpr (row.bind.bound()) bind = &schema::kContexts[C].rows[I].bind;
    return true;
}

template <size_t C, size_t... I>
Slot match_context(std::string_view k, const schema::Binding*& bind, std::index_sequence<I...>) {
    if constexpr (sizeof...(I) == 0) {
        return schema::kContexts[C].any_key;
    } else {
        Slot out = Slot::skip;
        (void)(match_row<C, I>(k, out, bind) || ...);
        return out;
    }
}

// Sets its second argument only for a bound row.
using KeyMatcher = Slot (*)(std::string_view, const schema::Binding*&);

template <size_t C>
Slot match_keys(std::string_view k, const schema::Binding*& bind) {
    return match_context<C>(k, bind, std::make_index_sequence<schema::kContexts[C].rows.size()>{});
}

template <size_t... C>
constexpr std::array<KeyMatcher, schema::kSlotCount> key_matchers(std::index_sequence<C...>) {
    std::array<KeyMatcher, schema::kSlotCount> out{};
    ((out[static_cast<size_t>(schema::kContexts[C].slot)] = &match_keys<C>), ...);
    return out;
}

// The slot of a key in each context; null for a slot that opens none.
constexpr std::array<KeyMatcher, schema::kSlotCount> kKeyMatchers =
    key_matchers(std::make_index_sequence<std::size(schema::kContexts)>{});

// The same for the rows of each Shape (a bound list's elements, an object inlined into one).
template <size_t S, size_t I>
inline bool match_shape_row(std::string_view k, Slot& out, const schema::Binding*& bind) {
    static constexpr schema::FieldRow row = schema::kShapes.at[S]->rows[I];
    static constexpr size_t n = row.json.size();
    if (k.size() != n || std::memcmp(k.data(), row.json.data(), n) != 0) return false;
    out = row.slot;
    bind = &schema::kShapes.at[S]->rows[I].bind;
    return true;
}
template <size_t S, size_t... I>
Slot match_shape(std::string_view k, const schema::Binding*& bind, std::index_sequence<I...>) {
    Slot out = Slot::skip;
    (void)(match_shape_row<S, I>(k, out, bind) || ...);
    return out;
}
template <size_t S>
Slot match_shape_keys(std::string_view k, const schema::Binding*& bind) {
    return match_shape<S>(k, bind, std::make_index_sequence<schema::kShapes.at[S]->rows.size()>{});
}
template <size_t... S>
constexpr std::array<KeyMatcher, sizeof...(S)> shape_matchers(std::index_sequence<S...>) {
    return {&match_shape_keys<S>...};
}
constexpr auto kShapeMatchers = shape_matchers(std::make_index_sequence<schema::kShapes.n>{});

// A Shape's index in kShapes (and kShapeMatchers): found among the few there are by address.
uint8_t shape_number(const schema::Shape* shape) {
    for (size_t i = 0; i < schema::kShapes.n; ++i)
        if (schema::kShapes.at[i] == shape) return static_cast<uint8_t>(i);
    return 0xff;
}

}  // namespace

ObjectDecoder::Slot ObjectDecoder::key_slot(Slot ctx, std::string_view k) {
    KeyMatcher match = kKeyMatchers[static_cast<size_t>(ctx)];
    return match ? match(k, bind_) : shape_key_slot(k);
}

// Out of line: key_slot stays as small as it was for the contexts' keys (and so do the reader's
// inlining decisions around it, measurably).
ObjectDecoder::Slot ObjectDecoder::shape_key_slot(std::string_view k) {
    // A bound list's element, or an object inlined into one: the rows of its Shape.
    const uint8_t shape = stack_.back().shape;
    return shape < kShapeMatchers.size() ? kShapeMatchers[shape](k, bind_) : Slot::skip;
}

// The struct a bound value's member is in.
inline std::byte* ObjectDecoder::bound_base(const schema::Place& p) {
    if (p.base == schema::Base::pod) return reinterpret_cast<std::byte*>(&pod_.bound);
    if (p.base == schema::Base::pod_spec) return reinterpret_cast<std::byte*>(&pod_.bound_spec);
    return stack_.back().base;  // the element being read
}

// ---------------------------------------------------------------------------------------------
// Events.

ObjectDecoder::Slot ObjectDecoder::take_slot() {
    if (stack_.empty()) return next_;
    Frame& f = stack_.back();
    if (f.list) {
        ++f.count;
        return f.elem;
    }
    return next_;
}

void ObjectDecoder::push(Slot ctx, Slot elem, bool list) {
    stack_.push_back(Frame{.ctx = ctx, .elem = elem, .list = list});
}

bool ObjectDecoder::Key(const char* s, SizeType n, bool) {
    if (skip_) return true;
    Frame& f = stack_.back();
    f.key = std::string_view(s, n);
    next_ = key_slot(f.ctx, f.key);
    return true;
}

bool ObjectDecoder::StartObject() {
    if (skip_) {
        ++skip_;
        return true;
    }
    return start_object(take_slot());
}

bool ObjectDecoder::start_object(Slot slot) {
    switch (slot) {
        case Slot::skip:
            skip_ = 1;
            return true;
        case Slot::labels:
            kv_ = &meta_->labels;
            push(Slot::string_map);
            return true;
        case Slot::node_selector:
            kv_ = &pod_.node_selector;
            push(Slot::string_map);
            return true;
        case Slot::secret_data:
            kv_ = &secret_.data;
            push(Slot::string_map);
            return true;
        case Slot::owner_ref:
            meta_->owners.emplace_back();
            break;
        case Slot::node_required:
            pod_.has_required_affinity = true;
            break;
        case Slot::term:
            pod_.affinity_terms.emplace_back();
            break;
        case Slot::node_req:
            reqs_->emplace_back();
            break;
        case Slot::container:
        case Slot::init_container:
            containers_->emplace_back();
            break;
        case Slot::requests:
            res_ = &containers_->back().requests;
            push(Slot::res_list);
            return true;
        case Slot::limits:
            res_ = &containers_->back().limits;
            push(Slot::res_list);
            return true;
        case Slot::overhead:
            res_ = &pod_.overhead;
            push(Slot::res_list);
            return true;
        case Slot::allocatable:
            res_ = &node_.allocatable;
            push(Slot::res_list);
            return true;
        case Slot::nm_resources:  // res_ was pointed by the enclosing usage
            push(Slot::res_list);
            return true;
        case Slot::nm_system_usage:
            res_ = &metric_.system_usage;
            push(Slot::nm_usage);
            return true;
        case Slot::nm_pod_usage:
            res_ = &metric_.pods.back().usage;
            push(Slot::nm_usage);
            return true;
        case Slot::vol_local:
            pod_.local_storage = true;
            skip_ = 1;
            return true;
        case Slot::vol_pvc:  // its claimName is read (kPvcVolumeSource)
            pod_.pvc = true;
            break;
        case Slot::vol_ephemeral:
            pod_.ephemeral_volume = true;
            skip_ = 1;
            return true;
        case Slot::pod_condition:
            pod_.conditions.emplace_back();
            break;
        case Slot::container_status: {
            // Kept in kd_pod's order (app, init, ephemeral) whatever order the lists come in.
            auto& all = pod_.container_statuses;
            status_at_ = all.size();
            while (status_at_ > 0 && all[status_at_ - 1].kind > status_kind_) --status_at_;
            all.emplace(all.begin() + static_cast<std::ptrdiff_t>(status_at_))->kind = status_kind_;
            break;
        }
        case Slot::state_waiting:
            pod_.container_statuses[status_at_].state = KD_CONTAINER_STATE_WAITING;
            break;
        case Slot::state_running:  // its contents do not matter
            pod_.container_statuses[status_at_].state = KD_CONTAINER_STATE_RUNNING;
            skip_ = 1;
            return true;
        case Slot::state_terminated:
            pod_.container_statuses[status_at_].state = KD_CONTAINER_STATE_TERMINATED;
            break;
        case Slot::taint:
            node_.taints.emplace_back();
            break;
        case Slot::node_condition:
            cond_type_ = cond_status_ = {};
            break;
        case Slot::nm_node_metric:
            metric_.has_node_metric = true;
            break;
        case Slot::nm_pod:
            metric_.pods.emplace_back();
            break;
        case Slot::selector:
            selector_->emplace();
            break;
        case Slot::rc_selector:  // a ReplicationController's selector is a plain label map
            selector_->emplace();
            push(Slot::selector_labels);
            return true;
        case Slot::selector_req:
            (*selector_)->matchExpressions.emplace_back();
            break;
        case Slot::bound_element:
        case Slot::bound_object:
            return open_bound_element(slot);
        case Slot::bound_kvs:
            open_bound(slot, false);
            return true;
        case Slot::pod_root:
        case Slot::node_root:
        case Slot::nm_root:
        case Slot::rs_root:
        case Slot::deploy_root:
        case Slot::sts_root:
        case Slot::rc_root:
        case Slot::job_root:
        case Slot::ds_root:
        case Slot::pdb_root:
        case Slot::ns_root:
        case Slot::pc_root:
        case Slot::pvc_root:
        case Slot::pvc_spec:
        case Slot::secret_root:
        case Slot::meta:
        case Slot::annotations:
        case Slot::pod_spec:
        case Slot::affinity:
        case Slot::node_affinity:
        case Slot::pod_affinity:
        case Slot::pod_anti_affinity:
        case Slot::resources:
        case Slot::volume:
        case Slot::pod_status:
        case Slot::container_state:
        case Slot::node_spec:
        case Slot::node_status:
        case Slot::nm_status:
        case Slot::replicated_spec:
        case Slot::rc_spec:
        case Slot::job_spec:
        case Slot::ds_spec:
        case Slot::rs_status:
        case Slot::deploy_status:
        case Slot::sts_status:
        case Slot::job_status:
        case Slot::ds_status:
        case Slot::selector_labels:
        case Slot::pdb_spec:
        case Slot::pdb_status:
            break;
        default:
            return wrong_type(slot, "an object", true);
    }
    push(slot);
    return true;
}

bool ObjectDecoder::EndObject(SizeType) {
    if (skip_) {
        --skip_;
        return true;
    }
    if (stack_.back().ctx == Slot::node_condition && cond_type_ == "Ready") node_.ready_status = cond_status_;
    if (stack_.back().ctx == Slot::bound_kvs) close_bound();
    stack_.pop_back();
    if (stack_.empty()) finished_ = true;
    return true;
}

bool ObjectDecoder::StartArray() {
    if (skip_) {
        ++skip_;
        return true;
    }
    return start_array(take_slot());
}

bool ObjectDecoder::start_array(Slot slot) {
    const Slot elem = schema::element_of(slot);
    if (slot == Slot::skip) {
        skip_ = 1;
        return true;
    }
    if (elem == Slot::none) return wrong_type(slot, "a list", true);
    if (slot == Slot::bound_list || slot == Slot::bound_strs) {
        open_bound(slot, true);
        return true;
    }
    // Where the elements go, for lists whose elements' context is shared.
    switch (slot) {
        case Slot::match_expressions:
            reqs_ = &pod_.affinity_terms.back().expressions;
            break;
        case Slot::match_fields:
            reqs_ = &pod_.affinity_terms.back().fields;
            break;
        case Slot::containers:
            containers_ = &pod_.containers;
            break;
        case Slot::init_containers:
            containers_ = &pod_.init_containers;
            break;
        case Slot::container_statuses:
            status_kind_ = KD_CONTAINER_APP;
            break;
        case Slot::init_container_statuses:
            status_kind_ = KD_CONTAINER_INIT;
            break;
        case Slot::ephemeral_container_statuses:
            status_kind_ = KD_CONTAINER_EPHEMERAL;
            break;
        default:
            break;
    }
    push(slot, elem, true);
    return true;
}

bool ObjectDecoder::EndArray(SizeType) {
    if (skip_) {
        --skip_;
        return true;
    }
    if (stack_.back().ctx == Slot::bound_list || stack_.back().ctx == Slot::bound_strs) close_bound();
    stack_.pop_back();
    return true;
}

bool ObjectDecoder::String(const char* s, SizeType n, bool) {
    if (skip_) return true;
    return string_value(take_slot(), std::string_view(s, n));
}

bool ObjectDecoder::string_value(Slot slot, std::string_view v) {
    switch (slot) {
        case Slot::skip:
            return true;
        case Slot::kv_value:
            kv_->emplace_back(stack_.back().key, v);
            return true;
        case Slot::annotation_value: {
            std::string_view key = stack_.back().key;
            if (key != kLastApplied && v.size() <= kMaxAnnotationValue) meta_->annotations.emplace_back(key, v);
            return true;
        }
        case Slot::quantity:
            quantity(stack_.back().key, v);
            return true;
        case Slot::name:
            meta_->name = v;
            return true;
        case Slot::namespace_:
            meta_->ns = v;
            return true;
        case Slot::uid:
            meta_->uid = v;
            return true;
        case Slot::api_version:
            api_version_ = v;
            return true;
        case Slot::kind:
            // Only an item of a typed list (PodList, …) is decoded before its own kind is seen.
            if (v != kind_name_) fail("kind " + quoted(v) + " in a list of " + std::string(kind_name_) + " objects");
            return true;
        case Slot::bound_string:
            store(kd_str{v.data(), v.size()});
            return true;
        case Slot::bound_kv_value: {
            std::string_view key = stack_.back().key;
            append_bound(kd_key_value{kd_str{key.data(), key.size()}, kd_str{v.data(), v.size()}});
            return true;
        }
        case Slot::bound_str_item:
            append_bound(kd_str{v.data(), v.size()});
            return true;
        case Slot::bound_str_each:
            append_each(v);
            return true;
        case Slot::created:
        case Slot::deleted:
        case Slot::nm_update_time:
        case Slot::cond_transition:
        case Slot::bound_time: {
            auto ms = parse_rfc3339_ms(v);
            if (!ms) {
                fail("invalid timestamp " + quoted(v), "use RFC 3339, e.g. \"2024-05-01T12:00:00Z\"");
                return true;
            }
            set_time(slot, *ms);
            return true;
        }
        case Slot::owner_api_version:
            meta_->owners.back().api_version = v;
            return true;
        case Slot::owner_kind:
            meta_->owners.back().kind = v;
            return true;
        case Slot::owner_name:
            meta_->owners.back().name = v;
            return true;
        case Slot::owner_uid:
            meta_->owners.back().uid = v;
            return true;
        case Slot::scheduler_name:
            pod_.scheduler_name = v;
            return true;
        case Slot::storage_class_name:
            pvc_.storage_class = v;
            return true;
        case Slot::req_key:
            reqs_->back().key = v;
            return true;
        case Slot::req_op:
            reqs_->back().op = v;
            return true;
        case Slot::req_value:
            reqs_->back().values.push_back(v);
            return true;
        case Slot::restart_policy:
            containers_->back().restart_always = v == "Always";
            return true;
        case Slot::phase:
            pod_.phase = v;
            return true;
        case Slot::qos_class:
            pod_.qos_class = v;
            return true;
        case Slot::cond_type:
            pod_.conditions.back().type = v;
            return true;
        case Slot::cond_status:
            pod_.conditions.back().status = v;
            return true;
        case Slot::cond_reason:
            pod_.conditions.back().reason = v;
            return true;
        case Slot::cond_message:
            pod_.conditions.back().message = v;
            return true;
        case Slot::cs_name:
            pod_.container_statuses[status_at_].name = v;
            return true;
        case Slot::waiting_reason:
        case Slot::terminated_reason:
            pod_.container_statuses[status_at_].reason = v;
            return true;
        case Slot::taint_key:
            node_.taints.back().key = v;
            return true;
        case Slot::taint_value:
            node_.taints.back().value = v;
            return true;
        case Slot::taint_effect:
            node_.taints.back().effect = v;
            return true;
        case Slot::node_cond_type:
            cond_type_ = v;
            return true;
        case Slot::node_cond_status:
            cond_status_ = v;
            return true;
        case Slot::nm_pod_ns:
            metric_.pods.back().ns = v;
            return true;
        case Slot::nm_pod_name:
            metric_.pods.back().name = v;
            return true;
        case Slot::selector_label_value:
            (*selector_)->matchLabels[std::string(stack_.back().key)] = std::string(v);
            return true;
        case Slot::selector_key:
            (*selector_)->matchExpressions.back().key = v;
            return true;
        case Slot::selector_op:
            (*selector_)->matchExpressions.back().operator_ = v;
            return true;
        case Slot::selector_value:
            (*selector_)->matchExpressions.back().values.emplace_back(v);
            return true;
        case Slot::min_available:
        case Slot::max_unavailable:
            pdb_bound(slot) = kd::IntOrString{true, 0, std::string(v)};
            return true;
        default:
            return wrong_type(slot, "a string");
    }
}

void ObjectDecoder::set_time(Slot slot, int64_t unix_ms) {
    if (slot == Slot::created) meta_->creation_ms = unix_ms;
    if (slot == Slot::deleted) meta_->deleting = true;
    if (slot == Slot::nm_update_time) metric_.update_ms = unix_ms;
    if (slot == Slot::cond_transition) pod_.conditions.back().transition_ms = unix_ms;
    if (slot == Slot::bound_time) store(unix_ms);
}

// Only pod rows are bound: the member is one of kd_pod's or kd_pod_spec's, and only a bound_*
// slot of T's type gets here, so the type check is the compiler's.
template <class T>
void ObjectDecoder::store(T v) {
    if (bind_->place.base != schema::Base::none) {
        std::memcpy(bound_base(bind_->place) + bind_->place.at, &v, sizeof v);
        return;
    }
    auto put = [&](auto& target) {
        using S = std::remove_reference_t<decltype(target)>;
        schema::with_member<S>(*bind_, [&](auto mp) {
            if constexpr (std::is_same_v<typename schema::member_traits<decltype(mp)>::type, T>) target.*mp = v;
        });
    };
    put(pod_.bound);
    put(pod_.bound_spec);
}

// ---------------------------------------------------------------------------------------------
// Bound lists (cluster/schema/object_schema.hpp): elements built in the draft's ListArena, their
// members stored at the offsets their rows give.

void ObjectDecoder::open_bound(Slot slot, bool list) {
    const schema::Place* p = &bind_->place;
    std::byte* base = bound_base(*p);
    push(slot, list ? schema::element_of(slot) : Slot{}, list);
    Frame& f = stack_.back();
    f.place = p;
    f.base = base;
    f.buf = pod_.lists.open();
}

bool ObjectDecoder::open_bound_element(Slot slot) {
    const schema::Place* p;
    std::byte* e;
    if (slot == Slot::bound_element) {
        const Frame& list = stack_.back();
        p = list.place;
        const uint32_t size = p->shape->size;
        e = pod_.lists.append(list.buf, size);
        std::memcpy(e, &size, sizeof size);  // struct_size, first in every element
    } else {  // an object inlined into the element being read: present, members the element's
        p = &bind_->place;
        e = stack_.back().base;
        e[p->at] = std::byte{1};
    }
    push(slot);
    stack_.back().place = p;
    stack_.back().base = e;
    stack_.back().shape = shape_number(p->shape);
    return true;
}

void ObjectDecoder::close_bound() {
    const Frame& f = stack_.back();
    const schema::Place& p = *f.place;
    const size_t size = p.type == schema::Field::list  ? p.shape->size
                        : p.type == schema::Field::kvs ? sizeof(kd_key_value)
                                                       : sizeof(kd_str);
    const void* items = pod_.lists.data(f.buf);
    const size_t count = pod_.lists.bytes(f.buf) / size;
    // kd_str_list and kd_key_value_list are {items, count} too.
    const uint32_t count_at = p.type == schema::Field::list ? p.count : p.at + offsetof(kd_str_list, count);
    std::memcpy(f.base + p.at, &items, sizeof items);
    std::memcpy(f.base + count_at, &count, sizeof count);
}

template <class T>
void ObjectDecoder::append_bound(const T& v) {
    std::memcpy(pod_.lists.append(stack_.back().buf, sizeof(T)), &v, sizeof v);
}

void ObjectDecoder::append_each(std::string_view v) {
    static_assert(schema::each_member_count() <= kMaxEachMembers,
                  "object_decoder.hpp: each_ holds too few KD_EACH members");
    const schema::Place& p = bind_->place;
    size_t i = 0;
    while (i < each_count_ && each_[i].first != p.at) ++i;
    if (i == each_count_) {
        each_[each_count_++] = {p.at, pod_.lists.open()};
    }
    const uint32_t buf = each_[i].second;
    const kd_str s{v.data(), v.size()};
    std::memcpy(pod_.lists.append(buf, sizeof s), &s, sizeof s);
    // The buffer may have moved: its list is set again after every value.
    const kd_str_list list{static_cast<const kd_str*>(pod_.lists.data(buf)), pod_.lists.bytes(buf) / sizeof s};
    std::memcpy(bound_base(p) + p.at, &list, sizeof list);
}

bool ObjectDecoder::Timestamp(int64_t unix_ms) {
    if (skip_) return true;
    switch (Slot slot = take_slot()) {
        case Slot::skip:
            return true;
        case Slot::created:
        case Slot::deleted:
        case Slot::nm_update_time:
        case Slot::cond_transition:
        case Slot::bound_time:
            set_time(slot, unix_ms);
            return true;
        default:
            return wrong_type(slot, "a timestamp");
    }
}

bool ObjectDecoder::Null() {
    if (skip_) return true;
    // null is an absent field (Go leaves the zero value), except as a map value, where it is the
    // zero value itself.
    switch (Slot slot = take_slot()) {
        case Slot::kv_value:
        case Slot::annotation_value:
        case Slot::selector_label_value:
        case Slot::bound_kv_value:
            return string_value(slot, "");
        case Slot::quantity:
            res_->emplace_back(stack_.back().key, 0);
            return true;
        default:
            return true;
    }
}

bool ObjectDecoder::Bool(bool b) {
    if (skip_) return true;
    switch (Slot slot = take_slot()) {
        case Slot::skip:
            return true;
        case Slot::owner_controller:
            meta_->owners.back().controller = b;
            return true;
        case Slot::unschedulable:
            node_.unschedulable = b;
            return true;
        case Slot::bound_boolean:
            store(static_cast<uint8_t>(b));
            return true;
        default:
            literal_ = b ? 4 : 5;  // the reader is past `true`/`false` already
            return wrong_type(slot, "a boolean");
    }
}

std::optional<kd::IntOrString>& ObjectDecoder::pdb_bound(Slot slot) {
    return slot == Slot::min_available ? pdb_.min_available : pdb_.max_unavailable;
}

bool ObjectDecoder::set_int32(Slot slot, int64_t v) {
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
        fail("out of range for a 32-bit integer: " + std::to_string(v));
        return true;
    }
    auto i = static_cast<int32_t>(v);
    switch (slot) {
        case Slot::priority:
            pod_.priority = i;
            break;
        case Slot::replicas:
            workload_draft_.replicas = i;
            break;
        case Slot::ready_replicas:
            workload_draft_.ready_replicas = i;
            break;
        case Slot::disruptions_allowed:
            pdb_.disruptions_allowed = i;
            break;
        case Slot::priority_value:
            priority_class_.value = i;
            break;
        case Slot::restart_count:
            pod_.container_statuses[status_at_].restart_count = i;
            break;
        case Slot::exit_code:
            pod_.container_statuses[status_at_].exit_code = i;
            break;
        case Slot::bound_int32:
            store(i);
            break;
        case Slot::min_available:
        case Slot::max_unavailable:
            pdb_bound(slot) = kd::IntOrString{false, i, {}};
            break;
        default:
            break;
    }
    return true;
}

bool ObjectDecoder::integer(int64_t v) {
    if (skip_) return true;
    switch (Slot slot = take_slot()) {
        case Slot::skip:
            return true;
        case Slot::min_available:
        case Slot::max_unavailable:
            return set_int32(slot, v);
        case Slot::quantity: {
            std::string_view key = stack_.back().key;
            if (v > std::numeric_limits<int64_t>::max() / 1000 || v < -(std::numeric_limits<int64_t>::max() / 1000))
                fail("invalid quantity " + std::to_string(v), quantity_hint());
            else
                res_->emplace_back(key, v * 1000);
            return true;
        }
        default:
            if (schema::is_int32(slot)) return set_int32(slot, v);
            return wrong_type(slot, "a number");
    }
}

bool ObjectDecoder::Uint64(uint64_t u) {
    if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return integer(static_cast<int64_t>(u));
    if (skip_) return true;
    Slot slot = take_slot();
    if (slot == Slot::skip) return true;
    if (slot == Slot::quantity)
        fail("invalid quantity " + std::to_string(u), quantity_hint());
    else if (schema::is_int32(slot) || slot == Slot::min_available || slot == Slot::max_unavailable)
        fail("out of range for a 32-bit integer: " + std::to_string(u));
    else
        return wrong_type(slot, "a number");
    return true;
}

bool ObjectDecoder::Double(double d) {
    if (skip_) return true;
    Slot slot = take_slot();
    if (slot == Slot::skip) return true;
    // Shortest text that reads back as d: the digits the file had, for any number a person or
    // kubectl would write, so a quantity stays exact ("0.1" is 100m, not 100.000000000000005m).
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
    std::string_view text(buf, ec == std::errc() ? static_cast<size_t>(end - buf) : 0);
    switch (slot) {
        case Slot::quantity:
            quantity(stack_.back().key, text);
            return true;
        default:
            if (!schema::is_int32(slot) && slot != Slot::min_available && slot != Slot::max_unavailable)
                return wrong_type(slot, "a number");
            // YAML 1e3 or 3.0 is still a whole number; 1.5 is not.
            if (std::trunc(d) != d || std::abs(d) > 1e15) {
                fail("must be an integer, got " + std::string(text));
                return true;
            }
            return set_int32(slot, static_cast<int64_t>(d));
    }
}

bool ObjectDecoder::RawNumber(const char* s, SizeType n, bool) {
    // Only with kParseNumbersAsStringsFlag, which the readers do not use; kept exact anyway.
    std::string_view text(s, n);
    int64_t i = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
    if (ec == std::errc() && end == text.data() + text.size()) return integer(i);
    double d = 0;
    std::from_chars(text.data(), text.data() + text.size(), d);
    return Double(d);
}

void ObjectDecoder::quantity(std::string_view key, std::string_view text) {
    auto milli = kd::parse_quantity_milli(text);
    if (!milli)
        fail("invalid quantity " + quoted(text), quantity_hint());
    else
        res_->emplace_back(key, *milli);
}

// ---------------------------------------------------------------------------------------------
// Problems.

bool ObjectDecoder::wrong_type(Slot slot, const char* got, bool container) {
    if (container) literal_ = 1;  // the reader is past the opening bracket
    fail(std::string("must be ") + expected(slot) + ", got " + got);
    if (container) skip_ = 1;  // skipped whole: the events of its contents follow
    return true;
}

void ObjectDecoder::fail(std::string message, std::string hint) {
    if (problem_) return;
    // At a value's event the reader's stream is at the first byte of a string or number
    // (RapidJSON reads them through a copy of the stream that it writes back after the event),
    // and just past `{`, `[`, true, false or null.
    size_t offset = FieldProblem::kNoOffset;
    if (stream_) offset = base_ + static_cast<size_t>(stream_->src_ - stream_->head_) - literal_;
    problem_ = FieldProblem{current_path(), std::move(message), std::move(hint), offset};
}

std::string ObjectDecoder::current_path() const {
    std::string out;
    for (const Frame& f : stack_) {
        if (f.list) {
            out += '[';
            out += std::to_string(f.count == 0 ? 0 : f.count - 1);
            out += ']';
        } else if (!f.key.empty()) {
            if (!out.empty()) out += '.';
            out += f.key;
        }
    }
    return out;
}

}  // namespace kd::core::decode
