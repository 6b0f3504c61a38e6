// The message DefaultEvictor's create() reports for `args` through the C descriptor ("" when it
// succeeds).
#pragma once

#include "default_evictor.hpp"

#include <kdesched/testing.hpp>

#include <exception>
#include <string>

inline std::string create_error(const std::string& args) {
    kd::testing::FakeHost host;
    try {
        host.instantiate<kd::plugins::defaultevictor::DefaultEvictor>(args);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}
