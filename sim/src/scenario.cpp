#include "clusterplan/sim/scenario.h"
// Implementation lands with the simulator engine issue.
