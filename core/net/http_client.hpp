// The one HTTP(S) client of kdesched, shared by the Pod Picker and the Kubernetes API client: TLS
// settings (extra CA certificates, client certificate, server name, verification always on unless
// the configuration turns it off), an inactivity timeout and the User-Agent. Policies on top of
// it — retries, rate limits, authentication headers — belong to its callers.
// Two transports behind one interface, both on Boost.Asio: send() on cpprestsdk (keep-alive
// connections to one server); stream() on Boost.Beast, a connection per stream, which hands a
// body over as it arrives however the server chunks it (see body_stream.hpp for why).
//
// http_client.cpp is the only translation unit that includes cpprestsdk (each costs ~15 s to
// compile); nothing here exposes it.
#pragma once

#include "net/http_types.hpp"

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace kd::core::net {

class HttpClient {
public:
    // `base_url`: scheme://host[:port][/prefix]. Throws kd::core::Error when the URL or the TLS
    // material is unusable (the message names what).
    HttpClient(const std::string& base_url, const ClientConfig& config);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    const std::string& base_url() const { return base_url_; }

    // One request, the whole body read.
    Response send(const Request& request);

    // One request whose body is handed over piece by piece (a watch, a large LIST); `on_chunk`
    // returns false to stop reading. Returns the status and headers (and a failure if the
    // transport broke, before or during the body). For a status other than 2xx the body is read
    // whole into Response::body, not streamed.
    Response stream(const Request& request, const std::function<bool(std::string_view chunk)>& on_chunk,
                    const CancelToken* cancel = nullptr, Delivery delivery = Delivery::as_it_arrives);

private:
    struct Impl;
    std::string base_url_;
    std::unique_ptr<Impl> impl_;
};

}  // namespace kd::core::net
