// The Serve page's question editor: model, engine, precision, layout per replica (TP, PP, batch,
// engine build), traffic (requests/s, tokens in and out), latency limits (TTFT, TPOT at a
// quantile), replicas, purchase option and instance filter. It only holds the fields: the service
// turns a question into a scenario and refuses bad input. A transformer's shape (Mixture-of-
// Experts routing included) is edited with the Plan page's shape fields: an edit is written over
// the model section field by field and read back by the scenario parser before the question takes
// it; the pipeline degree and replica count are read back the same way. A refused edit leaves the
// question as it was and the form says why, naming the field.
#pragma once

#include "clusterplan/service/serving_study.h"

#include <QWidget>
#include <string>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QToolButton;

namespace cp::gui {

class ModelShapeFields;

class ServingForm : public QWidget {
    Q_OBJECT
public:
    explicit ServingForm(QWidget* parent = nullptr);

    service::ServingQuestion question() const;
    // Fills the fields without emitting changed().
    void setQuestion(const service::ServingQuestion& question);

    ModelShapeFields* shapeFields() const { return shape_; }
    // Why the last shape, pipeline or replica edit was refused (the parser's sentence naming the
    // field), or empty.
    QString message() const;

signals:
    void changed();
    // The shape rows opened or closed: the form asks for another width.
    void widthChanged();

private:
    // setQuestion() without its signals.
    void fill(const service::ServingQuestion& question);
    // Encoders and CNNs generate nothing: their output tokens and TPOT are fixed at "none".
    void updateForModel();
    // Shows the chosen model's shape (hidden for a CNN, which has none) and clears the message.
    void showModelShape();
    // Writes the edited shape over the model section; a refused shape leaves the question as it
    // was and says why.
    void reshapeModel();
    // Shows the shape rows while they are open and the model has a shape; the message while set.
    void updateShapeRows();
    // Puts the scenario's own model first in the model box and chooses it.
    void offerScenarioModel();
    // Takes the pipeline degree, replica count, batch or engine max batch the fields show once
    // the parser accepts the question with them, as the value is entered (a batch above the
    // engine's max batch is named then, not first when planned); a refused value keeps the last
    // accepted one and says why.
    void commitLayout();

    QComboBox* model_ = nullptr;
    QComboBox* engine_ = nullptr;
    QComboBox* weights_ = nullptr;
    QComboBox* kv_cache_ = nullptr;
    QSpinBox* tp_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QSpinBox* engine_max_batch_ = nullptr;
    QCheckBox* gqa_shared_kv_reads_ = nullptr;
    QCheckBox* async_scheduling_ = nullptr;
    QCheckBox* on_device_sampling_ = nullptr;
    QDoubleSpinBox* rate_ = nullptr;
    QSpinBox* input_tokens_ = nullptr;
    QSpinBox* output_tokens_ = nullptr;
    QDoubleSpinBox* ttft_ = nullptr;
    QDoubleSpinBox* tpot_ = nullptr;
    QComboBox* quantile_ = nullptr;
    QComboBox* pricing_ = nullptr;
    QLineEdit* instances_ = nullptr;
    QFormLayout* model_form_ = nullptr;
    ModelShapeFields* shape_ = nullptr;
    QToolButton* shape_toggle_ = nullptr;
    QLabel* message_ = nullptr;
    // The shape toggle's text: the dense shape, and the routing while folded.
    QString shape_summary_;
    QString routing_summary_;
    QSpinBox* pp_field_ = nullptr;
    QSpinBox* replicas_field_ = nullptr;
    bool shape_open_ = false;
    bool shape_editable_ = true; // a transformer (a CNN has no shape)
    QString region_;
    QString name_;
    std::string cluster_json_; // custom hardware, calibration profile: carried as the file has them
    // The accepted pipeline degree, replica count, batch and engine max batch (the fields may show
    // a refused value); a new
    // model drops the pipeline degree, which is stated per model (it must divide the layers).
    int pp_ = 0;
    int replicas_ = 0;
    int batch_accepted_ = 0;
    int engine_max_batch_accepted_ = 0;
    // A model the scenario file shapes (no preset, or overridden fields): offered as the first
    // entry of the model box while it is the one loaded, and written back as the file has it.
    std::string model_json_;
    std::string model_preset_;
    bool model_generates_ = true;
    bool scenarioModelChosen() const;
};

} // namespace cp::gui
