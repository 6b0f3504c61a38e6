// Where the API server is and how to authenticate, as client-go and kubectl find it: a kubeconfig
// (`--kubeconfig`, else the profile's clientConnection.kubeconfig, else $KUBECONFIG — a
// colon-separated list merged as kubectl merges it — else ~/.kube/config), a context in it
// (`--context`, else current-context), or, inside a pod, the service account.
//
// Every problem is a kd::core::Error naming the file (and line), the context or user, and the
// field: a missing file, an unknown context, a field of the wrong type, a certificate that does
// not parse.
#pragma once

#include "net/http_client.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kd::core::kube {

// users[].user.exec: a client-go credential plugin (client.authentication.k8s.io/v1 or v1beta1).
struct ExecConfig {
    std::string api_version;
    std::string command;  // resolved against the kubeconfig's folder when it is a relative path with a '/'
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> env;
    std::string install_hint;
    bool provide_cluster_info = false;
    std::string where;  // "kubeconfig <file>, user <name>" for messages
};

struct Connection {
    std::string server;  // https://host:port[/path]
    net::TlsConfig tls;
    std::string token;               // a static bearer token
    std::string token_file;          // re-read when it changes (in-cluster: the service-account token)
    std::string username, password;  // basic authentication
    std::optional<ExecConfig> exec;
    std::string ca_data_base64;  // the CA as the kubeconfig gave it, for an exec plugin's cluster info
    bool in_cluster = false;
    std::string context, cluster_name, user_name;
    std::string namespace_;             // the context's namespace (in cluster: the pod's)
    std::string source;                 // for messages: "kubeconfig /x (context y)" or "in-cluster service account"
    std::vector<std::string> warnings;  // said on every start (insecure-skip-tls-verify)
};

struct ConnectionOptions {
    std::string kubeconfig;          // --kubeconfig
    std::string context;             // --context
    std::string profile_kubeconfig;  // clientConnection.kubeconfig of the profile
};

// Finds and reads the connection; throws Error.
Connection load_connection(const ConnectionOptions& options);

// The kubeconfig files that apply, in precedence order, and where the choice came from ("" when
// none: then in-cluster, or an error).
std::vector<std::string> kubeconfig_files(const ConnectionOptions& options, std::string& chosen_by);

// Reads one merged kubeconfig (files in precedence order) for `context` ("" = current-context).
Connection read_kubeconfig(const std::vector<std::string>& files, const std::string& context);

// The pod's service account: KUBERNETES_SERVICE_HOST/PORT and `dir`'s token, ca.crt, namespace.
Connection in_cluster_connection(const std::string& dir = "/var/run/secrets/kubernetes.io/serviceaccount");

}  // namespace kd::core::kube
