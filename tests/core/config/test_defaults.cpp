// DeschedulerConfiguration v1alpha2: every top-level default, and how set values are taken over.
#include "support.hpp"

using namespace kd::core;
using kd::core::test::kHeader;
using kd::core::test::names;

namespace {

DeschedulerConfiguration parse(const std::string& body) {
    return parse_configuration(kHeader + body, "test.yaml");
}

}  // namespace

TEST_CASE("a configuration with only apiVersion and kind gets every default") {
    const std::string path = kd::core::test::kProfilesDir + "/valid/minimal.yaml";
    DeschedulerConfiguration cfg = load_configuration(path);
    CHECK(cfg.sourceFile == path);

    CHECK(cfg.leaderElection.leaderElect);
    CHECK(cfg.leaderElection.leaseDuration.value == std::chrono::seconds(15));
    CHECK(cfg.leaderElection.renewDeadline.value == std::chrono::seconds(10));
    CHECK(cfg.leaderElection.retryPeriod.value == std::chrono::seconds(2));
    CHECK(cfg.leaderElection.resourceLock == "leases");
    CHECK(cfg.leaderElection.resourceName == "koord-descheduler");
    CHECK(cfg.leaderElection.resourceNamespace == "koordinator-system");

    CHECK(cfg.clientConnection.kubeconfig.empty());
    CHECK(cfg.clientConnection.acceptContentTypes == "application/vnd.kubernetes.protobuf,application/json");
    CHECK(cfg.clientConnection.contentType == "application/vnd.kubernetes.protobuf");
    CHECK(cfg.clientConnection.qps == 50);
    CHECK(cfg.clientConnection.burst == 100);

    CHECK(cfg.enableProfiling);
    CHECK(cfg.enableContentionProfiling);
    CHECK(cfg.healthzBindAddress == "0.0.0.0:10251");
    CHECK(cfg.metricsBindAddress == "0.0.0.0:10251");
    CHECK(cfg.deschedulingInterval.value.count() == 0);
    CHECK_FALSE(cfg.dryRun);
    CHECK_FALSE(cfg.nodeSelector.has_value());
    CHECK_FALSE(cfg.maxNoOfPodsToEvictPerNode.has_value());
    CHECK_FALSE(cfg.maxNoOfPodsToEvictPerNamespace.has_value());
    CHECK_FALSE(cfg.maxNoOfPodsToEvictTotal.has_value());

    REQUIRE(cfg.profiles.size() == 1);
    const Profile& p = cfg.profiles[0];
    CHECK(p.name == "koord-descheduler");
    CHECK_FALSE(p.nodeSelector.has_value());
    CHECK(p.plugins.deschedule.empty());
    CHECK(p.plugins.balance.empty());
    CHECK(names(p.plugins.evict) == std::vector<std::string>{"MigrationController"});
    CHECK(names(p.plugins.filter) == std::vector<std::string>{"MigrationController"});
    CHECK(p.pluginConfig.empty());
    // No profiles key at all: the default profile can only point at the file.
    CHECK(p.where.text() == path);
    CHECK(p.plugins.evict[0].where.text() == path);
}

TEST_CASE("every top-level field is taken from the file") {
    DeschedulerConfiguration cfg = load_configuration(kd::core::test::kProfilesDir + "/valid/full.yaml");
    CHECK_FALSE(cfg.leaderElection.leaderElect);
    CHECK(cfg.leaderElection.leaseDuration.value == std::chrono::seconds(30));
    CHECK(cfg.leaderElection.renewDeadline.value == std::chrono::seconds(20));
    CHECK(cfg.leaderElection.retryPeriod.value == std::chrono::seconds(5));
    CHECK(cfg.leaderElection.resourceName == "my-descheduler");
    CHECK(cfg.leaderElection.resourceNamespace == "my-namespace");
    CHECK(cfg.clientConnection.kubeconfig == "/etc/kubernetes/descheduler.conf");
    CHECK(cfg.clientConnection.acceptContentTypes == "application/json");
    CHECK(cfg.clientConnection.contentType == "application/json");
    CHECK(cfg.clientConnection.qps == 12.5);
    CHECK(cfg.clientConnection.burst == 30);
    CHECK_FALSE(cfg.enableProfiling);
    CHECK_FALSE(cfg.enableContentionProfiling);  // follows enableProfiling when absent
    CHECK(cfg.healthzBindAddress == "0.0.0.0:8080");
    CHECK(cfg.metricsBindAddress == "127.0.0.1:10251");
    CHECK(cfg.deschedulingInterval.value == std::chrono::seconds(90));
    CHECK(cfg.dryRun);
    REQUIRE(cfg.nodeSelector.has_value());
    CHECK(cfg.nodeSelector->matchLabels == std::map<std::string, std::string>{{"pool", "general"}});
    REQUIRE(cfg.nodeSelector->matchExpressions.size() == 1);
    CHECK(cfg.nodeSelector->matchExpressions[0].key == "node-role.kubernetes.io/control-plane");
    CHECK(cfg.nodeSelector->matchExpressions[0].operator_ == "DoesNotExist");
    CHECK(cfg.maxNoOfPodsToEvictPerNode == 2u);
    CHECK(cfg.maxNoOfPodsToEvictPerNamespace == 5u);
    CHECK(cfg.maxNoOfPodsToEvictTotal == 20u);

    REQUIRE(cfg.profiles.size() == 2);
    const Profile& balance = cfg.profiles[0];
    CHECK(balance.name == "balance");
    REQUIRE(balance.nodeSelector.has_value());
    CHECK(balance.nodeSelector->matchLabels.at("zone") == "a");
    CHECK(names(balance.plugins.balance) == std::vector<std::string>{"LowNodeLoad"});
    CHECK(names(balance.plugins.evict) == std::vector<std::string>{"MigrationController"});
    CHECK(names(balance.plugins.filter) == std::vector<std::string>{"MigrationController", "DefaultEvictor"});
    const Profile& deschedule = cfg.profiles[1];
    CHECK(deschedule.name == "deschedule");
    CHECK(names(deschedule.plugins.deschedule) == std::vector<std::string>{"RemovePodsViolatingNodeAffinity"});
    CHECK(names(deschedule.plugins.evict) == std::vector<std::string>{"MigrationController"});
}

TEST_CASE("zero and empty values mean 'use the default', as in component-base") {
    DeschedulerConfiguration cfg = parse(
        "leaderElection:\n  leaseDuration: 0s\n  resourceName: \"\"\n"
        "clientConnection:\n  qps: 0\n  burst: 0\n  contentType: \"\"\n");
    CHECK(cfg.leaderElection.leaseDuration.value == std::chrono::seconds(15));
    CHECK(cfg.leaderElection.resourceName == "koord-descheduler");
    CHECK(cfg.clientConnection.qps == 50);
    CHECK(cfg.clientConnection.burst == 100);
    CHECK(cfg.clientConnection.contentType == "application/vnd.kubernetes.protobuf");
}

TEST_CASE("contention profiling defaults to on only when profiling is on") {
    struct Case {
        std::string body;
        bool profiling, contention;
    };
    auto c = GENERATE(Case{"", true, true}, Case{"enableProfiling: true\n", true, true},
                      Case{"enableProfiling: false\n", false, false},
                      Case{"enableProfiling: false\nenableContentionProfiling: true\n", false, true},
                      Case{"enableContentionProfiling: false\n", true, false});
    CAPTURE(c.body);
    DeschedulerConfiguration cfg = parse(c.body);
    CHECK(cfg.enableProfiling == c.profiling);
    CHECK(cfg.enableContentionProfiling == c.contention);
}

TEST_CASE("bind addresses are completed the way kube-scheduler does") {
    struct Case {
        std::string given, expected;
    };
    auto c = GENERATE(Case{"0.0.0.0:10251", "0.0.0.0:10251"}, Case{":8080", "0.0.0.0:8080"},
                      Case{"10.0.0.1", "10.0.0.1:10251"}, Case{"\"\"", "0.0.0.0:10251"},
                      Case{"\"[::1]:9000\"", "[::1]:9000"}, Case{"\"::\"", "[::]:10251"},
                      Case{"127.0.0.1:65535", "127.0.0.1:65535"});
    CAPTURE(c.given);
    DeschedulerConfiguration cfg = parse("healthzBindAddress: " + c.given + "\nmetricsBindAddress: " + c.given + "\n");
    CHECK(cfg.healthzBindAddress == c.expected);
    CHECK(cfg.metricsBindAddress == c.expected);
}

TEST_CASE("invalid bind addresses are reported with the reason") {
    struct Case {
        std::string given, message;
    };
    auto c =
        GENERATE(Case{"localhost:10251", "host \"localhost\" must be an IP address (e.g. 0.0.0.0 or ::)"},
                 Case{"0.0.0.0:0", "port \"0\" must be a number between 1 and 65535"},
                 Case{"0.0.0.0:http", "port \"http\" must be a number between 1 and 65535"},
                 Case{"nonsense", "must be host:port with an IP address host (e.g. 0.0.0.0:10251 or [::]:10251)"},
                 Case{"1.2.3.4:5:6", "must be host:port with an IP address host (e.g. 0.0.0.0:10251 or [::]:10251)"});
    CAPTURE(c.given);
    CHECK(kd::core::test::text_errors(kHeader + "metricsBindAddress: " + c.given + "\n") ==
          std::vector<std::string>{
              "test.yaml: invalid DeschedulerConfiguration, 1 problem:",
              "test.yaml:3:21: metricsBindAddress: invalid address \"" + c.given + "\": " + c.message});
}

TEST_CASE("profiles: absent or empty gives one default profile, and one unnamed profile is named") {
    for (std::string body : {"", "profiles: []\n", "profiles:\n"}) {
        CAPTURE(body);
        DeschedulerConfiguration cfg = parse(body);
        REQUIRE(cfg.profiles.size() == 1);
        CHECK(cfg.profiles[0].name == "koord-descheduler");
        CHECK(names(cfg.profiles[0].plugins.evict) == std::vector<std::string>{"MigrationController"});
    }
    DeschedulerConfiguration explicit_empty = parse("profiles: []\n");
    CHECK(explicit_empty.profiles[0].where.text() == "test.yaml:3:1");

    DeschedulerConfiguration unnamed = parse("profiles:\n- plugins: {}\n");
    REQUIRE(unnamed.profiles.size() == 1);
    CHECK(unnamed.profiles[0].name == "koord-descheduler");
    CHECK(unnamed.profiles[0].where.text() == "test.yaml:4:3");
}

TEST_CASE("profiles keep file order and their locations") {
    DeschedulerConfiguration cfg = parse("profiles:\n- name: b\n  plugins: {}\n- name: a\n  plugins: {}\n");
    REQUIRE(cfg.profiles.size() == 2);
    CHECK(cfg.profiles[0].name == "b");
    CHECK(cfg.profiles[1].name == "a");
    CHECK(cfg.profiles[1].where.text() == "test.yaml:6:3");
}

TEST_CASE("SourceLocation::text is file:line:column, or the file alone when the line is unknown") {
    CHECK(SourceLocation{"a.yaml", 3, 7}.text() == "a.yaml:3:7");
    CHECK(SourceLocation{"a.yaml", 0, 0}.text() == "a.yaml");
}
