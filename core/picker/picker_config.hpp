// A podPicker block (kd::PodPickerArgs, as JSON from the plugin) turned into a request the HTTP
// client can send: the URL, the header values with their secretKeyRefs read from the cluster, the
// extra CA certificates and the attempt budget.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::core::picker {

struct PickerEndpoint {
    std::string url;                                           // scheme://host:port/path
    std::vector<std::pair<std::string, std::string>> headers;  // name, resolved value
    std::string ca_pem;                                        // https: trusted besides the system store
    std::chrono::seconds timeout{5};                           // per attempt
    int max_retries = 0;
};

// Reads Secret `ns`/`name` into `data` (values base64, as stored) and returns "", or returns
// why it cannot (not found; the cluster back end cannot read Secrets).
using SecretReader =
    std::function<std::string(std::string_view ns, std::string_view name, std::map<std::string, std::string>& data)>;

// Decodes and checks `picker_json`, reads every secretKeyRef through `secrets` and the caFile.
// Throws PickerError (config or secret) whose message names the field under "podPicker".
PickerEndpoint resolve_endpoint(std::string_view picker_json, const SecretReader& secrets);

}  // namespace kd::core::picker
