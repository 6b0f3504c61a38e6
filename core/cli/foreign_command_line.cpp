#include "cli/foreign_command_line.hpp"

#include "cli/secure_serving_flags.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>

namespace kd::cli {

namespace {

// Flags of `kdesched run` under another name, or the same (their value follows).
struct Renamed {
    std::string_view from, to;
};
constexpr std::array<Renamed, 16> kValued = {{
    {"config", "--config"},  // koord-descheduler
    {"policy-config-file", "--config"},
    {"kubeconfig", "--kubeconfig"},
    {"descheduling-interval", "--descheduling-interval"},
    {"leader-elect-lease-duration", "--leader-elect-lease-duration"},
    {"leader-elect-renew-deadline", "--leader-elect-renew-deadline"},
    {"leader-elect-retry-period", "--leader-elect-retry-period"},
    {"leader-elect-resource-lock", "--leader-elect-resource-lock"},
    {"leader-elect-resource-name", "--leader-elect-resource-name"},
    {"leader-elect-resource-namespace", "--leader-elect-resource-namespace"},
    // The secure port (secure_serving_flags.hpp).
    {"secure-port", "--secure-port"},
    {"bind-address", "--bind-address"},
    {"cert-dir", "--cert-dir"},
    {"tls-cert-file", "--tls-cert-file"},
    {"tls-private-key-file", "--tls-private-key-file"},
    {"tls-min-version", "--tls-min-version"},
}};

// klog's and component-base's flags (logging, feature gates, tracing, client tuning, TLS cipher
// suites and SNI certificates) that kdesched accepts and ignores with a warning: its logging and
// features are set otherwise, and its secure port offers OpenSSL's default ciphers for the
// --tls-min-version given, one certificate. Those taking a value.
constexpr std::array<std::string_view, 19> kIgnoredValued = {
    "log-dir",
    "log-file",
    "log-file-max-size",
    "log-flush-frequency",
    "stderrthreshold",
    "vmodule",
    "feature-gates",
    "tls-cipher-suites",
    "tls-sni-cert-key",
    "kube-api-qps",
    "kube-api-burst",
    "kube-api-content-type",
    "master",
    "otel-collector-endpoint",
    "otel-transport-cert",
    "otel-service-name",
    "otel-sample-rate",
    "http2-max-streams-per-connection",
    "log-text-info-buffer-size",
};
// …and those that are switches.
constexpr std::array<std::string_view, 12> kIgnoredSwitches = {
    "logtostderr",         "alsologtostderr",
    "skip-headers",        "skip-log-headers",
    "add-dir-header",      "one-output",
    "disable-metrics",     "permit-address-sharing",
    "permit-port-sharing", "otel-fallback-no-op-on-error",
    "profiling",           "contention-profiling",
};

template <size_t N>
bool listed(const std::array<std::string_view, N>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

bool is_help(std::string_view a) {
    return a == "-h" || a == "--help" || a == "--help-all" || a == "--version";
}

// klog's verbosity: 4 and above is kdesched's debug level (per-pod decisions), below it info.
bool log_level_of(std::string_view v, std::string& level) {
    int n = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || end != v.data() + v.size() || n < 0) return false;
    level = n >= 4 ? "debug" : "info";
    return true;
}

}  // namespace

std::optional<ForeignCommandLine> foreign_command_line(const std::vector<std::string>& argv) {
    if (argv.size() < 2 || argv[1].empty() || argv[1][0] != '-' || is_help(argv[1])) return std::nullopt;
    ForeignCommandLine out;
    // Both upstreams serve HTTPS on 10258 unless told otherwise (a later --secure-port wins).
    out.args = {argv[0], "run", "--secure-port", std::to_string(kUpstreamSecurePort)};
    for (size_t i = 1; i < argv.size(); ++i) {
        std::string_view arg = argv[i];
        if (arg.empty() || arg[0] != '-') {
            out.problem = "unexpected argument \"" + std::string(arg) +
                          "\": koord-descheduler's and kubernetes-sigs/descheduler's command lines take flags only";
            return out;
        }
        std::string_view name = arg.substr(arg.rfind('-', 1) + 1);  // one dash or two (klog's -v=4)
        std::optional<std::string> value;
        if (auto eq = name.find('='); eq != std::string_view::npos) {
            value = std::string(name.substr(eq + 1));
            name = name.substr(0, eq);
        }
        // The value of a flag that takes one: after `=`, or the next argument.
        auto take_value = [&]() -> bool {
            if (value) return true;
            if (i + 1 >= argv.size()) {
                out.problem = "flag --" + std::string(name) + " needs a value";
                return false;
            }
            value = argv[++i];
            return true;
        };
        auto renamed = std::find_if(kValued.begin(), kValued.end(), [&](const Renamed& r) { return r.from == name; });
        if (renamed != kValued.end()) {
            if (!take_value()) return out;
            out.args.push_back(std::string(renamed->to));
            out.args.push_back(*value);
        } else if (name == "v") {
            std::string level;
            if (!take_value()) return out;
            if (!log_level_of(*value, level)) {
                out.problem = "flag --v: invalid verbosity \"" + *value + "\": use a number such as --v=2";
                return out;
            }
            out.args.insert(out.args.end(), {"--log-level", level});
        } else if (name == "logging-format") {
            // component-base's log format: text, or json as `--log-format json` writes it.
            if (!take_value()) return out;
            if (*value != "text" && *value != "json") {
                out.problem = "flag --logging-format: \"" + *value + "\" is not text or json";
                return out;
            }
            out.args.insert(out.args.end(), {"--log-format", *value});
        } else if (name == "dry-run" || name == "leader-elect") {
            // Switches: `--dry-run`, `--dry-run=false`, as pflag reads them.
            if (value && *value != "true" && *value != "false") {
                out.problem = "flag --" + std::string(name) + ": \"" + *value + "\" is not true or false";
                return out;
            }
            if (name == "leader-elect")
                out.args.push_back("--leader-elect=" + value.value_or("true"));
            else if (value.value_or("true") == "true")
                out.args.push_back("--dry-run");
        } else if (listed(kIgnoredValued, name)) {
            if (!take_value()) return out;
            out.warnings.push_back(
                "ignoring --" + std::string(name) + "=" + *value +
                ": kdesched sets this otherwise (docs/operations.md §4, \"Switching by image alone\")");
        } else if (listed(kIgnoredSwitches, name)) {
            out.warnings.push_back(
                "ignoring --" + std::string(name) +
                ": kdesched sets this otherwise (docs/operations.md §4, \"Switching by image alone\")");
        } else {
            out.problem = "unknown flag --" + std::string(name) +
                          ": kdesched answers to koord-descheduler's and kubernetes-sigs/descheduler's flags "
                          "(--config, --policy-config-file, --kubeconfig, --descheduling-interval, --dry-run, "
                          "--leader-elect*, --v and the klog/component-base ones it ignores); see `kdesched run "
                          "--help` for its own";
            return out;
        }
    }
    return out;
}

}  // namespace kd::cli
