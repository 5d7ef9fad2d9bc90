import ArgumentParser

/// `--quiet`, for the commands that report progress on standard error while they measure:
/// `run`, `ab` and `baseline`.
struct ProgressOptions: ParsableArguments {
  @Flag(
    name: .long, help: "No progress on standard error (run: its closing summary in one line).")
  var quiet = false
}
