#include <gtest/gtest.h>
#include "senet/senet.hpp"
TEST(Smoke, Builds) { EXPECT_EQ(senet::formatPosition(senet::startPosition(senet::RulesetId::Standard)), "standard:1212121212....................:1:0:0"); }
