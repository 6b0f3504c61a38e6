#include "daemon/lease_record.hpp"

#include <kdesched/decode.hpp>

#include <rapidjson/document.h>

namespace kd::core::daemon {

LeaseRecord parse_lease(const std::string& body) {
    LeaseRecord l;
    if (kd::json_too_deep(body)) return l;
    rapidjson::Document d;
    d.Parse(body.data(), body.size());
    if (d.HasParseError() || !d.IsObject()) return l;
    auto str = [](const rapidjson::Value& v, const char* k) {
        auto it = v.FindMember(k);
        return it != v.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString()) : std::string();
    };
    auto num = [](const rapidjson::Value& v, const char* k) {
        auto it = v.FindMember(k);
        return it != v.MemberEnd() && it->value.IsInt64() ? it->value.GetInt64() : int64_t{0};
    };
    if (auto m = d.FindMember("metadata"); m != d.MemberEnd() && m->value.IsObject())
        l.resource_version = str(m->value, "resourceVersion");
    if (auto s = d.FindMember("spec"); s != d.MemberEnd() && s->value.IsObject()) {
        l.holder = str(s->value, "holderIdentity");
        l.acquire_time = str(s->value, "acquireTime");
        l.renew_time = str(s->value, "renewTime");
        l.duration_s = num(s->value, "leaseDurationSeconds");
        l.transitions = num(s->value, "leaseTransitions");
    }
    return l;
}

std::string lease_path(std::string_view ns, std::string_view name) {
    return "/apis/coordination.k8s.io/v1/namespaces/" + std::string(ns) + "/leases/" + std::string(name);
}

std::string host_of_identity(std::string_view identity) {
    return std::string(identity.substr(0, identity.rfind('_')));
}

}  // namespace kd::core::daemon
