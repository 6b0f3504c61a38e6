// A Koordinator-style ConfigMap (kind: ConfigMap whose data holds the DeschedulerConfiguration) is
// accepted as the configuration file. Koordinator's own shipped ConfigMap is checked by the
// reference tests (tests/reference), which need ../shared.
#include "support.hpp"

using namespace kd::core;

TEST_CASE("a ConfigMap with one DeschedulerConfiguration among other data values uses that one") {
    auto lines = kd::core::test::file_errors("invalid/configmap-embedded-error.yaml");
    const std::string origin = "invalid/configmap-embedded-error.yaml[data.koord-descheduler-config]";
    CHECK(lines == std::vector<std::string>{
                       origin + ": invalid DeschedulerConfiguration, 2 problems:",
                       origin + ":4:3: profiles[0].plugins: required: a profile must list its plugins "
                                "(\"plugins: {}\" keeps the defaults)",
                       origin + ":5:3: profiles[0].plugin: unknown field (known fields: name, nodeSelector, "
                                "plugins, pluginConfig)",
                   });
}

TEST_CASE("a ConfigMap without a DeschedulerConfiguration is refused, naming its data keys") {
    CHECK(kd::core::test::file_errors("invalid/configmap-without-config.yaml") ==
          std::vector<std::string>{"invalid/configmap-without-config.yaml: ConfigMap \"descheduler-config\" has no "
                                   "data value holding a DeschedulerConfiguration (data keys: a.txt, b.txt)"});
}

TEST_CASE("a ConfigMap with several DeschedulerConfigurations is refused") {
    std::string embedded = "    apiVersion: descheduler/v1alpha2\n    kind: DeschedulerConfiguration\n";
    std::string cm = "apiVersion: v1\nkind: ConfigMap\ndata:\n  one: |\n" + embedded + "  two: |\n" + embedded;
    CHECK(kd::core::test::text_errors(cm) ==
          std::vector<std::string>{"test.yaml: the ConfigMap has several data values holding a "
                                   "DeschedulerConfiguration (one, two) (keep exactly one)"});
}

TEST_CASE("a ConfigMap whose only data value is not a configuration reports that value's problems") {
    std::string cm = "apiVersion: v1\nkind: ConfigMap\ndata:\n  config: |\n    kind: Pod\n";
    CHECK(kd::core::test::text_errors(cm) ==
          std::vector<std::string>{
              "test.yaml[data.config]: invalid DeschedulerConfiguration, 2 problems:",
              "test.yaml[data.config]:1:1: apiVersion: required: this file must start with \"apiVersion: "
              "descheduler/v1alpha2\"",
              "test.yaml[data.config]:1:7: kind: must be \"DeschedulerConfiguration\" (Koordinator's) or "
              "\"DeschedulerPolicy\" (kubernetes-sigs/descheduler's), got \"Pod\"",
          });
}
