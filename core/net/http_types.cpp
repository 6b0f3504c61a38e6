#include "net/http_types.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>

namespace kd::core::net {

struct CancelToken::State {
    std::atomic<bool> cancelled{false};
};

CancelToken::CancelToken() : state(std::make_shared<State>()) {}
void CancelToken::cancel() {
    state->cancelled = true;
}
bool CancelToken::cancelled() const {
    return state->cancelled;
}

std::string default_user_agent() {
    return std::string("kdesched/") + KDESCHED_VERSION;
}

std::string Response::header(std::string_view name) const {
    auto same = [&](const std::string& h) {
        return h.size() == name.size() && std::equal(h.begin(), h.end(), name.begin(), [](char a, char b) {
                   return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
               });
    };
    for (const auto& [k, v] : headers)
        if (same(k)) return v;
    return "";
}

}  // namespace kd::core::net
