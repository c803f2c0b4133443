#include "clusterplan/sim/step_model.h"
// Implementation lands with the simulator engine issue.
