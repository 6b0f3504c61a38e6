#include "kube/client/request_attributes.hpp"

#include <vector>

namespace kd::core::kube {

namespace {

// The non-empty pieces of `text` between `separator`s.
std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    while (!text.empty()) {
        auto at = text.find(separator);
        std::string_view part = text.substr(0, at);
        if (!part.empty()) parts.push_back(part);
        if (at == std::string_view::npos) break;
        text.remove_prefix(at + 1);
    }
    return parts;
}

// `watch=true` or `watch=1` in the query makes a GET a watch (as the API server reads it).
bool is_watch(std::string_view query) {
    for (std::string_view param : split(query, '&'))
        if (param == "watch=true" || param == "watch=1") return true;
    return false;
}

}  // namespace

std::string RequestAttributes::rule() const {
    return rbac_rule(verb, resource, group);
}

std::optional<RequestAttributes> request_attributes(std::string_view method, std::string_view target) {
    std::string_view path = target.substr(0, target.find('?'));
    std::string_view query = path.size() < target.size() ? target.substr(path.size() + 1) : std::string_view();
    std::vector<std::string_view> parts = split(path, '/');
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
    if (parts.size() > i + 2) {  // appended: `"/" + std::string(…)` draws a bogus -Wrestrict from GCC 12 at -O3
        a.resource += '/';
        a.resource += parts[i + 2];
    }
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
