// A problem with one field of one object, before the file layer says which file and object.
#pragma once

#include <cstddef>
#include <exception>
#include <string>
#include <utility>

namespace kd::core::decode {

struct FieldProblem {
    std::string path;     // "spec.containers[0].resources.requests.cpu" ("" = the object itself)
    std::string message;  // "invalid quantity \"12x\""
    std::string hint;     // what to do (may be empty)
    static constexpr size_t kNoOffset = static_cast<size_t>(-1);
    size_t offset = kNoOffset;  // byte offset in the JSON text just after the offending value, when known
};

// Thrown by the DOM readers (PodMigrationJob, Reservation).
struct FieldProblemError : std::exception {
    FieldProblem problem;
    explicit FieldProblemError(FieldProblem p) : problem(std::move(p)) {}
    const char* what() const noexcept override { return problem.message.c_str(); }
};

// The hint every quantity error carries.
inline const char* quantity_hint() {
    return "a quantity is a number with an optional suffix, e.g. \"500m\", \"1.5\", \"2Gi\" or \"1e3\", and must "
           "fit in 64-bit milli-units";
}

}  // namespace kd::core::decode
