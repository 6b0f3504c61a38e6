// deploy/'s manifests agree with the code they run: the Deployment reads the profile the
// ConfigMap holds, probes the paths and port the daemon serves, runs locked down; and, where
// kubectl is installed, kustomize renders the base and every overlay with the profile's bytes.
#include "config/configuration.hpp"
#include "manifests.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace kd::core;
using kd::test::base_deployment;
using kd::test::deploy_dir;
using kd::test::find;
using kd::test::kustomize;
using kd::test::read_text;
using kd::test::rendered;

namespace {

YAML::Node container_of(const YAML::Node& d) {
    return d["spec"]["template"]["spec"]["containers"][0];
}

std::vector<std::string> args_of(const YAML::Node& container) {
    return container["args"].as<std::vector<std::string>>();
}

// The value after `flag` in the container's args ("" when absent).
std::string arg_value(const std::vector<std::string>& args, const std::string& flag) {
    for (size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == flag) return args[i + 1];
    return "";
}

std::string port_of(const std::string& bind_address) {
    return bind_address.substr(bind_address.rfind(':') + 1);
}

}  // namespace

TEST_CASE("manifests: the Deployment reads the ConfigMap's profile, where it is mounted, under its key") {
    YAML::Node d = base_deployment();
    std::string config = arg_value(args_of(container_of(d)), "--config");
    YAML::Node mount = container_of(d)["volumeMounts"][0];
    REQUIRE(config.rfind(mount["mountPath"].as<std::string>() + "/", 0) == 0);
    std::string key = config.substr(mount["mountPath"].as<std::string>().size() + 1);
    YAML::Node volume = d["spec"]["template"]["spec"]["volumes"][0];
    CHECK(volume["name"].as<std::string>() == mount["name"].as<std::string>());
    YAML::Node kustomization = YAML::LoadFile((deploy_dir() / "base/kustomization.yaml").string());
    YAML::Node generator = kustomization["configMapGenerator"][0];
    CHECK(volume["configMap"]["name"].as<std::string>() == generator["name"].as<std::string>());
    CHECK(generator["files"][0].as<std::string>() == key);
    CHECK(args_of(container_of(d)).front() == "run");
}

TEST_CASE("manifests: probes and ports are the daemon's /healthz, /readyz and /metrics on the profile's port") {
    DeschedulerConfiguration config = load_configuration((deploy_dir() / "base/default.yaml").string());
    YAML::Node c = container_of(base_deployment());
    REQUIRE(c["ports"].size() == 1);  // healthz and metrics share one listener when the addresses match
    CHECK(config.healthzBindAddress == config.metricsBindAddress);
    CHECK(c["ports"][0]["containerPort"].as<std::string>() == port_of(config.healthzBindAddress));
    std::string port_name = c["ports"][0]["name"].as<std::string>();
    CHECK(c["livenessProbe"]["httpGet"]["path"].as<std::string>() == "/healthz");
    CHECK(c["livenessProbe"]["httpGet"]["port"].as<std::string>() == port_name);
    CHECK(c["readinessProbe"]["httpGet"]["path"].as<std::string>() == "/readyz");
    CHECK(c["readinessProbe"]["httpGet"]["port"].as<std::string>() == port_name);
    YAML::Node service = find(deploy_dir() / "base/service.yaml", "Service", "kdesched-metrics");
    CHECK(service["spec"]["ports"][0]["targetPort"].as<std::string>() == port_name);
}

TEST_CASE("manifests: two replicas under leader election, locked down, with sized resources") {
    DeschedulerConfiguration config = load_configuration((deploy_dir() / "base/default.yaml").string());
    YAML::Node d = base_deployment();
    CHECK(d["spec"]["replicas"].as<int>() == 2);
    CHECK(config.leaderElection.leaderElect);
    YAML::Node pod = d["spec"]["template"]["spec"];
    // Not system-cluster-critical: outside kube-system some clusters (GKE) refuse it without a
    // ResourceQuota; overlays/critical-priority adds both.
    CHECK_FALSE(pod["priorityClassName"]);
    CHECK(pod["securityContext"]["runAsNonRoot"].as<bool>());
    CHECK(pod["securityContext"]["runAsUser"].as<int>() != 0);
    CHECK(pod["securityContext"]["seccompProfile"]["type"].as<std::string>() == "RuntimeDefault");
    YAML::Node c = container_of(d);
    CHECK(c["securityContext"]["readOnlyRootFilesystem"].as<bool>());
    CHECK_FALSE(c["securityContext"]["allowPrivilegeEscalation"].as<bool>());
    CHECK(c["securityContext"]["capabilities"]["drop"].as<std::vector<std::string>>() ==
          std::vector<std::string>{"ALL"});
    for (const char* kind : {"requests", "limits"})
        for (const char* res : {"cpu", "memory"}) {
            INFO(kind << "." << res);
            CHECK(c["resources"][kind][res].IsScalar());
        }
}

TEST_CASE("manifests: kustomize renders the base with the ConfigMap holding profiles/default.yaml byte for byte") {
    auto docs = kustomize(".");
    if (!docs) return;
    YAML::Node cm = rendered(*docs, "ConfigMap");
    CHECK(cm["data"]["default.yaml"].as<std::string>() ==
          read_text(deploy_dir().parent_path() / "profiles/default.yaml"));
    // The Deployment mounts the generated (hash-suffixed) ConfigMap.
    YAML::Node d = rendered(*docs, "Deployment");
    CHECK(d["spec"]["template"]["spec"]["volumes"][0]["configMap"]["name"].as<std::string>() ==
          cm["metadata"]["name"].as<std::string>());
    std::set<std::string> kinds;
    for (const auto& doc : *docs) kinds.insert(doc["kind"].as<std::string>());
    CHECK(kinds == std::set<std::string>{"Namespace", "ServiceAccount", "ClusterRole", "ClusterRoleBinding",
                                         "ConfigMap", "Deployment", "Service", "PodDisruptionBudget", "NetworkPolicy"});
}

TEST_CASE("manifests: the third-party plugin overlay puts the plugin's .so in an extra --plugin-dir and enables it") {
    auto docs = kustomize("overlays/third-party-plugin");
    if (!docs) return;
    YAML::Node pod = rendered(*docs, "Deployment")["spec"]["template"]["spec"];
    std::string dir = arg_value(args_of(pod["containers"][0]), "--plugin-dir");
    REQUIRE_FALSE(dir.empty());
    YAML::Node init = pod["initContainers"][0];
    CHECK(init["volumeMounts"][0]["mountPath"].as<std::string>() == dir);
    auto command = init["command"].as<std::vector<std::string>>();
    CHECK(command.back() == dir + "/");
    CHECK(command[command.size() - 2] == "/plugins/pod_age_limit.so");  // examples/pod-age-limit's library
    bool mounted = false;
    for (const auto& m : pod["containers"][0]["volumeMounts"])
        mounted = mounted || (m["mountPath"].as<std::string>() == dir && m["readOnly"].as<bool>());
    CHECK(mounted);
    // The ConfigMap is the overlay's profile, which enables the plugin.
    std::string profile = rendered(*docs, "ConfigMap")["data"]["default.yaml"].as<std::string>();
    DeschedulerConfiguration config = parse_configuration(profile, "overlays/third-party-plugin/profile.yaml");
    REQUIRE(config.profiles.size() == 1);
    CHECK_THAT(profile, Catch::Contains("- name: PodAgeLimit"));
}

TEST_CASE("manifests: the Pod Picker overlay renders the base plus its Secret reader") {
    auto docs = kustomize("overlays/pod-picker");
    if (!docs) return;
    int roles = 0;
    for (const auto& d : *docs) roles += d["kind"].as<std::string>() == "Role";
    CHECK(roles == 1);  // the Secrets' (the Lease's is a ClusterRole: base/rbac.yaml says why)
}
