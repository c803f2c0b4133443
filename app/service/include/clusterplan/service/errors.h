// The app layer's bad-input error: one sentence naming file, field and reason. The CLI reports
// it with exit code 2, the GUI shows it as a message.
#pragma once

#include <stdexcept>

namespace cp::service {

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace cp::service
