// What loading snapshot files did: files, bytes, objects by kind, time, and notes for the user.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kd::core {

struct LoadReport {
    size_t files = 0;
    uint64_t bytes = 0;                     // bytes read
    std::map<std::string, size_t> objects;  // objects handed to the sink, by kind
    double decode_seconds = 0;              // parsing and decoding, sink included, reading excluded
    // For the user, one line each: "cluster.json: skipped 12 objects of kind Service (not used by
    // kdesched)" (one per file and kind), empty files, directories without snapshot files.
    std::vector<std::string> notes;

    size_t total_objects() const;
};

}  // namespace kd::core
