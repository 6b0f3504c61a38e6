// The Pod Picker's HTTP(S) client: one POST, one answer or the reason there was none. The only
// translation unit that includes cpprestsdk (each one costs ~15 s of compile time).
#pragma once

#include "picker/picker_config.hpp"
#include "picker/picker_error.hpp"

#include <optional>
#include <string>

namespace kd::core::picker {

struct HttpExchange {
    std::optional<PickFailure> failure;  // connection or timeout: no answer came
    std::string problem;                 // the client's message when failure is set
    int status = 0;
    std::string reason;  // the status line's reason phrase
    std::string body;
};

// POSTs `body` as application/json to endpoint.url with endpoint.headers, giving up after
// endpoint.timeout without a complete answer. https certificates are verified, host name
// included, against the system store plus endpoint.ca_pem. Throws PickerError (config) when
// the URL or ca_pem is unusable.
HttpExchange post_json(const PickerEndpoint& endpoint, const std::string& body);

}  // namespace kd::core::picker
