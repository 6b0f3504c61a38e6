// The failures of a Pod Picker request, each a kd::core::Error carrying its kind: the `result`
// label of descheduler_pod_picker_requests_total.
#pragma once

#include "error.hpp"

#include <string>

namespace kd::core::picker {

enum class PickFailure {
    config,          // the podPicker block or its caFile is unusable
    secret,          // a secretKeyRef cannot be read
    connection,      // no HTTP answer: refused, unresolvable, reset, TLS handshake or certificate
    timeout,         // no complete answer within timeoutSeconds
    http_status,     // an answer outside 2xx
    invalid_answer,  // a 2xx answer that breaks the contract (JSON shape, foreign or repeated names, too few)
};

// The metric label of a failure ("http-status", …); a success is counted as "success".
inline const char* result_label(PickFailure f) {
    switch (f) {
        case PickFailure::config:
            return "config";
        case PickFailure::secret:
            return "secret";
        case PickFailure::connection:
            return "connection";
        case PickFailure::timeout:
            return "timeout";
        case PickFailure::http_status:
            return "http-status";
        case PickFailure::invalid_answer:
            return "invalid-answer";
    }
    return "unknown";
}

class PickerError : public Error {
public:
    PickerError(PickFailure failure, const std::string& where, const std::string& what, const std::string& hint = "")
        : Error(where, what, hint), failure_(failure) {}
    PickFailure failure() const { return failure_; }

private:
    PickFailure failure_;
};

}  // namespace kd::core::picker
