// Habana Gaudi's measured whole-step rates. No vendor publishes Gaudi1's dense matrix peak, so
// its catalog BF16 figure is a measured-derived rate (catalog/data/accelerators.csv), and the CNN
// fraction here is relative to it; both are fitted over tests/data/validation/gaudi_training.csv.
#pragma once

#include "clusterplan/sim/hardware.h"

namespace cp::sim {

// Whole-step fraction of the accelerator's 16-bit rate a CNN-like (generic) model reaches, where
// it was measured on that accelerator family; NaN where no measurement of the family is known.
double gaudi_generic_compute_fraction(const AcceleratorSpec& accelerator, Precision precision);

} // namespace cp::sim
