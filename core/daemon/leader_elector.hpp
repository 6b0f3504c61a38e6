// Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection does it: try
// to acquire every retryPeriod (create the Lease, or take it over once its holder has not renewed
// it for leaseDuration, measured on our own clock from when we last saw it change); once leader,
// renew every retryPeriod; a renewal that has not succeeded for renewDeadline loses the
// leadership. Releasing (shutdown) empties holderIdentity so a standby takes over at once.
//
// Runs on a thread of its own so that a long hook never delays a renewal. `leading()` is what
// the control thread checks before every hook and every write.
#pragma once

#include "kube/client/api_client.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace kd::core::daemon {

struct LeaderElectionOptions {
    std::string ns = "koordinator-system", name = "koord-descheduler";
    std::string identity;  // host name + a random suffix
    std::chrono::milliseconds lease_duration{15000}, renew_deadline{10000}, retry_period{2000};
};

class LeaderElector {
public:
    // `on_lost` runs on the elector's thread when a leadership ends other than by release().
    LeaderElector(kube::ApiClient& client, LeaderElectionOptions options, std::function<void()> on_lost);
    ~LeaderElector();  // stops; does not release (call release() for that)
    LeaderElector(const LeaderElector&) = delete;
    LeaderElector& operator=(const LeaderElector&) = delete;

    void start();
    bool leading() const { return leading_.load(); }
    // Waits until leading, `until` passes or stop; returns leading().
    bool wait_leading(std::chrono::steady_clock::time_point until);
    // Stops renewing and, when leading, hands the Lease back (holderIdentity emptied).
    void release();
    const std::string& identity() const { return options_.identity; }
    std::string last_error() const;
    uint64_t transitions_seen() const { return transitions_.load(); }

private:
    // One try: acquire or renew. True when we hold the Lease afterwards.
    bool try_acquire_or_renew();
    void run();
    void set_error(std::string e);

    kube::ApiClient& client_;
    LeaderElectionOptions options_;
    std::function<void()> on_lost_;
    std::atomic<bool> leading_{false};
    std::atomic<uint64_t> transitions_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    // The Lease as last seen (elector thread only).
    std::string observed_record_;  // holder + renewTime: a change means its holder is alive
    std::chrono::steady_clock::time_point observed_at_{};
    mutable std::mutex error_mutex_;
    std::string last_error_;
    std::thread thread_;
};

// "<host name>_<random hex>", as client-go components make their identity unique.
std::string make_identity();

}  // namespace kd::core::daemon
