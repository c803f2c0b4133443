// What a framework changes in the rates one device reaches (framework.h): its fitted compute
// efficiency, the attention kernel it runs, FP8's 16-bit attention; and how Neuron layouts over
// NeuronCores map onto chips.
#pragma once

#include "clusterplan/sim/framework.h"
#include "clusterplan/sim/step_model.h"
#include "engine/compute_rates.h"

namespace cp::sim {

// Applies `framework`'s mechanisms and fitted `efficiency` to rates built for the hardware.
void apply_framework(ComputeRates& rates, const FrameworkProfile& framework,
                     const AcceleratorSpec& accelerator, Precision precision, double efficiency);

// NeuronCores per Trainium chip as Neuron's parallel degrees count them: Trainium1 has two
// NeuronCore-v2; Trainium2 has eight NeuronCore-v3 presented as four logical cores (the default
// LNC=2) (AWS Neuron docs: trn1-arch, trn2-arch, "Logical NeuronCore configuration"). 1 otherwise.
int neuron_cores_per_device(const AcceleratorSpec& accelerator);

// When `layout` names cores rather than chips (tp·pp·dp·cp == chips × cores per chip), fills
// `cores` with the cluster seen per core (peak, HBM, memory and links split between a chip's
// cores) and returns true.
bool neuron_core_view(const Cluster& cluster, const Layout& layout, Cluster& cores);

} // namespace cp::sim
