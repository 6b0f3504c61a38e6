// Fuzz target: a cluster snapshot file's bytes into a cluster model, as `kdesched simulate
// --cluster` loads it. Built twice: KD_FUZZ_ORIGIN's extension picks the reader — snapshot_json
// (RapidJSON SAX in place) and snapshot_yaml (yaml-cpp behind the guard, then the same decoder).
#include "cluster/cluster_model.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "error.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    kd::core::ClusterModel model;
    try {
        kd::core::load_cluster_text(std::string_view(reinterpret_cast<const char*>(data), size), KD_FUZZ_ORIGIN, model);
    } catch (const kd::core::Error&) {
    }
    return 0;
}
