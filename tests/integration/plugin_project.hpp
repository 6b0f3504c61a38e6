// Building a plugin project out of tree against an installed SDK, as a third-party author does:
// the examples' and the scaffold's tests share it.
#pragma once

#include "run_command.hpp"

#include <catch2/catch.hpp>

#include <string>

// Configures and builds `source` in `build` against the SDK installed in `sdk` (extra CMake
// arguments in `cmake_args`), runs its own tests (ctest) and returns ctest's output.
inline std::string build_plugin_project(const std::string& source, const std::string& build, const std::string& sdk,
                                        const std::string& cmake_args = "") {
    auto configure = run_command("cmake -S " + quote(source) + " -B " + quote(build) +
                                 " -DCMAKE_PREFIX_PATH=" + quote(sdk) + " -DCMAKE_BUILD_TYPE=Release" + cmake_args);
    INFO(configure.output);
    REQUIRE(configure.exit_code == 0);
    auto compile = run_command("cmake --build " + quote(build) + " -j 2");
    INFO(compile.output);
    REQUIRE(compile.exit_code == 0);
    auto unit = run_command("cd " + quote(build) + " && ctest --output-on-failure");
    INFO(unit.output);
    CHECK(unit.exit_code == 0);
    return unit.output;
}
