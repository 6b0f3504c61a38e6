// One cycle of `kdesched simulate --output json <args>`: "namespace/pod node result" per eviction
// request, in order (its stderr, warnings included, left out of the JSON).
#pragma once

#include "daemon_harness.hpp"
#include "run_command.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

inline std::vector<std::string> simulated_evictions(const std::string& args) {
    auto r = run_command("(" + quote(KDESCHED_BINARY) + " simulate --output json --cycles 1 " + args + " 2>/dev/null)");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    rapidjson::Document doc;
    doc.Parse(r.output.c_str());
    REQUIRE_FALSE(doc.HasParseError());
    std::vector<std::string> out;
    for (const auto& e : doc["cycles"][0]["evictions"].GetArray())
        out.push_back(kd_test::str(e, {"pod"}) + " " + kd_test::str(e, {"node"}) + " " + kd_test::str(e, {"result"}));
    return out;
}
