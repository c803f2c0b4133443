// The optional AWS CLI step of a refresh: `aws ec2 describe-spot-price-history` for the
// catalog's instance types over the last 30 days, run without a shell, bounded in time and size.
#pragma once

#include <atomic>
#include <filesystem>
#include <set>
#include <string>

namespace cp::catalog::refresh {

// True when `program` is on PATH and credentials are configured: AWS_ACCESS_KEY_ID,
// AWS_PROFILE or AWS_WEB_IDENTITY_TOKEN_FILE in the environment, or ~/.aws/credentials or
// ~/.aws/config present (only their existence is checked; they are never read here).
bool aws_cli_configured(const std::string& program);

// Writes the JSON the CLI prints to `out`; throws FetchError
// (transfer/timeout/cancelled/too_large).
void run_spot_history(const std::string& program, const std::string& region,
                      const std::set<std::string>& types, const std::filesystem::path& out,
                      const std::atomic<bool>* cancel, long timeout_s);

} // namespace cp::catalog::refresh
