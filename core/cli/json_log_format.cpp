#include "cli/json_log_format.hpp"

#include "text/json_writer.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

#include <cctype>
#include <ctime>
#include <iostream>
#include <set>

namespace kd::cli {

namespace {

bool key_char(char c, bool first) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
           (!first && (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-'));
}

// `text` as key=value pairs separated by single spaces, to its end; false if it is not that.
bool parse_pairs(std::string_view text, std::vector<std::pair<std::string, std::string>>& out) {
    out.clear();
    size_t i = 0;
    while (i < text.size()) {
        size_t k = i;
        while (k < text.size() && key_char(text[k], k == i)) ++k;
        if (k == i || k >= text.size() || text[k] != '=') return false;
        std::string key(text.substr(i, k - i));
        std::string value;
        size_t v = k + 1;
        if (v < text.size() && text[v] == '"') {
            ++v;
            bool closed = false;
            for (; v < text.size(); ++v) {
                if (text[v] == '\\' && v + 1 < text.size()) {
                    value += text[++v];
                } else if (text[v] == '"') {
                    closed = true;
                    ++v;
                    break;
                } else {
                    value += text[v];
                }
            }
            if (!closed) return false;
        } else {
            while (v < text.size() && text[v] != ' ') value += text[v++];
        }
        out.emplace_back(std::move(key), std::move(value));
        if (v == text.size()) return true;
        if (text[v] != ' ') return false;
        i = v + 1;
    }
    return !out.empty();
}

class JsonLogFormatter : public spdlog::formatter {
public:
    void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
        // The time in UTC with microseconds, as klog's JSON logger and log collectors expect.
        auto since_epoch = msg.time.time_since_epoch();
        auto micros = std::chrono::duration_cast<std::chrono::microseconds>(since_epoch).count() % 1000000;
        std::time_t seconds = std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count();
        std::tm utc{};
        gmtime_r(&seconds, &utc);
        char ts[40];
        size_t n = std::strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &utc);
        std::snprintf(ts + n, sizeof ts - n, ".%06lldZ", static_cast<long long>(micros));
        LogParts parts = split_log_message(std::string_view(msg.payload.data(), msg.payload.size()));
        const auto level = spdlog::level::to_string_view(msg.level);
        core::json::TextWriter w;
        w.StartObject();
        core::json::field(w, "ts", std::string_view(ts));
        core::json::field(w, "level", std::string_view(level.data(), level.size()));
        core::json::field(w, "msg", parts.msg);
        if (!parts.profile.empty()) core::json::field(w, "profile", parts.profile);
        if (!parts.plugin.empty()) core::json::field(w, "plugin", parts.plugin);
        for (const auto& [k, v] : parts.fields) core::json::field(w, k, v);
        w.EndObject();
        std::string line = w.text();
        dest.append(line.data(), line.data() + line.size());
        dest.push_back('\n');
    }
    std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonLogFormatter>(); }
};

}  // namespace

bool asks_json_logs(const std::vector<std::string>& args) {
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--log-format=json") return true;
        if (args[i] == "--log-format" && i + 1 < args.size() && args[i + 1] == "json") return true;
    }
    return false;
}

namespace {
bool g_json_logs = false;
}  // namespace

void use_json_log_format() {
    spdlog::set_formatter(std::make_unique<JsonLogFormatter>());
    g_json_logs = true;
}

void report_error(std::string_view message) {
    if (g_json_logs)
        spdlog::error("{}", message);
    else
        std::cerr << message << "\n";
}

LogParts split_log_message(std::string_view message) {
    LogParts out;
    // RunObserver::on_plugin_log's "[profile/plugin] " prefix.
    if (message.size() > 2 && message[0] == '[') {
        size_t close = message.find("] ");
        size_t slash = message.find('/');
        if (close != std::string_view::npos && slash != std::string_view::npos && slash < close) {
            out.profile = std::string(message.substr(1, slash - 1));
            out.plugin = std::string(message.substr(slash + 1, close - slash - 1));
            message.remove_prefix(close + 2);
        }
    }
    // The first place from which the rest is all key=value pairs whose keys are not ours.
    static const std::set<std::string, std::less<>> reserved{"ts", "level", "msg", "profile", "plugin"};
    std::vector<std::pair<std::string, std::string>> pairs;
    for (size_t at = message.find(' '); at != std::string_view::npos; at = message.find(' ', at + 1)) {
        if (!parse_pairs(message.substr(at + 1), pairs)) continue;
        bool clash = false;
        std::set<std::string, std::less<>> seen;
        for (const auto& [k, v] : pairs) clash = clash || reserved.count(k) || !seen.insert(k).second;
        if (clash) continue;
        out.msg = std::string(message.substr(0, at));
        out.fields = std::move(pairs);
        return out;
    }
    out.msg = std::string(message);
    return out;
}

}  // namespace kd::cli
