// The kd_host callback table handed to each plugin instance (log, filter, evict, cluster writes).
#pragma once

#include <kdesched/abi.h>

namespace kd::core {

class PluginInstance;

// A kd_host whose host_data is `instance`; callbacks find the running call through kd_call.host_data.
kd_host make_host(PluginInstance* instance);

}  // namespace kd::core
