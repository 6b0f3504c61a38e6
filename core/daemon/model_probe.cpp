#include "daemon/model_probe.hpp"

namespace kd::core::daemon {

std::optional<std::string> ModelProbe::ask(std::chrono::milliseconds wait) {
    std::unique_lock lock(mutex_);
    uint64_t ticket = ++asked_;
    if (!answered_cv_.wait_for(lock, wait, [&] { return answered_ >= ticket; })) return std::nullopt;
    return answer_;
}

void ModelProbe::serve(const std::function<std::string()>& compute) {
    uint64_t asked;
    {
        std::lock_guard lock(mutex_);
        if (answered_ >= asked_) return;
        asked = asked_;
    }
    std::string answer = compute();  // without the lock: asking goes on meanwhile
    {
        std::lock_guard lock(mutex_);
        answer_ = std::move(answer);
        answered_ = asked;
    }
    answered_cv_.notify_all();
}

}  // namespace kd::core::daemon
