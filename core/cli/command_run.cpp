// `kdesched run`: the descheduler as a cluster daemon.
#include "cli/commands.hpp"
#include "daemon/daemon.hpp"
#include "error.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

#include <iostream>

namespace kd::cli {

namespace {

// %j: the message as a JSON string's contents (quotes, backslashes and control bytes escaped), so
// that --log-format json prints one valid JSON object per line.
class JsonMessageFlag : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
        static const char* hex = "0123456789abcdef";
        for (char c : std::string_view(msg.payload.data(), msg.payload.size())) {
            switch (c) {
                case '"':
                    dest.append(std::string_view("\\\""));
                    break;
                case '\\':
                    dest.append(std::string_view("\\\\"));
                    break;
                case '\n':
                    dest.append(std::string_view("\\n"));
                    break;
                case '\t':
                    dest.append(std::string_view("\\t"));
                    break;
                default:
                    if (static_cast<unsigned char>(c) < 0x20) {
                        char u[6] = {'\\', 'u', '0', '0', hex[(c >> 4) & 0xf], hex[c & 0xf]};
                        dest.append(std::string_view(u, 6));
                    } else {
                        dest.push_back(c);
                    }
            }
        }
    }
    std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<JsonMessageFlag>(); }
};

}  // namespace

void set_log_format(const std::string& format) {
    if (format != "json") return;
    auto f = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
    f->add_flag<JsonMessageFlag>('j').set_pattern(R"({"ts":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","msg":"%j"})");
    spdlog::set_formatter(std::move(f));
}

int run_daemon(const CommonOptions& opts, const RunOptions& run) {
    core::daemon::block_stop_signals();  // before any thread (cpprest's pool, reflectors) starts
    try {
        core::DeschedulerConfiguration cfg = load_config(run.config);
        core::PluginCatalog catalog = load_plugins(opts);
        std::unique_ptr<core::kube::ApiClient> client = connect(run.cluster, cfg);
        return core::daemon::run_daemon(cfg, catalog, *client);
    } catch (const core::Error& e) {
        std::cerr << e.what() << "\n";
        return kInvalidInput;
    }
}

}  // namespace kd::cli
