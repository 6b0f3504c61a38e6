// From the JSON form of the file to the public DeschedulerConfiguration: type check, strict
// decode, koord-descheduler's defaults, profiles (merge_plugin_sets.hpp) and validation. Problems
// go to the reporter.
#pragma once

#include "config/configuration.hpp"
#include "text/reporter.hpp"

#include <rapidjson/document.h>

namespace kd::core {

// The result is only meaningful when `report` stayed empty.
DeschedulerConfiguration decode_configuration(const rapidjson::Value& doc, Reporter& report);

}  // namespace kd::core
