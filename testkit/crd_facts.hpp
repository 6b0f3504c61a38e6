// Compact schema facts of a CustomResourceDefinition: one line per schema node with its path,
// type and the constraints the API server applies (required fields, enums, formats, defaults,
// int-or-string, where unknown fields are kept), plus the kind, group, version and where the
// status subresource begins. Descriptions and everything else are left out: facts, not a copy.
//
// Paths: "." is the object, ".spec.podRef" a property, "[]" the items of an array, "{}" the
// values of a map (additionalProperties with a schema).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace kd::tools {

// The facts of version `version` of `crd` (a parsed CRD file); `source` names the file in the
// header comment. Throws std::runtime_error on a schema construct the facts cannot state.
std::string crd_facts(const YAML::Node& crd, const std::string& version, const std::string& source);

}  // namespace kd::tools
