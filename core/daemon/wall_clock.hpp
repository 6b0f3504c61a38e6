// The wall clock of `kdesched run`, in Unix milliseconds (the simulator keeps a virtual one).
#pragma once

#include <chrono>
#include <cstdint>

namespace kd::core::daemon {

inline int64_t unix_ms_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace kd::core::daemon
