#include "cli/run_main.hpp"

#include <iostream>

#include "cli/signals.hpp"
#include "cli/wording.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/output.hpp"

namespace denoc {

namespace {

int usage_error(const char* program, const char* message) {
  std::cerr << program << ": " << message << "\nRun '" << program << " --help' for usage.\n";
  return 2;
}

// The exit status of `body`, its failure reported on standard error; `refused` tells whether
// it threw a UsageError.
int run_body(const char* program, const std::function<void()>& body, bool& refused) {
  try {
    body();
  } catch (const UsageError& e) {
    refused = true;
    return usage_error(program, e.what());
  } catch (const Interrupted& e) {
    std::cerr << program << ": " << e.what() << '\n';
    return 128 + e.signal_number;
  } catch (const InputError& e) {
    // What was written before the failure goes out before the message says why it stopped.
    std::cout.flush();
    std::cerr << program << ": " << e.worded(command_line_words) << '\n';
    return 2;
  } catch (const RunError& e) {
    std::cout.flush();
    std::cerr << program << ": " << e.worded(command_line_words) << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << program << ": " << e.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace

int run_main(const char* program, CLI::App& app, int argc, char** argv,
             const std::function<void()>& body, const std::function<void()>& after) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(program, e.what());
  }
  install_stop_signal_handlers(program);
  bool refused = false;
  const int status = run_body(program, body, refused);
  if (refused) return status;
  std::cout.flush();
  if (after) after();
  return status;
}

}  // namespace denoc
