// Installs Koordinator's CRDs (their YAML files) into an API server and waits until they are
// served.
#pragma once

#include "api_loader.hpp"
#include "text/reporter.hpp"
#include "text/yaml_documents.hpp"
#include "text/yaml_to_json.hpp"

#include <chrono>
#include <filesystem>
#include <thread>

namespace kd_test {

inline void install_crds(ApiLoader& loader, const std::string& dir) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        for (const YAML::Node& node : kd::core::load_yaml_documents(text.str(), entry.path().string())) {
            rapidjson::Document doc;
            kd::core::LocationIndex where;
            kd::core::Reporter report(entry.path().string(), where);
            kd::core::yaml_to_json(node, entry.path().string(), doc, where, report);
            report.raise_if_any();
            loader.request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                           kd::core::json::text_of(doc), {201, 409});
        }
    }
    for (const char* path :
         {"/apis/slo.koordinator.sh/v1alpha1/nodemetrics", "/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs",
          "/apis/scheduling.koordinator.sh/v1alpha1/reservations"})
        for (int i = 0;; ++i) {
            try {
                loader.request("GET", path, "");
                break;
            } catch (const std::runtime_error&) {
                if (i > 100) throw;
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
        }
}

}  // namespace kd_test
