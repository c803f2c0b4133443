// Editor fields with a range, unit suffix and tooltip, shared by the scenario editor's forms.
#pragma once

#include <QString>
#include <QStringList>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QSpinBox;
class QWidget;

namespace cp::gui {

QSpinBox* int_field(int min, int max, const QString& suffix, const QString& tip);
// A real field that holds every double in [min, max] as given (no rounding to decimals): the
// fields carry scenario values, and a rounded one would silently change the scenario.
QDoubleSpinBox* real_field(double min, double max, const QString& suffix, const QString& tip);
QComboBox* choice_field(const QStringList& labels, const QString& tip);
// The field takes the width its row is given instead of asking for its own: a spin box sized for
// the parser's whole range ("10000000.000 req/s") would otherwise widen the whole form.
void share_row_width(QWidget* field);
// A form inside `group`: right-aligned labels, fields that grow.
QFormLayout* form_in(QGroupBox* group);

} // namespace cp::gui
