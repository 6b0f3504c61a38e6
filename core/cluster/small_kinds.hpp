// The small kinds the model keeps as owned C++ objects (tens to hundreds per cluster), each in
// an ObjectStore; PodMigrationJob and Reservation are in migration_objects.hpp.
#pragma once

#include <kdesched/decode.hpp>
#include <kdesched/label_selector.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace kd::core {

struct PodDisruptionBudget {
    std::string uid, ns, name;
    std::optional<kd::LabelSelector> selector;
    std::optional<kd::IntOrString> min_available, max_unavailable;
    int32_t disruptions_allowed = 0;
};

struct Namespace {
    std::string uid, name;
    std::map<std::string, std::string> labels;
};

struct PriorityClass {
    std::string uid, name;
    int32_t value = 0;
};

struct PersistentVolumeClaim {
    std::string uid, ns, name;
    std::string storage_class;  // spec.storageClassName; empty when absent
};

struct Secret {
    std::string uid, ns, name;
    std::map<std::string, std::string> data;  // base64 values as stored
};

}  // namespace kd::core
