#include "fault_injector.hpp"

#include <functional>
#include <utility>
#include <vector>

namespace kd::soak {
namespace {

constexpr const char* kKoord = "/apis/scheduling.koordinator.sh/v1alpha1/";

std::string status(int code, const char* reason, const char* message, int retry_after = 0) {
    return std::string(R"({"type":"status","code":)") + std::to_string(code) + R"(,"reason":")" + reason +
           R"(","message":")" + message + "\"" +
           (retry_after ? R"(,"retry_after":)" + std::to_string(retry_after) : std::string()) + "}";
}

}  // namespace

std::string FaultInjector::inject_one() {
    using Inject = std::function<void()>;
    auto drop = [this] { server_.control("POST", "drop_watches", "{}"); };
    std::vector<std::pair<std::string, Inject>> faults = {
        {"watch dropped", drop},
        {"watch stalled",
         [&] {
             server_.faults(R"([{"watch":true,"times":3,"action":{"type":"stall","seconds":4}}])");
             drop();
         }},
        {"410 on watch",
         [&] {
             server_.faults(R"([{"watch":true,"times":2,"action":{"type":"error_event","code":410}}])");
             drop();
         }},
        {"410 on list",
         [&] {
             server_.faults(
                 R"([{"watch":true,"path":"/api/v1/pods","times":1,"action":{"type":"error_event","code":410}},
                                {"method":"GET","watch":false,"path":"/api/v1/pods","times":1,"action":)" +
                 status(410, "Expired", "The provided continue parameter is too old") + "}]");
             drop();
         }},
        {"429 on writes",
         [&] {
             server_.faults(R"([{"method":"POST","path":"/api/v1/namespaces/","times":2,"action":)" +
                            status(429, "TooManyRequests", "injected by the soak", 1) +
                            R"(},{"method":"POST","path":")" + kKoord + R"(","times":2,"action":)" +
                            status(429, "TooManyRequests", "injected by the soak", 1) + "}]");
         }},
        {"500 on writes",
         [&] {
             server_.faults(R"([{"method":"PATCH","path":")" + std::string(kKoord) + R"(","times":3,"action":)" +
                            status(500, "InternalError", "injected by the soak") +
                            R"(},{"method":"POST","path":"/api/v1/namespaces/","times":1,"action":)" +
                            status(500, "InternalError", "injected by the soak") + "}]");
         }},
        {"slow lists after a restart",
         [&] {
             server_.faults(
                 R"([{"method":"GET","watch":false,"times":6,"action":{"type":"slow","chunk_bytes":4096,"delay_ms":40}}])");
             server_.control("POST", "restart", "{}");
         }},
        {"server restart", [&] { server_.control("POST", "restart", "{}"); }},
        {"conflicts on updates",
         [&] {
             const char* conflict = "Operation cannot be fulfilled: the object has been modified";
             server_.faults(R"([{"method":"PATCH","path":")" + std::string(kKoord) +
                            R"(podmigrationjobs/","times":2,"action":)" + status(409, "Conflict", conflict) +
                            R"(},{"method":"PATCH","path":")" + kKoord + R"(reservations/","times":1,"action":)" +
                            status(409, "Conflict", conflict) + "}]");
         }},
    };
    auto& [name, inject] = faults[dice_() % faults.size()];
    inject();
    ++injected_[name];
    return name;
}

void FaultInjector::clear() {
    server_.control("DELETE", "faults");
}

}  // namespace kd::soak
