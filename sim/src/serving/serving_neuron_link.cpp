#include "engine/collectives.h"
#include "serving/serving_model.h"

#include <algorithm>
#include <cmath>

namespace cp::sim {

// The NeuronCores of one chip share its memory: a TP group reduces within each chip and then
// over the chips' NeuronLinks, one rank per chip (each link's bandwidth is the chip's, not a
// core's). How the chips are wired sets the steps and the bandwidth (AWS Neuron docs,
// general/arch/neuron-features/collective-communication.rst):
// - inf2.48xlarge's chips form one ring, and "when using any number of ranks other than 24 (full
//   instance) full performance of the ring is not utilized": a group on part of the ring is a
//   chain, whose ring closes back over the chain's own links, so each link carries two of the
//   ring's hops, half the bandwidth.
// - trn1.32xlarge's (and trn2.48xlarge's) 16 chips form a 4 x 4 2D torus: a group of up to one
//   side's chips runs a closed ring along a row; a larger one reduce-scatters along the rows,
//   all-reduces its 1/side share along the columns and all-gathers back along the rows, in
//   2 (side - 1) + 2 (rows - 1) steps rather than the 2 (chips - 1) of one ring.
double neuronlink_all_reduce_s(const ServingSetup& st, int chips, double bytes) {
    if (chips <= 1 || bytes <= 0) return 0;
    LinkTier t = st.tp_tier;
    const int side = st.hw.node.intra_torus_side;
    if (side > 1 && chips > side) {
        const double a = side, b = std::ceil(double(chips) / side);
        return t.launch_s + 2.0 * (a - 1.0 + b - 1.0) * t.step_s +
               (2.0 * (a - 1.0) / a + 2.0 * (b - 1.0) / (a * b)) * bytes / t.bus_bytes_per_s;
    }
    const int ring = side > 1 ? side : st.hw.node.accelerators_per_node;
    if (chips > 2 && chips < ring) t.bus_bytes_per_s *= 0.5;
    return ring_all_reduce_s(t, chips, bytes);
}

} // namespace cp::sim
