#include "cli/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <ostream>

namespace denoc {

namespace {

constexpr double kQuietSeconds = 1.0;     // automatic mode: nothing for a run shorter than this
constexpr double kRedrawTerminal = 0.25;  // s between redraws on a terminal
constexpr double kRedrawLog = 5.0;        // s between lines when forced onto a file or pipe

std::string duration(double seconds, bool exact) {
  char text[32];
  if (exact && seconds < 60) {
    std::snprintf(text, sizeof text, "%.3g s", seconds);
  } else if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.0f s", std::ceil(seconds));
  } else if (seconds < 3600) {
    std::snprintf(text, sizeof text, "%.0f min %02.0f s", std::floor(seconds / 60),
                  std::fmod(std::floor(seconds), 60));
  } else {
    std::snprintf(text, sizeof text, "%.0f h %02.0f min", std::floor(seconds / 3600),
                  std::fmod(std::floor(seconds / 60), 60));
  }
  return text;
}

}  // namespace

bool standard_error_is_terminal() {
  return ::isatty(STDERR_FILENO) == 1;
}

Progress::Progress(ProgressMode mode, std::ostream& out, bool terminal, std::string label,
                   std::string unit, double total, long stride)
    : enabled_(mode == ProgressMode::on || (mode == ProgressMode::automatic && terminal)),
      forced_(mode == ProgressMode::on),
      terminal_(terminal),
      out_(out),
      label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      stride_(stride < 1 ? 1 : stride),
      countdown_(stride_),
      start_(Clock::now()),
      last_draw_(start_) {}

Progress::~Progress() {
  if (line_open_) out_ << '\n' << std::flush;
}

void Progress::refresh(double done, bool final) {
  const Clock::time_point now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (!final) {
    if (elapsed < kQuietSeconds) return;
    const double since = std::chrono::duration<double>(now - last_draw_).count();
    if (shown_ && since < (terminal_ ? kRedrawTerminal : kRedrawLog)) return;
  }
  last_draw_ = now;
  draw(done, final);
}

void Progress::draw(double done, bool final) {
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  double fraction = -1;
  if (total_ > 0) {
    fraction = done / total_;
  } else if (fraction_) {
    fraction = fraction_();
  }
  if (final) fraction = total_ > 0 || fraction_ ? 1 : -1;
  char text[256];
  int used;
  if (unit_ == "s") {
    used = std::snprintf(text, sizeof text, "%s: t = %.6g", label_.c_str(), done);
    if (total_ > 0) used += std::snprintf(text + used, sizeof text - used, " of %.6g", total_);
    used += std::snprintf(text + used, sizeof text - used, " s");
  } else {
    used = std::snprintf(text, sizeof text, "%s: %.0f", label_.c_str(), done);
    if (total_ > 0) used += std::snprintf(text + used, sizeof text - used, " of %.0f", total_);
    used += std::snprintf(text + used, sizeof text - used, " %s", unit_.c_str());
  }
  if (fraction >= 0 && !final) {
    used += std::snprintf(text + used, sizeof text - used, " (%.0f%%)",
                          std::floor(100 * std::min(fraction, 1.0)));
  }
  if (elapsed > 0) {
    const std::string per = unit_ == "s" ? "simulated s/s" : unit_ + "/s";
    const double rate = done / elapsed;
    used += std::snprintf(text + used, sizeof text - used, rate >= 100 ? ", %.0f %s" : ", %.3g %s",
                          rate, per.c_str());
  }
  std::string line = text;
  if (final) {
    line += ", in " + duration(elapsed, true);
  } else if (fraction > 0 && fraction < 1) {
    line += ", " + duration(elapsed * (1 - fraction) / fraction, false) + " left";
  }
  if (terminal_) {
    out_ << '\r' << line << "\033[K";
    line_open_ = !final;
    if (final) out_ << '\n';
  } else {
    out_ << line << '\n';
  }
  out_ << std::flush;
  shown_ = true;
}

void Progress::finish(double done) {
  if (!enabled_ || finished_) return;
  finished_ = true;
  if (shown_ || forced_) draw(done, true);
  line_open_ = false;
}

}  // namespace denoc
