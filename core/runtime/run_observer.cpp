#include "runtime/host_context.hpp"

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

// A back end that only evicts refuses the other writes, saying so.
namespace {
std::string unsupported(std::string_view what) {
    return std::string(what) + " is not supported by this cluster back end";
}
}  // namespace

std::string ClusterWriter::create_object(std::string_view, std::string_view) {
    return unsupported("create");
}
std::string ClusterWriter::update_object(std::string_view, std::string_view) {
    return unsupported("update");
}
std::string ClusterWriter::delete_object(std::string_view, std::string_view, std::string_view, std::string_view) {
    return unsupported("delete");
}
std::string ClusterWriter::delete_pod(const kd_pod&, std::string_view, std::string_view) {
    return unsupported("pod deletion");
}
std::string ClusterWriter::annotate_pod(const kd_pod&, std::string_view, std::string_view, std::string_view) {
    return unsupported("pod annotation");
}
std::string ClusterWriter::read_secret(std::string_view, std::string_view, std::map<std::string, std::string>&) {
    return unsupported("reading Secrets");
}
void ClusterWriter::record_event(std::string_view, std::string_view, std::string_view, std::string_view,
                                 std::string_view, std::string_view, std::string_view, std::string_view) {}

}  // namespace kd::core
