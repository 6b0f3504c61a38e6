// What the benchmarks read about their own process: resident memory, CPU time, wall time.
#pragma once

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <fstream>

namespace kd::tools {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Resident set size in bytes, after handing freed memory back to the kernel.
inline long resident_bytes() {
    malloc_trim(0);
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

// CPU seconds (user + system, every thread of this process) since construction.
class CpuClock {
public:
    CpuClock() : start_(now()) {}
    double seconds() const { return now() - start_; }

private:
    static double now() {
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    }
    double start_;
};

// CPU seconds of the calling thread since construction.
class ThreadCpuClock {
public:
    ThreadCpuClock() : start_(now()) {}
    double seconds() const { return now() - start_; }

private:
    static double now() {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
    }
    double start_;
};

}  // namespace kd::tools
