// Editor fields with a range, unit suffix and tooltip, shared by the scenario editor's forms.
#pragma once

#include <QString>
#include <QStringList>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QSpinBox;

namespace cp::gui {

QSpinBox* int_field(int min, int max, const QString& suffix, const QString& tip);
QDoubleSpinBox* real_field(double min, double max, int decimals, const QString& suffix,
                           const QString& tip);
QComboBox* choice_field(const QStringList& labels, const QString& tip);
// A form inside `group`: right-aligned labels, fields that grow.
QFormLayout* form_in(QGroupBox* group);

} // namespace cp::gui
