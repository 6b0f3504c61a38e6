#include "picker/http_client.hpp"

#include <cpprest/http_client.h>
#include <boost/asio/ssl/context.hpp>

#include <system_error>

namespace kd::core::picker {

HttpExchange post_json(const PickerEndpoint& endpoint, const std::string& body) {
    namespace http = web::http;
    http::client::http_client_config config;
    config.set_timeout(endpoint.timeout);
    config.set_validate_certificates(true);
    if (!endpoint.ca_pem.empty()) {
        config.set_ssl_context_callback([pem = endpoint.ca_pem](boost::asio::ssl::context& ctx) {
            boost::system::error_code checked_by_resolve_endpoint;
            ctx.add_certificate_authority(boost::asio::buffer(pem), checked_by_resolve_endpoint);
        });
    }
    std::optional<http::client::http_client> client;
    try {
        client.emplace(utility::conversions::to_string_t(endpoint.url), config);
    } catch (const web::uri_exception& e) {
        throw PickerError(PickFailure::config, "podPicker.http", "\"" + endpoint.url + "\" is not a URL: " + e.what(),
                          "check scheme, host, port and path");
    }
    http::http_request request(http::methods::POST);
    for (const auto& [name, value] : endpoint.headers) request.headers().add(name, value);
    request.set_body(body, "application/json");
    HttpExchange out;
    try {
        http::http_response response = client->request(request).get();
        out.status = response.status_code();
        out.reason = response.reason_phrase();
        std::vector<unsigned char> bytes = response.extract_vector().get();  // raw: no charset games
        out.body.assign(bytes.begin(), bytes.end());
    } catch (const http::http_exception& e) {
        out.failure = e.error_code() == std::errc::timed_out ? PickFailure::timeout : PickFailure::connection;
        out.problem = e.what();
    }
    return out;
}

}  // namespace kd::core::picker
