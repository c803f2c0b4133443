// Catalog page: the region picker (every AWS region, prices of the picked one), estimate marks,
// and Catalog → Refresh against fixture files served on 127.0.0.1 — progress while it runs,
// several regions' prices after it, and Cancel leaving the database exactly as it was.
#include "app_context.h"
#include "clusterplan/catalog/catalog.h"
#include "gui_test_support.h"
#include "local_http_server.h"
#include "main_window.h"
#include "models/instance_table_model.h"
#include "pages/catalog_page.h"

#include <QComboBox>
#include <QDir>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <catch2/catch.hpp>
#include <filesystem>

using namespace cp::gui;
using cp::test::LocalHttpServer;

namespace {

std::string dump(const QString& db) {
    return cp::catalog::Catalog(std::filesystem::path(db.toStdString())).dump();
}

std::filesystem::path mirror() {
    return std::filesystem::path(CLUSTERPLAN_TEST_DATA_DIR) / "catalog" / "refresh";
}

int row_of(const InstanceTableModel* model, const char* type) {
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->data(model->index(r, InstanceTableModel::Type)).toString() ==
            QLatin1String(type))
            return r;
    return -1;
}

QString cell(const InstanceTableModel* model, const char* type, int column,
             int role = Qt::DisplayRole) {
    const int r = row_of(model, type);
    return r < 0 ? QString() : model->data(model->index(r, column), role).toString();
}

} // namespace

TEST_CASE_METHOD(test::Workbench,
                 "Catalog region picker offers every AWS region and marks estimated figures",
                 "[gui][catalog][refresh]") {
    CatalogPage* page = window.catalogPage();
    QComboBox* regions = page->regionPicker();
    REQUIRE(regions->count() >= 30);
    for (const char* r : {"us-east-1", "us-west-2", "eu-west-1", "ap-southeast-4", "sa-east-1"})
        CHECK(regions->findData(QLatin1String(r)) >= 0);
    CHECK(page->region() == QLatin1String("us-east-1"));
    // A region the seed has no prices for says so in the picker.
    CHECK(regions->itemText(regions->findData(QStringLiteral("eu-west-1"))).contains("no prices"));

    const InstanceTableModel* model = page->model();
    CHECK(cell(model, "g5.12xlarge", InstanceTableModel::Accelerator) == QStringLiteral("A10G *"));
    CHECK(cell(model, "g5.12xlarge", InstanceTableModel::Accelerator, Qt::ToolTipRole)
              .contains(QLatin1String("estimates")));
    CHECK(cell(model, "p4d.24xlarge", InstanceTableModel::Accelerator) ==
          QStringLiteral("A100-40GB"));
    const auto detail = context.catalog().detail(QStringLiteral("g5.12xlarge"));
    REQUIRE(detail);
    bool bf16_marked = false;
    for (const auto& [label, value] : detail->accelerator_specs)
        bf16_marked = bf16_marked || (label == QLatin1String("BF16 dense") &&
                                      value.contains(QLatin1String("(est.)")));
    CHECK(bf16_marked);

    // Picking an unpriced region keeps the hardware and shows no prices.
    page->setRegion(QStringLiteral("eu-west-1"));
    CHECK(page->model()->rowCount() > 40);
    CHECK(cell(model, "p4d.24xlarge", InstanceTableModel::OnDemand) == QStringLiteral("\u2014"));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench,
                 "Catalog Refresh imports the picked regions with progress, Cancel changes nothing",
                 "[gui][catalog][refresh]") {
    CatalogPage* page = window.catalogPage();
    LocalHttpServer server(mirror());
    const std::string before = dump(data.databasePath());

    SECTION("cancelled while a price list stalls") {
        server.set_mode(LocalHttpServer::Mode::stall, "eu-west-1");
        QSignalSpy finished(page, &CatalogPage::refreshFinished);
        page->startRefresh({QStringLiteral("eu-west-1")},
                           QString::fromStdString(server.base_url()));
        CHECK(page->busy());
        CHECK_FALSE(page->refreshButton()->isEnabled());
        // The stalled download has started: its progress line is on the page.
        REQUIRE(test::wait_until([&] { return page->message().contains("eu-west-1 price list"); },
                                 10000));
        test::keep_shot(window, QStringLiteral("catalog"),
                        QStringLiteral("catalog-refresh-progress.png"), 1400);
        page->cancelImport(); // the Cancel button's slot, shared by imports and refreshes
        REQUIRE(finished.wait(20000));
        CHECK(finished.first().first().toBool() == false);
        CHECK(page->messageIsError());
        CHECK(page->message().contains(QLatin1String("cancelled")));
        CHECK(dump(data.databasePath()) == before);
        CHECK_FALSE(page->busy());
        CHECK(page->refreshButton()->isEnabled());
    }
    SECTION("two regions, then their prices in the table") {
        QSignalSpy finished(page, &CatalogPage::refreshFinished);
        int highest_progress = 0;
        QObject::connect(page->progressBar(), &QProgressBar::valueChanged,
                         [&](int v) { highest_progress = std::max(highest_progress, v); });
        page->startRefresh({QStringLiteral("eu-west-1"), QStringLiteral("us-west-2")},
                           QString::fromStdString(server.base_url()));
        REQUIRE(finished.wait(30000));
        INFO(page->message().toStdString());
        CHECK(finished.first().first().toBool() == true);
        CHECK_FALSE(page->messageIsError());
        CHECK(page->message().contains(QLatin1String("Refreshed")));
        CHECK(highest_progress > 0);
        CHECK(dump(data.databasePath()) != before);
        QComboBox* regions = page->regionPicker();
        CHECK(regions->itemText(regions->findData(QStringLiteral("eu-west-1"))) ==
              QStringLiteral("eu-west-1"));
        page->setRegion(QStringLiteral("eu-west-1"));
        CHECK(cell(page->model(), "p4d.24xlarge", InstanceTableModel::OnDemand) !=
              QStringLiteral("\u2014"));
        page->setRegion(QStringLiteral("us-west-2"));
        const int g5 = row_of(page->model(), "g5.48xlarge");
        REQUIRE(g5 >= 0);
        page->table()->selectRow(page->proxy()->mapFromSource(page->model()->index(g5, 0)).row());
        test::keep_shot(window, QStringLiteral("catalog"),
                        QStringLiteral("catalog-refreshed-us-west-2.png"), 1400);
    }
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench, "Catalog Refresh refuses a bad base URL in the window",
                 "[gui][catalog][refresh]") {
    CatalogPage* page = window.catalogPage();
    QSignalSpy finished(page, &CatalogPage::refreshFinished);
    page->startRefresh({QStringLiteral("us-east-1")}, QStringLiteral("ftp://127.0.0.1/"));
    REQUIRE(finished.count() == 1);
    CHECK(finished.first().first().toBool() == false);
    CHECK(page->messageIsError());
    CHECK(page->message().contains(QLatin1String("http")));
    CHECK_FALSE(page->busy());
}
