#include "picker/picker_config.hpp"

#include "net/base64.hpp"
#include "net/tls_material.hpp"
#include "picker/picker_error.hpp"

#include <kdesched/decode.hpp>
#include <kdesched/pod_picker.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

namespace kd::core::picker {

namespace {

constexpr const char* kRoot = "podPicker";

std::string header_value(const kd::PickerHeader& h, const std::string& path, const SecretReader& secrets) {
    if (h.value) return *h.value;
    const kd::SecretKeyRef& ref = *h.valueFrom->secretKeyRef;  // validate() made sure it is there
    const std::string where = kd::field_path(kd::field_path(path, "valueFrom"), "secretKeyRef");
    const std::string secret = ref.namespace_ + "/" + ref.name;
    std::map<std::string, std::string> data;
    std::string problem = secrets ? secrets(ref.namespace_, ref.name, data) : "no cluster to read Secrets from";
    if (!problem.empty())
        throw PickerError(PickFailure::secret, where, "cannot read Secret " + secret + ": " + problem,
                          "create the Secret, or fix namespace and name");
    auto it = data.find(ref.key);
    if (it == data.end()) {
        std::string keys;
        for (const auto& [key, value] : data) keys += (keys.empty() ? "" : ", ") + key;
        throw PickerError(
            PickFailure::secret, where,
            "Secret " + secret + " has no key \"" + ref.key + "\" (its keys: " + (keys.empty() ? "none" : keys) + ")",
            "add the key to the Secret, or fix secretKeyRef.key");
    }
    std::optional<std::string> value = net::decode_base64(it->second);
    if (!value)
        throw PickerError(PickFailure::secret, where,
                          "key \"" + ref.key + "\" of Secret " + secret + " is not valid base64",
                          "store the value under data as base64, as Kubernetes does");
    if (value->find_first_of("\r\n") != std::string::npos)
        throw PickerError(PickFailure::secret, where,
                          "key \"" + ref.key + "\" of Secret " + secret + " contains a line break",
                          "an HTTP header value is one line; strip the trailing newline from the Secret");
    return *value;
}

// The caFile's text, checked to hold a certificate: a file without one would only show up as a
// failed handshake.
std::string read_ca_file(const std::string& file) {
    const std::string where = kd::field_path(kd::field_path(kRoot, "http"), "caFile");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw PickerError(PickFailure::config, where, "cannot read " + file + ": " + std::strerror(errno),
                          "point caFile at a readable PEM file of CA certificates");
    std::ostringstream text;
    text << in.rdbuf();
    std::string pem = text.str();
    if (!net::certificate_problem(pem).empty())
        throw PickerError(PickFailure::config, where, file + " holds no PEM certificate",
                          "give the CA certificate(s) in PEM form, -----BEGIN CERTIFICATE----- blocks");
    return pem;
}

}  // namespace

PickerEndpoint resolve_endpoint(std::string_view picker_json, const SecretReader& secrets) {
    kd::PodPickerArgs args;
    try {
        args = kd::parse<kd::PodPickerArgs>(picker_json);
    } catch (const kd::DecodeError& e) {
        // The plugin checked the block when it was created; this catches a plugin that did not.
        std::string problems;
        for (const kd::FieldError& item : e.errors().items())
            problems +=
                (problems.empty() ? "" : "; ") +
                kd::FieldError{item.path.empty() ? kRoot : kd::field_path(kRoot, item.path), item.message}.text();
        throw PickerError(PickFailure::config, "", "invalid configuration: " + problems,
                          "fix the podPicker block of the plugin's args");
    }
    PickerEndpoint out;
    const kd::PickerHttp& http = args.http;
    out.url = http.normalized_scheme() + "://" + http.host + ":" + std::to_string(http.effective_port()) + http.path;
    const std::string headers_path = kd::field_path(kd::field_path(kRoot, "http"), "httpHeaders");
    for (size_t i = 0; i < http.httpHeaders.size(); ++i) {
        const kd::PickerHeader& h = http.httpHeaders[i];
        out.headers.emplace_back(h.name, header_value(h, kd::index_path(headers_path, i), secrets));
    }
    if (!http.caFile.empty()) out.ca_pem = read_ca_file(http.caFile);
    out.timeout = std::chrono::seconds(args.timeoutSeconds);
    out.max_retries = args.maxRetries;
    return out;
}

}  // namespace kd::core::picker
