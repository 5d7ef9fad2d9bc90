import ObservationHarness
import ObservatoryCommandLine
import SlotArrayBackend

// The whole `observatory` tool over this package's backend, the built-in ones and the reference
// rows: `run`, `compare`, `history`, `table`, `conformance` and the rest. Cells run in fresh
// processes of this executable, so they find `slot-array` too.
ObservatoryTool.main(backends: [MeasuredBackend(SlotArrayBackend())], includingBuiltIns: true)
