// What the integration tests run and read: the kdesched binary and the test profiles.
#pragma once

#include <string>

inline const std::string kBin = KDESCHED_BINARY;
inline const std::string kData = KDESCHED_TEST_DATA;
