// The Probes page's charts (bus bandwidth vs message size, GEMM by precision): the shared specs
// (probe_specs.h) drawn for the screen.
#pragma once

#include "probe_specs.h"

class QChart;

namespace cp::gui::charts {

using ::cp::charts::BandwidthSeries;
using ::cp::charts::GemmBar;

QChart* busbw_chart(const std::vector<BandwidthSeries>& series);
QChart* gemm_chart(const std::vector<GemmBar>& bars, const QString& source = QString());

} // namespace cp::gui::charts
