// Everything a hook call needs the host to remember while it runs: the kd_call handed to the
// plugin, the profile's view of the snapshot, and storage for strings returned to the plugin.
#pragma once

#include <kdesched/abi.h>

#include <deque>
#include <string>
#include <vector>

namespace kd::core {

class InstanceOwner;
class PluginInstance;

struct CallScope {
    InstanceOwner* profile = nullptr;
    PluginInstance* plugin = nullptr;
    kd_snapshot snapshot{};
    kd_call call{};
    std::deque<std::string> strings;  // deque: stable addresses for kd_str handed out

    kd_str keep(std::string s) {
        strings.push_back(std::move(s));
        return kd_str{strings.back().data(), strings.back().size()};
    }
};

}  // namespace kd::core
