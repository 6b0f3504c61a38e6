#include "runtime/driver.hpp"

#include "cluster/cluster_snapshot.hpp"

#include <algorithm>

namespace kd::core {

template <class Hook>
bool Driver::call(DriverCall c, Hook&& hook) {
    if (!env_.before(c)) return false;
    std::optional<std::string> error;
    {
        auto snap = std::make_unique<ClusterSnapshot>(model_, c.now_ms);  // released before `after` changes the model
        error = hook(snap->raw());
    }
    env_.after(c, error);
    return true;
}

uint64_t Driver::run(const DriverOptions& options) {
    uint64_t cycles = 0;
    int64_t scheduled = clock_.now_ms();  // when this cycle was due: cycles start every interval from here
    for (;;) {
        const uint64_t number = ++cycles;
        const int64_t next_cycle = scheduled + options.interval_ms;
        call({DriverCall::cycle, number, clock_.now_ms()},
             [&](const kd_snapshot& s) { return descheduler_.run_cycle(s); });
        // Until the next cycle: the controllers' periodic work at the times they ask for.
        int64_t t = clock_.now_ms();
        for (int calls = 0; calls < kMaxTicksPerInterval; ++calls) {
            int64_t next_ms = 0;
            call({DriverCall::tick, number, clock_.now_ms()}, [&](const kd_snapshot& s) {
                Descheduler::TickResult r = descheduler_.tick(s);
                next_ms = r.next_ms;
                return r.error;
            });
            if (next_ms == 0 || next_ms >= next_cycle) break;
            t = std::max(next_ms, t + 1);  // time always moves on, so a busy plugin cannot stall it
            if (!clock_.wait_until(t)) return cycles;
        }
        env_.interval_done(number, clock_.now_ms());
        if (options.cycles && cycles >= *options.cycles) return cycles;
        // A cycle that overran its interval is followed at once by the next (no sliding).
        const bool overran = clock_.now_ms() >= next_cycle;
        if (!clock_.wait_until(next_cycle)) return cycles;
        scheduled = overran ? clock_.now_ms() : next_cycle;
    }
}

}  // namespace kd::core
