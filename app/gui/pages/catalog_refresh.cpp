// Catalog → Refresh: the service layer's refresh on a worker thread, its progress marshalled
// back to the page, Cancel setting the flag the downloads and the import poll.
#include "clusterplan/service/catalog_refresh.h"

#include "app_context.h"
#include "catalog_service.h"
#include "pages/catalog_page.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace cp::gui {

namespace {

// What the worker hands back: an error sentence, or the import's summary lines.
struct RefreshOutcome {
    QString error;
    QStringList lines;
    std::size_t prices = 0;
    std::size_t advisor_rows = 0;
};

// Progress bar resolution: a thousandth of the whole refresh.
constexpr int kProgressSteps = 1000;

} // namespace

void CatalogPage::startRefresh(const QStringList& regions, const QString& base_url) {
    if (busy()) return;
    service::RefreshRequest request;
    for (const QString& r : regions.isEmpty() ? QStringList{region()} : regions)
        request.regions.push_back(r.toStdString());
    request.base_url = base_url.toStdString();
    try {
        service::check_refresh_request(request);
    } catch (const std::exception& e) {
        setMessage(tr("Refresh not started: %1").arg(QString::fromStdString(e.what())), true);
        emit refreshFinished(false);
        return;
    }
    refreshing_ = true;
    setBusy(true);
    progress_->setRange(0, kProgressSteps);
    progress_->setValue(0);
    progress_->setFormat(QStringLiteral("%p%"));
    setMessage(tr("Refreshing %1 from %2…")
                   .arg(QString::fromStdString(request.regions.front()),
                        base_url.isEmpty() ? tr("AWS") : base_url),
               false);

    // Progress arrives on the worker thread; the page may be gone by the time it is delivered.
    const QPointer<CatalogPage> page(this);
    const service::RefreshProgressFn progress = [page](const catalog::RefreshProgress& p) {
        const QString text = QString::fromStdString(service::progress_text(p));
        const int value = static_cast<int>(service::progress_fraction(p) * kProgressSteps);
        if (!page) return;
        QMetaObject::invokeMethod(
            page.data(),
            [page, text, value] {
                if (!page || !page->refreshing_) return;
                page->progress_->setValue(value);
                page->setMessage(text, false);
            },
            Qt::QueuedConnection);
    };

    auto* watcher = new QFutureWatcher<RefreshOutcome>(this);
    connect(watcher, &QFutureWatcher<RefreshOutcome>::finished, this, [this, watcher] {
        const RefreshOutcome out = watcher->result();
        watcher->deleteLater();
        refreshing_ = false;
        setBusy(false);
        if (!out.error.isEmpty()) {
            setMessage(out.error, true);
            emit refreshFinished(false);
            return;
        }
        context_.catalog().reload();
        context_.notifyCatalogChanged();
        setMessage(tr("Refreshed: %1 prices, %2 Spot Advisor rows.\n%3")
                       .arg(out.prices)
                       .arg(out.advisor_rows)
                       .arg(out.lines.join(QLatin1Char('\n'))),
                   false);
        emit statusMessage(tr("Catalog refreshed"));
        emit refreshFinished(true);
    });
    const std::filesystem::path db = context_.catalog().databasePath().toStdString();
    const std::shared_ptr<std::atomic<bool>> cancel = cancel_;
    watcher->setFuture(QtConcurrent::run([db, request, cancel, progress] {
        RefreshOutcome out;
        try {
            // The GUI never waits on the AWS CLI: it may prompt or take minutes per region.
            service::RefreshRequest req = request;
            req.use_aws_cli = false;
            const catalog::RefreshReport report =
                service::refresh_catalog_at(db, req, cancel.get(), progress);
            for (const auto& line : report.lines)
                out.lines << QString::fromStdString(line);
            out.prices = report.prices_written;
            out.advisor_rows = report.advisor_rows_written;
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

} // namespace cp::gui
