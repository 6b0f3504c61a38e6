// YAML (as parsed by yaml-cpp) → RapidJSON, the way Kubernetes reads YAML (sigs.k8s.io/yaml on
// go-yaml v2): plain scalars are typed (null, YAML 1.1 booleans, integers, floats), quoted and block
// scalars stay strings. Records the source location of every node and reports duplicate keys,
// non-scalar keys and unsupported tags, each with file:line:column.
#pragma once

#include "text/location_index.hpp"
#include "text/reporter.hpp"

#include <rapidjson/document.h>
#include <yaml-cpp/yaml.h>

#include <string>

namespace kd::core {

// Converts `root` into `doc` (which owns the values) and fills `index` with one entry per node.
// Problems go to `report`; an offending key is left out of the JSON, so decoding never sees it.
void yaml_to_json(const YAML::Node& root, const std::string& origin, rapidjson::Document& doc, LocationIndex& index,
                  Reporter& report);

}  // namespace kd::core
