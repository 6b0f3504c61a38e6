// Koordinator's view of a pod (its apis/extension): priority class and QoS, the cost annotations,
// and the pod order both LowNodeLoad (loadaware) and the migration arbitrator sort by.
#pragma once

#include <kdesched/view.hpp>

#include <cstdint>
#include <limits>
#include <string_view>

namespace kd::koord {

inline constexpr std::string_view kPriorityClassLabel = "koordinator.sh/priority-class";
inline constexpr std::string_view kQoSClassLabel = "koordinator.sh/qosClass";
inline constexpr std::string_view kPodDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost";
inline constexpr std::string_view kEvictionCostAnnotation = "scheduling.koordinator.sh/eviction-cost";

// Koordinator priority class.
enum class PriorityClass : uint8_t { none, prod, mid, batch, free };
// Koordinator QoS class.
enum class KoordQoS : uint8_t { none, lse, lsr, ls, be, system };

// Label koordinator.sh/qosClass when valid, else from the Kubernetes QoS class
// (Guaranteed → LSR, Burstable → LS, BestEffort → BE).
inline KoordQoS koord_qos(const kd::Pod& pod) {
    if (auto label = pod.labels().get(kQoSClassLabel)) {
        const std::string_view v = *label;
        if (v == "LSE") return KoordQoS::lse;
        if (v == "LSR") return KoordQoS::lsr;
        if (v == "LS") return KoordQoS::ls;
        if (v == "BE") return KoordQoS::be;
        if (v == "SYSTEM") return KoordQoS::system;
        // An unknown value falls back to the Kubernetes QoS, as GetPodQoSClassWithDefault does.
    }
    switch (pod.qos_class()) {
        case KD_QOS_GUARANTEED:
            return KoordQoS::lsr;
        case KD_QOS_BURSTABLE:
            return KoordQoS::ls;
        case KD_QOS_BEST_EFFORT:
            return KoordQoS::be;
    }
    return KoordQoS::none;
}

// Label koordinator.sh/priority-class (an unknown value reads as none); without the label, from
// spec.priority ranges; when none, from the QoS (SYSTEM/LSE/LSR/LS → prod, BE → batch).
// So an unlabeled Burstable pod without priority is prod, an unlabeled BestEffort pod is batch.
inline PriorityClass priority_class(const kd::Pod& pod) {
    PriorityClass c = PriorityClass::none;
    if (auto label = pod.labels().get(kPriorityClassLabel)) {
        const std::string_view v = *label;
        if (v == "koord-prod")
            c = PriorityClass::prod;
        else if (v == "koord-mid")
            c = PriorityClass::mid;
        else if (v == "koord-batch")
            c = PriorityClass::batch;
        else if (v == "koord-free")
            c = PriorityClass::free;
    } else if (auto p = pod.priority()) {
        if (*p >= 9000 && *p <= 9999)
            c = PriorityClass::prod;
        else if (*p >= 7000 && *p <= 7999)
            c = PriorityClass::mid;
        else if (*p >= 5000 && *p <= 5999)
            c = PriorityClass::batch;
        else if (*p >= 3000 && *p <= 3999)
            c = PriorityClass::free;
    }
    if (c != PriorityClass::none) return c;
    switch (koord_qos(pod)) {
        case KoordQoS::system:
        case KoordQoS::lse:
        case KoordQoS::lsr:
        case KoordQoS::ls:
            return PriorityClass::prod;
        case KoordQoS::be:
            return PriorityClass::batch;
        case KoordQoS::none:
            break;
    }
    return PriorityClass::none;
}

// Sort ranks (loadaware's pod order): free 1 < batch 2 < mid 3 < prod 4 < none 5.
inline int priority_class_rank(PriorityClass c) {
    switch (c) {
        case PriorityClass::free:
            return 1;
        case PriorityClass::batch:
            return 2;
        case PriorityClass::mid:
            return 3;
        case PriorityClass::prod:
            return 4;
        case PriorityClass::none:
            break;
    }
    return 5;
}

// BE 1 < LS 2 < LSR 3 < LSE = SYSTEM 4 < none 5.
inline int koord_qos_rank(KoordQoS q) {
    switch (q) {
        case KoordQoS::be:
            return 1;
        case KoordQoS::ls:
            return 2;
        case KoordQoS::lsr:
            return 3;
        case KoordQoS::lse:
        case KoordQoS::system:
            return 4;
        case KoordQoS::none:
            break;
    }
    return 5;
}

// An int32 cost annotation as Kubernetes reads pod-deletion-cost: no leading '+', no leading zero
// (except "0"); absent or invalid → 0.
inline int32_t cost_annotation(const kd::Pod& pod, std::string_view key) {
    auto value = pod.annotations().get(key);
    if (!value || value->empty()) return 0;
    std::string_view s = *value;
    // Kubernetes validFirstDigit: "-…", "0" alone, or a non-zero digit first.
    char first = s[0];
    if (!(first == '-' || (first == '0' && s == "0") || (first >= '1' && first <= '9'))) return 0;
    // strconv.ParseInt(s, 10, 32).
    bool neg = first == '-';
    if (neg) s.remove_prefix(1);
    if (s.empty()) return 0;
    int64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return 0;
        v = v * 10 + (c - '0');
        if (v > static_cast<int64_t>(std::numeric_limits<int32_t>::max()) + 1) return 0;
    }
    if (neg) v = -v;
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) return 0;
    return static_cast<int32_t>(v);
}

// The keys of the (loadaware) pod order without the usage step, computed once per pod.
struct PodRank {
    int class_rank = 5;
    int32_t priority = 0;
    int k8s_qos = 0;
    int koord_qos_rank = 5;
    int32_t deletion_cost = 0;
    int32_t eviction_cost = 0;
    int64_t creation_ms = 0;
};

inline PodRank pod_rank(const kd::Pod& pod) {
    return {priority_class_rank(priority_class(pod)),
            pod.priority().value_or(0),
            static_cast<int>(pod.qos_class()),
            koord_qos_rank(koord_qos(pod)),
            cost_annotation(pod, kPodDeletionCostAnnotation),
            cost_annotation(pod, kEvictionCostAnnotation),
            pod.creation_ms()};
}

// The pod order minus its usage step (what the arbitrator sorts by): <0 when `a` goes first, >0
// when `b` does.
inline int compare_without_usage(const PodRank& a, const PodRank& b) {
    auto asc = [](auto x, auto y) { return x < y ? -1 : y < x ? 1 : 0; };
    if (int c = asc(a.class_rank, b.class_rank)) return c;
    if (int c = asc(a.priority, b.priority)) return c;
    if (int c = asc(a.k8s_qos, b.k8s_qos)) return c;
    if (int c = asc(a.koord_qos_rank, b.koord_qos_rank)) return c;
    if (int c = asc(a.deletion_cost, b.deletion_cost)) return c;
    if (int c = asc(a.eviction_cost, b.eviction_cost)) return c;
    return asc(b.creation_ms, a.creation_ms);  // newer first
}

}  // namespace kd::koord
