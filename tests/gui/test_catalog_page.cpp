// Catalog page: the table model, filtering, comparison, and imports — a bad file shows an
// error in the window and leaves the database exactly as it was.
#include "app_context.h"
#include "catalog_service.h"
#include "clusterplan/catalog/catalog.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "models/instance_table_model.h"
#include "pages/catalog_page.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <catch2/catch.hpp>
#include <filesystem>

using namespace cp::gui;

namespace {
std::string dump(const QString& db) {
    return cp::catalog::Catalog(std::filesystem::path(db.toStdString())).dump();
}
QString catalog_data(const char* name) {
    return QStringLiteral(CLUSTERPLAN_TEST_DATA_DIR "/catalog/") + QLatin1String(name);
}
} // namespace

TEST_CASE_METHOD(test::Workbench,
                 "Catalog table lists the bundled instances with unknowns as a dash",
                 "[gui][catalog]") {
    CatalogPage* page = window.catalogPage();
    InstanceTableModel* model = page->model();
    REQUIRE(model->rowCount() > 40);
    bool found_p4d = false;
    bool any_dash = false;
    for (int r = 0; r < model->rowCount(); ++r) {
        const QString type = model->data(model->index(r, InstanceTableModel::Type)).toString();
        found_p4d = found_p4d || type == QLatin1String("p4d.24xlarge");
        for (int c = 0; c < model->columnCount(); ++c) {
            any_dash =
                any_dash || model->data(model->index(r, c)).toString() == QStringLiteral("\u2014");
        }
    }
    CHECK(found_p4d);
    CHECK(any_dash); // the seed leaves some cells unknown; they must not show as 0
    // EFA is a fact too: unknown (p3.2xlarge's cell is empty) is a dash, not "no".
    for (int r = 0; r < model->rowCount(); ++r) {
        const QString type = model->data(model->index(r, InstanceTableModel::Type)).toString();
        const QString efa = model->data(model->index(r, InstanceTableModel::Efa)).toString();
        if (type == QLatin1String("p3.2xlarge")) CHECK(efa == QStringLiteral("\u2014"));
        if (type == QLatin1String("p4d.24xlarge")) CHECK(efa == QStringLiteral("yes"));
        if (type == QLatin1String("g5.4xlarge")) CHECK(efa == QStringLiteral("no"));
    }

    // Numeric sort: on-demand price ascending puts unknown prices last.
    page->table()->sortByColumn(InstanceTableModel::OnDemand, Qt::AscendingOrder);
    QSortFilterProxyModel* proxy = page->proxy();
    double previous = -1;
    for (int r = 0; r < proxy->rowCount(); ++r) {
        const double v =
            proxy->data(proxy->index(r, InstanceTableModel::OnDemand), InstanceTableModel::SortRole)
                .toDouble();
        CHECK(v >= previous);
        previous = v;
    }
    // Instance types sort by size, not character by character: xlarge, 2xlarge, 12xlarge, metal.
    auto row_of = [&](const char* type) {
        for (int r = 0; r < proxy->rowCount(); ++r) {
            if (proxy->data(proxy->index(r, InstanceTableModel::Type)).toString() ==
                QLatin1String(type))
                return r;
        }
        return -1;
    };
    for (const int column : {int(InstanceTableModel::Type), int(InstanceTableModel::Family)}) {
        page->table()->sortByColumn(column, Qt::AscendingOrder);
        REQUIRE(row_of("g4dn.2xlarge") >= 0);
        CHECK(row_of("g4dn.2xlarge") < row_of("g4dn.12xlarge"));
        CHECK(row_of("g4dn.12xlarge") < row_of("g4dn.16xlarge"));
        CHECK(row_of("g4dn.xlarge") < row_of("g4dn.2xlarge"));
        CHECK(row_of("g4dn.16xlarge") < row_of("g4dn.metal"));
    }
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench, "Catalog filter and side-by-side comparison", "[gui][catalog]") {
    CatalogPage* page = window.catalogPage();
    auto* filter = page->findChild<QLineEdit*>();
    REQUIRE(filter);
    filter->setText(QStringLiteral("A100"));
    QSortFilterProxyModel* proxy = page->proxy();
    REQUIRE(proxy->rowCount() >= 2);
    for (int r = 0; r < proxy->rowCount(); ++r) {
        CHECK(proxy->data(proxy->index(r, InstanceTableModel::Accelerator))
                  .toString()
                  .contains("A100"));
    }
    page->table()->selectAll();
    page->compareSelected();
    guard.rescan();
    // For a look at the comparison (as test_palette does for every page).
    test::keep_shot(window, QStringLiteral("catalog"), QStringLiteral("catalog-compare.png"));
    CHECK(page->comparison()->columnCount() == proxy->rowCount());
    CHECK(page->comparison()->rowCount() > 5);
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench, "Importing a bad file shows an error and changes nothing",
                 "[gui][catalog]") {
    CatalogPage* page = window.catalogPage();
    const std::string before = dump(data.databasePath());
    const int rows_before = page->model()->rowCount();

    for (const char* bad : {"aws_price_list_bad_price.csv", "skypilot_vms_negative_price.csv",
                            "spot_advisor_bad_bucket.json"}) {
        QSignalSpy finished(page, &CatalogPage::importFinished);
        page->startImport(catalog_data(bad));
        REQUIRE(finished.wait(30000));
        CHECK(finished.first().first().toBool() == false);
        CHECK(page->messageIsError());
        INFO(page->message().toStdString());
        CHECK(page->message().contains(QLatin1String(bad)));
        CHECK(dump(data.databasePath()) == before);
        CHECK(page->model()->rowCount() == rows_before);
    }
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench, "Importing a good file updates the catalog and the table",
                 "[gui][catalog]") {
    CatalogPage* page = window.catalogPage();
    const std::string before = dump(data.databasePath());
    QSignalSpy finished(page, &CatalogPage::importFinished);
    page->startImport(catalog_data("spot_advisor.json"));
    REQUIRE(finished.wait(30000));
    INFO(page->message().toStdString());
    CHECK(finished.first().first().toBool() == true);
    CHECK_FALSE(page->messageIsError());
    CHECK(dump(data.databasePath()) != before);
    CHECK(page->model()->rowCount() > 40);
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE("A damaged user database is reported and can be rebuilt with a backup",
          "[gui][catalog]") {
    test::TempDataDir data;
    {
        QFile f(data.databasePath());
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
    }
    CatalogService service;
    REQUIRE_FALSE(service.openError().isEmpty());
    CHECK(service.instances().empty());
    REQUIRE(service.rebuildFromSnapshot().isEmpty());
    CHECK(service.openError().isEmpty());
    CHECK(service.instances().size() > 40);
    CHECK(QFileInfo::exists(service.lastBackupPath()));
}
