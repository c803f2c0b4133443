#include "charts/probe_charts.h"

#include "qchart_render.h"

namespace cp::gui::charts {

QChart* busbw_chart(const std::vector<BandwidthSeries>& series) {
    return ::cp::charts::make_chart(::cp::charts::busbw_spec(series), ::cp::charts::screen_look());
}

QChart* gemm_chart(const std::vector<GemmBar>& bars, const QString& source) {
    return ::cp::charts::make_chart(::cp::charts::gemm_spec(bars, source),
                                    ::cp::charts::screen_look());
}

} // namespace cp::gui::charts
