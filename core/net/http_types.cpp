#include "net/http_types.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <mutex>

namespace kd::core::net {

struct CancelToken::State {
    std::atomic<bool> cancelled{false};
    std::mutex mutex;            // guards wake
    std::function<void()> wake;  // the live Waker's
};

CancelToken::CancelToken() : state(std::make_shared<State>()) {}
void CancelToken::cancel() {
    state->cancelled = true;
    std::lock_guard lock(state->mutex);
    if (state->wake) state->wake();
}
bool CancelToken::cancelled() const {
    return state->cancelled;
}

CancelToken::Waker::Waker(std::shared_ptr<State> state, std::function<void()> wake) : state_(std::move(state)) {
    std::lock_guard lock(state_->mutex);
    state_->wake = std::move(wake);
}
CancelToken::Waker::~Waker() {
    std::lock_guard lock(state_->mutex);
    state_->wake = nullptr;
}
std::unique_ptr<CancelToken::Waker> CancelToken::wake_with(std::function<void()> wake) const {
    return std::make_unique<Waker>(state, std::move(wake));
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
