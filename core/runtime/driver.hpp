// When cycles and ticks run, and what happens between two hook calls: the one loop the simulator
// and the daemon share.
//
// Every cycle: the environment prepares the model (before), the cycle runs on a fresh snapshot,
// the environment takes in its effects (after); then the plugins' periodic work (ticks) runs at
// once and again at the times they ask for, until the next cycle is due — each tick with its own
// before/after — and time always moves on (a tick asking for "now" again runs 1 ms later at the
// earliest, at most kMaxTicksPerInterval times per interval).
//
// Threading: everything here runs on the caller's thread, the control thread. The environment's
// before/after are where changes reach the model (the simulator's actors, the daemon's watch
// queue); nothing else may change it while a hook runs.
#pragma once

#include "cluster/cluster_model.hpp"
#include "runtime/descheduler.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace kd::core {

// The time the driver runs on: virtual in the simulator, the wall clock in the daemon.
class Clock {
public:
    virtual ~Clock() = default;
    virtual int64_t now_ms() = 0;
    // Returns at `t_ms` (the simulator jumps there; the daemon waits, doing its I/O), or earlier
    // with false when the run must stop (shutdown, lost leadership).
    virtual bool wait_until(int64_t t_ms) = 0;
};

// One hook call the driver makes: a cycle, or a tick between cycles.
struct DriverCall {
    enum Kind { cycle, tick } kind;
    uint64_t cycle_number;  // the cycle this call belongs to (ticks: the one that came before)
    int64_t now_ms;
};

// What surrounds each call: the simulator plays the cluster and reports, the daemon drains its
// watch queue into the model and checks its leadership.
class DriverEnvironment {
public:
    virtual ~DriverEnvironment() = default;
    // Before the call: bring the model up to `call.now_ms`. Return false to skip the call (a
    // standby replica: no leadership, no hooks).
    virtual bool before(const DriverCall& call) = 0;
    // After the call ran: `error` is the cycle's or the tick's error, if any.
    virtual void after(const DriverCall& call, const std::optional<std::string>& error) = 0;
    // After a cycle's ticks, before the wait for the next cycle.
    virtual void interval_done(uint64_t /*cycle_number*/, int64_t /*now_ms*/) {}
};

struct DriverOptions {
    int64_t interval_ms = 0;         // between cycle starts; must be > 0
    std::optional<uint64_t> cycles;  // stop after this many; nullopt = until the clock says stop
};

class Driver {
public:
    // Ticks between two cycles at most (a 500 ms arbitration interval needs 20 per 10 s).
    static constexpr int kMaxTicksPerInterval = 1000;

    Driver(Descheduler& descheduler, const ClusterModel& model, Clock& clock, DriverEnvironment& environment)
        : descheduler_(descheduler), model_(model), clock_(clock), env_(environment) {}

    // Runs cycles until options.cycles have run or the clock says stop. Returns the cycles run.
    uint64_t run(const DriverOptions& options);

private:
    // One call: before, the hook on a fresh snapshot, after. False when the environment skipped it.
    template <class Hook>
    bool call(DriverCall c, Hook&& hook);

    Descheduler& descheduler_;
    const ClusterModel& model_;
    Clock& clock_;
    DriverEnvironment& env_;
};

}  // namespace kd::core
