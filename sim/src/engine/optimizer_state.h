// Optimizer state per trainable parameter and the HBM traffic of one optimizer step, for each
// optimizer a scenario can name (training.optimizer), each with its source.
#pragma once

#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/training_options.h"

namespace cp::sim {

// Bytes of optimizer state per trainable parameter, including the fp32 master copy that mixed
// precision keeps (none when training in fp32/tf32, where the weights are the master copy).
double optimizer_state_bytes_per_param(Optimizer optimizer, Precision precision);

// HBM bytes one optimizer step moves per trainable parameter (gradient read, state and master
// read and written, low-precision weight written).
double optimizer_traffic_bytes_per_param(Optimizer optimizer, Precision precision);

const char* optimizer_description(Optimizer optimizer);

} // namespace cp::sim
