// The whole engine: include this one header.
#pragma once

#include "senet/core.hpp"
#include "senet/game.hpp"
#include "senet/json_members.hpp"
#include "senet/movegen.hpp"
#include "senet/position.hpp"
#include "senet/record.hpp"
#include "senet/result.hpp"
#include "senet/rng.hpp"
#include "senet/ruleset.hpp"
