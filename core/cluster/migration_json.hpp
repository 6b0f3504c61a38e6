// PodMigrationJob and Reservation back to their JSON wire form (scheduling.koordinator.sh/v1alpha1),
// the inverse of migration_reader: what plugins read from the snapshot and what the daemon sends.
#pragma once

#include "cluster/migration_objects.hpp"

#include <string>
#include <vector>

namespace kd::core {

std::string to_json(const PodMigrationJob& job);
std::string to_json(const Reservation& reservation);

// A JSON array of the objects, in the order given.
template <class T>
std::string to_json_array(const std::vector<const T*>& objects) {
    std::string out = "[";
    for (size_t i = 0; i < objects.size(); ++i) {
        if (i) out += ',';
        out += to_json(*objects[i]);  // appended, not `"," + json`: a temporary, and a bogus -Wrestrict
    }
    return out + "]";
}

}  // namespace kd::core
