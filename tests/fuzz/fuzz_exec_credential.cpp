// Fuzz target: what an exec credential plugin prints (an ExecCredential, JSON) through the reader
// the credentials use: kind and version, token or client certificate and key, expiry.
#include "error.hpp"
#include "kube/client/credentials.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        kd::core::kube::parse_exec_credential(std::string(reinterpret_cast<const char*>(data), size),
                                              "client.authentication.k8s.io/v1", "exec plugin");
    } catch (const kd::core::Error&) {
    }
    return 0;
}
