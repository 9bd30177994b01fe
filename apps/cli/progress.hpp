// Progress of a long run on standard error (docs/batches.md): rows done or simulated time reached,
// the rate and the time left, redrawn in place once the run has lasted a second, and a last line
// with the total time. ProgressMode::automatic shows it only when standard error is a terminal;
// on shows it anywhere (one line every 5 s on a file or pipe) and always writes the last line;
// off never. It writes to
// its own stream only, so standard output and -o files are never affected. update() is cheap
// enough for every row: it reads the clock once every `stride` calls.
#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <string>

namespace denoc {

enum class ProgressMode { automatic, on, off };

// True when standard error is a terminal (isatty).
bool standard_error_is_terminal();

class Progress {
 public:
  // `label` starts each line ("ridim"); `unit` names what update() counts: "rows" is shown as
  // "N of TOTAL rows", "s" (simulated time) as "t = X of TOTAL s". `total` <= 0: unknown.
  Progress(ProgressMode mode, std::ostream& out, bool terminal, std::string label, std::string unit,
           double total, long stride = 1);
  ~Progress();  // ends a line left open, so that a message printed next starts on its own
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // For an unknown total: the fraction done in [0, 1] (e.g. bytes read of a file), asked only
  // when a line is drawn.
  void set_fraction_source(std::function<double()> fraction) { fraction_ = std::move(fraction); }

  void update(double done) {
    if (!enabled_ || --countdown_ > 0) return;
    countdown_ = stride_;
    refresh(done, false);
  }

  // The last line (when anything was shown, or the mode is on), ended by a newline.
  void finish(double done);

  bool shown() const { return shown_; }

 private:
  void refresh(double done, bool final);
  void draw(double done, bool final);

  using Clock = std::chrono::steady_clock;
  bool enabled_, forced_, terminal_;
  std::ostream& out_;
  std::string label_, unit_;
  double total_;
  long stride_, countdown_;
  std::function<double()> fraction_;
  Clock::time_point start_, last_draw_;
  bool shown_ = false, line_open_ = false, finished_ = false;
};

}  // namespace denoc
