import ArgumentParser
import ObservationHarness

/// The whole `observatory` tool as a function: an executable calls ``main()`` and gets every
/// command (`run`, `compare`, `ab`, `history`, `table`, `conformance`, `baseline`).
public enum ObservatoryTool {
  /// Parses the process's arguments, runs the command they name and exits: status 0, 1 for a
  /// usage or input error, 2 for a regression found by `compare`, `ab` or `baseline check`.
  public static func main() -> Never {
    Observatory.main()
    Observatory.exit()
  }
}
