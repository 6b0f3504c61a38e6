// GET /debug/model: the digest of the daemon's model (cluster/model_digest.hpp), to compare with a
// fresh read of the server (`kdesched snapshot --digest`). The model belongs to the control
// thread, so the HTTP thread asks and waits; the control thread answers between hooks (it looks
// at least twice a second). A hook that runs longer than the wait gets the request a 503.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace kd::core::daemon {

class ModelProbe {
public:
    // HTTP thread: the answer, or nullopt when the control thread did not answer within `wait`.
    std::optional<std::string> ask(std::chrono::milliseconds wait);
    // Control thread, between hooks: answers a pending question with `compute()`.
    void serve(const std::function<std::string()>& compute);

private:
    std::mutex mutex_;
    std::condition_variable answered_cv_;
    uint64_t asked_ = 0, answered_ = 0;
    std::string answer_;
};

}  // namespace kd::core::daemon
