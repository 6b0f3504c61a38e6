// One LIST received and dropped — from the watch cache, as reflectors ask for it: what the server
// and the network take, to set beside what the client takes to decode the same.
#pragma once

#include "kube/client/api_client.hpp"
#include "process_figures.hpp"

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>

namespace kd::tools {

struct Transfer {
    double mb = 0, seconds = 0;
};

// GET `path` (a collection) with `accept`; the body saved to `save` when given.
inline Transfer list_transfer(core::kube::ApiClient& client, const std::string& path, const char* accept,
                              const std::string& save = "") {
    std::ofstream out;
    if (!save.empty()) out.open(save, std::ios::binary);
    uint64_t bytes = 0;
    auto t0 = Clock::now();
    auto r = client.stream(
        {"GET", path + "?limit=500&resourceVersion=0", {{"Accept", accept}}, "", ""},
        [&](std::string_view chunk) {
            bytes += chunk.size();
            if (out.is_open()) out.write(chunk.data(), std::streamsize(chunk.size()));
            return true;
        },
        nullptr, core::net::Delivery::in_large_pieces);
    if (!r.ok()) throw std::runtime_error("GET " + path + ": " + r.describe());
    return {double(bytes) / 1e6, seconds_since(t0)};
}

}  // namespace kd::tools
