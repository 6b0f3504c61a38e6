// PodMigrationJob and Reservation in their JSON wire form (scheduling.koordinator.sh/v1alpha1): what
// plugins read from the snapshot and start their writes from. That is the object's `wire` as read;
// only an object built field by field (in tests) is encoded from its fields, the inverse of
// migration_reader.
#pragma once

#include "cluster/migration_objects.hpp"

#include <string>
#include <vector>

namespace kd::core {

std::string to_json(const PodMigrationJob& job);
std::string to_json(const Reservation& reservation);

// Parts of either, as their status writers need them: a conditions array, an ObjectReference.
std::string to_json(const std::vector<Condition>& conditions);
std::string to_json(const ObjectReference& reference);

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
