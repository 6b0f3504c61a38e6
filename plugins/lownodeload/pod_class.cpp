#include "pod_class.hpp"

#include <limits>

namespace kd::plugins::lownodeload {

KoordQoS koord_qos(const kd::Pod& pod) {
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

PriorityClass priority_class(const kd::Pod& pod) {
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

int priority_class_rank(PriorityClass c) {
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

int koord_qos_rank(KoordQoS q) {
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

int32_t cost_annotation(const kd::Pod& pod, std::string_view key) {
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

}  // namespace kd::plugins::lownodeload
