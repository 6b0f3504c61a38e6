#include "sigs_test.hpp"
