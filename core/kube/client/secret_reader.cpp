#include "kube/client/secret_reader.hpp"

#include "kube/client/resources.hpp"

#include <kdesched/decode.hpp>

#include <rapidjson/document.h>

namespace kd::core::kube {

std::string SecretReader::read(std::string_view ns, std::string_view name, std::map<std::string, std::string>& data) {
    const std::string key = std::string(ns) + "/" + std::string(name);
    auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mutex_);
        if (auto it = cache_.find(key); it != cache_.end() && now - it->second.at < keep_) {
            data = it->second.data;
            return "";
        }
    }
    const ApiResource& secrets = resource_of(ObjectKind::secret);
    ApiResult r = client_.call({"GET", secrets.object_path(ns, name), {{"Accept", "application/json"}}, "", ""});
    if (r.code == 404) return "Secret " + key + " does not exist";
    if (r.code == 403)
        return "kdesched may not read Secret " + key + " (" + r.status.message + "; grant its ServiceAccount " +
               secrets.rbac_rule("get") + " for that name)";
    if (!r.ok()) return "reading Secret " + key + ": " + r.describe();
    rapidjson::Document d;
    if (!kd::json_too_deep(r.body)) d.Parse(r.body.data(), r.body.size());  // else null: refused below
    if (d.HasParseError() || !d.IsObject()) return "reading Secret " + key + ": the answer is not a JSON object";
    std::map<std::string, std::string> out;
    if (auto it = d.FindMember("data"); it != d.MemberEnd() && it->value.IsObject())
        for (const auto& m : it->value.GetObject())
            if (m.value.IsString()) out.emplace(m.name.GetString(), m.value.GetString());
    std::lock_guard lock(mutex_);
    cache_[key] = {now, out};
    data = std::move(out);
    return "";
}

}  // namespace kd::core::kube
