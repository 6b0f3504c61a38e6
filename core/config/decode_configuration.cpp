#include "config/decode_configuration.hpp"

#include "config/bind_address.hpp"
#include "config/build_profiles.hpp"
#include "config/decode_policy.hpp"
#include "config/leader_election_checks.hpp"
#include "config/wire.hpp"

namespace kd::core {

namespace {

constexpr const char* kApiVersion = "descheduler/v1alpha2";
constexpr const char* kKind = "DeschedulerConfiguration";

std::string string_member(const rapidjson::Value& doc, const char* key, bool& present) {
    auto it = doc.FindMember(key);
    present = it != doc.MemberEnd();
    if (!present || !it->value.IsString()) return "";
    return {it->value.GetString(), it->value.GetStringLength()};
}

// apiVersion and kind first: when they are wrong, the rest of the file is something else and
// field errors about it would only be noise.
bool check_type_meta(const rapidjson::Value& doc, Reporter& report) {
    if (!doc.IsObject()) {
        report.at("", std::string("the file must hold a DeschedulerConfiguration mapping, got ") +
                          kd::detail::json_type_name(doc));
        return false;
    }
    bool ok = true;
    bool has_api = false, has_kind = false;
    std::string api = string_member(doc, "apiVersion", has_api);
    std::string kind = string_member(doc, "kind", has_kind);
    if (!has_api) {
        report.at("apiVersion", "required: this file must start with \"apiVersion: descheduler/v1alpha2\"");
        ok = false;
    } else if (api != kApiVersion) {
        report.at("apiVersion", "unsupported apiVersion " +
                                    (api.empty() ? std::string("(not a string)") : "\"" + api + "\"") +
                                    "; kdesched reads " + kApiVersion);
        ok = false;
    }
    if (!has_kind) {
        report.at("kind", "required: set \"kind: DeschedulerConfiguration\"");
        ok = false;
    } else if (kind != kKind) {
        report.at("kind",
                  "must be \"DeschedulerConfiguration\" (Koordinator's) or \"DeschedulerPolicy\" "
                  "(kubernetes-sigs/descheduler's), got " +
                      (kind.empty() ? std::string("something else") : "\"" + kind + "\""));
        ok = false;
    }
    return ok;
}

template <class T>
void set_if_nonzero(const std::optional<T>& in, T& out) {
    if (in && *in != T{}) out = *in;
}

// component-base defaults (zero and empty mean "unset"), then the checks client-go's leader
// elector would fail on at start-up anyway.
LeaderElection leader_election(const std::optional<wire::LeaderElection>& in, Reporter& report) {
    LeaderElection out;
    if (in) {
        if (in->leaderElect) out.leaderElect = *in->leaderElect;
        set_if_nonzero(in->leaseDuration, out.leaseDuration);
        set_if_nonzero(in->renewDeadline, out.renewDeadline);
        set_if_nonzero(in->retryPeriod, out.retryPeriod);
        set_if_nonzero(in->resourceLock, out.resourceLock);
        set_if_nonzero(in->resourceName, out.resourceName);
        set_if_nonzero(in->resourceNamespace, out.resourceNamespace);
    }
    if (report.has_problem_under("leaderElection")) return out;
    for (const auto& [field, message] : leader_election_problems(out))
        report.at(kd::field_path("leaderElection", field), message);
    return out;
}

ClientConnection client_connection(const std::optional<wire::ClientConnection>& in, Reporter& report) {
    ClientConnection out;
    if (!in) return out;
    if (in->kubeconfig) out.kubeconfig = *in->kubeconfig;
    set_if_nonzero(in->acceptContentTypes, out.acceptContentTypes);
    set_if_nonzero(in->contentType, out.contentType);
    set_if_nonzero(in->qps, out.qps);
    set_if_nonzero(in->burst, out.burst);
    if (out.burst < 0) report.at("clientConnection.burst", "must not be negative");
    return out;
}

std::string bind_address(const std::optional<std::string>& in, const char* field, Reporter& report) {
    BindAddress a = normalise_bind_address(in);
    if (!a.problem.empty() && !report.has_problem_under(field))
        report.at(field, "invalid address \"" + in.value_or("") + "\": " + a.problem);
    return a.value;
}

// A DeschedulerPolicy (kubernetes-sigs/descheduler's format) of the one version it still reads.
bool is_policy(const rapidjson::Value& doc, Reporter& report) {
    if (!doc.IsObject()) return false;
    bool has_kind = false, has_api = false;
    if (string_member(doc, "kind", has_kind) != kPolicyKind) return false;
    std::string api = string_member(doc, "apiVersion", has_api);
    report.set_subject(kPolicyKind);
    if (api != kApiVersion)
        report.at("apiVersion", "unsupported apiVersion " + (has_api ? "\"" + api + "\"" : std::string("(none)")) +
                                    " for a DeschedulerPolicy; kdesched reads descheduler/v1alpha2 (a v1alpha1 "
                                    "policy of strategies must be rewritten as profiles of plugins first, as "
                                    "kubernetes-sigs/descheduler itself requires since v0.31)");
    return true;
}

}  // namespace

DeschedulerConfiguration decode_configuration(const rapidjson::Value& doc, Reporter& report) {
    if (is_policy(doc, report)) return report.empty() ? decode_policy(doc, report) : DeschedulerConfiguration{};
    DeschedulerConfiguration out;
    out.sourceFile = report.origin();
    if (!check_type_meta(doc, report)) return out;

    wire::Configuration in;
    kd::Errors errs;
    kd::decode_value(doc, in, "", errs);
    report.add(errs);

    out.leaderElection = leader_election(in.leaderElection, report);
    out.clientConnection = client_connection(in.clientConnection, report);
    out.enableProfiling = in.enableProfiling.value_or(true);
    // Contention profiling only defaults to on when profiling itself is on.
    out.enableContentionProfiling = in.enableContentionProfiling.value_or(out.enableProfiling);
    out.healthzBindAddress = bind_address(in.healthzBindAddress, "healthzBindAddress", report);
    out.metricsBindAddress = bind_address(in.metricsBindAddress, "metricsBindAddress", report);
    if (in.deschedulingInterval) {
        out.deschedulingInterval = *in.deschedulingInterval;
        if (out.deschedulingInterval.value.count() < 0)
            report.at("deschedulingInterval", "must not be negative (0 runs one descheduling cycle and stops)");
    }
    out.dryRun = in.dryRun.value_or(false);
    if (in.nodeSelector) {
        kd::Errors sel;
        kd::validate_value(*in.nodeSelector, sel, "nodeSelector");
        report.add(sel);
        out.nodeSelector = in.nodeSelector;
    }
    out.maxNoOfPodsToEvictPerNode = in.maxNoOfPodsToEvictPerNode;
    out.maxNoOfPodsToEvictPerNamespace = in.maxNoOfPodsToEvictPerNamespace;
    out.maxNoOfPodsToEvictTotal = in.maxNoOfPodsToEvictTotal;
    out.profiles = build_profiles(in.profiles, report);
    return out;
}

}  // namespace kd::core
