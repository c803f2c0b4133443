#include "pages/catalog_page.h"

#include "app_context.h"
#include "catalog_service.h"
#include "format.h"
#include "models/instance_table_model.h"
#include "pages/result_table.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <set>

namespace cp::gui {

namespace {
// Text filter over every column plus an exact family filter.
class InstanceFilterProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setFamily(const QString& family) {
        family_ = family;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        if (!family_.isEmpty()) {
            const QModelIndex fam = sourceModel()->index(row, InstanceTableModel::Family, parent);
            if (sourceModel()->data(fam).toString() != family_) return false;
        }
        const QString text = filterRegularExpression().pattern();
        if (text.isEmpty()) return true;
        for (int c = 0; c < sourceModel()->columnCount(parent); ++c) {
            if (sourceModel()
                    ->data(sourceModel()->index(row, c, parent))
                    .toString()
                    .contains(text, Qt::CaseInsensitive)) {
                return true;
            }
        }
        return false;
    }

private:
    QString family_;
};
} // namespace

CatalogPage::CatalogPage(AppContext& context, QWidget* parent) : Page(parent), context_(context) {
    model_ = new InstanceTableModel(this);
    auto* proxy = new InstanceFilterProxy(this);
    proxy_ = proxy;
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(InstanceTableModel::SortRole);

    filter_ = new QLineEdit;
    filter_->setPlaceholderText(tr("Filter: type, accelerator, family…"));
    filter_->setClearButtonEnabled(true);
    filter_->setToolTip(tr("Shows rows where any column contains this text (Ctrl+F)."));
    auto* find = new QAction(this);
    find->setShortcut(QKeySequence::Find);
    connect(find, &QAction::triggered, filter_, [this] {
        filter_->setFocus();
        filter_->selectAll();
    });
    addAction(find);
    family_ = new QComboBox;
    family_->setToolTip(tr("Show one instance family only."));
    region_ = new QComboBox;
    region_->setObjectName(QStringLiteral("catalogRegion"));
    region_->setToolTip(tr("Region whose prices the table shows; Refresh downloads its price "
                           "list. Regions without prices yet show only the hardware."));
    compare_button_ = new QPushButton(tr("Compare selected"));
    compare_button_->setToolTip(
        tr("Select several rows (Ctrl/Shift+click), then compare them side by side."));
    format_ = new QComboBox;
    format_->addItem(tr("Detect format"), QString());
    for (const QString& f : CatalogService::importFormats()) {
        if (!f.isEmpty()) format_->addItem(f, f);
    }
    format_->setToolTip(
        tr("Format of the file to import: AWS spot price history JSON, Spot Advisor "
           "JSON, SkyPilot vms.csv, AWS price-list CSV or ClusterPlan CSV."));
    import_button_ = new QPushButton(tr("Import…"));
    import_button_->setToolTip(
        tr("Import prices from a file in one transaction; a bad file changes nothing (Ctrl+I)."));
    refresh_button_ = new QPushButton(tr("Refresh"));
    refresh_button_->setToolTip(
        tr("Download the picked region's EC2 price list, the spot price feed and the Spot "
           "Advisor data from AWS and import them in one transaction; a failure changes nothing."));
    cancel_button_ = new QPushButton(tr("Cancel"));
    cancel_button_->setVisible(false);
    progress_ = new QProgressBar;
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(160);
    progress_->setVisible(false);
    auto* bar = new QHBoxLayout;
    bar->addWidget(filter_, 2);
    bar->addWidget(region_);
    bar->addWidget(family_);
    bar->addWidget(compare_button_);
    bar->addStretch(1);
    bar->addWidget(progress_);
    bar->addWidget(cancel_button_);
    bar->addWidget(format_);
    bar->addWidget(import_button_);
    bar->addWidget(refresh_button_);

    message_ = new QLabel;
    message_->setObjectName(QStringLiteral("catalogMessage"));
    message_->setWordWrap(true);
    message_->setVisible(false);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    table_ = make_result_table(proxy_, QAbstractItemView::ExtendedSelection);
    table_->setSortingEnabled(true);
    table_->sortByColumn(InstanceTableModel::Family, Qt::AscendingOrder);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);

    side_ = new QTabWidget;
    detail_ = new QTextBrowser;
    detail_->setOpenExternalLinks(false);
    compare_ = new QTableWidget;
    compare_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    compare_->setAlternatingRowColors(true);
    side_->addTab(detail_, tr("Details"));
    side_->addTab(compare_, tr("Compare"));
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(table_);
    splitter->addWidget(side_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({900, 330});

    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(6, 6, 6, 6);
    root->addLayout(bar);
    root->addWidget(message_);
    root->addWidget(splitter, 1);

    connect(filter_, &QLineEdit::textChanged, this, &CatalogPage::applyFilter);
    connect(family_, &QComboBox::currentIndexChanged, this, &CatalogPage::applyFilter);
    connect(region_, &QComboBox::currentIndexChanged, this, &CatalogPage::showRegion);
    connect(refresh_button_, &QPushButton::clicked, this, [this] { startRefresh(); });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &CatalogPage::showDetail);
    connect(compare_button_, &QPushButton::clicked, this, &CatalogPage::compareSelected);
    connect(import_button_, &QPushButton::clicked, this, &CatalogPage::importInteractive);
    connect(cancel_button_, &QPushButton::clicked, this, &CatalogPage::cancelImport);
    connect(&context_, &AppContext::catalogChanged, this, &CatalogPage::reload);
    reload();
    if (proxy_->rowCount() > 0) table_->selectRow(0);
}

void CatalogPage::fillRegions() {
    const QString current = region().isEmpty() ? QStringLiteral("us-east-1") : region();
    const QStringList priced = context_.catalog().pricedRegions();
    const QSignalBlocker block(region_);
    region_->clear();
    for (const QString& r : context_.catalog().regionChoices())
        region_->addItem(priced.contains(r) ? r : tr("%1 (no prices)").arg(r), r);
    const int i = region_->findData(current);
    region_->setCurrentIndex(i >= 0 ? i : 0);
}

QString CatalogPage::region() const {
    return region_->currentData().toString();
}

void CatalogPage::setRegion(const QString& region) {
    const int i = region_->findData(region);
    if (i >= 0) region_->setCurrentIndex(i);
}

void CatalogPage::reload() {
    fillRegions();
    showRegion();
}

void CatalogPage::showRegion() {
    model_->setRows(context_.catalog().instances(region()));
    std::set<QString> families;
    for (int r = 0; r < model_->rowCount(); ++r)
        families.insert(model_->rowAt(r)->family);
    const QString current = family_->currentData().toString();
    {
        const QSignalBlocker block(family_);
        family_->clear();
        family_->addItem(tr("All families"), QString());
        for (const QString& f : families)
            family_->addItem(f, f);
        const int i = family_->findData(current);
        family_->setCurrentIndex(i >= 0 ? i : 0);
    }
    applyFilter();
    table_->resizeColumnsToContents();
    if (!context_.catalog().openError().isEmpty()) setMessage(context_.catalog().openError(), true);
}

void CatalogPage::applyFilter() {
    static_cast<InstanceFilterProxy*>(proxy_)->setFamily(family_->currentData().toString());
    // The pattern only carries the text; matching (plain, case-insensitive) is in filterAcceptsRow.
    proxy_->setFilterRegularExpression(filter_->text());
}

void CatalogPage::showDetail() {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    compare_button_->setEnabled(rows.size() >= 2);
    if (rows.isEmpty()) return;
    const InstanceRow* row = model_->rowAt(proxy_->mapToSource(rows.front()).row());
    if (!row) return;
    const auto d = context_.catalog().detail(row->type, region());
    if (!d) return;
    QString html = QStringLiteral("<h3>%1</h3><p>%2 · %3 vCPU · %4 host memory · %5 × %6</p>")
                       .arg(d->row.type.toHtmlEscaped(), d->row.family.toHtmlEscaped())
                       .arg(fmt_num(d->vcpus, 0))
                       .arg(fmt_gib(d->memory_gib))
                       .arg(d->row.accelerator_count)
                       .arg(d->row.accelerator.toHtmlEscaped());
    if (!d->row.can_train) {
        html += tr("<p><b>Inference:</b> %1 is an inference chip; plan serving on it "
                   "(clusterplan serve); training is not offered.</p>")
                    .arg(d->row.accelerator.toHtmlEscaped());
    }
    html += tr("<h4>Accelerator</h4><table cellspacing='0' cellpadding='2'>");
    for (const auto& [k, v] : d->accelerator_specs) {
        html += QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                    .arg(k.toHtmlEscaped(), v.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    html += tr("<h4>Current prices</h4><table cellspacing='0' cellpadding='2'>"
               "<tr><th align='left'>Where</th><th align='left'>Kind</th>"
               "<th align='right'>$/h</th><th align='left'>&nbsp;As of</th></tr>");
    for (const PriceRow& p : d->prices) {
        const QString where = p.zone.startsWith('(') ? p.region : p.zone;
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td align='right'>%3</td><td "
                               "style='white-space:nowrap'>&nbsp;%4</td></tr>")
                    .arg(where.toHtmlEscaped(),
                         p.kind == QLatin1String("on_demand") ? tr("on-demand")
                                                              : p.kind.toHtmlEscaped(),
                         fmt_num(p.usd_per_hour, 4), p.as_of.toHtmlEscaped());
    }
    if (d->prices.empty()) html += tr("<tr><td colspan='4'>No prices recorded.</td></tr>");
    html += QStringLiteral("</table>");
    html += tr("<h4>Network</h4><p>%1 Gbps%2, EFA: %3; intra-node: %4</p>")
                .arg(fmt_num(d->row.network_gbps, 0),
                     d->row.network_up_to ? tr(" (up to)") : QString(), fmt_yes_no(d->row.efa),
                     d->row.interconnect.isEmpty() ? kDash : d->row.interconnect.toHtmlEscaped());
    if (!d->notes.isEmpty()) html += tr("<p><i>Notes:</i> %1</p>").arg(d->notes.toHtmlEscaped());
    html += tr("<p><small>Sources: %1</small></p>").arg(d->source.toHtmlEscaped());
    detail_->setHtml(html);
}

void CatalogPage::compareSelected() {
    QModelIndexList rows = table_->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    const QStringList attributes = {tr("Family"),         tr("Accelerator"), tr("Count"),
                                    tr("Memory / accel"), tr("Network"),     tr("EFA"),
                                    tr("Interconnect"),   tr("On-demand"),   tr("Spot"),
                                    tr("Interruptions"),  tr("Price age")};
    compare_->clear();
    compare_->setRowCount(int(attributes.size()));
    compare_->setColumnCount(int(rows.size()));
    compare_->setVerticalHeaderLabels(attributes);
    int c = 0;
    for (const QModelIndex& index : rows) {
        const InstanceRow* r = model_->rowAt(proxy_->mapToSource(index).row());
        if (!r) continue;
        compare_->setHorizontalHeaderItem(c, new QTableWidgetItem(r->type));
        const QStringList values = {
            r->family,
            r->accelerator.isEmpty() ? kDash : r->accelerator,
            QString::number(r->accelerator_count),
            fmt_gib(r->accelerator_memory_gib),
            std::isnan(r->network_gbps) ? kDash
                                        : (r->network_up_to ? tr("up to ") : QString()) +
                                              fmt_num(r->network_gbps, 0) + tr(" Gbps"),
            fmt_yes_no(r->efa),
            r->interconnect.isEmpty() ? kDash : r->interconnect,
            fmt_usd_per_hour(r->on_demand_usd_per_hour),
            fmt_usd_per_hour(r->spot_usd_per_hour),
            InstanceTableModel::interruptionText(r->interruption_bucket),
            std::isnan(r->price_age_days) ? kDash
                                          : tr("%1 days").arg(fmt_num(r->price_age_days, 0))};
        for (int a = 0; a < values.size(); ++a)
            compare_->setItem(a, c, new QTableWidgetItem(values[a]));
        ++c;
    }
    compare_->resizeColumnsToContents();
    side_->setCurrentWidget(compare_);
}

void CatalogPage::importInteractive() {
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Import catalog data"), QString(), tr("Price data (*.json *.csv);;All files (*)"));
    if (!file.isEmpty()) startImport(file, format_->currentData().toString());
}

void CatalogPage::setBusy(bool busy) {
    import_button_->setEnabled(!busy);
    refresh_button_->setEnabled(!busy);
    progress_->setVisible(busy);
    cancel_button_->setVisible(busy);
    if (busy) cancel_ = std::make_shared<std::atomic<bool>>(false);
}

void CatalogPage::startImport(const QString& file, const QString& format) {
    if (busy()) return;
    importing_ = true;
    setBusy(true);
    progress_->setRange(0, 0);
    setMessage(tr("Importing %1…").arg(file), false);
    auto summary = std::make_shared<QString>();
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, file, summary] {
        const QString error = watcher->result();
        watcher->deleteLater();
        importing_ = false;
        setBusy(false);
        if (!error.isEmpty()) {
            setMessage(tr("Import failed, nothing was changed: %1").arg(error), true);
            emit importFinished(false);
            return;
        }
        context_.catalog().reload();
        context_.notifyCatalogChanged();
        setMessage(tr("Imported %1: %2").arg(file, *summary), false);
        emit statusMessage(tr("Catalog updated from %1").arg(file));
        emit importFinished(true);
    });
    const QString db = context_.catalog().databasePath();
    const std::shared_ptr<std::atomic<bool>> cancel = cancel_;
    watcher->setFuture(QtConcurrent::run([db, file, format, cancel, summary] {
        return CatalogService::importFile(db, file, format, cancel.get(), summary.get());
    }));
}

void CatalogPage::cancelImport() {
    if (cancel_) cancel_->store(true);
}

QString CatalogPage::message() const {
    return message_->text();
}

void CatalogPage::setMessage(const QString& text, bool error) {
    message_is_error_ = error;
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
    message_->setStyleSheet(
        error ? QStringLiteral("QLabel { border: 1px solid #c0392b; padding: 4px; }")
              : QStringLiteral("QLabel { padding: 4px; }"));
}

} // namespace cp::gui
