#include "runtime/run_observer.hpp"

#include <spdlog/spdlog.h>

namespace kd::core {

void RunObserver::on_plugin_log(std::string_view profile, std::string_view plugin, int32_t level,
                                std::string_view message) {
    auto lvl = level <= KD_LOG_DEBUG  ? spdlog::level::debug
               : level == KD_LOG_INFO ? spdlog::level::info
               : level == KD_LOG_WARN ? spdlog::level::warn
                                      : spdlog::level::err;
    spdlog::log(lvl, "[{}/{}] {}", profile, plugin, message);
}

}  // namespace kd::core
