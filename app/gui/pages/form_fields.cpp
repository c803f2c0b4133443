#include "pages/form_fields.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLocale>
#include <QSpinBox>
#include <QWidget>
#include <cfloat>

namespace cp::gui {

QSpinBox* int_field(int min, int max, const QString& suffix, const QString& tip) {
    auto* box = new QSpinBox;
    box->setRange(min, max);
    box->setSuffix(suffix);
    box->setToolTip(tip);
    box->setAccelerated(true);
    return box;
}

void share_row_width(QWidget* field) {
    // A spin box's minimum hint spans its range too: room for eight digits and the arrows.
    field->setMinimumWidth(field->fontMetrics().horizontalAdvance(QStringLiteral("00000000")) +
                           field->fontMetrics().height() * 2);
    field->setSizePolicy(QSizePolicy::Ignored, field->sizePolicy().verticalPolicy());
}

namespace {

// Shows and takes a value as its shortest round-tripping decimal, so the field holds any double
// the scenario parser accepts: a fixed number of decimals rounded 2.5e-4 req/s to 0 ("saturated")
// and a 12.25 h deadline to 12.3 h.
class ExactDoubleSpinBox : public QDoubleSpinBox {
public:
    ExactDoubleSpinBox() {
        // QDoubleSpinBox rounds every value to its decimals; its ceiling (DBL_MAX_10_EXP +
        // DBL_DIG) is far below the spacing of doubles in any field's range, so nothing rounds.
        setDecimals(DBL_MAX_10_EXP + DBL_DIG);
    }
    QString textFromValue(double value) const override {
        QLocale shown = locale();
        shown.setNumberOptions(shown.numberOptions() | QLocale::OmitGroupSeparator);
        return shown.toString(value, 'f', QLocale::FloatingPointShortest);
    }
};

} // namespace

QDoubleSpinBox* real_field(double min, double max, const QString& suffix, const QString& tip) {
    QDoubleSpinBox* box = new ExactDoubleSpinBox;
    box->setRange(min, max);
    box->setSuffix(suffix);
    box->setToolTip(tip);
    box->setAccelerated(true);
    return box;
}

QComboBox* choice_field(const QStringList& labels, const QString& tip) {
    auto* box = new QComboBox;
    box->addItems(labels);
    box->setToolTip(tip);
    return box;
}

QFormLayout* form_in(QGroupBox* group) {
    auto* form = new QFormLayout(group);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return form;
}

} // namespace cp::gui
