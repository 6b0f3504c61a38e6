// The Pod Picker host service (kd_host.pick_pods): its args block, which a plugin embeds in its own
// args, and what it answers. A user's REST service chooses which pods leave first
// (KEP-3189's downscale Pod Picker contract); the host makes the request.
#pragma once

#include <kdesched/decode.hpp>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd {

// A plugin that offers the Pod Picker embeds `std::optional<kd::PodPickerArgs> podPicker;` in its args
// (`v("podPicker", podPicker)`: kd::parse validates it with the rest, at its own path), then calls
// `cycle.pick_pods(*args.podPicker, candidates, n)`.

// valueFrom.secretKeyRef of a header: key `key` of Secret `namespace`/`name`, read by the host.
struct SecretKeyRef {
    std::string namespace_;  // required: the descheduler has no namespace of its own to default to
    std::string name;
    std::string key;
    template <class V>
    void fields(V& v) {
        v("namespace", namespace_);
        v("name", name);
        v("key", key);
    }
};

struct HeaderValueFrom {
    std::optional<SecretKeyRef> secretKeyRef;
    template <class V>
    void fields(V& v) {
        v("secretKeyRef", secretKeyRef);
    }
};

// One request header: a literal `value` or `valueFrom` a Secret, exactly one of the two.
struct PickerHeader {
    std::string name;
    std::optional<std::string> value;
    std::optional<HeaderValueFrom> valueFrom;
    template <class V>
    void fields(V& v) {
        v("name", name);
        v("value", value);
        v("valueFrom", valueFrom);
    }
};

// Where the picker listens, as a Kubernetes HTTPGetAction spells it, plus the CA for https.
struct PickerHttp {
    std::string scheme = "http";  // http or https (any case: probes write HTTP/HTTPS)
    std::string host;             // required: a host name or IP address
    int32_t port = 0;             // 0: 80 for http, 443 for https
    std::string path = "/";
    std::string caFile;  // https only: PEM certificates trusted besides the system store
    std::vector<PickerHeader> httpHeaders;

    // The scheme in lower case ("https" for "HTTPS").
    std::string normalized_scheme() const {
        std::string s = scheme;
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    }
    // `port`, or the scheme's default.
    int32_t effective_port() const { return port != 0 ? port : normalized_scheme() == "https" ? 443 : 80; }

    template <class V>
    void fields(V& v) {
        v("scheme", scheme);
        v("host", host);
        v("port", port);
        v("path", path);
        v("caFile", caFile);
        v("httpHeaders", httpHeaders);
    }
};

// The `podPicker` block (KEP-3189's downscalePodPicker shape).
struct PodPickerArgs {
    PickerHttp http;
    int32_t maxRetries = 0;      // further attempts after a connection failure, a timeout or a 5xx
    int32_t timeoutSeconds = 5;  // per attempt
    // The block as the profile gave it (compact JSON), filled by decoding: what the host
    // receives, decodes and checks again. Not a field.
    std::string json;

    template <class V>
    void fields(V& v) {
        v("http", http);
        v("maxRetries", maxRetries);
        v("timeoutSeconds", timeoutSeconds);
    }

    // Every problem with its field path (`podPicker.http.httpHeaders[0].name: must be set`).
    void validate(Errors& errs, const std::string& path) const {
        std::string hp = field_path(path, "http");
        std::string scheme = http.normalized_scheme();
        if (scheme != "http" && scheme != "https")
            errs.add(field_path(hp, "scheme"), "must be http or https (got \"" + http.scheme + "\")");
        if (http.host.empty())
            errs.add(field_path(hp, "host"), "must be set (the picker service's host name or IP address)");
        else if (http.host.find_first_of("/?#@ \t") != std::string::npos ||
                 (http.host.find(':') != std::string::npos && http.host.front() != '['))
            errs.add(field_path(hp, "host"), "must be a host name or IP address alone (got \"" + http.host +
                                                 "\"; the scheme, port and path have fields of their own)");
        if (http.port < 0 || http.port > 65535)
            errs.add(field_path(hp, "port"), "must be between 1 and 65535, or 0 for the scheme's default (got " +
                                                 std::to_string(http.port) + ")");
        if (http.path.empty() || http.path.front() != '/')
            errs.add(field_path(hp, "path"), "must start with / (got \"" + http.path + "\")");
        if (!http.caFile.empty() && scheme == "http")
            errs.add(field_path(hp, "caFile"), "is only used with scheme https");
        for (size_t i = 0; i < http.httpHeaders.size(); ++i)
            validate_header(http.httpHeaders[i], index_path(field_path(hp, "httpHeaders"), i), errs);
        if (maxRetries < 0)
            errs.add(field_path(path, "maxRetries"), "must be >= 0 (got " + std::to_string(maxRetries) + ")");
        if (timeoutSeconds < 1)
            errs.add(field_path(path, "timeoutSeconds"), "must be >= 1 (got " + std::to_string(timeoutSeconds) + ")");
    }

private:
    static void validate_header(const PickerHeader& h, const std::string& path, Errors& errs) {
        // RFC 9110 token characters.
        auto tchar = [](unsigned char c) {
            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                   std::string_view("!#$%&'*+-.^_`|~").find(char(c)) != std::string_view::npos;
        };
        if (h.name.empty())
            errs.add(field_path(path, "name"), "must be set");
        else if (!std::all_of(h.name.begin(), h.name.end(), tchar))
            errs.add(field_path(path, "name"),
                     "must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~; got \"" + h.name + "\")");
        if (h.value.has_value() == h.valueFrom.has_value()) errs.add(path, "set exactly one of value and valueFrom");
        if (h.value && h.value->find_first_of("\r\n") != std::string::npos)
            errs.add(field_path(path, "value"), "must not contain line breaks");
        if (!h.valueFrom) return;
        std::string vp = field_path(path, "valueFrom");
        if (!h.valueFrom->secretKeyRef) {
            errs.add(field_path(vp, "secretKeyRef"), "must be set (the only source of a header value)");
            return;
        }
        const SecretKeyRef& ref = *h.valueFrom->secretKeyRef;
        std::string rp = field_path(vp, "secretKeyRef");
        if (ref.namespace_.empty()) errs.add(field_path(rp, "namespace"), "must be set");
        if (ref.name.empty()) errs.add(field_path(rp, "name"), "must be set");
        if (ref.key.empty()) errs.add(field_path(rp, "key"), "must be set");
    }
};

// Decoded like any struct, keeping the block's JSON text for the host.
template <>
struct Decoder<PodPickerArgs> {
    static void decode(const rapidjson::Value& v, PodPickerArgs& out, const std::string& path, Errors& errs) {
        detail::decode_struct(v, out, path, errs);
        rapidjson::StringBuffer text;
        rapidjson::Writer<rapidjson::StringBuffer> writer(text);
        v.Accept(writer);
        out.json.assign(text.GetString(), text.GetSize());
    }
};

// The contract's ranks: lower leaves first.
inline constexpr uint8_t kPickChosen = 0;  // in chosen_pods
inline constexpr uint8_t kPickTied = 1;    // in tied_pods
inline constexpr uint8_t kPickOther = 3;   // not returned

// What the Pod Picker said about the candidates.
struct PickResult {
    std::vector<uint8_t> ranks;  // one per candidate, in their order (kPickChosen, kPickTied, kPickOther)
    std::string error;           // why the picker could not be used ("" on success): keep your own order
    bool ok() const { return error.empty(); }
};

}  // namespace kd
