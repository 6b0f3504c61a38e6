// Warnings that would repeat at every tick — a job whose write the server keeps refusing, a
// reconcile step that keeps failing — said once per job and cycle, with how often they came since
// they were last said, rather than up to a thousand times an interval.
#pragma once

#include <kdesched/plugin.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace kd::plugins::migrationcontroller {

class RepeatedWarnings {
public:
    // Warns "<subject>: <message>" unless the same was said about the subject in this cycle.
    void warn(kd::Cycle& cycle, const std::string& subject, const std::string& message) {
        auto [it, first] = said_.try_emplace(subject);
        Said& s = it->second;
        if (!first && s.cycle == cycle.number() && s.message == message) {
            ++s.unsaid;
            return;
        }
        std::string text = subject + ": " + message;
        if (!first && s.unsaid > 0)
            text += " (and " + std::to_string(s.unsaid) + " more time" + (s.unsaid == 1 ? "" : "s") +
                    " since it was last said)";
        cycle.warn(text);
        s = Said{cycle.number(), message, 0};
    }
    // The subject is well again: its next warning is said at once.
    void forget(const std::string& subject) { said_.erase(subject); }

private:
    struct Said {
        uint64_t cycle = 0;
        std::string message;
        uint64_t unsaid = 0;  // repeats since
    };
    std::map<std::string, Said> said_;
};

}  // namespace kd::plugins::migrationcontroller
