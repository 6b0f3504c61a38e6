#include "kube/request_attributes.hpp"

#include <vector>

namespace kd::core::kube {

namespace {

std::vector<std::string_view> split_path(std::string_view path) {
    std::vector<std::string_view> parts;
    while (!path.empty()) {
        auto slash = path.find('/');
        std::string_view part = path.substr(0, slash);
        if (!part.empty()) parts.push_back(part);
        if (slash == std::string_view::npos) break;
        path.remove_prefix(slash + 1);
    }
    return parts;
}

// `watch=true` or `watch=1` in the query makes a GET a watch (as the API server reads it).
bool is_watch(std::string_view query) {
    size_t at = 0;
    while (at <= query.size()) {
        size_t amp = query.find('&', at);
        std::string_view param = query.substr(at, amp == std::string_view::npos ? std::string_view::npos : amp - at);
        if (param == "watch=true" || param == "watch=1") return true;
        if (amp == std::string_view::npos) break;
        at = amp + 1;
    }
    return false;
}

}  // namespace

std::string RequestAttributes::rule() const {
    return rbac_rule(verb, resource, group);
}

std::optional<RequestAttributes> request_attributes(std::string_view method, std::string_view target) {
    std::string_view path = target.substr(0, target.find('?'));
    std::string_view query = path.size() < target.size() ? target.substr(path.size() + 1) : std::string_view();
    std::vector<std::string_view> parts = split_path(path);
    RequestAttributes a;
    size_t i = 0;
    if (parts.size() >= 3 && parts[0] == "api") {  // /api/v1/…
        i = 2;
    } else if (parts.size() >= 4 && parts[0] == "apis") {  // /apis/group/version/…
        a.group = std::string(parts[1]);
        i = 3;
    } else {
        return std::nullopt;  // discovery and other non-resource paths
    }
    // /namespaces/{ns}/{resource}… ; /namespaces/{ns} alone is the Namespace object itself.
    if (parts[i] == "namespaces" && parts.size() > i + 2 && parts[i + 2] != "status" && parts[i + 2] != "finalize") {
        a.ns = std::string(parts[i + 1]);
        i += 2;
    }
    a.resource = std::string(parts[i]);
    if (parts.size() > i + 1) a.name = std::string(parts[i + 1]);
    if (parts.size() > i + 2) a.resource += "/" + std::string(parts[i + 2]);
    if (method == "GET" || method == "HEAD")
        a.verb = is_watch(query) ? "watch" : a.name.empty() ? "list" : "get";
    else if (method == "POST")
        a.verb = "create";
    else if (method == "PUT")
        a.verb = "update";
    else if (method == "PATCH")
        a.verb = "patch";
    else if (method == "DELETE")
        a.verb = a.name.empty() ? "deletecollection" : "delete";
    else
        a.verb = method;
    return a;
}

const ApiVerb* declared_verb(const RequestAttributes& a) {
    for (const auto& v : api_verbs())
        if (v.verb == a.verb && v.group == a.group && v.resource == a.resource) return &v;
    return nullptr;
}

}  // namespace kd::core::kube
