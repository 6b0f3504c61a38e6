#include "picker/pod_picker.hpp"

#include "net/http_client.hpp"
#include "picker/picker_contract.hpp"
#include "picker/picker_error.hpp"

#include <optional>

namespace kd::core::picker {

namespace {

std::string attempts(int n) {
    return std::to_string(n) + (n == 1 ? " attempt" : " attempts");
}

// The last attempt's failure, told with the number of attempts made.
PickerError exhausted(const net::Response& last, const PickerEndpoint& endpoint, const std::string& where, int made) {
    if (last.failure == net::Failure::timeout)
        return PickerError(
            PickFailure::timeout, where,
            "no answer within " + std::to_string(endpoint.timeout.count()) + "s (" + attempts(made) + ")",
            "raise podPicker.timeoutSeconds or make the picker answer faster");
    if (last.failure == net::Failure::too_large)
        return PickerError(PickFailure::invalid_answer, where,
                           "answered more than " + std::to_string(kMaxPickerAnswerBytes >> 10) +
                               " KiB, the limit on a Pod Picker answer (kMaxPickerAnswerBytes)",
                           "the picker must answer only the chosen and tied pod names");
    if (!last.answered())
        return PickerError(PickFailure::connection, where,
                           "no connection: " + last.problem + " (" + attempts(made) + ")",
                           "check podPicker.http (scheme, host, port, caFile) and that the picker is running");
    return PickerError(PickFailure::http_status, where,
                       "answered HTTP " + std::to_string(last.status) + " " + last.reason + " (" + attempts(made) + ")",
                       "see the picker's own logs");
}

std::vector<uint8_t> run(std::string_view picker_json, const std::vector<std::string>& candidates, uint32_t requested,
                         const SecretReader& secrets) {
    if (requested == 0 || requested > candidates.size())
        throw PickerError(
            PickFailure::config, "",
            "asked for " + std::to_string(requested) + " of " + std::to_string(candidates.size()) + " candidates",
            "a plugin asks for between 1 and the number of candidates");
    const PickerEndpoint endpoint = resolve_endpoint(picker_json, secrets);
    const std::string where = "Pod Picker " + endpoint.url;
    net::ClientConfig config;
    config.timeout = endpoint.timeout;
    config.tls.ca_pem = endpoint.ca_pem;
    config.max_body = kMaxPickerAnswerBytes;
    std::optional<net::HttpClient> client;
    try {
        client.emplace(endpoint.url, config);
    } catch (const Error& e) {
        throw PickerError(PickFailure::config, "podPicker.http", e.what(), "check scheme, host, port and path");
    }
    const net::Request request{"POST", "", endpoint.headers, encode_pick_request(candidates, requested),
                               "application/json"};
    net::Response last;
    int made = 0;
    while (made <= endpoint.max_retries) {
        last = client->send(request);
        ++made;
        if (last.answered() && last.status < 500) break;     // an answer worth reading
        if (last.failure == net::Failure::too_large) break;  // the same again if asked again
    }
    if (!last.answered() || last.status >= 500) throw exhausted(last, endpoint, where, made);
    if (last.status < 200 || last.status > 299)
        throw PickerError(PickFailure::http_status, where,
                          "answered HTTP " + std::to_string(last.status) + " " + last.reason,
                          "check podPicker.http.path and headers; see the picker's own logs");
    return rank_answer(last.body, candidates, requested, where);
}

}  // namespace

PickOutcome pick_pods(std::string_view picker_json, const std::vector<std::string>& candidates, uint32_t requested,
                      const SecretReader& secrets) {
    PickOutcome out;
    try {
        out.ranks = run(picker_json, candidates, requested, secrets);
        out.result = "success";
    } catch (const PickerError& e) {
        out.error = e.what();
        out.result = result_label(e.failure());
    } catch (const std::exception& e) {  // the HTTP library's own surprises: no answer to use
        out.error = std::string("Pod Picker: ") + e.what();
        out.result = result_label(PickFailure::connection);
    }
    return out;
}

}  // namespace kd::core::picker
